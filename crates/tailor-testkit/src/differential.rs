//! The frame of a differential test against `kubectl kustomize`: how many generated cases,
//! from which seed, each in its own directory built by kubectl, and the verdicts collected
//! into one report. The test brings the generator, its own build and the comparison.
//!
//! ```no_run
//! use tailor_testkit::differential::{Cases, Outcome};
//!
//! let Some(mut cases) = Cases::start("differential_against_kubectl_kustomize", "demo", 0x5EED)
//! else {
//!     return; // kubectl is missing: the loud skip has been printed
//! };
//! for i in 0..cases.count {
//!     let name = if cases.rng.coin() { "a" } else { "b" };
//!     let cm = format!("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {name}\n");
//!     let kustomization = "resources: [cm.yaml]\n";
//!     let (dir, build) = cases.build(i, &[("cm.yaml", &cm), ("kustomization.yaml", kustomization)]);
//!     let theirs = Outcome::of_kubectl(build, |out| out.contains(&format!("name: {name}")));
//!     let mismatch = match theirs {
//!         Outcome::Data(true) => None,
//!         other => Some(format!("kubectl: {other:?}")),
//!     };
//!     cases.verdict(i, &dir, mismatch);
//! }
//! cases.finish("demo: done");
//! ```
//!
//! `TAILOR_DIFF_CASES` overrides the number of cases (default 200), `TAILOR_DIFF_SEED` the
//! seed; `TAILOR_DIFF_VERBOSE` is for the tests to print what they compare.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::kubectl::{self, Build};
use crate::Rng;

/// How many cases a differential test runs unless `TAILOR_DIFF_CASES` says otherwise.
pub const DEFAULT_CASES: usize = 200;

/// What one side made of a case.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome<T> {
    Data(T),
    Error(String),
    /// kubectl ran past [`kubectl::TIMEOUT`].
    Hang,
}

impl<T> Outcome<T> {
    /// kubectl's side: its output read by `data`, its stderr when it failed, or a hang.
    pub fn of_kubectl(build: Build, data: impl FnOnce(&str) -> T) -> Outcome<T> {
        if build.timed_out() {
            Outcome::Hang
        } else if build.success() {
            Outcome::Data(data(&build.stdout))
        } else {
            Outcome::Error(build.stderr)
        }
    }
}

/// How the two sides' outcomes disagree, as the report says it (for the pairs a test does not
/// accept).
pub fn difference(theirs: &Outcome<Vec<Value>>, ours: &Outcome<Vec<Value>>) -> String {
    let json = |v: &Vec<Value>| serde_json::to_string(v).unwrap_or_default();
    match (theirs, ours) {
        (Outcome::Data(a), Outcome::Data(b)) => format!(
            "data differs:\n kubectl: {}\n ours:    {}",
            json(a),
            json(b)
        ),
        (Outcome::Data(_), Outcome::Error(b)) => format!("kubectl ok, ours failed: {b}"),
        (Outcome::Error(a), Outcome::Data(_)) => format!("kubectl failed: {a}, ours ok"),
        (Outcome::Error(a), Outcome::Error(b)) => {
            format!("errors differ:\n kubectl: {a}\n ours:    {b}")
        }
        (Outcome::Hang, Outcome::Data(_)) => "kubectl hung, ours ok".into(),
        (Outcome::Hang, Outcome::Error(b)) => format!("kubectl hung, ours failed: {b}"),
        (_, Outcome::Hang) => "impossible: ours hung".into(),
    }
}

/// Whether `TAILOR_DIFF_VERBOSE` is set.
pub fn verbose() -> bool {
    std::env::var_os("TAILOR_DIFF_VERBOSE").is_some()
}

/// The cases of one differential test run, and the mismatches found so far.
pub struct Cases {
    /// How many cases to generate.
    pub count: usize,
    /// The generator, seeded from `TAILOR_DIFF_SEED` or the test's own default.
    pub rng: Rng,
    base: PathBuf,
    mismatches: Vec<String>,
}

impl Cases {
    /// Starts the run of `test` (its case directories under `tailor-<tag>-diff-<pid>` in the
    /// temporary directory), or returns `None` after [`kubectl::require`]'s loud skip.
    ///
    /// Panics when `TAILOR_DIFF_SEED` is 0 (see [`Rng::xorshift64`]).
    pub fn start(test: &str, tag: &str, default_seed: u64) -> Option<Cases> {
        if !kubectl::require(test) {
            return None;
        }
        Some(Cases {
            count: env_number("TAILOR_DIFF_CASES").unwrap_or(DEFAULT_CASES),
            rng: Rng::xorshift64(env_number("TAILOR_DIFF_SEED").unwrap_or(default_seed)),
            base: std::env::temp_dir().join(format!("tailor-{tag}-diff-{}", std::process::id())),
            mismatches: Vec::new(),
        })
    }

    /// Writes `files` (name, text) into case `case`'s own directory and builds it with
    /// `kubectl kustomize`.
    pub fn build(&self, case: usize, files: &[(&str, &str)]) -> (PathBuf, Build) {
        let dir = self.base.join(format!("case-{case:03}"));
        std::fs::create_dir_all(&dir).unwrap();
        for (name, text) in files {
            std::fs::write(dir.join(name), text).unwrap();
        }
        let build = kubectl::kustomize(&dir);
        (dir, build)
    }

    /// Records case `case`'s verdict: a mismatch is kept for the report, with its directory
    /// left in place to rerun by hand; a match's directory is removed.
    pub fn verdict(&mut self, case: usize, dir: &Path, mismatch: Option<String>) {
        match mismatch {
            Some(m) => self
                .mismatches
                .push(format!("case {case} ({}):\n{m}", dir.display())),
            None => {
                let _ = std::fs::remove_dir_all(dir);
            }
        }
    }

    /// The mismatches so far.
    pub fn mismatches(&self) -> usize {
        self.mismatches.len()
    }

    /// Prints `summary`, removes the case directories when every case matched, and fails the
    /// test with every mismatch otherwise.
    pub fn finish(self, summary: &str) {
        println!("{summary}");
        if self.mismatches.is_empty() {
            let _ = std::fs::remove_dir_all(&self.base);
        }
        assert!(
            self.mismatches.is_empty(),
            "{} mismatches:\n{}",
            self.mismatches.len(),
            self.mismatches.join("\n========\n")
        );
    }
}

fn env_number<T: std::str::FromStr>(name: &str) -> Option<T> {
    std::env::var(name).ok().and_then(|v| v.parse().ok())
}
