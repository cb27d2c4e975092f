//! The run's budget of generated text and template evaluation steps, shared by every stage
//! that evaluates templates or substitutions (`tailor_go::Budget`). `spec.limits` sets it; the
//! environment variables set it for configs that do not; the defaults otherwise.

use tailor_go::budget::default_limits;
use tailor_go::Budget;
use tailor_kube::Diagnostic;

/// What `spec.limits` says about the run's budget.
#[derive(Clone, Copy, Default)]
pub struct BudgetLimits {
    /// `spec.limits.maxRunOutputBytes`
    pub output_bytes: Option<u64>,
    /// `spec.limits.maxRunEvaluationSteps`
    pub steps: Option<u64>,
}

/// The budget of a run for `destinations` destinations: `limits` where given, then
/// `TAILOR_MAX_RUN_OUTPUT_BYTES` and `TAILOR_MAX_RUN_STEPS`, then the defaults, which grow with
/// the number of destinations (`tailor_go::budget::default_limits`). An invalid variable is an
/// error even when `spec.limits` overrides it, so a typo never goes unnoticed.
pub fn run_budget(limits: BudgetLimits, destinations: usize) -> Result<Budget, Diagnostic> {
    budget(Some(limits), destinations)
}

/// The budget of a run without a functionConfig (`tailor helm template`): the environment
/// variables, then the defaults; its errors name only the variables.
pub fn env_budget(destinations: usize) -> Result<Budget, Diagnostic> {
    budget(None, destinations)
}

fn budget(limits: Option<BudgetLimits>, destinations: usize) -> Result<Budget, Diagnostic> {
    let env_error = |message: String| Diagnostic::new("", message);
    let output = tailor_kio::env::max_run_output_bytes().map_err(env_error)?;
    let steps = tailor_kio::env::max_run_steps().map_err(env_error)?;
    let (default_output, default_steps) = default_limits(destinations);
    let spec = limits.unwrap_or_default();
    Ok(Budget::raised_by(
        limits.is_some(),
        spec.output_bytes.or(output).unwrap_or(default_output),
        spec.steps.or(steps).unwrap_or(default_steps),
    ))
}

#[cfg(test)]
mod tests {
    /// A fan-out reports an exhausted budget once by recognising its message.
    #[test]
    fn the_fan_out_recognises_an_exhausted_budget() {
        let exceeded = tailor_go::budget::Exceeded {
            resource: tailor_go::budget::Resource::Steps,
            limit: 5,
            spec_limits: true,
        };
        assert!(exceeded
            .to_string()
            .starts_with(tailor_kio::run::BUDGET_MARK));
    }
}
