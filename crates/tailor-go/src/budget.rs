//! One budget per run for the text that templates and substitutions produce and for the
//! evaluation steps they take, shared by every object, destination and worker thread.
//!
//! Each limit of a single template or substitution bounds one piece of work; a run repeats
//! that work for every object and destination, so a small input can still ask for gigabytes or
//! minutes. The budget is what the whole run may spend; a clone shares the same counters.

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// Default for [`Budget`]'s output bytes: 256 MiB of generated text per run of up to
/// [`DEFAULT_COVERS_DESTINATIONS`] destinations (see [`default_limits`]).
pub const DEFAULT_MAX_RUN_OUTPUT_BYTES: u64 = 256 << 20;
/// Default for [`Budget`]'s evaluation steps: 100 million per run (a few seconds) of up to
/// [`DEFAULT_COVERS_DESTINATIONS`] destinations.
pub const DEFAULT_MAX_RUN_STEPS: u64 = 100_000_000;
/// How many destinations the default limits cover; a run with more gets as much again for
/// each one (1 MiB and 390,625 steps).
pub const DEFAULT_COVERS_DESTINATIONS: u64 = 256;

/// The default limits (output bytes, steps) of a run for `destinations` destinations.
///
/// A fleet renders its charts once for each destination, so a fixed budget would cap the size
/// of a fleet rather than the cost of a hostile input (the 50-template benchmark chart spends
/// some 58 KB and 1,600 steps a destination: 256 MiB runs out at about 4,600 destinations).
/// Past [`DEFAULT_COVERS_DESTINATIONS`] the defaults grow in proportion: 1 MiB and 390,625
/// steps a destination, which a hostile template burns in some 10-20 ms, about what one
/// destination of that chart costs to render anyway. The budget bounds time, not memory
/// (held output has its own limit), so the run's cost stays in proportion to its fleet.
pub fn default_limits(destinations: usize) -> (u64, u64) {
    let n = u64::try_from(destinations)
        .unwrap_or(u64::MAX)
        .max(DEFAULT_COVERS_DESTINATIONS);
    let per = |total: u64| (total / DEFAULT_COVERS_DESTINATIONS).saturating_mul(n);
    (
        per(DEFAULT_MAX_RUN_OUTPUT_BYTES),
        per(DEFAULT_MAX_RUN_STEPS),
    )
}

/// Which of the run's limits ran out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resource {
    /// Bytes of text produced by templates and substitutions.
    OutputBytes,
    /// Template actions and `range` iterations evaluated, and nodes expanded from YAML aliases
    /// in text read again for every destination.
    Steps,
}

impl Resource {
    /// The `spec.limits` field that sets the limit.
    pub fn field(self) -> &'static str {
        match self {
            Resource::OutputBytes => "maxRunOutputBytes",
            Resource::Steps => "maxRunEvaluationSteps",
        }
    }

    /// The environment variable that sets the limit.
    pub fn variable(self) -> &'static str {
        match self {
            Resource::OutputBytes => "TAILOR_MAX_RUN_OUTPUT_BYTES",
            Resource::Steps => "TAILOR_MAX_RUN_STEPS",
        }
    }
}

/// The run's budget ran out; `Display` names the limit and how to raise it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Exceeded {
    pub resource: Resource,
    pub limit: u64,
    /// Whether the run has a functionConfig whose `spec.limits` can raise the limit (not so
    /// for `tailor helm template`, which only reads the environment variables).
    pub spec_limits: bool,
}

impl fmt::Display for Exceeded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.resource {
            Resource::OutputBytes => "bytes of generated text",
            Resource::Steps => "evaluation steps (template actions, YAML alias expansions)",
        };
        let (field, variable) = (self.resource.field(), self.resource.variable());
        write!(f, "the run exceeds its budget of {} {what}", self.limit)?;
        if self.spec_limits {
            write!(f, " (spec.limits.{field}); raise it with spec.limits.{field} or the environment variable {variable}")
        } else {
            write!(f, "; raise it with the environment variable {variable}")
        }
    }
}

impl std::error::Error for Exceeded {}

#[derive(Debug)]
struct Counters {
    spec_limits: bool,
    max_output_bytes: u64,
    max_steps: u64,
    output_bytes: AtomicU64,
    steps: AtomicU64,
}

/// A run's budget; clones share it.
#[derive(Clone, Debug)]
pub struct Budget(Arc<Counters>);

/// Budgets are equal when they are the same budget (clones of one another).
impl PartialEq for Budget {
    fn eq(&self, other: &Budget) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for Budget {}

impl Default for Budget {
    /// The default limits, [`DEFAULT_MAX_RUN_OUTPUT_BYTES`] and [`DEFAULT_MAX_RUN_STEPS`].
    fn default() -> Self {
        Budget::new(DEFAULT_MAX_RUN_OUTPUT_BYTES, DEFAULT_MAX_RUN_STEPS)
    }
}

impl Budget {
    pub fn new(max_output_bytes: u64, max_steps: u64) -> Budget {
        Budget::raised_by(true, max_output_bytes, max_steps)
    }

