//! Helpers shared by the workspace's tests, used only as a `[dev-dependencies]` entry.
//!
//! The tests used to carry their own copies of a seeded generator, of a `kubectl kustomize`
//! runner and of the differential tests' frame; one copy each keeps seeds reproducing the same
//! cases everywhere and gives every differential test the same timeout, the same environment
//! variables, the same loud skip when kubectl is missing and the same report.
//!
//! - [`rng`]: the seeded generator; [`json`]: random JSON and number-insensitive comparison;
//! - [`kubectl`]: `kubectl kustomize` under a timeout; [`differential`]: the cases of a
//!   differential test and their report;
//! - [`yaml`]: test inputs parsed into `tailor_yaml` nodes.

pub mod differential;
pub mod json;
pub mod kubectl;
pub mod rng;
pub mod yaml;

pub use rng::Rng;

/// A string map (labels, annotations, properties) written as pairs.
pub fn string_map(pairs: &[(&str, &str)]) -> std::collections::BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}
