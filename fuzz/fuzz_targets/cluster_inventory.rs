//! Inventory (tailor-cluster) and matching (tailor-fleet, tailor-kratix): a YAML stream of inventory objects (ManagedCluster,
//! Fleet Cluster/ClusterGroup, Kratix Destination, customization-properties ConfigMaps) plus a
//! last document holding a cluster spec, a Fleet target entry and Kratix selectors. Reading,
//! resolving and matching never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use tailor_cluster::{is_inventory, ClusterSpec, Inventory};
use tailor_fleet::TargetCriteria;
use tailor_kratix::DestinationSelector;

fuzz_target!(|data: &[u8]| {
    let Some(docs) = tailor_fuzz::yaml_docs(data) else {
        return;
    };
    let mut items: Vec<Value> = docs.iter().filter_map(|d| d.root.to_json().ok()).collect();
    let config = items.pop().unwrap_or(Value::Null);
    for item in &items {
        let _ = is_inventory(item);
    }
    let Ok(inventory) = Inventory::from_items(&items) else {
        return;
    };
    let _ = inventory.warnings();
    let spec = config
        .get("cluster")
        .and_then(|c| ClusterSpec::from_json(c, "spec.cluster").ok())
        .unwrap_or_else(|| ClusterSpec::named("virgo"));
    let cluster = inventory.resolve_spec(&spec);
    if let Some(entry) = config.get("target") {
        if let Ok(criteria) = TargetCriteria::from_json(entry, "spec.targetCustomizations[0]") {
            let _ = criteria.matches(&cluster);
        }
    }
    if let Some(list) = config.get("destinationSelectors") {
        if let Ok(selectors) =
            DestinationSelector::list_from_json(list, "spec.destinationSelectors")
        {
            for s in &selectors {
                let _ = s.selects(&cluster);
            }
        }
    }
});
