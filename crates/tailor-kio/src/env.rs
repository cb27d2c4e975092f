//! Settings read from environment variables: parsed strictly, so that a typo (`abc`, `0`,
//! `-1`) is an error naming the variable rather than a default applied silently.

/// Threads per available core at most: more only adds memory and scheduling, and a thread
/// that cannot be started would fail the run.
pub const THREADS_PER_CORE: usize = 4;

/// The positive integer in variable `name`, `None` when it is unset or empty.
fn positive(name: &str) -> Result<Option<u64>, String> {
    let Ok(raw) = std::env::var(name) else {
        return Ok(None);
    };
    let text = raw.trim();
    if text.is_empty() {
        return Ok(None);
    }
    match text.parse::<u64>() {
        Ok(n) if n > 0 => Ok(Some(n)),
        _ => Err(format!(
            "environment variable {name}={raw:?} is not a positive whole number"
        )),
    }
}

/// `TAILOR_THREADS`, capped at [`THREADS_PER_CORE`] per available core; one per core when unset.
pub fn threads() -> Result<usize, String> {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let asked = positive("TAILOR_THREADS")?;
    let cap = cores.saturating_mul(THREADS_PER_CORE);
    Ok(asked.map_or(cores, |n| usize::try_from(n).unwrap_or(usize::MAX).min(cap)))
}

/// `TAILOR_FAN_OUT_DEDUP`: whether a fan-out renders destinations that would render alike once
/// (`1`, the default) or each on its own (`0`, to compare with).
pub fn fan_out_dedup() -> Result<bool, String> {
    let Ok(raw) = std::env::var("TAILOR_FAN_OUT_DEDUP") else {
        return Ok(true);
    };
    match raw.trim() {
        "" | "1" => Ok(true),
        "0" => Ok(false),
        _ => Err(format!(
            "environment variable TAILOR_FAN_OUT_DEDUP={raw:?} is neither 0 nor 1"
        )),
    }
}

/// `TAILOR_MAX_INPUT_BYTES`, or `default` when unset.
pub fn max_input_bytes(default: u64) -> Result<u64, String> {
    Ok(positive("TAILOR_MAX_INPUT_BYTES")?.unwrap_or(default))
}

/// `TAILOR_MAX_RUN_OUTPUT_BYTES`: the run's budget of generated text, `None` when unset.
pub fn max_run_output_bytes() -> Result<Option<u64>, String> {
    positive("TAILOR_MAX_RUN_OUTPUT_BYTES")
}

/// `TAILOR_MAX_HELD_OUTPUT_BYTES`: the most output a run that holds its whole answer may hold,
/// `None` when unset.
pub fn max_held_output_bytes() -> Result<Option<u64>, String> {
    positive("TAILOR_MAX_HELD_OUTPUT_BYTES")
}

/// `TAILOR_MAX_RUN_STEPS`: the run's budget of evaluation steps, `None` when unset.
pub fn max_run_steps() -> Result<Option<u64>, String> {
    positive("TAILOR_MAX_RUN_STEPS")
}
