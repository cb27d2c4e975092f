//! tailor: tailors Kubernetes manifests to a destination cluster, as a KRM function.
//!
//! The data path (README's diagram): `cli` turns argv into a mode; the KRM function is one
//! call, `run::resource_list::answer`. `tailor_kio` owns the items, reading and writing;
//! `config` turns the functionConfig (and, in standalone mode, the command line's
//! `config::Choices`) into a plan of `stages` nothing changes afterwards; `run` splits off the
//! inputs it consumes, resolves the destinations and runs the stages for each. Dependencies
//! point one way: cli → run → config, stages → tailor_kio.

pub mod cli;
pub mod config;
pub mod review;
pub mod run;
pub mod safe_paths;
pub mod stages;
