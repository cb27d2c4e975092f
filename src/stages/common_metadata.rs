//! Flux's `commonMetadata`: labels and annotations set on every object. The controller applies
//! them in `apply()`, after the build and after substitution, so a `${var}` in them stays as
//! written and a `substitute: disabled` set through them does not switch substitution off.

use tailor_kustomize::builtins::set_common_metadata;

use super::nodes::Work;
use super::{Applied, Apply, Context, Declaration, Scope, Sees, Stage, Tailoring};
use tailor_kio::{KrmResult, Resource};

pub struct CommonMetadata {
    /// Whether the metadata differs between destinations (target customizations set it).
    pub per_destination: bool,
}

impl Stage<Tailoring> for CommonMetadata {
    fn declares(&self) -> Declaration {
        Declaration::new("common metadata", Scope::of_options(self.per_destination))
            // Only the options decide what it does.
            .sees(Sees::NOTHING)
    }

    /// Each object gets the same labels and annotations whatever the others are.
    fn each(&self) -> Option<&dyn Apply<Tailoring>> {
        (!self.per_destination).then_some(self as &dyn Apply<Tailoring>)
    }

    /// Object by object, in order: the first object the metadata cannot be set on ends the
    /// stage with its error, as kustomize's transformer stops there (the run fails, so what
    /// it did to the others is not written). Objects it ran on as they were read pass on
    /// what it found then.
    fn run(&self, items: &mut Vec<Resource>, ctx: &mut Context<'_>) {
        for item in items.iter_mut().filter(|i| !i.is_left_alone()) {
            let error = match ctx.log.take_read(item) {
                Some(results) => results.into_iter().next(),
                None => set_on(item, ctx.options),
            };
            if let Some(error) = error {
                ctx.log.results.push(error);
                return;
            }
        }
    }
}

impl Apply<Tailoring> for CommonMetadata {
    fn apply(&self, item: &mut Resource, options: &Tailoring) -> Option<Applied> {
        if item.is_left_alone() {
            return None;
        }
        Some(Applied {
            results: set_on(item, options).into_iter().collect(),
            done: true,
        })
    }
}

/// Sets the configured metadata on one object; the error when it cannot.
fn set_on(item: &mut Resource, tailoring: &Tailoring) -> Option<KrmResult> {
    let m = tailoring.extra.overlay().common_metadata.as_ref()?;
    if m.is_empty() {
        return None;
    }
    let one = std::slice::from_mut(item);
    let mut work = Work::of(one);
    let outcome = set_common_metadata(&mut work.nodes, &m.labels, &m.annotations);
    work.write_back(one);
    outcome
        .err()
        .map(|e| KrmResult::error(e.to_string()).at_field("spec.commonMetadata"))
}

/// The stage's example (kustomize keeps an `example_test.go` beside each filter): objects in,
/// the stage run on them, the objects written out.
#[cfg(test)]
mod example {
    use super::CommonMetadata;
    use crate::stages::example::{run_stage, tailoring, Setup};
    use serde_json::json;

    #[test]
    fn common_metadata_labels_objects_not_their_templates() {
        let input = "\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  template:
    metadata:
      labels:
        app: web
";
        let setup = Setup {
            tailoring: tailoring(json!({
                "commonMetadata": {"labels": {"team": "web"}, "annotations": {"owner": "platform"}},
            })),
            ..Setup::default()
        };
        let stage = CommonMetadata {
            per_destination: false,
        };
        let (out, results) = run_stage(&stage, input, &setup);
        // Unlike kustomize's commonLabels, Flux's commonMetadata labels the object itself only.
        assert_eq!(
            out,
            "\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels:
    team: web
  annotations:
    owner: platform
spec:
  template:
    metadata:
      labels:
        app: web
"
        );
        assert!(results.is_empty(), "{results:?}");
    }
}
