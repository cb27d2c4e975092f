//! Substitution stage: Flux kustomize-controller's `postBuild`, per resource, with the
//! controller's YAML round trip (`tailor-postbuild`) and envsubst dialect (`tailor-envsubst`).
//! Variables, lowest precedence first: the destination's properties, `substituteFrom` sources
//! in list order, inline `substitute`.

use tailor_envsubst::flux::{
    check_var_name, decode_secret_value, is_disabled, post_build_error, SUBSTITUTE_KEY,
};
use tailor_envsubst::{Options, Vars};
use tailor_yaml::Node;

use super::StageContext;
use crate::config::post_build::{PostBuild, SubstituteFrom};
use crate::krm::{KrmResult, Resource};

pub fn run(
    pb: &PostBuild,
    namespace: Option<&str>,
    items: &mut [Resource],
    ctx: &mut StageContext<'_>,
) {
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
    for item in items.iter_mut() {
        if item.is_meta_or_local()
            || is_disabled(item.label(SUBSTITUTE_KEY), item.annotation(SUBSTITUTE_KEY))
        {
            continue;
        }
        match tailor_postbuild::substitute_resource(item.node(), &vars, &opts) {
            Ok(Some(change)) => change.apply(item.node_mut()),
            Ok(None) => {}
            Err(e) => {
                let (group, version) = split_api_version(item.api_version());
                let message = post_build_error(group, version, item.kind(), item.name(), &e);
                ctx.results.push(KrmResult::error(message).about(item));
            }
        }
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
