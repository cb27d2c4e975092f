//! Scheduling stage: Kratix destination selectors decide, object by object, whether it goes to
//! the destination at all (`tailor-kratix` holds the rules).

use tailor_kratix::KratixSchedule;

use super::{Context, Scope, Stage};
use tailor_kio::{KrmResult, Resource};

pub struct Schedule(pub KratixSchedule);

impl Stage for Schedule {
    fn name(&self) -> &'static str {
        "schedule"
    }

    fn scope(&self) -> Scope {
        Scope::Selects
    }

    fn per_object(&self) -> bool {
        true
    }

    fn run(&self, items: &mut Vec<Resource>, ctx: &mut Context<'_>) {
        let Some(cluster) = ctx.cluster else {
            ctx.results.push(
                KrmResult::error(
                    "spec.destinationSelectors need a destination cluster to match against: set spec.cluster or spec.clusters",
                )
                .at_field("spec.destinationSelectors"),
            );
            return;
        };
        let before = items.len();
        items.retain(|item| item.is_meta_or_local() || self.0.selects(item.path(), cluster));
        let dropped = before - items.len();
        if dropped > 0 {
            ctx.results.push(KrmResult::info(format!(
                "{dropped} object(s) not scheduled to cluster {:?}: its labels do not match their destinationSelectors",
                cluster.name
            )));
        }
    }
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
        let (out, results) = run_stage(&Schedule(schedule), input, &setup);
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
