//! The run's budget is shared by every destination: once it runs out, each destination still
//! being tailored fails with the same error, for each value it was evaluating. A fan-out
//! reports it once, with the number of destinations it stopped and of results left out.

use crate::KrmResult;

/// What the message of an exhausted budget says (`tailor_go::budget::Exceeded`; the binary
/// checks the two agree).
pub const BUDGET_MARK: &str = "the run exceeds its budget of ";

/// Destinations named in the kept error before the rest are only counted.
const NAMED: usize = 3;

/// Keeps the first result of an exhausted budget among `named` (results with their
/// destination) and drops the others, saying in the kept one how many destinations the
/// budget stopped and how many results like it were left out.
pub(super) fn report_once(named: &mut Vec<(&str, KrmResult)>) {
    let mut first: Option<usize> = None;
    let mut stopped: Vec<&str> = Vec::new();
    let mut dropped = 0usize;
    let mut at = 0usize;
    named.retain(|(destination, result)| {
        at += 1;
        if !result.is_error() || !result.message.contains(BUDGET_MARK) {
            return true;
        }
        if !stopped.contains(destination) {
            stopped.push(destination);
        }
        if first.is_none() {
            first = Some(at - 1);
            return true;
        }
        dropped += 1;
        false
    });
    let Some(k) = first else {
        return;
    };
    if dropped == 0 {
        return;
    }
    let mut names: Vec<String> = stopped
        .iter()
        .take(NAMED)
        .map(|d| format!("{d:?}"))
        .collect();
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
