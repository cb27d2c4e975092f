//! The destinations a run tailors for: the plan's cluster specs, completed from the inventory
//! objects among the items (`tailor-cluster` merges them).

use tailor_cluster::{Cluster, Inventory};

use crate::config::{Plan, Targets};
use tailor_kio::{KrmResult, Resource};

/// The plan's destinations, resolved against the inventory `items`; `None` (with the error in
/// `results`) when an inventory object is malformed.
pub(super) fn resolve(
    plan: &Plan,
    items: &[Resource],
    results: &mut Vec<KrmResult>,
) -> Option<Vec<Cluster>> {
    let mut inventory = Inventory::default();
    for r in items.iter().filter(|r| super::inputs::is_inventory(r)) {
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
        plan.clusters
            .iter()
            .map(|spec| inventory.resolve_spec(spec))
            .collect(),
    )
}

/// A warning for each target customization that matches none of the destinations: it changes
/// nothing, which for a misspelt label or cluster name is a silent wrong answer.
pub(super) fn unmatched_customizations(
    plan: &Plan,
    clusters: &[Cluster],
    results: &mut Vec<KrmResult>,
) {
    let Targets::Fleet(config) = &plan.targets else {
        return;
    };
    if clusters.is_empty() || config.customizations.is_empty() || plan.narrowed {
        return;
    }
    let mut used = vec![false; config.customizations.len()];
    for cluster in clusters {
        for i in config.matching(cluster) {
            used[i] = true;
        }
    }
    let names: Vec<String> = clusters.iter().map(|c| format!("{:?}", c.name)).collect();
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
