//! Scheduling stage: Kratix destination selectors decide, item by item, whether it goes to the
//! destination at all (`docs/semantics/kratix.md`; `tailor-fleet` holds the rules).

use tailor_kratix::KratixSchedule;

use super::StageContext;
use crate::krm::{KrmResult, Resource};

pub fn run(schedule: &KratixSchedule, items: &mut Vec<Resource>, ctx: &mut StageContext<'_>) {
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
    items.retain(|item| item.is_meta_or_local() || schedule.selects(item.path(), cluster));
    let dropped = before - items.len();
    if dropped > 0 {
        ctx.results.push(KrmResult::info(format!(
            "{dropped} object(s) not scheduled to cluster {:?}: its labels do not match their destinationSelectors",
            cluster.name
        )));
    }
}
