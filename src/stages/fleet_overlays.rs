//! Fleet's yaml overlays stage: the `yaml.overlays` of the destination's customizations,
//! applied per bundle file with the patch type Fleet would choose. `tailor-fleet` plans; the
//! kustomize crate's patch engines patch.

use std::collections::HashMap;

use tailor_fleet::{apply_overlays, plan_overlays, BundleFile, PatchKind};
use tailor_kustomize::patch::{decode_ops, json6902, merge_patch, strategic_merge, Merged};
use tailor_yaml::Node;

use super::{Context, Reads, Scope, Stage};
use crate::krm::{annotations, KrmResult, Origin, Resource};

pub struct FleetOverlays {
    /// Whether the overlay names differ between destinations (target customizations set them).
    pub per_destination: bool,
}

impl Stage for FleetOverlays {
    fn name(&self) -> &'static str {
        "fleet overlays"
    }

    fn scope(&self) -> Scope {
        if self.per_destination {
            Scope::PerDestination
        } else {
            Scope::Shared
        }
    }

    fn reads(&self) -> Reads {
        Reads::Every
    }

    fn tailors(&self) -> bool {
        true
    }

    fn run(&self, items: &mut Vec<Resource>, ctx: &mut Context<'_>) {
        let names = &ctx.tailoring.yaml_overlays;
        yaml_overlays(names, ctx.overlay_files, items, ctx.results);
    }
}

/// Applies the named overlay sets. Items keep their identity where their file is untouched or
/// only patched; replaced files get new objects that keep the replaced file's place.
fn yaml_overlays(
    names: &[String],
    overlay_files: &[BundleFile],
    items: &mut Vec<Resource>,
    results: &mut Vec<KrmResult>,
) {
    if names.is_empty() {
        return;
    }
    unused_overlay_names(names, overlay_files, results);
    let mut order: Vec<String> = Vec::new();
    let mut by_path: HashMap<String, Vec<usize>> = HashMap::new();
    for (i, item) in items.iter().enumerate() {
        if item.is_left_alone() {
            continue;
        }
        if let Some(p) = item.path() {
            let p = tailor_go::path::clean(p);
            by_path
                .entry(p.clone())
                .or_insert_with(|| {
                    order.push(p);
                    Vec::new()
                })
                .push(i);
        }
    }
    let mut files: Vec<BundleFile> = order
        .iter()
        .map(|p| BundleFile {
            path: p.clone(),
            docs: by_path[p]
                .iter()
                .map(|&i| items[i].node().clone())
                .collect(),
        })
        .collect();
    let steps = match plan_overlays(&files, overlay_files, names) {
        Ok(s) => s,
        Err(e) => {
            results.push(KrmResult::error(format!("fleet overlay {e}")).at_field("yaml.overlays"));
            return;
        }
    };
    if steps.is_empty() {
        return;
    }
    let mut patcher = |kind: PatchKind, target: &mut Node, patch: &Node| -> Result<(), String> {
        match kind {
            PatchKind::Json6902 => {
                let ops = patch
                    .to_json()
                    .map_err(|e| e.to_string())
                    .and_then(|j| decode_ops(&j).map_err(|e| e.to_string()))?;
                json6902(target, &ops).map_err(|e| e.to_string())
            }
            PatchKind::Strategic => match strategic_merge(target, patch).map_err(|e| e.to_string())? {
                Merged::Kept => Ok(()),
                Merged::Deleted => Err("a strategic merge patch may not delete the whole object in a Fleet overlay; use an empty replacement file".into()),
            },
            PatchKind::MergePatch => {
                merge_patch(target, patch);
                Ok(())
            }
        }
    };
    if let Err(e) = apply_overlays(&mut files, &steps, &mut patcher) {
        results.push(KrmResult::error(format!("fleet overlay {e}")).at_field("yaml.overlays"));
        return;
    }
    rebuild(items, &order, &by_path, files);
}

/// A warning for each overlay name no file under `overlays/NAME/` has: Fleet passes over it
/// silently, and a misspelt name would leave the base unchanged.
fn unused_overlay_names(names: &[String], files: &[BundleFile], results: &mut Vec<KrmResult>) {
    let sets: std::collections::BTreeSet<&str> = files
        .iter()
        .filter_map(|f| f.path.strip_prefix("overlays/"))
        .filter_map(|rest| rest.split_once('/').map(|(set, _)| set))
        .collect();
    let sets: Vec<&str> = sets.into_iter().collect();
    for name in names.iter().filter(|n| !sets.contains(&n.as_str())) {
        let hint = match tailor_kube::json::suggest(name, &sets) {
            Some(near) => format!(" (did you mean {near:?}?)"),
            None if sets.is_empty() => " (there are no overlay files)".to_string(),
            None => format!(" (overlay sets: {})", sets.join(", ")),
        };
        results.push(
            KrmResult::warning(format!(
                "overlay {name:?}: no file under overlays/{name}/; it changes nothing{hint}"
            ))
            .at_field("yaml.overlays"),
        );
    }
}

/// Puts the overlaid files back in the item list, in the original order; files the overlays
/// added go last.
fn rebuild(
    items: &mut Vec<Resource>,
    order: &[String],
    by_path: &HashMap<String, Vec<usize>>,
    files: Vec<BundleFile>,
) {
    // The files are consumed once: patched/replaced ones by path, added ones in order.
    let mut result: HashMap<String, Vec<Node>> = HashMap::new();
    let mut added: Vec<BundleFile> = Vec::new();
    for f in files {
        if by_path.contains_key(&f.path) {
            result.insert(f.path, f.docs);
        } else {
            added.push(f);
        }
    }
    let originals = std::mem::take(items);
    let mut first_of: HashMap<usize, &String> = HashMap::new();
    for p in order {
        first_of.insert(by_path[p][0], p);
    }
    let in_file: std::collections::HashSet<usize> = by_path.values().flatten().copied().collect();
    for (i, item) in originals.iter().enumerate() {
        if !in_file.contains(&i) {
            items.push(item.clone());
            continue;
        }
        let Some(path) = first_of.get(&i) else {
            continue;
        };
        let docs = result.remove(*path).unwrap_or_default();
        let members = &by_path[*path];
        for (k, doc) in docs.into_iter().enumerate() {
            // Reuse the k-th original object of the file, so its origin (file, index) stays.
            let template = &originals[members[k.min(members.len() - 1)]];
            let mut res = template.clone();
            if doc != *res.node() {
                *res.node_mut() = doc;
            }
            items.push(res);
        }
    }
    for file in added {
        for doc in file.docs {
            let mut res = Resource::new(doc, Origin::None);
            res.set_annotation(annotations::PATH, &file.path);
            res.set_annotation(annotations::LEGACY_PATH, &file.path);
            items.push(res);
        }
    }
}
