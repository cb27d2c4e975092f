//! Scheduling stage: Kratix destination selectors decide, object by object, whether it goes to
//! the destination at all (`tailor-kratix` holds the rules).

use crate::stages::Tailoring;
use tailor_kratix::KratixSchedule;

use super::{Context, Declaration, Scope, Sees, Stage};
use tailor_kio::{KrmResult, Resource};

pub struct Schedule {
    pub selectors: KratixSchedule,
    /// `spec.destinationSelectors` was written. Without it every object is in the default
    /// workload group with no labels, which Kratix's scheduler keeps from a destination with
    /// `strictMatchLabels: true` and labels of its own (`internal/controller/scheduler.go`,
    /// `getDestinationsForWorkloadGroup`); any other destination gets everything.
    pub written: bool,
}

impl Stage<Tailoring> for Schedule {
    fn declares(&self) -> Declaration {
        Declaration::new("schedule", Scope::Selects)
            // Kratix matches labels (strictly when the destination says so); its note names the
            // cluster.
            .sees(Sees::NAME.and(Sees::LABELS).and(Sees::STRICT_MATCH_LABELS))
    }

    fn run(&self, items: &mut Vec<Resource>, ctx: &mut Context<'_>) {
        if let Some(promise) = items.iter().find(|i| is_kratix_promise(i)) {
            ctx.log.results.push(
                KrmResult::error(format!(
                    "Promise {:?}: tailor schedules a workflow's output, not a Promise: Kratix \
                     installs a Promise on the platform and schedules its spec.dependencies by \
                     its spec.destinationSelectors, which tailor does not do; render the \
                     dependencies as input of their own, with those selectors as \
                     spec.destinationSelectors",
                    promise.name()
                ))
                .about(promise),
            );
            return;
        }
        let Some(cluster) = ctx.cluster() else {
            if !self.written {
                return;
            }
            ctx.log.results.push(
                KrmResult::error(
                    "spec.destinationSelectors need a destination cluster to match against: set spec.cluster or spec.clusters",
                )
                .at_field("spec.destinationSelectors"),
            );
            return;
        };
        let before = items.len();
        if !self.written && !cluster.strict_match_labels {
            return;
        }
        items
            .retain(|item| item.is_meta_or_local() || self.selectors.selects(item.path(), cluster));
        let dropped = before - items.len();
        if dropped > 0 {
            ctx.log.results.push(KrmResult::info(format!(
                "{dropped} object(s) not scheduled to cluster {:?}: its labels do not match their destinationSelectors{}",
                cluster.name,
                if self.written { "" } else { " (none are written, and the destination has strictMatchLabels: true and labels)" }
            )));
        }
    }
}

/// A Kratix `Promise` (`platform.kratix.io/*`).
fn is_kratix_promise(item: &Resource) -> bool {
    item.kind() == "Promise" && item.group() == "platform.kratix.io"
}

/// The stage's example (kustomize keeps an `example_test.go` beside each filter): objects in,
/// the stage run on them, the objects written out.
#[cfg(test)]
mod example {
    use super::Schedule;
    use crate::stages::example::{run_stage, virgo, Setup};
    use serde_json::json;
    use tailor_kratix::KratixSchedule;

    #[test]
    fn schedule_keeps_the_objects_whose_destination_selectors_match() {
        let schedule = KratixSchedule::from_json(
            &json!([
                {"matchLabels": {"env": "prod"}},
                {"directory": "db", "matchLabels": {"tier": "data"}},
            ]),
            "spec.destinationSelectors",
        )
        .unwrap();
        let input = "\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  annotations:
    config.kubernetes.io/path: web/deployment.yaml
---
apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: db
  annotations:
    config.kubernetes.io/path: db/statefulset.yaml
";
        let setup = Setup {
            cluster: virgo(json!({"env": "prod"}), json!({})),
            ..Setup::default()
        };
        let (out, results) = run_stage(
            &Schedule {
                selectors: schedule,
                written: true,
            },
            input,
            &setup,
        );
        // virgo is `env: prod` but not `tier: data`: the `db/` group does not go there.
        assert_eq!(
            out,
            "\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  annotations:
    config.kubernetes.io/path: web/deployment.yaml
"
        );
        assert_eq!(
            results,
            ["[info] 1 object(s) not scheduled to cluster \"virgo\": its labels do not match their destinationSelectors"]
        );
    }
}
