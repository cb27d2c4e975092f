//! kustomize v5.5.0's built-in transformers behind Flux Kustomization overlay fields, over
//! `tailor_yaml::Node` trees:
//!
//! * `namespace:` ([`set_namespace`]) — metadata.namespace on namespaced kinds, `v1`
//!   Namespace objects renamed, RBAC subjects named `default`, APIService and CRD webhook
//!   service namespaces;
//! * `namePrefix:` / `nameSuffix:` ([`add_prefix_suffix`]) — metadata.name except on CRDs,
//!   APIServices and Namespaces;
//! * name references ([`NameTracker::fix_name_references`]) — kustomize's table of fields
//!   that name other objects, rewritten after renames and namespace moves;
//! * `images:` ([`set_images`]);
//! * Flux `commonMetadata` ([`set_common_metadata`]).
//!
//! Only nodes whose value changes are replaced; everything else keeps its text, comments and
//! position. kustomize's `internal.config.kubernetes.io/*` build annotations are not written:
//! the history they carry lives in a [`NameTracker`] instead, and kustomize removes them from
//! its output anyway.

mod common_metadata;
mod config;
mod fieldspec;
mod images;
mod nameref;
mod namespace;
mod prefix_suffix;
mod tracker;

use tailor_yaml::Node;

pub use crate::Error;
pub use common_metadata::set_common_metadata;
pub use config::string_map_from_node;
pub use images::{set_images, split as split_image, Image};
pub use namespace::set_namespace_tracked;
pub use prefix_suffix::add_prefix_suffix_tracked;
pub use tracker::NameTracker;

/// The kustomization fields Flux generates from a Kustomization's overlay settings.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Overlay {
    /// `targetNamespace` → `namespace:`; empty means unset.
    pub namespace: String,
    pub name_prefix: String,
    pub name_suffix: String,
    pub images: Vec<Image>,
}

impl Overlay {
    pub fn is_empty(&self) -> bool {
        self.namespace.is_empty()
            && self.name_prefix.is_empty()
            && self.name_suffix.is_empty()
            && self.images.is_empty()
    }
}

/// Runs the overlay's transformers in kustomize's order (namespace, prefix, suffix, images)
/// and returns the renaming history. Name references are not fixed yet: kustomize does that
/// at the very end of a build, after replacements, so call
/// [`NameTracker::fix_name_references`] once the stages in between have run.
pub fn apply_transformers(resources: &mut [Node], overlay: &Overlay) -> Result<NameTracker, Error> {
    let mut tracker = NameTracker::new(resources.len());
    set_namespace_tracked(resources, &overlay.namespace, &mut tracker)?;
    add_prefix_suffix_tracked(
        resources,
        &overlay.name_prefix,
        &overlay.name_suffix,
        &mut tracker,
    )?;
    set_images(resources, &overlay.images)?;
    Ok(tracker)
}

/// [`apply_transformers`] followed by [`NameTracker::fix_name_references`]: what
/// `kustomize build` does for a kustomization with only these fields.
pub fn apply_overlay(resources: &mut [Node], overlay: &Overlay) -> Result<(), Error> {
    let tracker = apply_transformers(resources, overlay)?;
    tracker.fix_name_references(resources)
}

/// kustomize's `namespace:` alone, references included.
pub fn set_namespace(resources: &mut [Node], namespace: &str) -> Result<(), Error> {
    let mut tracker = NameTracker::new(resources.len());
    set_namespace_tracked(resources, namespace, &mut tracker)?;
    tracker.fix_name_references(resources)
}

/// kustomize's `namePrefix:` and `nameSuffix:` alone, references included.
pub fn add_prefix_suffix(resources: &mut [Node], prefix: &str, suffix: &str) -> Result<(), Error> {
    let mut tracker = NameTracker::new(resources.len());
    add_prefix_suffix_tracked(resources, prefix, suffix, &mut tracker)?;
    tracker.fix_name_references(resources)
}

/// `apps/v1 Deployment ns/name`, for messages.
pub(crate) fn describe(node: &Node) -> String {
    tailor_kube::resid::ResId::of(node).describe()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn name_reference_table_is_complete() {
        // 166 referrer field specs in kustomize v5.5.0's namereference.go
        assert_eq!(nameref::referrer_count(), 166);
        assert_eq!(
            nameref::describe_table(),
            vec![
                "Deployment <- 1",
                "ReplicationController <- 1",
                "ReplicaSet <- 1",
                "StatefulSet <- 1",
                "ConfigMap <- 52",
                "Secret <- 70",
                "Service <- 8",
                "Role <- 1",
                "ClusterRole <- 2",
                "ServiceAccount <- 9",
                "PersistentVolumeClaim <- 7",
                "PersistentVolume <- 2",
                "StorageClass <- 3",
                "PriorityClass <- 7",
                "IngressClass <- 1",
            ]
        );
    }
}
