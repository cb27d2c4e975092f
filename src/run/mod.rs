//! One run of the function: read, plan, tailor for each destination, write. Any error result
//! means nothing tailored is written: the input items come back unchanged, with the results,
//! and the exit code is 1.

mod contained;
mod destinations;
mod explain;
mod fan_out;
mod in_place;
mod inputs;
mod package_files;
mod reading;
pub mod resource_list;
mod resubstitution;
mod returned;
mod streaming;

use tailor_cluster::Cluster;
use tailor_fleet::Decision;

use crate::config::{Plan, Tailoring, Targets};
use crate::stages::{self, Destination, Forked, Log};
use tailor_kio::{lists, KrmResult, Resource, Severity};

pub use inputs::may_consume;
pub use reading::{
    at_read_hook, item_reading, keeps_trees, original_items, parse_options, passes_by, read_ahead,
    read_items, reading_holds, standalone_deferral, AtRead, Reading,
};
pub use streaming::{stream_steps, Step};

/// What a run produced: the list to print and the exit code.
pub struct Tailored {
    pub items: Vec<Resource>,
    pub results: Vec<KrmResult>,
    pub failed: bool,
    /// What `--explain` prints instead of the objects.
    pub report: Option<String>,
    /// The destinations the run tailored for, in order (skipped ones included), and whether
    /// it fanned out (each copy then carries its destination's name).
    pub destinations: Vec<String>,
    pub fanned_out: bool,
}

impl Tailored {
    pub fn new(items: Vec<Resource>, results: Vec<KrmResult>, failed: bool) -> Tailored {
        Tailored {
            items,
            results,
            failed,
            report: None,
            destinations: Vec::new(),
            fanned_out: false,
        }
    }
}

fn failed(results: Vec<KrmResult>) -> Tailored {
    Tailored::new(Vec::new(), results, true)
}

/// Runs `plan` over `items`; the plan is final (`config::Choices` built the command line and
/// a Fleet bundle into it).
pub fn process(items: Vec<Resource>, plan: Plan) -> Tailored {
    if let Some(note) = &plan.empty_shard {
        return Tailored::new(Vec::new(), vec![KrmResult::info(note.clone())], false);
    }
    if let Some(refusal) = in_place::refusal(&plan) {
        return failed(vec![refusal]);
    }
    let package = package_files::PackageItems::of(&plan, &items);
    let mut results: Vec<KrmResult> = plan.notes.iter().cloned().map(KrmResult::from).collect();
    // The items of `*List` objects are tailored as objects of their own, and written back
    // inside their List.
    let items = lists::unpack(items);
    let inputs = inputs::split(items, &plan, &mut results);
    if results.iter().any(KrmResult::is_error) {
        return failed(results);
    }
    let Some(clusters) = destinations::resolve(&plan, &inputs.inventory, &mut results) else {
        return failed(results);
    };
    if results.iter().any(KrmResult::is_error) {
        return failed(results);
    }
    destinations::unmatched_customizations(&plan, &clusters, &mut results);
    let work = inputs.work;
    let returned = inputs.returned;
    if !clusters.is_empty() && clusters.len().saturating_mul(work.len()) > plan.max_fan_out_items {
        return failed(vec![KrmResult::error(format!(
            "fan-out of {} items to {} clusters exceeds the limit of {} tailored items (spec.limits.maxFanOutItems)",
            work.len(),
            clusters.len(),
            plan.max_fan_out_items
        ))
        .at_field("spec.clusters")]);
    }
    let run = Run {
        plan: &plan,
        claimed: &inputs.claimed,
    };
    let mut forked = run.fork(&mut results);
    if results.iter().any(KrmResult::is_error) {
        return failed(results);
    }
    if plan.explain {
        let report = explain::report(&run, &work, &clusters);
        let failed = results.iter().any(KrmResult::is_error);
        let mut outcome = Tailored::new(Vec::new(), results, failed);
        outcome.report = Some(report);
        return outcome;
    }
    let out = match clusters.as_slice() {
        [] => {
            let mut items = work;
            run.for_destination(&mut forked, &mut items, None, &mut results, None);
            items
        }
        [one] if !plan.fan_out => {
            let mut items = work;
            let one = Destination {
                cluster: one,
                more: false,
            };
            run.for_destination(&mut forked, &mut items, Some(one), &mut results, None);
            items
        }
        many => match fan_out::tailor_each(&run, forked, work, many, &mut results) {
            Some(items) => items,
            None => return failed(results),
        },
    };
    if plan.strict {
        for r in results
            .iter_mut()
            .filter(|r| r.severity == Severity::Warning)
        {
            r.severity = Severity::Error;
            r.message = format!("{} (a warning, an error under strict)", r.message);
        }
    }
    if results.iter().any(KrmResult::is_error) {
        return failed(results);
    }
    if let Some(refusal) = in_place::expands_again(&plan, &out) {
        return failed(vec![refusal]);
    }
    if let Some(refusal) = resubstitution::substitutes_again(&run, &out, &clusters) {
        return failed(vec![refusal]);
    }
    let mut out = out;
    returned.put_back(&mut out, !plan.fan_out);
    let out = lists::repack(out);
    let destinations: Vec<String> = clusters.iter().map(|c| c.name.clone()).collect();
    if let Some(refusal) = package.and_then(|p| p.dropped(&out, &destinations)) {
        results.push(refusal);
        return failed(results);
    }
    let mut outcome = Tailored::new(out, results, false);
    outcome.destinations = destinations;
    outcome.fanned_out = plan.fan_out;
    outcome
}

