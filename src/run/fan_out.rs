//! Tailoring a copy of the items for each of several destinations, on one thread per core.

use tailor_cluster::Cluster;

use super::{prefix_path, Run};
use crate::krm::{KrmResult, Resource};
use crate::stages::substitution::Memo;
use crate::stages::Stage;

/// Tailors a copy of `work` for each destination with `stages`. Destinations are independent,
/// so they are split into contiguous runs, one per available core; the copies and results are
/// joined in destination order, so the output is the same bytes however many threads ran.
/// Each destination's results are its own: one that fails does not hide another's.
pub(super) fn fan_out(
    run: &Run<'_>,
    stages: &[&dyn Stage],
    work: &[Resource],
    clusters: &[Cluster],
) -> (Vec<Resource>, Vec<KrmResult>) {
    let threads = threads().clamp(1, clusters.len());
    let per_thread = clusters.len().div_ceil(threads);
    let tailor_chunk = |chunk: &[Cluster]| {
        let mut memo = Memo::default();
        let mut out = Vec::with_capacity(work.len() * chunk.len());
        let mut results = Vec::new();
        for (i, cluster) in chunk.iter().enumerate() {
            memo.last_destination = i + 1 == chunk.len();
            let mut items = work.to_vec();
            let mut own = Vec::new();
            run.for_destination(stages, &mut items, Some(cluster), &mut own, Some(&mut memo));
            results.append(&mut own);
            if run.plan.fan_out {
                for item in &mut items {
                    prefix_path(item, &cluster.name);
                }
            }
            out.extend(items);
        }
        (out, results)
    };
    if threads == 1 {
        return tailor_chunk(clusters);
    }
    std::thread::scope(|scope| {
        let handles: Vec<_> = clusters
            .chunks(per_thread)
            .map(|chunk| scope.spawn(move || tailor_chunk(chunk)))
            .collect();
        let mut out = Vec::with_capacity(work.len() * clusters.len());
        let mut results = Vec::new();
        for handle in handles {
            match handle.join() {
                Ok((items, r)) => {
                    out.extend(items);
                    results.extend(r);
                }
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        (out, results)
    })
}

/// One per core, or `TAILOR_THREADS` (for CI runners that share their cores).
fn threads() -> usize {
    std::env::var("TAILOR_THREADS")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|&n| n > 0)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from))
}
