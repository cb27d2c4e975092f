//! tailor: tailors Kubernetes manifests to a destination cluster, as a KRM function.
pub mod cli;
