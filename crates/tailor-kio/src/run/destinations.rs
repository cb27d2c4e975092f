//! The destinations a run tailors for: the plan's cluster specs, completed from the inventory
//! objects among the items (`tailor-cluster` merges them). Each [`Cluster`] is built when it is
//! asked for and dropped after: a fan-out to 20,000 clusters holds the compact specs and the
//! inventory, not 20,000 resolved clusters (a few kilobytes each).

use tailor_cluster::{Cluster, CompactSpec, Inventory};

use crate::job::is_inventory;
use crate::{KrmResult, Resource};

/// A run's destinations, in the plan's order.
pub struct Destinations<'a> {
    specs: &'a [CompactSpec],
    inventory: Inventory,
}

impl<'a> Destinations<'a> {
    /// The destinations `specs` name, resolved against `inventory`.
    pub fn new(specs: &'a [CompactSpec], inventory: Inventory) -> Destinations<'a> {
        Destinations { specs, inventory }
    }

    pub fn len(&self) -> usize {
        self.specs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.specs.is_empty()
    }

    /// The name of destination `at`.
    pub fn name(&self, at: usize) -> &'a str {
        self.specs[at].name()
    }

    /// The names, in order.
    pub fn names(&self) -> impl ExactSizeIterator<Item = &'a str> + Clone + 'a {
        self.specs.iter().map(CompactSpec::name)
    }

    /// Destination `at`, resolved.
    pub fn cluster(&self, at: usize) -> Cluster {
        self.inventory.resolve_spec(&self.specs[at].spec())
    }

    /// Every destination, resolved one at a time.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = Cluster> + '_ {
        (0..self.len()).map(|at| self.cluster(at))
    }

    /// The first destination, resolved.
    pub fn first(&self) -> Option<Cluster> {
        (!self.is_empty()).then(|| self.cluster(0))
    }
}

/// The destinations `specs` name, resolved against the inventory `items`; `None` (with the error in
/// `results`) when an inventory object is malformed.
pub(super) fn resolve<'a>(
    specs: &'a [CompactSpec],
    items: &[Resource],
    results: &mut Vec<KrmResult>,
) -> Option<Destinations<'a>> {
    let mut inventory = Inventory::default();
    for r in items.iter().filter(|r| is_inventory(r)) {
        let json = match r.node().to_json() {
            Ok(j) => j,
            Err(e) => {
                results.push(KrmResult::error(e.to_string()).about(r));
                return None;
            }
        };
        // A ResourceList item is named by its place there (`items[3].metadata.name`); a
        // document of a file by its file and index, with paths inside the object.
        if let Err(e) = inventory.add_item(&json, &r.place().unwrap_or_default()) {
            let mut result = KrmResult::error(e.to_string()).at_field(e.field.clone());
            if r.place().is_none() {
                result = result.about(r);
            }
            results.push(result);
            return None;
        }
    }
    for w in inventory.warnings() {
        results.push(KrmResult::warning(w.clone()));
    }
    Some(Destinations::new(specs, inventory))
}
