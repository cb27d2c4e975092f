//! Fleet's yaml overlays stage: the `yaml.overlays` of the destination's customizations,
//! applied per bundle file with the patch type Fleet would choose. `tailor-fleet` plans;
//! strategic merge is apimachinery's (`tailor_kube::strategicpatch`, what wrangler's
//! `patch.Apply` calls), JSON6902 and JSON merge patch the kustomize crate's engines.

use crate::stages::Tailoring;
use std::collections::HashMap;

use tailor_fleet::{apply_overlays, plan_overlays, reread_as_raw_yaml, BundleFile, PatchKind};
use tailor_kube::schema::Schema;
use tailor_kube::strategicpatch::strategic_merge_patch;
use tailor_kustomize::patch::{decode_ops, json6902, merge_patch};
use tailor_yaml::Node;

use super::{Claim, Context, Declaration, Scope, Sees, Stage, State};
use tailor_kio::orchestrator::Kept;
use tailor_kio::{KrmResult, Origin, Resource};

pub struct FleetOverlays {
    /// Whether the overlay names differ between destinations (target customizations set them).
    pub per_destination: bool,
    /// The overlay files written in the functionConfig (`spec.overlays`) or read from a
    /// bundle directory; those that arrive as items under `overlays/` follow them.
    pub files: Vec<BundleFile>,
}

impl Stage<Tailoring> for FleetOverlays {
    fn declares(&self) -> Declaration {
        Declaration::new("fleet overlays", Scope::of_options(self.per_destination))
            // Only the options decide what it does.
            .sees(Sees::NOTHING)
            .rules("a Fleet overlay (yaml.overlays)")
    }

    /// Items under `overlays/<name>/` are overlay files, not objects.
    fn claims(&self, item: &Resource) -> Claim {
        if item.path().is_some_and(tailor_fleet::is_under_overlays) {
            Claim::Input("a Fleet overlay file")
        } else {
            Claim::No
        }
    }

    /// The overlay files: the configuration's, then those that arrived as items.
    fn fork(&self, inputs: &[Resource], _results: &mut Vec<KrmResult>) -> State {
        let mut files = self.files.clone();
        for item in inputs {
            add_overlay_file(&mut files, item.clone());
        }
        Box::new(files)
    }

    fn run(&self, items: &mut Vec<Resource>, ctx: &mut Context<'_>) {
        let names = &ctx.options.yaml_overlays;
        let files = ctx
            .state
            .downcast_ref::<Vec<BundleFile>>()
            .map_or(&[][..], Vec::as_slice);
        let applied = yaml_overlays(names, files, items, ctx.log.results);
        for step in applied {
            let what = match step.op {
                tailor_fleet::OverlayOp::Replace(_) => "replaces",
                tailor_fleet::OverlayOp::Remove => "removes",
                tailor_fleet::OverlayOp::Patch { .. } => "patches",
            };
            ctx.note_rule(
                format!("yaml.overlays {:?}", step.overlay),
                format!("{} {what} {}", step.source, step.target),
            );
        }
    }
}

/// Items under `overlays/<name>/` become the documents of their overlay file, without the
/// host's bookkeeping (their path is the overlay's, not the patched object's).
fn add_overlay_file(files: &mut Vec<BundleFile>, item: Resource) {
    let path = tailor_go::path::clean(item.path().unwrap_or_default());
    let mut node = item.into_node();
    tailor_kio::orchestrator::drop_bookkeeping(&mut node);
    match files.iter_mut().find(|f| f.path == path) {
        Some(f) => f.docs.push(node),
        None => files.push(BundleFile {
            path,
            docs: vec![node],
        }),
    }
}

/// Applies the named overlay sets, returning the steps it took. Items keep their identity
/// where their file is untouched or only patched; replaced files get new objects that keep the
/// replaced file's place.
fn yaml_overlays(
    names: &[String],
    overlay_files: &[BundleFile],
    items: &mut Vec<Resource>,
    results: &mut Vec<KrmResult>,
) -> Vec<tailor_fleet::OverlayStep> {
    if names.is_empty() {
        return Vec::new();
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
            return Vec::new();
        }
    };
    if steps.is_empty() {
        return steps;
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
            PatchKind::Strategic => {
                let schema = Schema::for_resource(
                    target.get_str("apiVersion").unwrap_or(""),
                    target.get_str("kind").unwrap_or(""),
                );
                strategic_merge_patch(target, patch, schema)
            }
            PatchKind::MergePatch => {
                merge_patch(target, patch);
                Ok(())
            }
        }
    };
    if let Err(e) = apply_overlays(&mut files, &steps, &mut patcher) {
        results.push(KrmResult::error(format!("fleet overlay {e}")).at_field("yaml.overlays"));
        return Vec::new();
    }
    for note in reread_as_raw_yaml(&mut files, &steps) {
        results.push(KrmResult::warning(note).at_field("yaml.overlays"));
    }
    rebuild(items, &order, &by_path, files);
    steps
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
                let mut doc = doc;
                Kept::of(res.node()).restore(&mut doc);
                *res.node_mut() = doc;
            }
            items.push(res);
        }
    }
    for file in added {
        for doc in file.docs {
            let mut res = Resource::new(doc, Origin::None);
            res.place_in(&file.path);
            items.push(res);
        }
    }
}

/// The stage's example (kustomize keeps an `example_test.go` beside each filter): objects in,
/// the stage run on them, the objects written out.
#[cfg(test)]
mod example {
    use super::FleetOverlays;
    use crate::stages::example::{run_stage, Setup};
    use crate::stages::Tailoring;
    use tailor_fleet::BundleFile;

    #[test]
    fn fleet_overlays_patch_the_bundle_files_the_destination_names() {
        let input = "\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  annotations:
    config.kubernetes.io/path: deployment.yaml
spec:
  replicas: 1
";
        let patch = tailor_yaml::parse_stream("spec:\n  replicas: 3\n").unwrap();
        let setup = Setup {
            tailoring: Tailoring {
                yaml_overlays: vec!["prod".into()],
                ..Tailoring::default()
            },
            ..Setup::default()
        };
        let stage = FleetOverlays {
            per_destination: false,
            files: vec![BundleFile {
                path: "overlays/prod/deployment_patch.yaml".into(),
                docs: patch.into_iter().map(|d| d.root).collect(),
            }],
        };
        let (out, results) = run_stage(&stage, input, &setup);
        assert_eq!(
            out,
            "\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  annotations:
    config.kubernetes.io/path: deployment.yaml
spec:
  replicas: 3
"
        );
        assert!(results.is_empty(), "{results:?}");
    }
}
