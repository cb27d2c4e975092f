//! Substitution stage: Flux kustomize-controller's `postBuild`, per resource, with the
//! controller's YAML round trip and envsubst dialect (the Flux crate does the work).
//! Variables, lowest precedence first: the destination's properties, `substituteFrom` sources
//! in list order, inline `substitute`.

use tailor_flux::envsubst::flux::{
    check_var_name, decode_secret_value, is_disabled, post_build_error, SUBSTITUTE_KEY,
};
use tailor_flux::envsubst::{Options, Vars};
use tailor_flux::postbuild::Change;
use tailor_yaml::Node;

use tailor_flux::kustomization::{PostBuild, SubstituteFrom};

use super::{Context, Reads, Scope, Stage};
use crate::krm::{KrmResult, Resource};

pub struct Substitution {
    pub post_build: PostBuild,
    /// Where `substituteFrom` sources live (the functionConfig's `metadata.namespace`).
    pub namespace: Option<String>,
}

impl Stage for Substitution {
    fn name(&self) -> &'static str {
        "substitution"
    }

    /// The destination's properties are variables.
    fn scope(&self) -> Scope {
        Scope::PerDestination
    }

    fn reads(&self) -> Reads {
        Reads::Every
    }

    fn run(&self, items: &mut Vec<Resource>, ctx: &mut Context<'_>) {
        run(&self.post_build, self.namespace.as_deref(), items, ctx);
    }
}

fn run(pb: &PostBuild, namespace: Option<&str>, items: &mut [Resource], ctx: &mut Context<'_>) {
    let mut vars = Vars::new();
    if let Some(cluster) = ctx.cluster {
        // Properties are ambient, not declared by the user: ones Flux could never reference
        // (non-ASCII identifiers) are left out instead of failing every resource.
        vars.add_source(
            cluster
                .properties
                .iter()
                .filter(|(k, _)| check_var_name(k).is_ok()),
        );
    }
    for (i, from) in pb.substitute_from.iter().enumerate() {
        match source_data(from, namespace, items) {
            Ok(Some(data)) => vars.add_source(data),
            Ok(None) => {}
            Err(message) => {
                ctx.results.push(
                    KrmResult::error(message)
                        .at_field(format!("spec.postBuild.substituteFrom[{i}]")),
                );
                return;
            }
        }
    }
    vars.set_inline(pb.substitute.iter().map(|(k, v)| (k.as_str(), v.as_str())));
    if !vars.should_run(pb.always) {
        return;
    }
    let opts = Options {
        strict: pb.strict,
        ..Options::default()
    };
    let mut memo = ctx.memo.as_deref_mut();
    for (position, item) in items.iter_mut().enumerate() {
        if item.is_meta_or_local()
            || is_disabled(item.label(SUBSTITUTE_KEY), item.annotation(SUBSTITUTE_KEY))
        {
            continue;
        }
        if let Some(reused) = memo.as_deref().and_then(|m| m.get(position, item.node())) {
            if let Some(change) = reused {
                change.apply(item.node_mut());
            }
            continue;
        }
        match tailor_flux::postbuild::substitute_resource_outcome(item.node(), &vars, &opts) {
            Ok(outcome) => {
                let remember =
                    !outcome.used_variables && memo.as_ref().is_some_and(|m| !m.last_destination);
                let tree = memo
                    .as_ref()
                    .filter(|_| remember)
                    .map(|_| item.node().clone());
                if let Some(change) = &outcome.change {
                    change.apply(item.node_mut());
                }
                if let (Some(m), Some(tree)) = (memo.as_deref_mut(), tree) {
                    m.put(position, tree, outcome.change);
                }
            }
            Err(e) => {
                let (group, version) = split_api_version(item.api_version());
                let message = post_build_error(group, version, item.kind(), item.name(), &e);
                ctx.results.push(KrmResult::error(message).about(item));
            }
        }
    }
}

/// Substitution outcomes kept across the destinations of a fan-out. A resource whose printed
/// text has no `$` comes out of Flux's round trip the same whatever the variables, so the
/// next destination that hands over the very same tree at the same position reuses it
/// instead of printing, substituting and re-reading it again.
#[derive(Default)]
pub struct Memo {
    by_position: Vec<Option<(Node, Option<Change>)>>,
    /// Set for the last destination: nothing is kept for a next one.
    pub last_destination: bool,
}

impl Memo {
    fn get(&self, position: usize, tree: &Node) -> Option<Option<&Change>> {
        match self.by_position.get(position) {
            Some(Some((seen, change))) if seen == tree => Some(change.as_ref()),
            _ => None,
        }
    }

    fn put(&mut self, position: usize, tree: Node, change: Option<Change>) {
        if self.by_position.len() <= position {
            self.by_position.resize_with(position + 1, || None);
        }
        self.by_position[position] = Some((tree, change));
    }
}

fn split_api_version(api_version: &str) -> (&str, &str) {
    match api_version.rsplit_once('/') {
        Some((g, v)) => (g, v),
        None => ("", api_version),
    }
}

/// The variables of one `substituteFrom` entry, read from the ConfigMap or Secret of that name
/// among the items (in the functionConfig's namespace when it has one). `Ok(None)`: optional
/// and absent.
fn source_data(
    from: &SubstituteFrom,
    namespace: Option<&str>,
    items: &[Resource],
) -> Result<Option<Vec<(String, String)>>, String> {
    let candidates: Vec<&Resource> = items
        .iter()
        .filter(|r| r.kind() == from.kind && r.api_version() == "v1" && r.name() == from.name)
        .filter(|r| match (namespace, r.namespace()) {
            (Some(want), Some(have)) => want == have,
            _ => true,
        })
        .collect();
    let plural = if from.kind == "Secret" {
        "secrets"
    } else {
        "configmaps"
    };
    let source = match candidates.as_slice() {
        [] if from.optional => return Ok(None),
        [] => {
            return Err(format!(
                "substitute from '{}/{}' error: {plural} \"{}\" not found",
                from.kind, from.name, from.name
            ))
        }
        [one] => *one,
        many => {
            return Err(format!(
                "substitute from '{}/{}' error: {} objects of that name in different namespaces ({}); give the functionConfig a metadata.namespace to choose",
                from.kind,
                from.name,
                many.len(),
                many.iter().map(|r| r.namespace().unwrap_or("")).collect::<Vec<_>>().join(", ")
            ))
        }
    };
    let mut out = Vec::new();
    if let Some(pairs) = source.node().get("data").and_then(Node::pairs) {
        for pair in pairs {
            let (Some(key), Some(value)) = (pair.key.as_scalar(), pair.value.as_scalar()) else {
                continue;
            };
            let value = if from.kind == "Secret" {
                decode_secret_value(value).map_err(|e| {
                    format!(
                        "substitute from 'Secret/{}' error: data.{key}: {e}",
                        from.name
                    )
                })?
            } else {
                value.to_string()
            };
            out.push((key.to_string(), value));
        }
    }
    Ok(Some(out))
}
