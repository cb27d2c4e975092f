//! A fan-out tailors each destination on a worker thread. A panic there (a bug in tailor) is
//! caught per destination and becomes an error result naming it, so the run fails like any
//! other (exit 1, the input items back) instead of aborting the process with a half-written
//! answer, and the other destinations' results are still reported.

use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::KrmResult;

/// Runs `f`; a panic in it becomes an error result. The fan-out names its destination
/// (`cluster "dev": ...`). What `f` left half-done is not used: the run fails.
pub fn contained(f: impl FnOnce()) -> Result<(), KrmResult> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|payload| panicked(payload.as_ref()))
}

/// The error for a panic with `payload` (a `&str` or a `String` when it came from `panic!`).
pub(super) fn panicked(payload: &(dyn std::any::Any + Send)) -> KrmResult {
    let what = payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("no message");
    KrmResult::error(format!(
        "tailoring it failed inside tailor ({what}): this is a bug in tailor, please report it with the input; nothing was written"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_becomes_an_error_result() {
        assert!(contained(|| {}).is_ok());
        let err = contained(|| panic!("index out of bounds")).unwrap_err();
        assert!(err.is_error());
        assert_eq!(
            err.message,
            "tailoring it failed inside tailor (index out of bounds): this is a bug in tailor, please report it with the input; nothing was written"
        );
        let n = 3;
        let err = contained(|| panic!("{n} is odd")).unwrap_err();
        assert!(err.message.contains("(3 is odd)"), "{}", err.message);
    }
}
