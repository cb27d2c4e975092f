//! What a change does to each destination: both sides rendered, compared object by object,
//! and the destinations whose change is the same grouped together.

use std::collections::{BTreeMap, BTreeSet};

use similar::TextDiff;

use super::mask;
use tailor_kio::Resource;
use tailor_yaml::Node;

/// One side of the review, rendered: each destination's objects, as the text a stream would
/// carry (Secrets to be masked as trees, masked once both sides are known). Only the text is
/// kept: a side holds a tenth of the memory of the objects it was rendered as.
#[derive(Default)]
pub struct Side {
    /// The destinations in the order the run tailored them (skipped ones included).
    pub destinations: Vec<String>,
    pub objects: BTreeMap<String, BTreeMap<ObjectId, Held>>,
}

/// An object as a side keeps it.
pub enum Held {
    Text(String),
    /// A Secret whose values are to be masked.
    Secret(Node),
}

/// An object's identity within a destination. `occurrence` tells apart objects a package
/// holds more than once under one identity (0 for the first).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ObjectId {
    pub api_version: String,
    pub kind: String,
    pub namespace: Option<String>,
    pub name: String,
    pub occurrence: usize,
}

impl ObjectId {
    /// `apps/v1 Deployment shop/web`: the identity as the review prints it.
    pub fn display(&self) -> String {
        let mut s = format!("{} {} ", self.api_version, self.kind);
        if let Some(ns) = &self.namespace {
            s.push_str(ns);
            s.push('/');
        }
        s.push_str(&self.name);
        if self.occurrence > 0 {
            s.push_str(&format!(" (#{})", self.occurrence + 1));
        }
        s
    }
}

/// Whether a destination gets the bundle on one side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Presence {
    /// Not a destination of that side at all.
    Absent,
    /// A destination that gets nothing (`doNotDeploy`, or every object left out).
    Skipped,
    Receives,
}

impl Presence {
    pub fn word(self) -> &'static str {
        match self {
            Presence::Absent => "absent",
            Presence::Skipped => "skipped",
            Presence::Receives => "receives",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ChangeKind {
    Added,
    Removed,
    Changed,
}

impl ChangeKind {
    pub fn word(self) -> &'static str {
        match self {
            ChangeKind::Added => "added",
            ChangeKind::Removed => "removed",
            ChangeKind::Changed => "changed",
        }
    }
}

/// One object that differs, with the unified diff from before to after (secrets masked).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ObjectChange {
    pub id: ObjectId,
    pub kind: ChangeKind,
    pub diff: String,
}

/// What changes on one destination; equal values are the same change.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Change {
    pub before: Presence,
    pub after: Presence,
    pub objects: Vec<ObjectChange>,
}

impl Change {
    /// The bundle starts (`Some(true)`) or stops (`Some(false)`) reaching the destination.
    pub fn receiving(&self) -> Option<bool> {
        let gets = |p: Presence| p == Presence::Receives;
        (gets(self.before) != gets(self.after)).then_some(gets(self.after))
    }

    pub fn count(&self, kind: ChangeKind) -> usize {
        self.objects.iter().filter(|o| o.kind == kind).count()
    }
}

/// Destinations with the same change, in the order they were first met.
#[derive(Clone, Debug)]
pub struct Group {
    pub clusters: Vec<String>,
    pub change: Change,
}

/// The whole review.
#[derive(Debug)]
pub struct Review {
    /// Every destination of either side, the after side's order first.
    pub destinations: usize,
    pub groups: Vec<Group>,
    pub unchanged: Vec<String>,
}

/// Totals over every changed destination (an object changed on 9 clusters counts 9 times).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    pub clusters: usize,
    pub changed: usize,
    pub added: usize,
    pub removed: usize,
    pub start_receiving: usize,
    pub stop_receiving: usize,
}

impl Review {
    pub fn totals(&self) -> Totals {
        let mut t = Totals::default();
        for g in &self.groups {
            let n = g.clusters.len();
            t.clusters += n;
            t.changed += n * g.change.count(ChangeKind::Changed);
            t.added += n * g.change.count(ChangeKind::Added);
            t.removed += n * g.change.count(ChangeKind::Removed);
            match g.change.receiving() {
                Some(true) => t.start_receiving += n,
                Some(false) => t.stop_receiving += n,
                None => {}
            }
        }
        t
    }

    pub fn changes(&self) -> bool {
        !self.groups.is_empty()
    }

    /// "12 of 40 clusters change: 3 objects changed, 1 added, 1 removed".
    pub fn summary(&self) -> String {
        let t = self.totals();
        let noun = if self.destinations == 1 {
            "cluster"
        } else {
            "clusters"
        };
        let mut s = format!(
            "{} of {} {noun} change{}: {} object{} changed, {} added, {} removed",
            t.clusters,
            self.destinations,
            if t.clusters == 1 { "s" } else { "" },
            t.changed,
            if t.changed == 1 { "" } else { "s" },
            t.added,
            t.removed
        );
        if t.start_receiving > 0 {
            s.push_str(&format!(
                "; {} start{} receiving the bundle",
                t.start_receiving,
                if t.start_receiving == 1 { "s" } else { "" }
            ));
        }
        if t.stop_receiving > 0 {
            s.push_str(&format!(
                "; {} stop{} receiving it",
                t.stop_receiving,
                if t.stop_receiving == 1 { "s" } else { "" }
            ));
        }
        s
    }
}

