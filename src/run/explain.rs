//! `--explain`: what the run does for each destination, as text: which target customizations
//! match it and why, whether it is skipped, what each rule changed and what each stage did.
//! Each destination is tailored on its own, with every stage (a fan-out's sharing gives the
//! same copies, `tests/fan_out.rs`), so every count is that destination's.

use std::fmt::Write as _;

use tailor_cluster::Cluster;
use tailor_fleet::Decision;

use super::Run;
use crate::config::Targets;
use crate::stages::explain::{objects, Notes};
use crate::stages::Destination;
use tailor_kio::{KrmResult, Resource};

/// The report of a run over `work` for `clusters` (none: one run without a destination).
pub(super) fn report(run: &Run<'_>, work: &[Resource], clusters: &[Cluster]) -> String {
    let mut out = String::new();
    if clusters.is_empty() {
        out.push_str("no destination cluster:\n");
        destination(run, work, None, &mut out);
    }
    for cluster in clusters {
        let _ = writeln!(out, "cluster {:?}{}:", cluster.name, labels(cluster));
        destination(run, work, Some(cluster), &mut out);
    }
    out
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

/// Which target customizations match `cluster`, and why; `false` when the destination is
/// skipped or refused (nothing is tailored for it then).
fn customizations(run: &Run<'_>, cluster: Option<&Cluster>, out: &mut String) -> bool {
    if let (Targets::Fleet(config), Some(cluster)) = (&run.plan.targets, cluster) {
        if !config.customizations.is_empty() {
            let _ = writeln!(out, "  target customizations ({}):", config.mode.as_str());
            for c in &config.customizations {
                let matched = c.criteria.matches(cluster);
                let why: Vec<String> = c
                    .criteria
                    .explain(cluster)
                    .into_iter()
                    .map(|(criterion, holds)| {
                        format!("{criterion} {}", if holds { "holds" } else { "fails" })
                    })
                    .collect();
                let why = if why.is_empty() {
                    "no criteria, so it never matches".to_string()
                } else {
                    why.join("; ")
                };
                let _ = writeln!(
                    out,
                    "    {} {:?} ({}): {why}",
                    if matched { "matches " } else { "no match" },
                    c.name,
                    c.field_path
                );
            }
            match config.resolve(cluster) {
                Decision::Skip { reason, .. } => {
                    let _ = writeln!(out, "  {reason}");
                    return false;
                }
                Decision::Refuse { message, .. } => {
                    let _ = writeln!(out, "  refused: {message}");
                    return false;
                }
                Decision::Deploy { matched, .. } if matched.is_empty() => {
                    out.push_str("  applied: none (the spec's own options)\n");
                }
                Decision::Deploy { matched, .. } => {
                    let names: Vec<String> = matched.iter().map(|m| format!("{m:?}")).collect();
                    let _ = writeln!(out, "  applied: {}", names.join(", "));
                }
            }
        }
    }
    true
}

fn destination(run: &Run<'_>, work: &[Resource], cluster: Option<&Cluster>, out: &mut String) {
    if !customizations(run, cluster, out) {
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
        .filter(|r| r.severity == tailor_kio::Severity::Warning)
        .count();
    let _ = write!(out, "  objects: {} in, {} out", work.len(), items.len());
    if errors + warnings > 0 {
        let _ = write!(out, "; {errors} errors, {warnings} warnings");
    }
    out.push('\n');
}
