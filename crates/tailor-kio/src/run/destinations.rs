//! The destinations a run tailors for: the plan's cluster specs, completed from the inventory
//! objects among the items (`tailor-cluster` merges them).

use tailor_cluster::{Cluster, ClusterSpec, Inventory};

use crate::job::is_inventory;
use crate::{KrmResult, Resource};

/// The destinations `specs` name, resolved against the inventory `items`; `None` (with the error in
/// `results`) when an inventory object is malformed.
pub(super) fn resolve(
    specs: &[ClusterSpec],
    items: &[Resource],
    results: &mut Vec<KrmResult>,
) -> Option<Vec<Cluster>> {
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
    Some(
        specs
            .iter()
            .map(|spec| inventory.resolve_spec(spec))
            .collect(),
    )
}
