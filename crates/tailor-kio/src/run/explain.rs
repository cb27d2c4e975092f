//! `--explain`: what the run does for each destination, as text: which target customizations
//! match it and why, whether it is skipped, what each rule changed and what each stage did.
//! Each destination is tailored on its own, with every stage (a fan-out's sharing gives the
//! same copies, `tests/fan_out.rs`), so every count is that destination's.

use std::fmt::Write as _;

use super::alike::Alike;
use super::{Destinations, Run};
use crate::explain::{objects, Notes};
use crate::job::{shared_stages, Job};
use crate::pipeline::{run_all, Destination, Forked, Log};
use crate::{KrmResult, Resource};
use tailor_cluster::Cluster;

/// The report of a run over `work` for `clusters` (none: one run without a destination).
pub(super) fn report<J: Job>(
    run: &Run<'_, J>,
    work: &[Resource],
    clusters: &Destinations<'_>,
) -> String {
    let mut out = String::new();
    if clusters.is_empty() {
        out.push_str("no destination cluster:\n");
        destination(run, work, None, &mut out);
    }
    for cluster in clusters.iter() {
        let _ = writeln!(out, "cluster {:?}{}:", cluster.name, labels(&cluster));
        destination(run, work, Some(&cluster), &mut out);
    }
    if clusters.len() > 1 {
        fan_out(run, work, clusters, &mut out);
    }
    out
}

/// How many renderings the fan-out needs: destinations that render alike share one. The
/// copies start from `work` as the stages run once before them leave it, as in the run.
fn fan_out<J: Job>(
    run: &Run<'_, J>,
    work: &[Resource],
    clusters: &Destinations<'_>,
    out: &mut String,
) {
    let mut items = work.to_vec();
    let mut before: Vec<Forked<'_, J::Options>> = run
        .fork(&mut Vec::new())
        .into_iter()
        .zip(shared_stages(run.job))
        .filter_map(|(stage, shared)| shared.then_some(stage))
        .collect();
    let options = run.job.shared_options();
    let mut results = Vec::new();
    run_all(
        &mut before,
        &mut items,
        None,
        &options,
        &mut Log::new(&mut results, None),
    );
    let _ = match Alike::plan(run.job, clusters, &items) {
        Ok(alike) => writeln!(
            out,
            "fan-out: {} destinations, {} distinct renderings",
            clusters.len(),
            alike.distinct()
        ),
        Err(message) => writeln!(out, "fan-out: {message}"),
    };
}

fn labels(cluster: &Cluster) -> String {
    if cluster.labels.is_empty() {
        return String::new();
    }
    let pairs: Vec<String> = cluster
        .labels
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    format!(" (labels {})", pairs.join(", "))
}

fn destination<J: Job>(
    run: &Run<'_, J>,
    work: &[Resource],
    cluster: Option<&Cluster>,
    out: &mut String,
) {
    if cluster.is_some_and(|c| !run.job.explain_choice(c, out)) {
        return;
    }
    let mut items = work.to_vec();
    let mut notes = Notes::default();
    let mut results: Vec<KrmResult> = Vec::new();
    // The inputs were checked when the run forked its stages first.
    let mut stages = run.fork(&mut Vec::new());
    let destination = cluster.map(|cluster| Destination {
        cluster,
        more: false,
    });
    run.for_destination(
        &mut stages,
        &mut items,
        destination,
        &mut results,
        Some(&mut notes),
    );
    if !notes.rules.is_empty() {
        out.push_str("  rules:\n");
        for (field, what) in &notes.rules {
            let _ = writeln!(out, "    {field}: {what}");
        }
    }
    let busy: Vec<_> = notes.stages.iter().filter(|s| s.did_something()).collect();
    if !busy.is_empty() {
        out.push_str("  stages:\n");
        for s in busy {
            let mut parts = Vec::new();
            for (n, what) in [
                (s.changed, "changed"),
                (s.added, "added"),
                (s.removed, "removed"),
            ] {
                if n > 0 {
                    parts.push(format!("{} {what}", objects(n)));
                }
            }
            let _ = writeln!(out, "    {}: {}", s.name, parts.join(", "));
        }
    }
    let errors = results.iter().filter(|r| r.is_error()).count();
    let warnings = results
        .iter()
        .filter(|r| r.severity == crate::Severity::Warning)
        .count();
    let _ = write!(out, "  objects: {} in, {} out", work.len(), items.len());
    if errors + warnings > 0 {
        let _ = write!(out, "; {errors} errors, {warnings} warnings");
    }
    out.push('\n');
}
