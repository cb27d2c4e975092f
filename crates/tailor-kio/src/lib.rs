//! The KRM function protocol: ResourceList in, ResourceList out, results and exit codes
//! (`docs/semantics/krm.md` §8), plus the plain multi-document form used by shell pipes and the
//! files of standalone mode. It knows nothing of stages or plans.
//!
//! Its own crate so that the data path has one owner whose `Cargo.toml` shows what it may
//! know: the YAML layer and the Kubernetes vocabulary, never an upstream project (issue 24).

pub mod annotations;
pub mod env;
pub mod files;
pub mod host;
pub mod input;
pub mod lists;
pub mod orchestrator;
pub mod read;
pub mod resource;
pub mod results;
pub mod write;

pub use read::{read_input, Input, InputForm};
pub use resource::{Origin, Resource};
pub use results::{KrmResult, ResourceRef, Severity};
