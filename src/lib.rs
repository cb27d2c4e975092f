//! tailor: tailors Kubernetes manifests to a destination cluster, as a KRM function.
pub mod cli;
pub mod config;
pub mod filters;
pub mod input;
pub mod krm;
pub mod run;
pub mod tools;
