//! The destination-cluster model every tailor stage uses: label selectors with apimachinery's
//! semantics, the cluster description (inline `spec.cluster` or inventory objects), KubeStellar's
//! property precedence, and Fleet / Kratix target matching.
//!
//! Objects arrive as `serde_json::Value`, so the crate does not depend on the YAML layer.
//!
//! ```
//! use serde_json::json;
//! use tailor_cluster::{ClusterSpec, Inventory, TargetCriteria};
//!
//! let items = [
//!     json!({"apiVersion": "cluster.open-cluster-management.io/v1", "kind": "ManagedCluster",
//!            "metadata": {"name": "virgo", "labels": {"env": "prod"}}}),
//!     json!({"apiVersion": "v1", "kind": "ConfigMap",
//!            "metadata": {"name": "virgo", "namespace": "customization-properties"},
//!            "data": {"clusterHash": "1001-dead-beef"}}),
//! ];
//! let inventory = Inventory::from_items(&items)?;
//! let spec = ClusterSpec::from_json(&json!({"name": "virgo"}), "spec.cluster")?;
//! let cluster = inventory.resolve_spec(&spec);
//! assert_eq!(cluster.properties["clusterHash"], "1001-dead-beef");
//! assert_eq!(cluster.properties["env"], "prod");
//!
//! let entry = json!({"name": "prod", "clusterSelector": {"matchLabels": {"env": "prod"}}});
//! let criteria = TargetCriteria::from_json(&entry, "spec.targetCustomizations[0]")?;
//! assert!(criteria.matches(&cluster));
//! # Ok::<(), tailor_cluster::FieldError>(())
//! ```

pub mod inventory;
pub mod matching;
pub mod model;

pub use tailor_kube::{FieldError, StringMap};

pub use inventory::{inventory_kind, is_inventory, Inventory, InventoryKind};
pub use matching::{destination_selected, target_matches, DestinationSelector, TargetCriteria};
pub use model::{Cluster, ClusterGroup, ClusterSpec};
pub use tailor_kube::labels::{self as selector, LabelSelector, Operator, Requirement};

/// No input may panic: every parser is fed pseudo-random JSON and selector strings.
#[cfg(test)]
mod robustness {
    use serde_json::{json, Map, Value};
    use tailor_testkit::Rng;

    use crate::*;

    const KEYS: &[&str] = &[
        "name",
        "labels",
        "annotations",
        "groups",
        "properties",
        "strictMatchLabels",
        "matchLabels",
        "matchExpressions",
        "key",
        "operator",
        "values",
        "clusterName",
        "clusterSelector",
        "clusterGroup",
        "clusterGroupSelector",
        "directory",
        "metadata",
        "namespace",
        "spec",
        "selector",
        "data",
        "binaryData",
        "apiVersion",
        "kind",
        "env",
    ];
    const STRINGS: &[&str] = &[
        "",
        "x",
        "In",
        "NotIn",
        "Exists",
        "DoesNotExist",
        "Foo",
        "a/b",
        "a/b/c",
        "-",
        "é",
        "v1",
        "ConfigMap",
        "customization-properties",
        "fleet.cattle.io/v1alpha1",
        "Cluster",
        "ClusterGroup",
        "platform.kratix.io/v1alpha1",
        "Destination",
        "ManagedCluster",
        "cluster.open-cluster-management.io/v1",
        "Zg==",
        "!!",
        "type",
        "../a",
        "a/b",
    ];

    fn value(rng: &mut Rng, depth: u32) -> Value {
        match rng.next_u64() % if depth > 3 { 5 } else { 7 } {
            0 => Value::Null,
            1 => json!(rng.next_u64() % 2 == 0),
            2 => json!(rng.next_u64() % 100),
            3 | 4 => json!(rng.pick(STRINGS)),
            5 => Value::Array(
                (0..rng.next_u64() % 4)
                    .map(|_| value(rng, depth + 1))
                    .collect(),
            ),
            _ => {
                let mut m = Map::new();
                for _ in 0..rng.next_u64() % 5 {
                    let k = rng.pick(KEYS).to_string();
                    m.insert(k, value(rng, depth + 1));
                }
                Value::Object(m)
            }
        }
    }

    #[test]
    fn random_json_never_panics() {
        let mut rng = Rng::xorshift64(0x9E37_79B9_7F4A_7C15);
        let cluster = Cluster::named("x");
        for _ in 0..20_000 {
            let v = value(&mut rng, 0);
            let _ = selector::from_json(&v, "s");
            let _ = ClusterSpec::from_json(&v, "c");
            let _ = target_matches(&v, "t", &cluster);
            let _ = DestinationSelector::list_from_json(&v, "d");
            let _ = is_inventory(&v);
            if let Ok(inv) = Inventory::from_items(std::slice::from_ref(&v)) {
                for n in inv.cluster_names() {
                    let _ = inv.resolve(n);
                }
            }
        }
    }

    #[test]
    fn random_selector_strings_never_panic() {
        const PIECES: &[&str] = &[
            "a", "b", "in", "notin", "=", "==", "!=", "!", "(", ")", ",", ">", "<", " ", "1", "-1",
            "é", "x/y", "\0", "\t",
        ];
        let mut rng = Rng::xorshift64(42);
        for _ in 0..20_000 {
            let s: String = (0..rng.next_u64() % 8).map(|_| rng.pick(PIECES)).collect();
            if let Ok(sel) = LabelSelector::parse(&s) {
                // The canonical form parses back to the same selector.
                let again = LabelSelector::parse(&sel.to_string());
                assert_eq!(again.as_ref(), Ok(&sel), "{s:?} -> {sel}");
            }
        }
    }
}
