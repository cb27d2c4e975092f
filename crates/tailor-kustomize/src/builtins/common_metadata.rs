//! Flux's `commonMetadata` (fluxcd/pkg `ssa/utils.SetCommonMetadata`): labels and
//! annotations set on every object's own metadata — no kind exemptions, no selectors or
//! pod templates — overriding existing keys.

use tailor_yaml::Node;

use crate::builtins::fieldspec::set_string;
use crate::builtins::{describe, Error};

/// Sets `labels` and `annotations` on every resource's `metadata`, in the given order;
/// existing keys keep their position, new ones are appended.
pub fn set_common_metadata(
    resources: &mut [Node],
    labels: &[(String, String)],
    annotations: &[(String, String)],
) -> Result<(), Error> {
    for node in resources.iter_mut() {
        if !node.is_mapping() {
            continue;
        }
        for (field, entries) in [("labels", labels), ("annotations", annotations)] {
            if entries.is_empty() {
                continue;
            }
            set_entries(node, field, entries)
                .map_err(|e| Error::new(format!("{}: metadata.{field}: {e}", describe(node))))?;
        }
    }
    Ok(())
}

fn set_entries(node: &mut Node, field: &str, entries: &[(String, String)]) -> Result<(), String> {
    let metadata = node
        .entry_or_insert("metadata", Node::mapping)
        .filter(|m| m.is_mapping())
        .ok_or("metadata is not a mapping")?;
    let map = metadata
        .entry_or_insert(field, Node::mapping)
        .filter(|m| m.is_mapping())
        .ok_or("not a mapping")?;
    for (k, v) in entries {
        match map.get_mut(k) {
            Some(existing) if existing.as_str() == Some(v.as_str()) => {}
            Some(existing) => set_string(existing, v),
            None => {
                map.set(k, Node::string(v.as_str()));
            }
        }
    }
    Ok(())
}
