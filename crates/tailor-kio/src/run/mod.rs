//! One run of the function: read, plan, tailor for each destination, write. Any error result
//! means nothing tailored is written: the input items come back unchanged, with the results,
//! and the exit code is 1.

mod alike;
mod answer;
mod budget_stops;
mod contained;
mod destinations;
mod explain;
mod fan_out;
mod held;
mod inputs;
mod package_files;
mod returned;
mod sink;
mod streamed;

use crate::host::Guest;
use crate::job::{Check, Job};
use crate::pipeline::{run_all, Destination, Forked, Log};
use crate::{explain as notes, lists, KrmResult, Resource, Severity};

pub use answer::{answer, respond, Answer};
pub use budget_stops::BUDGET_MARK;
pub use contained::contained;
pub use destinations::Destinations;
pub use held::{
    default_limit as default_max_held_output_bytes, HeldForm, DEFAULT_MAX_HELD_OUTPUT_BYTES,
    DEFAULT_MAX_HELD_TEXT_BYTES,
};
pub use sink::FanOutSink;

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

/// Runs `job` over `items` for a host as `guest` found it; the job is final (the binary built
/// the command line and a Fleet bundle into it).
pub fn process<J: Job>(items: Vec<Resource>, job: &J, guest: &Guest) -> Tailored {
    process_into(items, job, guest, None, HeldForm::Trees)
}

/// [`process`], a fan-out's copies handed to `sink` as each destination is finished when it
/// takes them ([`FanOutSink::begin`]; never when the host renders in place, whose answer must
/// hold every item): the answer then holds only what is written once. Without one, the copies
/// are held as `held` says (as trees when the host renders in place, whose answer the run
/// checks).
pub fn process_into<J: Job>(
    items: Vec<Resource>,
    job: &J,
    guest: &Guest,
    sink: Option<&mut dyn FanOutSink>,
    held: HeldForm,
) -> Tailored {
    let settings = job.settings();
    if let Some(note) = settings.empty_shard {
        return Tailored::new(Vec::new(), vec![KrmResult::info(note)], false);
    }
    if let Some(refusal) = in_place_refusal(job, guest, Check::Rules) {
        return failed(vec![refusal]);
    }
    let package = package_files::PackageItems::of(guest.host, &items);
    let mut results: Vec<KrmResult> = settings
        .notes
        .iter()
        .cloned()
        .map(KrmResult::from)
        .collect();
    // The items of `*List` objects are tailored as objects of their own, and written back
    // inside their List.
    let items = lists::unpack(items);
    let inputs = inputs::split(items, job, guest, &mut results);
    if results.iter().any(KrmResult::is_error) {
        return failed(results);
    }
    let Some(clusters) = destinations::resolve(settings.clusters, &inputs.inventory, &mut results)
    else {
        return failed(results);
    };
    if results.iter().any(KrmResult::is_error) {
        return failed(results);
    }
    job.check_destinations(&clusters, &mut results);
    let work = inputs.work;
    let returned = inputs.returned;
    if let Some(limit) = fan_out_limit(&settings, work.len(), clusters.len()) {
        return failed(vec![limit]);
    }
    let run = Run {
        job,
        claimed: &inputs.claimed,
    };
    let mut forked = run.fork(&mut results);
    if results.iter().any(KrmResult::is_error) {
        return failed(results);
    }
    if settings.explain {
        let report = explain::report(&run, &work, &clusters);
        let failed = results.iter().any(KrmResult::is_error);
        let mut outcome = Tailored::new(Vec::new(), results, failed);
        outcome.report = Some(report);
        return outcome;
    }
    // Without a sink (or in place, where the answer holds every item) the copies are held,
    // their output bytes counted against a limit.
    let form = if guest.host.in_place() {
        HeldForm::Trees
    } else {
        held
    };
    let mut held = held::HeldSink::new(settings.max_held_output_bytes, form);
    let stream = fan_out::Stream {
        sink: sink.filter(|_| !guest.host.in_place()).unwrap_or(&mut held),
        returned: returned.items().collect(),
    };
    let tailored = run.tailor(&mut forked, work, &clusters, &mut results, stream);
    let Some(mut out) = tailored else {
        return failed(results);
    };
    out.extend(held.into_copies());
    let ran = Ran {
        out,
        results,
        clusters: &clusters,
        claimed: &inputs.claimed,
    };
    finish(job, guest, ran, returned, package)
}

/// What the stages made of a run's objects, before the checks of the answer.
struct Ran<'a> {
    out: Vec<Resource>,
    results: Vec<KrmResult>,
    clusters: &'a Destinations<'a>,
    claimed: &'a [Vec<Resource>],
}

