//! Helpers shared by the workspace's tests, used only as a `[dev-dependencies]` entry.
//!
//! The tests used to carry their own copies of a seeded generator and of a `kubectl kustomize`
//! runner; one copy each keeps seeds reproducing the same cases everywhere and gives every
//! differential test the same timeout and the same loud skip when kubectl is missing.

pub mod json;
pub mod kubectl;
pub mod rng;

pub use rng::Rng;
