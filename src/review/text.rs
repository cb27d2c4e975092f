//! The review for a terminal: the summary, then each group of destinations with its objects
//! and their diffs; coloured (as `git diff` colours) only when asked, on a terminal.

use super::model::{ChangeKind, Review};
use super::{counts, group_heading, receiving_note};

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
    let mut out = format!("{}\n", paint(BOLD, &review.summary()));
    if !review.unchanged.is_empty() {
        out.push_str(&unchanged_line(review.unchanged.len()));
    }
    for group in &review.groups {
        out.push('\n');
        let heading = format!("== {} ({}) ==", group_heading(group), counts(&group.change));
        out.push_str(&paint(BOLD, &heading));
        out.push('\n');
        if group.clusters.len() > super::model::SHOWN {
            out.push_str(&format!("clusters: {}\n", group.clusters.join(", ")));
        }
        if let Some(note) = receiving_note(&group.change) {
            out.push_str(&format!("{note}\n"));
        }
        for object in &group.change.objects {
            out.push_str(&format!("{} {}\n", mark(object.kind), object.id.display()));
            for line in object.diff.lines() {
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
