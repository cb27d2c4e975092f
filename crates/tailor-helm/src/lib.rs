//! Helm v3 semantics, ported from helm/helm at tag v3.21.4
//! (commit 813176c51bb5c181dbbd7901298ddcc104cd3417), for rendering charts the way
//! `helm template` does.
//!
//! `tailor helm template` renders a chart directory with [`engine::prepare`] and
//! [`engine::Engine::render`] (parse once, render many times).
//!
//! Values are [`serde_json::Value`]s standing for Go's `interface{}` values as Helm
//! holds them. Numbers keep Go's two types apart: a number that is an `f64` in
//! serde_json is Go's `float64` (what Helm gets from values files and `--set-json`,
//! both read through `encoding/json`), an `i64`/`u64` is Go's `int64` (what `--set`
//! gives). Maps keep insertion order; Helm's maps are Go maps with no order, and
//! Helm sorts keys wherever order shows (`toYaml`, `range`), so order here carries no
//! meaning for Helm equivalence.
//!
//! - [`strvals`]: `--set`, `--set-string`, `--set-json`, `--set-file` lines.
//! - [`coalesce`]: chart defaults, user values and globals coalesced or merged.
//! - [`release`]: manifests split from rendered text and sorted in install order.

mod aes;
mod builtins;
pub mod chart;
pub mod coalesce;
mod decimal;
pub mod dependencies;
mod dicts;
mod encode;
pub mod engine;
mod extra;
pub mod files;
pub mod funcs;
mod gofmt;
mod hashes;
mod ignore;
mod more;
mod password;
pub mod release;
mod schema;
mod scrypt;
pub mod semver;
mod seqs;
pub mod sprig;
pub mod strvals;
mod tomlerr;
mod url;
mod words;

#[cfg(test)]
mod testdata;

pub use chart::{load_dir, Chart};
pub use engine::{prepare, render, Engine, Error, Failure, Options, Rendered};
