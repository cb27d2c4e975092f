//! Which destinations of a fan-out get the same rendering. Clusters often share their labels
//! and properties: two destinations whose options are chosen alike and that agree on every
//! field some per-destination stage reads ([`Sees`]) get the same objects and the same stage
//! results, so a fan-out renders one of them and copies it for the others. What is not a
//! rendering (the cluster's directory on each copy, the results of choosing its options, the
//! cluster named in front of a result) is still done for each destination.
//!
//! A stage that does not say what it reads of a destination reads all of it, its name too, so
//! a new stage can never make two destinations share a rendering they must not share. Of the
//! properties (which hold `clusterName`, so no two destinations agree on all of them), a stage
//! says which names its configuration and objects read ([`PropertyReads`]), or reads them all.

use std::collections::{BTreeSet, HashMap};
use std::hash::{Hash, Hasher};

use tailor_cluster::{Cluster, ClusterGroup};
use tailor_kube::StringMap;

use crate::job::{shared_stages, Job};
use crate::pipeline::{Declaration, Reads, Scope};
use crate::run::Destinations;
use crate::Resource;

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
    /// Template properties (KubeStellar): those the stage names ([`PropertyReads`]); they
    /// include `clusterName`, so a stage that may read any renders each destination apart.
    pub const PROPERTIES: Sees = Sees(1 << 4);
    /// Kratix `strictMatchLabels`.
    pub const STRICT_MATCH_LABELS: Sees = Sees(1 << 5);
    /// What a Helm chart sees of it in `.Capabilities`: its Kubernetes version and the API
    /// versions it serves.
    pub const CAPABILITIES: Sees = Sees(1 << 6);
    /// All of it: what a stage that does not say reads.
    pub const EVERYTHING: Sees = Sees(0b111_1111);

    /// Both sets.
    pub const fn and(self, other: Sees) -> Sees {
        Sees(self.0 | other.0)
    }

    fn has(self, field: Sees) -> bool {
        self.0 & field.0 == field.0
    }
}

/// Which of a destination's properties a stage that sees [`Sees::PROPERTIES`] reads, as its
/// configuration and the objects tell: destinations that agree on those share a rendering
/// even though `clusterName` sets each one's properties apart.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PropertyReads {
    /// The names it reads (a missing property is read too: it differs from an empty one);
    /// `None`: any of them.
    pub names: Option<BTreeSet<String>>,
    /// When it reads the destination's name besides.
    pub name: NameRead,
}

/// When a stage that reads properties reads the destination's name too.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameRead {
    Never,
    /// Where one of the named properties is missing or longer than this many bytes: the
    /// stage then fails, in words that name the destination. Combined with other stages'
    /// reads, it holds for all their names (wider than needed, never narrower).
    WhereMissingOrLonger(usize),
    Always,
}

impl PropertyReads {
    /// Any property, and the name: what a stage that cannot tell reads.
    pub const ALL: PropertyReads = PropertyReads {
        names: None,
        name: NameRead::Always,
    };

    /// These properties, and never the name.
    pub fn named<S: Into<String>>(names: impl IntoIterator<Item = S>) -> PropertyReads {
        PropertyReads {
            names: Some(names.into_iter().map(Into::into).collect()),
            name: NameRead::Never,
        }
    }

    /// What both read.
    pub fn and(self, other: PropertyReads) -> PropertyReads {
        let names = match (self.names, other.names) {
            (Some(mut a), Some(b)) => {
                a.extend(b);
                Some(a)
            }
            _ => None,
        };
        let name = match (self.name, other.name) {
            (NameRead::Always, _) | (_, NameRead::Always) => NameRead::Always,
            (NameRead::WhereMissingOrLonger(a), NameRead::WhereMissingOrLonger(b)) => {
                NameRead::WhereMissingOrLonger(a.min(b))
            }
            (NameRead::WhereMissingOrLonger(n), _) | (_, NameRead::WhereMissingOrLonger(n)) => {
                NameRead::WhereMissingOrLonger(n)
            }
            (NameRead::Never, NameRead::Never) => NameRead::Never,
        };
        PropertyReads { names, name }
    }

    /// Whether `cluster` is one where the stage reads the name.
    fn reads_name_of(&self, cluster: &Cluster) -> bool {
        match self.name {
            NameRead::Never => false,
            NameRead::Always => true,
            NameRead::WhereMissingOrLonger(longest) => self.names.as_ref().is_none_or(|names| {
                names.iter().any(|n| {
                    cluster
                        .properties
                        .get(n.as_str())
                        .is_none_or(|v| v.len() > longest)
                })
            }),
        }
    }
}

/// What the stages that run for each destination read of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seen {
    pub sees: Sees,
    /// Of its properties, when `sees` has [`Sees::PROPERTIES`].
    pub properties: PropertyReads,
}

impl Seen {
    /// All of it.
    pub const EVERYTHING: Seen = Seen {
        sees: Sees::EVERYTHING,
        properties: PropertyReads::ALL,
    };
}

/// The properties a rendering depends on: all of them, or the values of some (`None` where
/// one is missing).
#[derive(Debug, PartialEq, Eq, Hash)]
enum Properties<'c> {
    All(Vec<(&'c str, &'c str)>),
    Named(Vec<Option<&'c str>>),
}