/// What every destination's run shares.
struct Run<'a> {
    plan: &'a Plan,
    /// What each stage claimed, by its place in the plan.
    claimed: &'a [Vec<Resource>],
}

impl<'a> Run<'a> {
    /// A worker of every stage of the plan; problems with their inputs go to `results`.
    fn fork(&self, results: &mut Vec<KrmResult>) -> Vec<Forked<'a>> {
        self.plan
            .stages
            .iter()
            .zip(self.claimed)
            .map(|(stage, inputs)| Forked::new(stage.as_ref(), inputs, results))
            .collect()
    }

    /// The options every destination gets when they cannot differ.
    fn shared_tailoring(&self) -> Tailoring {
        match &self.plan.targets {
            Targets::Fixed(t) => (**t).clone(),
            Targets::Fleet(c) => c.root.clone(),
        }
    }

    /// Tailors `items` for one destination (or none) with `stages`: first which target
    /// customization applies (doNotDeploy leaves only the Kptfile and local-config objects), then the stages in order.
    fn for_destination(
        &self,
        stages: &mut [Forked<'_>],
        items: &mut Vec<Resource>,
        destination: Option<Destination<'_>>,
        results: &mut Vec<KrmResult>,
        explain: Option<&mut stages::explain::Notes>,
    ) {
        let Some(tailoring) = self.tailoring(destination.map(|d| d.cluster), results) else {
            // Nothing is deployed there; the Kptfile and local-config objects stay, as a
            // fan-out keeps them.
            items.retain(Resource::is_meta_or_local);
            return;
        };
        if results.iter().any(KrmResult::is_error) {
            return;
        }
        let mut log = Log {
            results,
            explain,
            rules_of: stages::rules_of,
        };
        stages::run_all(stages, items, destination, &tailoring, &mut log);
    }

    /// The options a destination gets from the target customizations, merged
    /// (FirstMatch/AllMatches); `None` when it is skipped (doNotDeploy).
    fn tailoring(
        &self,
        cluster: Option<&Cluster>,
        results: &mut Vec<KrmResult>,
    ) -> Option<Tailoring> {
        let config = match &self.plan.targets {
            Targets::Fixed(t) => return Some((**t).clone()),
            Targets::Fleet(c) => c,
        };
        let Some(cluster) = cluster else {
            if !config.customizations.is_empty() {
                results.push(
                    KrmResult::error(
                        "spec.targetCustomizations need a destination cluster to match against: set spec.cluster or spec.clusters",
                    )
                    .at_field("spec.targetCustomizations"),
                );
            }
            return Some(config.root.clone());
        };
        match config.resolve(cluster) {
            Decision::Deploy { matched, options } => {
                if !matched.is_empty() {
                    results.push(KrmResult::info(format!(
                        "cluster {:?}: target customization {} applied",
                        cluster.name,
                        matched
                            .iter()
                            .map(|m| format!("{m:?}"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )));
                }
                Some(options)
            }
            Decision::Skip { reason, .. } => {
                results.push(KrmResult::info(reason));
                None
            }
            Decision::Refuse { message, .. } => {
                results.push(KrmResult::error(message));
                None
            }
        }
    }
}
