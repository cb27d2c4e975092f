//! The destination-cluster model every tailor stage uses: the cluster description (inline
//! `spec.cluster`) and the inventory objects of every system it reads (OCM ManagedCluster, Fleet
//! Cluster and ClusterGroup, Kratix Destination, KubeStellar property ConfigMaps) merged into one
//! [`Cluster`] per name. Matching a cluster is each system's own business (tailor-fleet,
//! tailor-kratix); which keys become template properties, and their precedence, follows
//! KubeStellar ([`properties`]).
//!
//! Objects arrive as `serde_json::Value`, so the crate does not depend on the YAML layer.
//!
//! ```
//! use serde_json::json;
//! use tailor_cluster::{ClusterSpec, Inventory};
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

//! # Ok::<(), tailor_cluster::FieldError>(())
//! ```

pub mod compact;
pub mod inventory;
pub mod model;
pub mod properties;

pub use tailor_kube::{FieldError, StringMap};

pub use compact::CompactSpec;
pub use inventory::{inventory_kind, inventory_kind_of, is_inventory, Inventory, InventoryKind};
pub use model::{Cluster, ClusterGroup, ClusterSpec, InventoryObject, CLUSTER_FIELDS};
pub use tailor_kube::labels::{self as selector, LabelSelector, Operator, Requirement};

/// No input may panic: every parser is fed pseudo-random JSON and selector strings.
#[cfg(test)]
mod robustness {
    use tailor_testkit::json::random_value;
    use tailor_testkit::Rng;

    use crate::*;

    /// The keys of random maps, after the cluster spec's own fields.
    const MORE_KEYS: &[&str] = &[
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

    #[test]
    fn random_json_never_panics() {
        let keys = [model::CLUSTER_FIELDS, MORE_KEYS].concat();
        let mut rng = Rng::xorshift64(0x9E37_79B9_7F4A_7C15);
        for _ in 0..20_000 {
            let v = random_value(&mut rng, &keys, STRINGS);
            let _ = tailor_kube::labels::from_json(&v, "s");
            let _ = ClusterSpec::from_json(&v, "c");
            let _ = is_inventory(&v);
            if let Ok(inv) = Inventory::from_items(std::slice::from_ref(&v)) {
                for n in inv.cluster_names() {
                    let _ = inv.resolve(n);
                }
            }
        }
    }
}