    /// A budget whose errors name `spec.limits` as a way to raise it only when
    /// `spec_limits` (a run without a functionConfig has only the environment variables).
    pub fn raised_by(spec_limits: bool, max_output_bytes: u64, max_steps: u64) -> Budget {
        Budget(Arc::new(Counters {
            spec_limits,
            max_output_bytes,
            max_steps,
            output_bytes: AtomicU64::new(0),
            steps: AtomicU64::new(0),
        }))
    }

    /// A budget that never runs out (for callers that bound the work themselves); all of
    /// them are one and the same.
    pub fn unlimited() -> Budget {
        static UNLIMITED: std::sync::OnceLock<Budget> = std::sync::OnceLock::new();
        UNLIMITED
            .get_or_init(|| Budget::new(u64::MAX, u64::MAX))
            .clone()
    }

    pub fn max_output_bytes(&self) -> u64 {
        self.0.max_output_bytes
    }

    pub fn max_steps(&self) -> u64 {
        self.0.max_steps
    }

    /// Spends `n` bytes of output; an error once the run's total passes the limit.
    pub fn charge_output(&self, n: u64) -> Result<(), Exceeded> {
        charge(&self.0.output_bytes, self.0.max_output_bytes, n).map_err(|limit| Exceeded {
            resource: Resource::OutputBytes,
            limit,
            spec_limits: self.0.spec_limits,
        })
    }

    /// Spends `n` evaluation steps; an error once the run's total passes the limit.
    pub fn charge_steps(&self, n: u64) -> Result<(), Exceeded> {
        charge(&self.0.steps, self.0.max_steps, n).map_err(|limit| Exceeded {
            resource: Resource::Steps,
            limit,
            spec_limits: self.0.spec_limits,
        })
    }

    /// The output bytes left to spend: a piece larger than this is refused before it is built.
    pub fn remaining_output(&self) -> u64 {
        let used = self.0.output_bytes.load(Ordering::Relaxed);
        self.0.max_output_bytes.saturating_sub(used)
    }

    /// Whether `n` more bytes of output fit, without spending them.
    pub fn check_output(&self, n: u64) -> Result<(), Exceeded> {
        if n > self.remaining_output() {
            return Err(Exceeded {
                resource: Resource::OutputBytes,
                limit: self.0.max_output_bytes,
                spec_limits: self.0.spec_limits,
            });
        }
        Ok(())
    }
}

fn charge(counter: &AtomicU64, max: u64, n: u64) -> Result<(), u64> {
    if max == u64::MAX {
        return Ok(());
    }
    // Relaxed is enough: only the total matters, not its order with other memory.
    let before = counter.fetch_add(n, Ordering::Relaxed);
    if before.saturating_add(n) > max {
        // Keep the counter saturated so that it cannot wrap after many refused charges.
        counter.store(max.saturating_add(1), Ordering::Relaxed);
        return Err(max);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clones_share_one_budget_across_threads() {
        let b = Budget::new(1000, 10);
        let handles: Vec<_> = (0..4)
            .map(|_| {
                let b = b.clone();
                std::thread::spawn(move || (0..200).filter(|_| b.charge_output(1).is_ok()).count())
            })
            .collect();
        let spent: usize = handles.into_iter().map(|h| h.join().unwrap()).sum();
        assert_eq!(spent, 800);
        assert_eq!(b.remaining_output(), 200);
        assert!(b.charge_steps(10).is_ok());
        let e = b.charge_steps(1).unwrap_err();
        assert_eq!(e.resource, Resource::Steps);
        assert!(e.to_string().contains("spec.limits.maxRunEvaluationSteps"));
        assert!(e.to_string().contains("TAILOR_MAX_RUN_STEPS"));
    }

    #[test]
    fn a_budget_without_spec_limits_names_only_its_variable() {
        let e = Budget::raised_by(false, 10, 10)
            .charge_output(11)
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "the run exceeds its budget of 10 bytes of generated text; raise it with the environment variable TAILOR_MAX_RUN_OUTPUT_BYTES"
        );
    }

    #[test]
    fn the_defaults_grow_with_the_destinations_past_those_they_cover() {
        let floor = (DEFAULT_MAX_RUN_OUTPUT_BYTES, DEFAULT_MAX_RUN_STEPS);
        assert_eq!(default_limits(0), floor);
        assert_eq!(default_limits(256), floor);
        assert_eq!(default_limits(257), (257 << 20, 257 * 390_625));
        assert_eq!(default_limits(20_000), (20_000 << 20, 7_812_500_000));
        assert_eq!(default_limits(usize::MAX).0, u64::MAX);
    }

    #[test]
    fn an_exceeded_budget_stays_exceeded() {
        let b = Budget::new(5, 5);
        assert!(b.charge_output(6).is_err());
        assert!(b.charge_output(0).is_err() || b.remaining_output() == 0);
        assert_eq!(b.remaining_output(), 0);
        assert!(b.check_output(1).is_err());
        assert!(Budget::unlimited().charge_output(u64::MAX).is_ok());
    }
}
