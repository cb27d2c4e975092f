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
