//! The plan as the pipeline runs it (`tailor_kio::Job`): its stages and settings, and the
//! answers only the plan can give: which options a destination gets (Fleet's target
//! customizations), what `--explain` says of that choice, and which of its rules an in-place
//! render cannot take ([`super::in_place`], [`super::resubstitution`]).

use std::fmt::Write as _;

use tailor_cluster::Cluster;
use tailor_fleet::{Decision, FleetConfig};
use tailor_kio::job::{Check, Settings};
use tailor_kio::pipeline::Stage;
use tailor_kio::run::Destinations;
use tailor_kio::{Job, KrmResult};

use super::{in_place, resubstitution, Plan, Tailoring, TargetFields, Targets};

impl Job for Plan {
    type Options = Tailoring;

    fn stages(&self) -> &[Box<dyn Stage<Tailoring>>] {
        &self.stages
    }

    fn settings(&self) -> Settings<'_> {
        Settings {
            clusters: &self.clusters,
            fan_out: self.fan_out,
            max_fan_out_items: self.max_fan_out_items,
            max_held_output_bytes: self.max_held_output_bytes,
            notes: &self.notes,
            strict: self.strict,
            empty_shard: self.empty_shard.as_deref(),
            explain: self.explain,
        }
    }

    fn shared_options(&self) -> Tailoring {
        match &self.targets {
            Targets::Fixed(t) => (**t).clone(),
            Targets::Fleet(c) => c.root.clone(),
        }
    }

    fn options_vary(&self) -> bool {
        self.targets.vary()
    }

    fn options_for(
        &self,
        cluster: Option<&Cluster>,
        results: &mut Vec<KrmResult>,
    ) -> Option<Tailoring> {
        let config = match &self.targets {
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
                        quoted(&matched)
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

    /// Fleet's decision depends on which customizations and targets select the cluster.
    fn options_key(&self, cluster: &Cluster) -> Option<Vec<usize>> {
        match &self.targets {
            Targets::Fixed(_) => Some(Vec::new()),
            Targets::Fleet(config) => Some(config.decision_key(cluster)),
        }
    }

    /// A warning for each target customization that matches none of the destinations: it
    /// changes nothing, which for a misspelt label or cluster name is a silent wrong answer.
    fn check_destinations(&self, clusters: &Destinations<'_>, results: &mut Vec<KrmResult>) {
        let Targets::Fleet(config) = &self.targets else {
            return;
        };
        if clusters.is_empty() || config.customizations.is_empty() || self.narrowed {
            return;
        }
        let mut used = vec![false; config.customizations.len()];
        for cluster in clusters.iter() {
            for i in config.matching(&cluster) {
                used[i] = true;
            }
        }
        let names: Vec<String> = clusters.names().map(|c| format!("{c:?}")).collect();
        for (c, _) in config.customizations.iter().zip(used).filter(|(_, u)| !u) {
            results.push(
                KrmResult::warning(format!(
                    "target customization {:?} matches none of the destinations ({}); it applies to none",
                    c.name,
                    names.join(", ")
                ))
                .at_field(c.field_path.clone()),
            );
        }
    }

    fn explain_choice(&self, cluster: &Cluster, out: &mut String) -> bool {
        match &self.targets {
            Targets::Fleet(config) if !config.customizations.is_empty() => {
                explain_customizations(config, cluster, out)
            }
            _ => true,
        }
    }

    fn in_place_refusal(&self, check: Check<'_>) -> Option<KrmResult> {
        match check {
            Check::Rules => in_place::refusal(self),
            Check::Output {
                items,
                clusters,
                claimed,
            } => in_place::expands_again(self, items)
                .or_else(|| resubstitution::substitutes_again(self, items, clusters, claimed)),
        }
    }
}

/// Names as a list of quoted strings: `"a", "b"`.
fn quoted(names: &[String]) -> String {
    let quoted: Vec<String> = names.iter().map(|m| format!("{m:?}")).collect();
    quoted.join(", ")
}

/// Which target customizations match `cluster` and why, and which apply; `false` when the
/// cluster is skipped or refused.
fn explain_customizations(
    config: &FleetConfig<TargetFields>,
    cluster: &Cluster,
    out: &mut String,
) -> bool {
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
            false
        }
        Decision::Refuse { message, .. } => {
            let _ = writeln!(out, "  refused: {message}");
            false
        }
        Decision::Deploy { matched, .. } if matched.is_empty() => {
            out.push_str("  applied: none (the spec's own options)\n");
            true
        }
        Decision::Deploy { matched, .. } => {
            let _ = writeln!(out, "  applied: {}", quoted(&matched));
            true
        }
    }
}

#[cfg(test)]
#[path = "job_tests.rs"]
mod tests;
