//! tailor: tailors Kubernetes manifests to a destination cluster, as a KRM function.
//!
//! The data path: `cli` reads the input (a ResourceList, files, a Fleet bundle) through `krm`;
//! `config` turns the functionConfig into a plan of `stages`; `run` splits off the inputs it
//! consumes, resolves the destinations and runs the stages for each; `krm` writes the answer.
//! Dependencies point one way: cli → run → config, stages → krm.

pub mod cli;
pub mod config;
pub mod env;
pub mod input;
pub mod krm;
pub mod run;
pub mod stages;
