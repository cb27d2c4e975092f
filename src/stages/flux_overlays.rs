//! Flux overlay fields the kustomize build applies, in kustomize's order: patches → namespace →
//! prefix/suffix (and the name references they break) → images, repeated names folded as Flux's
//! generator folds them (`commonMetadata` is Flux's own, applied after substitution:
//! `common_metadata`). The kustomize crate does the work over copies; only changed objects are
//! written back.

use crate::stages::Tailoring;
use tailor_kustomize::builtins::{
    add_prefix_suffix_tracked, set_images, set_namespace_tracked, NameTracker,
};
use tailor_kustomize::patch::{apply_patches, PatchSpec, ResId};
use tailor_yaml::Node;

use super::explain::objects;
use super::nodes::Work;
use super::{unmatched, Context, Declaration, Scope, Sees, Stage};
use tailor_kio::{KrmResult, Resource};

pub struct FluxOverlays {
    /// Whether the fields differ between destinations (target customizations set them).
    pub per_destination: bool,
}

impl Stage<Tailoring> for FluxOverlays {
    fn declares(&self) -> Declaration {
        Declaration::new(
            "flux overlay fields",
            Scope::of_options(self.per_destination),
        )
        // Only the options decide what it does.
        .sees(Sees::NOTHING)
        .rules("spec.patches")
    }

    fn run(&self, items: &mut Vec<Resource>, ctx: &mut Context<'_>) {
        let flux = &ctx.options.extra.overlay();
        // Replacements and commonMetadata travel with these fields but run as their own
        // stages; without any other field there is nothing to do here (and no tree to copy).
        if !flux.builds_objects() {
            return;
        }
        let specs = &flux.patches;
        let images = &flux.kustomize_images();
        let namespace = flux.target_namespace.as_deref().unwrap_or("");
        let prefix = flux.name_prefix.as_deref().unwrap_or("");
        let suffix = flux.name_suffix.as_deref().unwrap_or("");
        let mut work = Work::of(items);
        let removed = match patches(specs, &mut work, ctx) {
            Ok(removed) => removed,
            Err((field, e)) => {
                work.write_back(items);
                ctx.log.results.push(KrmResult::error(e).at_field(field));
                return;
            }
        };
        let mut tracker = NameTracker::new(work.nodes.len());
        let steps: [(&str, &Step); 4] = [
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
                set_images(n, images).map_err(|e| e.to_string())
            }),
        ];
        let mut failed = None;
        for (field, step) in steps {
            if let Err(e) = step(&mut work.nodes, &mut tracker) {
                failed = Some(KrmResult::error(e).at_field(field));
                break;
            }
        }
        keep_earlier_ids(&work, &tracker, items);
        work.write_back(items);
        if let Some(error) = failed {
            ctx.log.results.push(error);
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
}

/// Hands each renamed or moved object's earlier ids to the stages after this one (replacements
/// select by them, as kustomize's do by its `previousNames` build annotations), beside the
/// object rather than in it, so they never reach the output.
fn keep_earlier_ids(work: &Work, tracker: &NameTracker, items: &mut [Resource]) {
    for (k, (&at, node)) in work.positions.iter().zip(&work.nodes).enumerate() {
        let new = tracker.earlier_ids(k, node);
        if !new.is_empty() {
            let mut ids = items[at].earlier_ids().to_vec();
            ids.extend(new);
            items[at].set_earlier_ids(ids);
        }
    }
}

/// Applies the patches one entry at a time, so objects a `$patch: delete` removes are known by
/// position and every other object keeps its identity. Returns the positions (in `items`) of
/// the removed objects, sorted; they are gone from `work`.
/// A patch whose target selects nothing gets a warning.
fn patches(
    specs: &[PatchSpec],
    work: &mut Work,
    ctx: &mut Context<'_>,
) -> Result<Vec<usize>, (String, String)> {
    let mut removed: Vec<usize> = Vec::new();
    for (i, spec) in specs.iter().enumerate() {
        let field = format!("spec.patches[{i}]");
        let before: Vec<ResId> = work.nodes.iter().map(ResId::of).collect();
        let report = apply_patches(&mut work.nodes, std::slice::from_ref(spec))
            .map_err(|e| (field.clone(), e.to_string()))?;
        if let Some(&n) = report.applied.first().filter(|&&n| n > 0) {
            ctx.note_rule(&field, format!("applied to {}", objects(n)));
        }
        if let (false, Some(t)) = (report.unmatched.is_empty(), &spec.target) {
            let selector = unmatched::selector_text(&[
                ("group", &t.group),
                ("version", &t.version),
                ("kind", &t.kind),
                ("name", &t.name),
                ("namespace", &t.namespace),
                ("labelSelector", &t.label_selector),
                ("annotationSelector", &t.annotation_selector),
            ]);
            let hint = unmatched::near_miss(
                &t.kind,
                &t.name,
                work.nodes.iter().map(|n| {
                    (
                        tailor_kube::resid::scalar_field(n, "kind"),
                        tailor_kube::resid::meta_field(n, "name"),
                    )
                }),
            );
            ctx.log.results.push(
                KrmResult::warning(format!(
                    "patch target {selector} selects no object; nothing patched{hint}"
                ))
                .at_field(format!("{field}.target")),
            );
        }
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
        return Err((
            "spec.patches".into(),
            "internal: patched objects could not be matched to their inputs".into(),
        ));
    }
    removed.sort_unstable();
    Ok(removed)
}

/// One transformer over the copies, with the renaming history it may add to or use.
type Step<'a> = dyn Fn(&mut Vec<Node>, &mut NameTracker) -> Result<(), String> + 'a;

/// The stage's example (kustomize keeps an `example_test.go` beside each filter): objects in,
/// the stage run on them, the objects written out.
#[cfg(test)]
mod example {
    use super::FluxOverlays;
    use crate::stages::example::{run_stage, tailoring, Setup};
    use serde_json::json;

    #[test]
    fn flux_overlay_fields_rename_relabel_and_retag() {
        let input = "\
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
data:
  mode: fast
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  template:
    spec:
      containers:
      - name: app
        image: nginx:1.25
        envFrom:
        - configMapRef:
            name: settings
";
        let setup = Setup {
            tailoring: tailoring(json!({
                "targetNamespace": "shop",
                "namePrefix": "prod-",
                "images": [{"name": "nginx", "newTag": "1.27"}],
            })),
            ..Setup::default()
        };
        let stage = FluxOverlays {
            per_destination: false,
        };
        let (out, results) = run_stage(&stage, input, &setup);
        // The ConfigMap is renamed, and the Deployment's reference to it follows.
        assert_eq!(
            out,
            "\
apiVersion: v1
kind: ConfigMap
metadata:
  name: prod-settings
  namespace: shop
data:
  mode: fast
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: prod-web
  namespace: shop
spec:
  template:
    spec:
      containers:
      - name: app
        image: nginx:1.27
        envFrom:
        - configMapRef:
            name: prod-settings
"
        );
        assert!(results.is_empty(), "{results:?}");
    }
}
