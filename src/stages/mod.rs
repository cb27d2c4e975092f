//! One adapter per stage of the pipeline (`tailor_kio::pipeline`): each wraps the upstream
//! crate that does the work and declares what the pipeline needs to know about it. The plan
//! (`config::Plan`) lists the stages a functionConfig asks for, in `docs/design.md`'s order.

pub mod common_metadata;
#[cfg(test)]
mod example;
pub mod fleet_helm;
pub mod fleet_namespaces;
pub mod fleet_overlays;
pub mod flux_overlays;
mod nodes;
pub mod owner_labels;
pub mod replacements;
pub mod schedule;
pub mod sops;
pub mod strip;
pub mod substitution;
pub mod targets;
pub mod templates;
mod unmatched;

pub use tailor_kio::explain;
pub use tailor_kio::pipeline::{
    run_all, Applied, Apply, Claim, Declaration, Destination, Log, NameRead, PropertyReads, Reads,
    Scope, Sees, Stage, State,
};
pub use targets::{Tailoring, TargetFields};

/// What a stage runs with besides the items.
pub type Context<'a> = tailor_kio::pipeline::Context<'a, Tailoring>;
/// A stage of a run with its inputs and its state for one worker.
pub type Forked<'p> = tailor_kio::pipeline::Forked<'p, Tailoring>;
