//! Which destinations of a fan-out get the same rendering. Clusters often share their labels
//! and properties: two destinations whose options are chosen alike and that agree on every
//! field some per-destination stage reads ([`Sees`]) get the same objects and the same stage
//! results, so a fan-out renders one of them and copies it for the others. What is not a
//! rendering (the cluster's directory on each copy, the results of choosing its options, the
//! cluster named in front of a result) is still done for each destination.
//!
//! A stage that does not say what it reads of a destination reads all of it, its name too, so
//! a new stage can never make two destinations share a rendering they must not share.

use std::collections::HashMap;

use tailor_cluster::{Cluster, ClusterGroup};
use tailor_kube::StringMap;

use crate::job::{shared_stages, Job};

/// The fields of a destination a stage reads (a set of them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sees(u8);

impl Sees {
    /// Reads nothing of the destination: what it does follows from the options alone.
    pub const NOTHING: Sees = Sees(0);
    /// The cluster's name (a template's `clusterName`, a message that names the cluster).
    pub const NAME: Sees = Sees(1);
    pub const LABELS: Sees = Sees(1 << 1);
    pub const ANNOTATIONS: Sees = Sees(1 << 2);
    /// The Fleet groups it belongs to, with their labels.
    pub const GROUPS: Sees = Sees(1 << 3);
    /// Template properties (KubeStellar); they include `clusterName`, so a stage reading them
    /// renders each destination apart unless two share their name, which they cannot.
    pub const PROPERTIES: Sees = Sees(1 << 4);
    /// Kratix `strictMatchLabels`.
    pub const STRICT_MATCH_LABELS: Sees = Sees(1 << 5);
    /// All of it: what a stage that does not say reads.
    pub const EVERYTHING: Sees = Sees(0b11_1111);

    /// Both sets.
    pub const fn and(self, other: Sees) -> Sees {
        Sees(self.0 | other.0)
    }

    fn has(self, field: Sees) -> bool {
        self.0 & field.0 == field.0
    }
}

/// What a destination's rendering depends on: what chose its options, and the fields of the
/// cluster the stages that run for it read. Equal keys, equal renderings.
#[derive(Debug, PartialEq, Eq, Hash)]
struct Key<'c> {
    options: Option<Vec<usize>>,
    name: Option<&'c str>,
    labels: Option<&'c StringMap>,
    annotations: Option<&'c StringMap>,
    groups: Option<Vec<(&'c str, &'c StringMap)>>,
    properties: Option<&'c StringMap>,
    strict_match_labels: Option<bool>,
}

impl<'c> Key<'c> {
    fn of(cluster: &'c Cluster, sees: Sees, options: Option<Vec<usize>>) -> Key<'c> {
        // A job that cannot say what chose the options: the whole cluster decides.
        let sees = if options.is_none() {
            Sees::EVERYTHING
        } else {
            sees
        };
        let group = |g: &'c ClusterGroup| (g.name.as_str(), &g.labels);
        Key {
            options,
            name: sees.has(Sees::NAME).then_some(cluster.name.as_str()),
            labels: sees.has(Sees::LABELS).then_some(&cluster.labels),
            annotations: sees.has(Sees::ANNOTATIONS).then_some(&cluster.annotations),
            groups: sees
                .has(Sees::GROUPS)
                .then(|| cluster.groups.iter().map(group).collect()),
            properties: sees.has(Sees::PROPERTIES).then_some(&cluster.properties),
            strict_match_labels: sees
                .has(Sees::STRICT_MATCH_LABELS)
                .then_some(cluster.strict_match_labels),
        }
    }
}

/// What the stages that run for each destination read of it: those the fan-out does not run
/// once before the copies are made ([`shared_stages`]).
pub fn seen_by_copies<J: Job + ?Sized>(job: &J) -> Sees {
    job.stages()
        .iter()
        .zip(shared_stages(job))
        .filter(|(_, shared)| !shared)
        .fold(Sees::NOTHING, |all, (stage, _)| {
            all.and(stage.declares().sees)
        })
}

/// For each of `clusters`, the first destination with the same rendering (itself when none
/// before it has).
pub fn same_rendering<J: Job + ?Sized>(job: &J, clusters: &[Cluster]) -> Vec<usize> {
    group(clusters, seen_by_copies(job), |c| job.options_key(c))
}

fn group(
    clusters: &[Cluster],
    sees: Sees,
    options_key: impl Fn(&Cluster) -> Option<Vec<usize>>,
) -> Vec<usize> {
    let mut first: HashMap<Key<'_>, usize> = HashMap::new();
    clusters
        .iter()
        .enumerate()
        .map(|(i, c)| *first.entry(Key::of(c, sees, options_key(c))).or_insert(i))
        .collect()
}

/// How many distinct renderings `same_rendering` asks for.
pub fn distinct(same: &[usize]) -> usize {
    same.iter().enumerate().filter(|(i, f)| i == *f).count()
}

#[cfg(test)]
#[path = "renderings_tests.rs"]
mod tests;
