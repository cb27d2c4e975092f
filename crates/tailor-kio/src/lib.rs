//! The KRM function protocol: ResourceList in, ResourceList out, results and exit codes
//! (`docs/semantics/krm.md` §8), plus the plain multi-document form used by shell pipes and the
//! files of standalone mode, and the stage pipeline (`pipeline`): what a stage declares and
//! how the stages run for a destination. It names no stage and no plan.
//!
//! Its own crate so that the data path has one owner whose `Cargo.toml` shows what it may
//! know: the YAML layer and the Kubernetes vocabulary, never an upstream project (issue 24).

pub mod annotations;
pub mod env;
pub mod explain;
pub mod files;
pub mod host;
mod identity;
pub mod input;
pub mod job;
pub mod lists;
pub mod memory;
pub mod orchestrator;
pub mod ordered;
pub mod output_dir;
pub mod package;
pub mod pipeline;
pub mod read;
pub mod reading;
pub mod renderings;
pub mod resource;
pub mod results;
pub mod run;
pub mod safe_paths;
pub mod standalone;
mod streaming;
pub mod write;

pub use job::Job;
pub use read::{read_input, Input, InputForm};
pub use resource::{Origin, Resource};
pub use results::{KrmResult, ResourceRef, Severity};