/// The answer of a run whose stages ran: warnings made errors under strict, what an in-place
/// host cannot take refused, the inputs put back, and an answer that would delete package
/// files refused.
fn finish<J: Job>(
    job: &J,
    guest: &Guest,
    ran: Ran<'_>,
    returned: returned::Returned,
    package: Option<package_files::PackageItems>,
) -> Tailored {
    let settings = job.settings();
    let Ran {
        mut out,
        mut results,
        clusters,
        claimed,
    } = ran;
    if settings.strict {
        strict(&mut results);
    }
    if results.iter().any(KrmResult::is_error) {
        return failed(results);
    }
    let output = Check::Output {
        items: &out,
        clusters,
        claimed,
    };
    if let Some(refusal) = in_place_refusal(job, guest, output) {
        return failed(vec![refusal]);
    }
    returned.put_back(&mut out, !settings.fan_out);
    let out = lists::repack(out);
    let destinations: Vec<String> = clusters.names().map(str::to_string).collect();
    if let Some(refusal) = package.and_then(|p| p.dropped(&out, &destinations)) {
        results.push(refusal);
        return failed(results);
    }
    let mut outcome = Tailored::new(out, results, false);
    outcome.destinations = destinations;
    outcome.fanned_out = settings.fan_out;
    outcome
}

/// The job's refusal of what an in-place render cannot take, when the host renders in place.
fn in_place_refusal<J: Job>(job: &J, guest: &Guest, check: Check<'_>) -> Option<KrmResult> {
    guest
        .host
        .in_place()
        .then(|| job.in_place_refusal(check))
        .flatten()
}

/// The error when `items` objects copied for `clusters` destinations exceed the limit.
fn fan_out_limit(
    settings: &crate::job::Settings<'_>,
    items: usize,
    clusters: usize,
) -> Option<KrmResult> {
    if clusters == 0 || clusters.saturating_mul(items) <= settings.max_fan_out_items {
        return None;
    }
    Some(
        KrmResult::error(format!(
            "fan-out of {items} items to {clusters} clusters exceeds the limit of {} tailored items (spec.limits.maxFanOutItems)",
            settings.max_fan_out_items
        ))
        .at_field("spec.clusters"),
    )
}

/// Under `strict`, every warning is an error.
fn strict(results: &mut [KrmResult]) {
    for r in results
        .iter_mut()
        .filter(|r| r.severity == Severity::Warning)
    {
        r.severity = Severity::Error;
        r.message = format!("{} (a warning, an error under strict)", r.message);
    }
}

/// What every destination's run shares.
struct Run<'a, J: Job> {
    job: &'a J,
    /// What each stage claimed, by its place in the job.
    claimed: &'a [Vec<Resource>],
}

impl<'a, J: Job> Run<'a, J> {
    /// A worker of every stage of the job; problems with their inputs go to `results`.
    fn fork(&self, results: &mut Vec<KrmResult>) -> Vec<Forked<'a, J::Options>> {
        self.job
            .stages()
            .iter()
            .zip(self.claimed)
            .enumerate()
            .map(|(at, (stage, inputs))| Forked::new((stage.as_ref(), at, inputs), results))
            .collect()
    }

    /// `work` tailored for `clusters`: once for none or one (unless the job fans out), a copy
    /// for each else; `None` when the fan-out failed (its errors in `results`).
    fn tailor(
        &self,
        forked: &mut Vec<Forked<'a, J::Options>>,
        work: Vec<Resource>,
        clusters: &Destinations<'_>,
        results: &mut Vec<KrmResult>,
        stream: fan_out::Stream<'_>,
    ) -> Option<Vec<Resource>> {
        if clusters.len() > 1 || clusters.len() == 1 && self.job.settings().fan_out {
            let forked = std::mem::take(forked);
            return fan_out::tailor_each(self, forked, work, clusters, results, stream);
        }
        let one = clusters.first();
        let destination = one.as_ref().map(|cluster| Destination {
            cluster,
            more: false,
        });
        let mut items = work;
        let from = results.len();
        self.for_destination(forked, &mut items, destination, results, None);
        let mut own = results.split_off(from);
        budget_stops::report_once_within(&mut own);
        results.extend(own);
        Some(items)
    }

    /// Tailors `items` for one destination (or none) with `stages`: first which target
    /// customization applies (doNotDeploy leaves only the Kptfile and local-config objects),
    /// then the stages in order.
    fn for_destination(
        &self,
        stages: &mut [Forked<'_, J::Options>],
        items: &mut Vec<Resource>,
        destination: Option<Destination<'_>>,
        results: &mut Vec<KrmResult>,
        explain: Option<&mut notes::Notes>,
    ) {
        let Some(options) = self
            .job
            .options_for(destination.map(|d| d.cluster), results)
        else {
            // Nothing is deployed there; the Kptfile and local-config objects stay, as a
            // fan-out keeps them.
            items.retain(Resource::is_meta_or_local);
            return;
        };
        if results.iter().any(KrmResult::is_error) {
            return;
        }
        let mut log = Log::new(results, explain);
        run_all(stages, items, destination, &options, &mut log);
    }
}
