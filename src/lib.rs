//! tailor: tailors Kubernetes manifests to a destination cluster, as a KRM function.
//!
//! The data path: `cli` reads the input (a ResourceList, files, a Fleet bundle) through
//! `tailor_kio`; `config` turns the functionConfig into a plan of `stages`; `run` splits off
//! the inputs it consumes, resolves the destinations and runs the stages for each; `tailor_kio`
//! writes the answer. Dependencies point one way: cli → run → config, stages → tailor_kio.

pub mod cli;
pub mod config;
pub mod run;
pub mod stages;
