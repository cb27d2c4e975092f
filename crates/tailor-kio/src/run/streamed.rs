//! A fan-out whose copies go to a [`FanOutSink`] as each destination is finished, in
//! destination order, with a bounded number of destinations in flight ([`crate::ordered`]).

use super::alike::Alike;
use super::fan_out::{name_clusters, tailor_one};
use super::sink::FanOutSink;
use super::{Destinations, Run};
use crate::job::Job;
use crate::ordered::{in_order, Stopped};
use crate::pipeline::Forked;
use crate::pipeline::Seed;
use crate::{lists, KrmResult, Resource};

/// Destinations started and not yet written, per thread: enough to keep every thread busy
/// while the sink writes, few enough that memory holds the input and a handful of copies.
const IN_FLIGHT_PER_THREAD: usize = 2;

/// Tailors a copy of `work` for each of `clusters` with `stages` and hands each destination's
/// copies to `sink`; the results, each naming its destination as [`super::fan_out`] names
/// them. After the first error result no copy is handed on (the run fails), but every
/// destination is still tailored, so the results are those of a fan-out that holds its copies.
pub(super) fn stream_copies<J: Job>(
    run: &Run<'_, J>,
    stages: &[Seed<'_, J::Options>],
    work: &[Resource],
    clusters: &Destinations<'_>,
    alike: &Alike,
    sink: &mut dyn FanOutSink,
) -> Vec<KrmResult> {
    let threads = match crate::env::threads() {
        Ok(n) => n.clamp(1, clusters.len().max(1)),
        Err(e) => return vec![KrmResult::error(e)],
    };
    let prepare = sink.on_worker();
    let prepare = prepare.as_ref();
    let worker = || {
        let mut forked: Vec<Forked<'_, J::Options>> = stages
            .iter()
            .map(|&seed| Forked::new(seed, &mut Vec::new()))
            .collect();
        move |i: usize| {
            let (items, own) = tailor_one(run, &mut forked, work, clusters, i, alike, true);
            let copies = lists::repack(items);
            // A destination with an error is never handed on: nothing to prepare.
            match prepare {
                Some(prepare) if !own.iter().any(KrmResult::is_error) => (prepare(copies), own),
                _ => (copies, own),
            }
        }
    };
    let mut named: Vec<(&str, KrmResult)> = Vec::new();
    let mut failed = false;
    let handed = in_order(
        clusters.len(),
        threads,
        threads * IN_FLIGHT_PER_THREAD,
        worker,
        |i, (copies, own): (Vec<Resource>, Vec<KrmResult>)| {
            let name = clusters.name(i);
            failed |= own.iter().any(KrmResult::is_error);
            named.extend(own.into_iter().map(|r| (name, r)));
            if failed {
                return Ok(());
            }
            sink.destination(name, copies)
        },
    );
    super::budget_stops::report_once(&mut named);
    let mut results = name_clusters(named);
    match handed {
        Ok(()) => {}
        Err(Stopped::Sink(message)) => results.push(KrmResult::error(message)),
        Err(Stopped::Thread(message)) => results.push(KrmResult::error(message)),
    }
    results
}
