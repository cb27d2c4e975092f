//! The KRM function protocol: ResourceList in, ResourceList out, results and exit codes
//! (`docs/semantics/krm.md` §8), plus the plain multi-document form used by shell pipes.

pub mod annotations;
pub mod read;
pub mod resource;
pub mod results;
pub mod standalone;
pub mod write;

pub use read::{read_input, Input, InputForm};
pub use resource::{Origin, Resource};
pub use results::{KrmResult, ResourceRef, Severity};