impl<'c> Properties<'c> {
    fn of(cluster: &'c Cluster, names: Option<&BTreeSet<String>>) -> Properties<'c> {
        let props = &cluster.properties;
        match names {
            None => Properties::All(
                props
                    .iter()
                    .map(|(k, v)| (k.as_str(), v.as_str()))
                    .collect(),
            ),
            Some(names) => Properties::Named(
                names
                    .iter()
                    .map(|n| props.get(n.as_str()).map(String::as_str))
                    .collect(),
            ),
        }
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
    properties: Option<Properties<'c>>,
    strict_match_labels: Option<bool>,
    capabilities: Option<(Option<&'c str>, &'c [String])>,
}

impl<'c> Key<'c> {
    fn of(cluster: &'c Cluster, seen: &Seen, options: Option<Vec<usize>>) -> Key<'c> {
        // A job that cannot say what chose the options: the whole cluster decides.
        let seen = if options.is_none() {
            &Seen::EVERYTHING
        } else {
            seen
        };
        let sees = seen.sees;
        let properties = sees.has(Sees::PROPERTIES);
        let name = sees.has(Sees::NAME) || properties && seen.properties.reads_name_of(cluster);
        let group = |g: &'c ClusterGroup| (g.name.as_str(), &g.labels);
        Key {
            options,
            name: name.then_some(cluster.name.as_str()),
            labels: sees.has(Sees::LABELS).then_some(&cluster.labels),
            annotations: sees.has(Sees::ANNOTATIONS).then_some(&cluster.annotations),
            groups: sees
                .has(Sees::GROUPS)
                .then(|| cluster.groups.iter().map(group).collect()),
            properties: properties.then(|| Properties::of(cluster, seen.properties.names.as_ref())),
            strict_match_labels: sees
                .has(Sees::STRICT_MATCH_LABELS)
                .then_some(cluster.strict_match_labels),
            capabilities: sees
                .has(Sees::CAPABILITIES)
                .then_some((cluster.kube_version.as_deref(), &cluster.api_versions[..])),
        }
    }
}

/// What the stages that run for each destination read of it: those the fan-out does not run
/// once before the copies are made ([`shared_stages`]), on `items` (the objects as the copies
/// start). A stage tells which properties it reads from the objects that reach it; that is
/// `items`, or fewer of them, only as long as every stage before it only keeps or drops
/// objects, or looks into none of them. Past one that may write, any property may be read.
pub fn seen_by_copies<J: Job + ?Sized>(job: &J, items: &[Resource]) -> Seen {
    let mut seen = Seen {
        sees: Sees::NOTHING,
        properties: PropertyReads::named(Vec::<String>::new()),
    };
    let mut items_known = true;
    let per_destination = job
        .stages()
        .iter()
        .zip(shared_stages(job))
        .filter(|(_, shared)| !shared);
    for (stage, _) in per_destination {
        let declared = stage.declares();
        seen.sees = seen.sees.and(declared.sees);
        if declared.sees.has(Sees::PROPERTIES) {
            let reads = if items_known {
                stage.properties_read(items)
            } else {
                PropertyReads::ALL
            };
            seen.properties = seen.properties.and(reads);
        }
        items_known &= writes_nothing(&declared, items);
    }
    seen
}

/// Whether a stage leaves the text of `items` as it is: it only keeps or drops objects, or
/// looks only into objects with annotations none of them carries.
fn writes_nothing(declared: &Declaration, items: &[Resource]) -> bool {
    match declared.reads {
        _ if declared.scope == Scope::Selects => true,
        Reads::Annotated(keys) => !items
            .iter()
            .any(|item| keys.iter().any(|k| item.annotation(k).is_some())),
        Reads::Every => false,
    }
}

/// For each of `clusters`, the first destination with the same rendering (itself when none
/// before it has), the copies starting from `items`.
pub fn same_rendering<J: Job + ?Sized>(
    job: &J,
    clusters: &Destinations<'_>,
    items: &[Resource],
) -> Vec<usize> {
    group(
        clusters.len(),
        |at| clusters.cluster(at),
        &seen_by_copies(job, items),
        |c| job.options_key(c),
    )
}

/// For each of `count` destinations (`cluster_at` resolves one), the first with the same key.
/// The groups are found by the hash of their key, so a fan-out to 20,000 clusters keeps a
/// number or two per group, not 20,000 resolved clusters; a destination whose hash a group has
/// is compared key by key with that group's first, resolved again (equal hashes of unequal keys
/// cost time, never a shared rendering).
fn group(
    count: usize,
    cluster_at: impl Fn(usize) -> Cluster,
    seen: &Seen,
    options_key: impl Fn(&Cluster) -> Option<Vec<usize>>,
) -> Vec<usize> {
    // The first destination of each hash; more firsts with the same hash, when keys collide.
    let mut first: HashMap<u64, usize> = HashMap::new();
    let mut colliding: HashMap<u64, Vec<usize>> = HashMap::new();
    let mut same = Vec::with_capacity(count);
    for at in 0..count {
        let cluster = cluster_at(at);
        let key = Key::of(&cluster, seen, options_key(&cluster));
        let hash = hash_of(&key);
        let alike = |f: &usize| {
            let other = cluster_at(*f);
            Key::of(&other, seen, options_key(&other)) == key
        };
        let Some(&f) = first.get(&hash) else {
            first.insert(hash, at);
            same.push(at);
            continue;
        };
        let more = colliding.entry(hash).or_default();
        let found = std::iter::once(f)
            .chain(more.iter().copied())
            .find(|f| alike(f));
        same.push(found.unwrap_or_else(|| {
            more.push(at);
            at
        }));
    }
    same
}

fn hash_of(key: &Key<'_>) -> u64 {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    key.hash(&mut hasher);
    hasher.finish()
}

/// How many distinct renderings `same_rendering` asks for.
pub fn distinct(same: &[usize]) -> usize {
    same.iter().enumerate().filter(|(i, f)| i == *f).count()
}

#[cfg(test)]
#[path = "renderings_tests.rs"]
mod tests;
