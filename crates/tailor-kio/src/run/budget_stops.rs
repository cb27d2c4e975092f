//! The run's budget is shared by every destination: once it runs out, each destination still
//! being tailored fails with the same error, for each value it was evaluating. A run reports
//! it once, about the first object that ran it out, with the number of destinations it
//! stopped (in a fan-out) and of results left out.

use crate::KrmResult;

/// What the message of an exhausted budget says (`tailor_go::budget::Exceeded`; the binary
/// checks the two agree).
pub const BUDGET_MARK: &str = "the run exceeds its budget of ";

/// Destinations named in the kept error before the rest are only counted.
const NAMED: usize = 3;

/// Whether `result` is the error of an exhausted budget.
fn exhausted(result: &KrmResult) -> bool {
    result.is_error() && result.message.contains(BUDGET_MARK)
}

/// Keeps the first error of an exhausted budget among `items` and drops the others, showing
/// each one to `seen` (kept or not); the kept one's index and how many were dropped.
fn keep_first<T>(
    items: &mut Vec<T>,
    result: impl Fn(&T) -> &KrmResult,
    mut seen: impl FnMut(&T),
) -> Option<(usize, usize)> {
    let mut first: Option<usize> = None;
    let mut dropped = 0usize;
    let mut at = 0usize;
    items.retain(|item| {
        at += 1;
        if !exhausted(result(item)) {
            return true;
        }
        seen(item);
        if first.is_none() {
            // Nothing is dropped before the first, so its index stays the same.
            first = Some(at - 1);
            return true;
        }
        dropped += 1;
        false
    });
    first.map(|k| (k, dropped))
}

/// Keeps the first error of an exhausted budget in `results` (those of one destination, or of
/// a run without any) and drops the others, saying in the kept one how many results like it
/// were left out.
pub(super) fn report_once_within(results: &mut Vec<KrmResult>) {
    if let Some((k, dropped @ 1..)) = keep_first(results, |r| r, |_| {}) {
        results[k]
            .message
            .push_str(&format!(" ({dropped} more results like this one left out)"));
    }
}

/// Keeps the first result of an exhausted budget among `named` (results with their
/// destination) and drops the others, saying in the kept one how many destinations the
/// budget stopped and how many results like it were left out.
pub(super) fn report_once(named: &mut Vec<(&str, KrmResult)>) {
    // Destinations in the order the budget stopped them: a set for membership, so that a
    // budget running out in 20,000 destinations costs no quadratic scan; the first few named.
    let mut stopped: std::collections::HashSet<&str> = Default::default();
    let mut names: Vec<String> = Vec::new();
    let kept = keep_first(
        named,
        |(_, result)| result,
        |(destination, _)| {
            if stopped.insert(destination) && names.len() < NAMED {
                names.push(format!("{destination:?}"));
            }
        },
    );
    let Some((k, dropped @ 1..)) = kept else {
        return;
    };
    if stopped.len() > NAMED {
        names.push(format!("{} more", stopped.len() - NAMED));
    }
    let note = format!(
        " (the budget stopped {} destination{}: {}; {dropped} more results like this one left out)",
        stopped.len(),
        if stopped.len() == 1 { "" } else { "s" },
        names.join(", "),
    );
    named[k].1.message.push_str(&note);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exceeded(field: &str) -> KrmResult {
        KrmResult::error(format!("{field}: {BUDGET_MARK}100 bytes of generated text"))
    }

    #[test]
    fn an_exhausted_budget_is_reported_once_for_every_destination() {
        let mut named = vec![
            ("a", KrmResult::warning("w")),
            ("a", exceeded("k1")),
            ("a", exceeded("k2")),
            ("b", exceeded("k1")),
            ("c", KrmResult::error("other")),
            ("d", exceeded("k1")),
            ("e", exceeded("k1")),
        ];
        report_once(&mut named);
        let messages: Vec<&str> = named.iter().map(|(_, r)| r.message.as_str()).collect();
        assert_eq!(messages.len(), 3, "{messages:?}");
        assert_eq!(messages[0], "w");
        assert!(
            messages[1].starts_with("k1: the run exceeds"),
            "{}",
            messages[1]
        );
        assert!(
            messages[1].ends_with("(the budget stopped 4 destinations: \"a\", \"b\", \"d\", 1 more; 4 more results like this one left out)"),
            "{}",
            messages[1]
        );
        assert_eq!(messages[2], "other");
    }

    #[test]
    fn an_exhausted_budget_is_reported_once_within_a_destination() {
        let mut results = vec![
            KrmResult::info("i"),
            exceeded("k1"),
            KrmResult::error("other"),
            exceeded("k2"),
            exceeded("k3"),
        ];
        report_once_within(&mut results);
        let messages: Vec<&str> = results.iter().map(|r| r.message.as_str()).collect();
        assert_eq!(
            messages,
            [
                "i",
                "k1: the run exceeds its budget of 100 bytes of generated text (2 more results like this one left out)",
                "other"
            ]
        );
        let mut one = vec![exceeded("k1")];
        report_once_within(&mut one);
        assert_eq!(
            one[0].message,
            "k1: the run exceeds its budget of 100 bytes of generated text"
        );
    }

    #[test]
    fn a_single_budget_error_is_left_as_it_is() {
        let mut named = vec![("a", exceeded("k1")), ("b", KrmResult::error("other"))];
        report_once(&mut named);
        assert_eq!(
            named[0].1.message,
            "k1: the run exceeds its budget of 100 bytes of generated text"
        );
        assert_eq!(named.len(), 2);
    }
}
