//! The destination-cluster model every tailor stage uses: label selectors with apimachinery's
//! semantics, the cluster description (inline `spec.cluster` or inventory objects), KubeStellar's
//! property precedence, and Fleet / Kratix target matching.
//!
//! Objects arrive as `serde_json::Value`, so the crate does not depend on the YAML layer.

mod base64;
pub mod error;
pub mod identifier;
pub mod inventory;
mod json;
pub mod matching;
pub mod model;
pub mod selector;

/// A string-to-string map (labels, annotations, properties). Sorted, so output is deterministic.
pub type StringMap = std::collections::BTreeMap<String, String>;

pub use error::{FieldError, SelectorError};
pub use identifier::is_go_identifier;
pub use inventory::{inventory_kind, is_inventory, Inventory, InventoryKind};
pub use matching::{destination_selected, target_matches, DestinationSelector, TargetCriteria};
pub use model::{collect_properties, Cluster, ClusterGroup, ClusterSpec};
pub use selector::{LabelSelector, Operator, Requirement};
