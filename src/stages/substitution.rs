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

use super::{
    Applied, Apply, Claim, Context, Declaration, PropertyReads, Scope, Sees, Stage, State,
    Tailoring,
};
use tailor_kio::{KrmResult, Resource};

pub struct Substitution {
    pub post_build: PostBuild,
    /// Where `substituteFrom` sources live (the functionConfig's `metadata.namespace`).
    pub namespace: Option<String>,
    /// The inline variables, built once for the objects substituted as they are read.
    inline_vars: std::sync::OnceLock<Vars>,
    /// The run's budget, which the substituted values spend.
    budget: tailor_go::Budget,
}

impl Substitution {
    pub fn new(post_build: PostBuild, namespace: Option<String>) -> Substitution {
        Substitution {
            post_build,
            namespace,
            inline_vars: std::sync::OnceLock::new(),
            budget: tailor_go::Budget::unlimited(),
        }
    }

    /// The substitution spending the run's `budget`.
    pub fn within(self, budget: tailor_go::Budget) -> Substitution {
        Substitution { budget, ..self }
    }
}

impl Stage<Tailoring> for Substitution {
    fn declares(&self) -> Declaration {
        // The destination's properties are variables.
        Declaration::new(STAGE, Scope::PerDestination)
            // The cluster's properties (they include `clusterName`).
            .sees(Sees::PROPERTIES)
    }

    /// The variables the objects it substitutes name (envsubst has no computed names); any
    /// property when an object's text cannot be read. Its errors do not name the destination.
    fn properties_read(&self, items: &[Resource]) -> PropertyReads {
        let substituted = items.iter().filter(|item| {
            !item.is_left_alone()
                && !is_disabled(item.label(SUBSTITUTE_KEY), item.annotation(SUBSTITUTE_KEY))
        });
        let mut names = std::collections::BTreeSet::new();
        for item in substituted {
            match tailor_flux::postbuild::variables_read(item.node()) {
                Some(read) => names.extend(read),
                None => return PropertyReads::ALL,
            }
        }
        PropertyReads::named(names)
    }

    /// A `substituteFrom` ConfigMap or Secret is cluster state the controller reads, not a
    /// manifest: it is consumed (looked up as it was read, before any stage changes it), not
    /// tailored or emitted. Among several items of one source's identity (a built object may
    /// share it), the one marked `config.kubernetes.io/local-config: "true"` is the source;
    /// the others stay manifests.
    fn claims(&self, item: &Resource) -> Claim {
        let source = self
            .post_build
            .substitute_from
            .iter()
            .any(|from| is_source(from, self.namespace.as_deref(), item));
        if source {
            Claim::Sole("a `substituteFrom` source")
        } else {
            Claim::No
        }
    }

    /// Outcomes kept from one destination to the next of a fan-out.
    fn fork(&self, _inputs: &[Resource], _results: &mut Vec<KrmResult>) -> State {
        Box::new(Memo::default())
    }

    /// With every variable written in the configuration (no `substituteFrom`), each object's
    /// outcome depends on that object alone; with no destination, no property adds to them.
    fn each(&self) -> Option<&dyn Apply<Tailoring>> {
        self.post_build
            .substitute_from
            .is_empty()
            .then_some(self as &dyn Apply<Tailoring>)
    }

    fn run(&self, items: &mut Vec<Resource>, ctx: &mut Context<'_>) {
        let (pb, namespace) = (&self.post_build, self.namespace.as_deref());
        run(pb, namespace, &self.budget, items, ctx);
    }
}

impl Apply<Tailoring> for Substitution {
    fn apply(&self, item: &mut Resource, _: &Tailoring) -> Option<Applied> {
        if !self.post_build.substitute_from.is_empty() || item.is_left_alone() {
            return None;
        }
        let pb = &self.post_build;
        let vars = self.inline_vars.get_or_init(|| {
            let mut vars = Vars::new();
            vars.set_inline(pb.substitute.iter().map(|(k, v)| (k.as_str(), v.as_str())));
            vars
        });
        let done = |results| {
            Some(Applied {
                results,
                done: true,
            })
        };
        if is_disabled(item.label(SUBSTITUTE_KEY), item.annotation(SUBSTITUTE_KEY))
            || !vars.should_run(pb.always)
        {
            return done(Vec::new());
        }
        let opts = Options {
            strict: pb.strict,
            budget: self.budget.clone(),
            ..Options::default()
        };
        match tailor_flux::postbuild::substitute_resource_outcome(item.node(), vars, &opts) {
            Ok(outcome) => {
                if let Some(change) = &outcome.change {
                    change.apply(item.node_mut());
                }
                done(Vec::new())
            }
            Err(e) => done(vec![substitution_error(item, &e)]),
        }
    }
}

/// The error of a resource the substitution failed on, in the controller's words.
fn substitution_error(item: &Resource, e: &impl std::fmt::Display) -> KrmResult {
    let (group, version) = split_api_version(item.api_version());
    let mut message = post_build_error(group, version, item.kind(), item.name(), e);
    if message.contains("variable not set (strict mode)") {
        // Flux's words, then the fix: strict is the default since kustomize-controller v1.9.0
        // (Flux 2.9); earlier versions substituted "" (docs/semantics/flux.md §2.3).
        message.push_str(
            "; give the variable a value or a default (${var:=default}), or set \
             spec.postBuild.strict: false to substitute \"\" as kustomize-controller did by default before v1.9.0",
        );
    }
    KrmResult::error(message).about(item)
}

/// The stage's name: the in-place check of a plan finds the stage by it
/// (`config::resubstitution`).
pub const STAGE: &str = "substitution";

