//! The review for a terminal: the summary, then each group of destinations with its objects
//! and their diffs; coloured (as `git diff` colours) only when asked, on a terminal. Names from
//! the input are shown with control and bidirectional characters escaped
//! (`cli::terminal::escape`), and on a terminal the diff lines too.

use super::model::{ChangeKind, Review};
use super::{counts, group_heading, receiving_note};
use crate::cli::terminal::escape;

const BOLD: &str = "\x1b[1m";
const RED: &str = "\x1b[31m";
const GREEN: &str = "\x1b[32m";
const CYAN: &str = "\x1b[36m";
const RESET: &str = "\x1b[0m";

pub fn write(review: &Review, color: bool) -> String {
    let paint = |code: &str, text: &str| {
        if color {
            format!("{code}{text}{RESET}")
        } else {
            text.to_string()
        }
    };
    let mut out = format!("{}\n", paint(BOLD, &escape(&review.summary())));
    if !review.unchanged.is_empty() {
        out.push_str(&unchanged_line(review.unchanged.len()));
    }
    for group in &review.groups {
        out.push('\n');
        let heading = format!(
            "== {} ({}) ==",
            escape(&group_heading(group)),
            counts(&group.change)
        );
        out.push_str(&paint(BOLD, &heading));
        out.push('\n');
        if group.clusters.len() > super::model::SHOWN {
            out.push_str(&format!(
                "clusters: {}\n",
                escape(&group.clusters.join(", "))
            ));
        }
        if let Some(note) = receiving_note(&group.change) {
            out.push_str(&format!("{note}\n"));
        }
        for object in &group.change.objects {
            let id = object.id.display();
            out.push_str(&format!("{} {}\n", mark(object.kind), escape(&id)));
            for line in object.diff.lines() {
                let line = if color { escape(line) } else { line.into() };
                let line = line.as_ref();
                let code = match line.as_bytes().first() {
                    _ if line.starts_with("---") || line.starts_with("+++") => BOLD,
                    Some(b'-') => RED,
                    Some(b'+') => GREEN,
                    Some(b'@') => CYAN,
                    _ => "",
                };
                if code.is_empty() {
                    out.push_str(line);
                } else {
                    out.push_str(&paint(code, line));
                }
                out.push('\n');
            }
        }
    }
    out
}

/// "28 clusters unchanged."
pub fn unchanged_line(n: usize) -> String {
    let noun = if n == 1 { "cluster" } else { "clusters" };
    format!("{n} {noun} unchanged.\n")
}

/// The sign an object's change is listed with.
pub fn mark(kind: ChangeKind) -> &'static str {
    match kind {
        ChangeKind::Added => "+ added",
        ChangeKind::Removed => "- removed",
        ChangeKind::Changed => "~ changed",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::review::model::{Change, Group, ObjectChange, ObjectId, Presence};

    #[test]
    fn names_from_the_input_cannot_drive_the_terminal() {
        let review = Review {
            destinations: 1,
            groups: vec![Group {
                clusters: vec!["evil\u{1b}]0;title\u{7}".into()],
                change: Change {
                    before: Presence::Receives,
                    after: Presence::Receives,
                    objects: vec![ObjectChange {
                        id: ObjectId {
                            api_version: "v1".into(),
                            kind: "ConfigMap".into(),
                            namespace: None,
                            name: "a\u{202e}b".into(),
                            occurrence: 0,
                        },
                        kind: ChangeKind::Changed,
                        diff: "-x: \u{202e}1\n+x: 2\n".into(),
                    }],
                },
            }],
            unchanged: Vec::new(),
        };
        let plain = write(&review, false);
        assert!(
            plain.contains("== evil\\u{1b}]0;title\\u{7} (1 changed) =="),
            "{plain}"
        );
        assert!(
            plain.contains("~ changed v1 ConfigMap a\\u{202e}b\n"),
            "{plain}"
        );
        // Piped, the diff is the objects' text as it is; on a terminal it is escaped too.
        assert!(plain.contains("-x: \u{202e}1\n"));
        let tty = write(&review, true);
        assert!(tty.contains("-x: \\u{202e}1"), "{tty}");
        assert!(!tty.contains('\u{7}') && !tty.contains('\u{202e}'));
    }
}