/// Builds a side from a run's objects: each copy of a fan-out goes to its destination; the
/// Kptfile and local-config objects, which no destination gets, are left out. Secrets are kept
/// as trees to be masked unless `show_secrets`.
pub fn side(
    destinations: Vec<String>,
    fanned_out: bool,
    items: Vec<Resource>,
    show_secrets: bool,
) -> Side {
    let single = destinations
        .first()
        .filter(|_| !fanned_out)
        .cloned()
        .unwrap_or_else(|| "output".to_string());
    let destinations = if fanned_out {
        destinations
    } else {
        vec![single.clone()]
    };
    let mut objects: BTreeMap<String, BTreeMap<ObjectId, Held>> = BTreeMap::new();
    for item in items {
        if item.is_meta_or_local() || item.is_list_shell() {
            continue;
        }
        let dest = match (fanned_out, item.cluster()) {
            (true, Some(c)) => c.to_string(),
            (true, None) => continue,
            (false, _) => single.clone(),
        };
        let mine = objects.entry(dest).or_default();
        let mut id = ObjectId {
            api_version: item.api_version().to_string(),
            kind: item.kind().to_string(),
            namespace: item.namespace().map(str::to_string),
            name: item.name().to_string(),
            occurrence: 0,
        };
        while mine.contains_key(&id) {
            id.occurrence += 1;
        }
        mine.insert(id, mask::held(item, show_secrets));
    }
    Side {
        destinations,
        objects,
    }
}

/// Compares the two sides destination by destination.
pub fn compare(before: &Side, after: &Side) -> Review {
    let mut order: Vec<&String> = after.destinations.iter().collect();
    let known: BTreeSet<&String> = order.iter().copied().collect();
    order.extend(before.destinations.iter().filter(|d| !known.contains(d)));
    let mut groups: Vec<Group> = Vec::new();
    let mut index: std::collections::HashMap<Change, usize> = Default::default();
    let mut unchanged = Vec::new();
    for dest in &order {
        let change = destination_change(before, after, dest);
        if change.objects.is_empty() && change.receiving().is_none() {
            unchanged.push(dest.to_string());
            continue;
        }
        match index.get(&change) {
            Some(&i) => groups[i].clusters.push(dest.to_string()),
            None => {
                index.insert(change.clone(), groups.len());
                groups.push(Group {
                    clusters: vec![dest.to_string()],
                    change,
                });
            }
        }
    }
    Review {
        destinations: order.len(),
        groups,
        unchanged,
    }
}

fn presence(side: &Side, dest: &str) -> Presence {
    if side.objects.get(dest).is_some_and(|o| !o.is_empty()) {
        Presence::Receives
    } else if side.destinations.iter().any(|d| d == dest) {
        Presence::Skipped
    } else {
        Presence::Absent
    }
}

fn destination_change(before: &Side, after: &Side, dest: &str) -> Change {
    let empty = BTreeMap::new();
    let old = before.objects.get(dest).unwrap_or(&empty);
    let new = after.objects.get(dest).unwrap_or(&empty);
    let ids: BTreeSet<&ObjectId> = old.keys().chain(new.keys()).collect();
    let mut objects = Vec::new();
    for id in ids {
        if let (Some(Held::Text(a)), Some(Held::Text(b))) = (old.get(id), new.get(id)) {
            if a == b {
                continue;
            }
        }
        let (a, b) = mask::texts(old.get(id), new.get(id));
        if old.contains_key(id) && new.contains_key(id) && a == b {
            continue;
        }
        let kind = match (old.contains_key(id), new.contains_key(id)) {
            (false, _) => ChangeKind::Added,
            (_, false) => ChangeKind::Removed,
            _ => ChangeKind::Changed,
        };
        objects.push(ObjectChange {
            diff: unified(&a, &b, id, kind),
            id: id.clone(),
            kind,
        });
    }
    Change {
        before: presence(before, dest),
        after: presence(after, dest),
        objects,
    }
}

/// The unified diff of one object, its header naming the object on each side.
fn unified(old: &str, new: &str, id: &ObjectId, kind: ChangeKind) -> String {
    let name = id.display();
    let a = if kind == ChangeKind::Added {
        "/dev/null".to_string()
    } else {
        format!("before: {name}")
    };
    let b = if kind == ChangeKind::Removed {
        "/dev/null".to_string()
    } else {
        format!("after: {name}")
    };
    let mut text = TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(3)
        .header(&a, &b)
        .to_string();
    if !text.ends_with('\n') {
        text.push('\n');
    }
    text
}

/// How many cluster names a heading lists before it abbreviates.
pub const SHOWN: usize = 6;

/// Cluster names for a heading: all of them when few, else the first few and the last
/// ("dev-1, dev-2, dev-3 … dev-9").
pub fn short_list(clusters: &[String]) -> String {
    if clusters.len() <= SHOWN {
        return clusters.join(", ");
    }
    format!(
        "{} … {}",
        clusters[..SHOWN - 1].join(", "),
        clusters[clusters.len() - 1]
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_cluster_lists_are_shortened() {
        let names: Vec<String> = (1..=9).map(|i| format!("dev-{i}")).collect();
        assert_eq!(
            short_list(&names),
            "dev-1, dev-2, dev-3, dev-4, dev-5 … dev-9"
        );
        assert_eq!(short_list(&names[..2]), "dev-1, dev-2");
    }
}