/// Whether `item` has the identity of the `substituteFrom` entry `from` (in the
/// Kustomization's `namespace`, when it has one).
fn is_source(from: &SubstituteFrom, namespace: Option<&str>, item: &Resource) -> bool {
    item.kind() == from.kind
        && item.api_version() == "v1"
        && item.name() == from.name
        && match (namespace, item.namespace()) {
            (Some(want), Some(have)) => want == have,
            _ => true,
        }
}

/// The variables of a run, in Flux's order: the cluster's properties, the `substituteFrom`
/// sources, the inline ones; `None` when a source cannot be read (its error in the log).
fn variables(
    pb: &PostBuild,
    namespace: Option<&str>,
    items: &[Resource],
    ctx: &mut Context<'_>,
) -> Option<Vars> {
    let mut vars = Vars::new();
    if let Some(cluster) = ctx.cluster() {
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
        match source_data(from, namespace, ctx.inputs, items) {
            Ok(Some(data)) => vars.add_source(data),
            Ok(None) => {}
            Err(message) => {
                ctx.log.results.push(
                    KrmResult::error(message)
                        .at_field(format!("spec.postBuild.substituteFrom[{i}]")),
                );
                return None;
            }
        }
    }
    vars.set_inline(pb.substitute.iter().map(|(k, v)| (k.as_str(), v.as_str())));
    Some(vars)
}

fn run(
    pb: &PostBuild,
    namespace: Option<&str>,
    budget: &tailor_go::Budget,
    items: &mut [Resource],
    ctx: &mut Context<'_>,
) {
    // An object substituted as it was read is in the list (and passes on what it found then)
    // without a look at its labels: its tree is dropped.
    let substituted: Vec<usize> = (0..items.len())
        .filter(|&i| {
            let item = &items[i];
            ctx.log.ran_at_read(item)
                || (!item.is_left_alone()
                    && !is_disabled(item.label(SUBSTITUTE_KEY), item.annotation(SUBSTITUTE_KEY)))
        })
        .collect();
    // Flux reads the sources only when some resource is substituted.
    if substituted.is_empty() {
        return;
    }
    let Some(vars) = variables(pb, namespace, items, ctx) else {
        return;
    };
    if !vars.should_run(pb.always) {
        return;
    }
    let opts = Options {
        strict: pb.strict,
        budget: budget.clone(),
        ..Options::default()
    };
    // Kept for the next destination only when one follows on this worker.
    let more = ctx.destination.is_some_and(|d| d.more);
    let mut memo = ctx.state.downcast_mut::<Memo>();
    for position in substituted {
        let item = &mut items[position];
        if let Some(results) = ctx.log.take_read(item) {
            ctx.log.results.extend(results);
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
                let remember = more && !outcome.used_variables && memo.is_some();
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
            Err(e) => ctx.log.results.push(substitution_error(item, &e)),
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

/// The variables of one `substituteFrom` entry, read from the ConfigMap or Secret the run
/// took as its source (`inputs`). `Ok(None)`: optional and absent.
fn source_data(
    from: &SubstituteFrom,
    namespace: Option<&str>,
    inputs: &[Resource],
    items: &[Resource],
) -> Result<Option<Vec<(String, String)>>, String> {
    let plural = if from.kind == "Secret" {
        "secrets"
    } else {
        "configmaps"
    };
    let Some(source) = inputs.iter().find(|r| is_source(from, namespace, r)) else {
        let alike = items
            .iter()
            .filter(|r| is_source(from, namespace, r))
            .count();
        if alike > 1 {
            return Err(format!(
                "substitute from '{}/{}' error: {alike} items are {} {:?}; mark the one that is the cluster's (the source) with config.kubernetes.io/local-config: \"true\"",
                from.kind, from.name, from.kind, from.name
            ));
        }
        if from.optional {
            return Ok(None);
        }
        return Err(format!(
            "substitute from '{}/{}' error: {plural} \"{}\" not found",
            from.kind, from.name, from.name
        ));
    };
    let mut out: Vec<(String, String)> = Vec::new();
    let field = |key: &str| source.node().get(key).and_then(Node::pairs).unwrap_or(&[]);
    for pair in field("data") {
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
    if from.kind == "Secret" {
        // The API server folds a Secret's stringData into its data, stringData winning.
        for pair in field("stringData") {
            let (Some(key), Some(value)) = (pair.key.as_scalar(), pair.value.as_scalar()) else {
                continue;
            };
            match out.iter_mut().find(|(k, _)| k == key) {
                Some(slot) => slot.1 = value.to_string(),
                None => out.push((key.to_string(), value.to_string())),
            }
        }
    }
    Ok(Some(out))
}

/// The stage's example (kustomize keeps an `example_test.go` beside each filter): objects in,
/// the stage run on them, the objects written out.
#[cfg(test)]
mod example {
    use super::Substitution;
    use crate::stages::example::{run_stage, virgo, Setup};
    use serde_json::json;
    use tailor_flux::kustomization::read_post_build;

    #[test]
    fn substitution_fills_in_flux_post_build_variables() {
        let input = "\
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings # kept
data:
  env: ${cluster_env}
  region: ${region}
  tier: ${tier:=gold}
  price: $$5
";
        let post_build = read_post_build(
            &json!({"substitute": {"cluster_env": "prod"}}),
            "spec.postBuild",
        )
        .unwrap();
        let setup = Setup {
            // The destination's properties are variables too (the inline ones win).
            cluster: virgo(
                json!({}),
                json!({"region": "eu-west", "cluster_env": "dev"}),
            ),
            ..Setup::default()
        };
        let stage = Substitution::new(post_build, None);
        let (out, results) = run_stage(&stage, input, &setup);
        assert_eq!(
            out,
            "\
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings # kept
data:
  env: prod
  region: eu-west
  tier: gold
  price: $5
"
        );
        assert!(results.is_empty(), "{results:?}");
    }
}
