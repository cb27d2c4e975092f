//! tailor: tailors Kubernetes manifests to a destination cluster, as a KRM function.
//!
//! The data path (README's diagram): `cli` turns argv into a mode and makes one call into
//! `tailor_kio`, which owns the items, reading, the run (inputs, destinations, fan-out) and
//! writing. `config` turns the functionConfig (and, in standalone mode, the command line's
//! `config::Choices`) into a plan of `stages` nothing changes afterwards; the plan is the job
//! `tailor_kio` runs. Dependencies point one way: cli → config → stages → tailor_kio.

pub mod cli;
pub mod config;
pub mod review;
pub mod stages;

use tailor_kio::reading::Reading;
use tailor_kio::run::Answer;

/// The KRM function's answer to `text`, its ResourceList written to `out`, with the items
/// read as `reading` says: the binary's path, in this process (tests, benches, fuzzing).
pub fn respond(text: String, reading: Reading, out: &mut dyn std::io::Write) -> Answer {
    tailor_kio::run::respond(text, config::parse, reading, out)
}

/// How the binary reads the items of `text`, from the functionConfig read ahead of them.
pub fn item_reading(text: &str) -> Reading {
    tailor_kio::reading::item_reading(text, config::parse)
}
