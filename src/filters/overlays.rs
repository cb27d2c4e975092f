//! Flux overlay fields, in kustomize's order: patches → namespace → prefix/suffix (and the name
//! references they break) → images → commonMetadata. `tailor-patch` and `tailor-kbuiltins` do
//! the work over copies; only changed objects are written back.

use serde_json::Value as Json;
use tailor_fleet::FluxOverlay;
use tailor_kustomize::builtins::{
    add_prefix_suffix_tracked, set_common_metadata, set_images, set_namespace_tracked, Image,
    NameTracker,
};
use tailor_kustomize::patch::{apply_patches, PatchSpec, PatchTarget, ResId};
use tailor_yaml::Node;

use super::nodes::Work;
use super::StageContext;
use crate::krm::{KrmResult, Resource};

pub fn run(flux: &FluxOverlay, items: &mut Vec<Resource>, ctx: &mut StageContext<'_>) {
    // Replacements travel with the overlay fields but run as their own stage; without any
    // other field there is nothing to do here (and no tree needs copying).
    let nothing_to_do = flux.target_namespace.is_none()
        && flux.name_prefix.is_none()
        && flux.name_suffix.is_none()
        && flux.common_metadata.is_none()
        && flux.patches.is_empty()
        && flux.images.is_empty();
    if nothing_to_do {
        return;
    }
    let specs = if flux.patches.is_empty() {
        Vec::new()
    } else {
        match parse_patches(&flux.patches, "spec.patches") {
            Ok(specs) => specs,
            Err((field, e)) => {
                ctx.results.push(KrmResult::error(e).at_field(field));
                return;
            }
        }
    };
    let images = match Image::list_from_node(
        Some(&Node::sequence(
            flux.images.iter().map(tailor_yaml::from_json).collect(),
        )),
        "spec.images",
    ) {
        Ok(i) => i,
        Err(e) => {
            let field = e.field().unwrap_or("spec.images").to_string();
            ctx.results
                .push(KrmResult::error(e.to_string()).at_field(field));
            return;
        }
    };
    let (labels, annotations) = match common_metadata(flux.common_metadata.as_ref()) {
        Ok(m) => m,
        Err((field, e)) => {
            ctx.results.push(KrmResult::error(e).at_field(field));
            return;
        }
    };
    let namespace = flux.target_namespace.as_deref().unwrap_or("");
    let prefix = flux.name_prefix.as_deref().unwrap_or("");
    let suffix = flux.name_suffix.as_deref().unwrap_or("");
    let mut work = Work::of(items);
    let removed = match patches(&specs, &mut work) {
        Ok(removed) => removed,
        Err(e) => {
            work.write_back(items);
            ctx.results
                .push(KrmResult::error(e).at_field("spec.patches"));
            return;
        }
    };
    let mut tracker = NameTracker::new(work.nodes.len());
    let steps: [(&str, &Step); 5] = [
        ("spec.targetNamespace", &|n, t| {
            set_namespace_tracked(n, namespace, t).map_err(|e| e.to_string())
        }),
        ("spec.namePrefix", &|n, t| {
            add_prefix_suffix_tracked(n, prefix, suffix, t).map_err(|e| e.to_string())
        }),
        ("spec.targetNamespace", &|n, t| {
            t.fix_name_references(n).map_err(|e| e.to_string())
        }),
        ("spec.images", &|n, _| {
            set_images(n, &images).map_err(|e| e.to_string())
        }),
        ("spec.commonMetadata", &|n, _| {
            set_common_metadata(n, &labels, &annotations).map_err(|e| e.to_string())
        }),
    ];
    let mut failed = None;
    for (field, step) in steps {
        if let Err(e) = step(&mut work.nodes, &mut tracker) {
            failed = Some(KrmResult::error(e).at_field(field));
            break;
        }
    }
    work.write_back(items);
    if let Some(error) = failed {
        ctx.results.push(error);
        return;
    }
    if !removed.is_empty() {
        let mut i = 0;
        items.retain(|_| {
            let keep = removed.binary_search(&i).is_err();
            i += 1;
            keep
        });
    }
}

