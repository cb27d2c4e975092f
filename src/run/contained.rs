//! A fan-out tailors each destination on a worker thread. A panic there (a bug in tailor) is
//! caught per destination and becomes an error result naming it, so the run fails like any
//! other (exit 1, the input items back) instead of aborting the process with a half-written
//! answer, and the other destinations' results are still reported.

use std::panic::{catch_unwind, AssertUnwindSafe};

use tailor_kio::KrmResult;

/// Runs `f`; a panic in it becomes an error result. The fan-out names its destination
/// (`cluster "dev": ...`). What `f` left half-done is not used: the run fails.
pub(super) fn contained(f: impl FnOnce()) -> Result<(), KrmResult> {
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

#[cfg(test)]
mod fan_out_tests {
    use tailor_kio::Resource;

    use crate::run::process;
    use crate::stages::{Context, Scope, Stage, Tailoring};

    /// A stage with a bug: it panics for the destination named "boom".
    struct Buggy;

    impl Stage<Tailoring> for Buggy {
        fn name(&self) -> &'static str {
            "buggy"
        }
        fn scope(&self) -> Scope {
            Scope::PerDestination
        }
        fn run(&self, _: &mut Vec<Resource>, ctx: &mut Context<'_>) {
            if ctx.cluster().is_some_and(|c| c.name == "boom") {
                panic!("a bug");
            }
        }
    }

    #[test]
    fn a_destination_that_panics_is_an_error_naming_it() {
        let text = "apiVersion: tailor.dev/v1alpha1\nkind: Tailor\nmetadata: {name: t}\nspec:\n  clusters: [{name: a}, {name: boom}, {name: c}]\n";
        let fc = tailor_yaml::parse_stream(text).unwrap().remove(0).root;
        let mut plan = crate::config::parse(Some(&fc)).unwrap_or_else(|r| panic!("{r:?}"));
        plan.stages.push(Box::new(Buggy));
        let list = "kind: ResourceList\nitems:\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: cm}}\n";
        let items = tailor_kio::read_input(list, &tailor_yaml::ParseOptions::default())
            .unwrap()
            .items;
        let outcome = process(items, plan);
        assert!(outcome.failed);
        assert!(outcome.items.is_empty());
        let errors: Vec<&str> = outcome
            .results
            .iter()
            .filter(|r| r.is_error())
            .map(|r| r.message.as_str())
            .collect();
        assert_eq!(
            errors,
            ["cluster \"boom\": tailoring it failed inside tailor (a bug): this is a bug in tailor, please report it with the input; nothing was written"]
        );
    }
}
