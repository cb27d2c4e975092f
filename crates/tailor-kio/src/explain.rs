//! What `--explain` records of one destination's run: for each stage how many objects it
//! changed, added and removed, and for each rule (a replacement, a patch, an overlay file, a
//! CustomTransform) what it did. Recording costs a copy of every tree per stage, so only an
//! explaining run does it.

use std::collections::HashMap;

use tailor_yaml::Node;

use crate::Resource;

/// One destination's notes.
#[derive(Debug, Default)]
pub struct Notes {
    pub stages: Vec<StageNote>,
    /// (the rule's field, what it did), in the order the rules ran.
    pub rules: Vec<(String, String)>,
}

/// What one stage did to the objects.
#[derive(Debug)]
pub struct StageNote {
    pub name: &'static str,
    pub changed: usize,
    pub added: usize,
    pub removed: usize,
}

impl StageNote {
    pub fn did_something(&self) -> bool {
        self.changed + self.added + self.removed > 0
    }
}

/// The objects before a stage, by identity, to compare with after it.
pub struct Snapshot(HashMap<String, Vec<Node>>);

/// An object's identity across a stage that may rename it: its place in the input (its path
/// and index, or its identity when it has no path).
fn key(r: &Resource) -> String {
    match (r.path(), r.index()) {
        (Some(p), Some(i)) => format!("{p}#{i}"),
        _ => r.display_id(),
    }
}

impl Snapshot {
    pub fn of(items: &[Resource]) -> Snapshot {
        let mut m: HashMap<String, Vec<Node>> = HashMap::new();
        for r in items {
            m.entry(key(r)).or_default().push(r.node().clone());
        }
        Snapshot(m)
    }

    /// What `stage` did, comparing the objects after it with this snapshot.
    pub fn compare(mut self, name: &'static str, items: &[Resource]) -> StageNote {
        let mut note = StageNote {
            name,
            changed: 0,
            added: 0,
            removed: 0,
        };
        for r in items {
            match self.0.get_mut(&key(r)).and_then(|v| v.pop()) {
                Some(before) => note.changed += usize::from(before != *r.node()),
                None => note.added += 1,
            }
        }
        note.removed = self.0.values().map(Vec::len).sum();
        note
    }
}

/// "1 object", "3 objects".
pub fn objects(n: usize) -> String {
    if n == 1 {
        "1 object".into()
    } else {
        format!("{n} objects")
    }
}