/// Reads `[{patch, target}]` entries written at `path` (`spec.patches`); an error is the
/// offending field and its message.
pub(crate) fn parse_patches(list: &[Json], path: &str) -> Result<Vec<PatchSpec>, (String, String)> {
    let mut specs = Vec::new();
    for (i, entry) in list.iter().enumerate() {
        let at = format!("{path}[{i}]");
        let map = entry.as_object().ok_or_else(|| {
            (
                at.clone(),
                format!("{at} must be a mapping {{patch, target}}"),
            )
        })?;
        for key in map.keys() {
            if key != "patch" && key != "target" {
                return Err((
                    format!("{at}.{key}"),
                    format!("unknown field {key:?} in {at}; accepted fields: patch, target"),
                ));
            }
        }
        let text = match map.get("patch") {
            Some(Json::String(s)) => s.clone(),
            Some(other) if !other.is_null() => {
                // A patch written as YAML instead of a string is accepted as that YAML.
                serde_json::to_string(other).unwrap_or_default()
            }
            _ => return Err((format!("{at}.patch"), format!("{at}.patch is required"))),
        };
        let target = match map.get("target") {
            None | Some(Json::Null) => None,
            Some(t) => Some(
                PatchTarget::from_node(&tailor_yaml::from_json(t))
                    .map_err(|e| (format!("{at}.target"), format!("{at}.target: {e}")))?,
            ),
        };
        specs.push(
            PatchSpec::from_text(&text, target)
                .map_err(|e| (format!("{at}.patch"), format!("{at}.patch: {e}")))?,
        );
    }
    Ok(specs)
}

/// Applies the patches one entry at a time, so objects a `$patch: delete` removes are known by
/// position and every other object keeps its identity. Returns the positions (in `items`) of
/// the removed objects, sorted; they are gone from `work`.
fn patches(specs: &[PatchSpec], work: &mut Work) -> Result<Vec<usize>, String> {
    let mut removed: Vec<usize> = Vec::new();
    for spec in specs {
        let before: Vec<ResId> = work.nodes.iter().map(ResId::of).collect();
        let report = apply_patches(&mut work.nodes, std::slice::from_ref(spec))
            .map_err(|e| e.to_string())?;
        if report.deleted.is_empty() {
            continue;
        }
        let mut deleted = report.deleted.clone();
        let mut gone = vec![false; before.len()];
        for (k, id) in before.iter().enumerate() {
            if let Some(d) = deleted.iter().position(|x| x == id) {
                deleted.remove(d);
                removed.push(work.positions[k]);
                gone[k] = true;
            }
        }
        work.forget_entries(|k| gone[k]);
    }
    if work.positions.len() != work.nodes.len() {
        return Err("internal: patched objects could not be matched to their inputs".into());
    }
    removed.sort_unstable();
    Ok(removed)
}

type Pairs = Vec<(String, String)>;

/// One transformer over the copies, with the renaming history it may add to or use.
type Step<'a> = dyn Fn(&mut Vec<Node>, &mut NameTracker) -> Result<(), String> + 'a;

fn common_metadata(
    m: Option<&serde_json::Map<String, Json>>,
) -> Result<(Pairs, Pairs), (String, String)> {
    let Some(m) = m else {
        return Ok((Vec::new(), Vec::new()));
    };
    let mut out = (Vec::new(), Vec::new());
    for (key, value) in m {
        let at = format!("spec.commonMetadata.{key}");
        let slot = match key.as_str() {
            "labels" => &mut out.0,
            "annotations" => &mut out.1,
            _ => {
                return Err((
                    at.clone(),
                    format!("unknown field {key:?} in spec.commonMetadata; accepted fields: labels, annotations"),
                ))
            }
        };
        match value {
            Json::Null => {}
            Json::Object(entries) => {
                for (k, v) in entries {
                    match v {
                        Json::String(s) => slot.push((k.clone(), s.clone())),
                        other => {
                            return Err((
                                format!("{at}.{k}"),
                                format!("{at}.{k} must be a string, found {other}"),
                            ))
                        }
                    }
                }
            }
            other => {
                return Err((
                    at.clone(),
                    format!("{at} must be a map of strings, found {other}"),
                ))
            }
        }
    }
    Ok(out)
}
