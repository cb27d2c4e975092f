//! The review for a pull-request comment: the summary, then one collapsible `<details>` per
//! group of destinations, within a size limit (GitHub refuses a comment over 65,536
//! characters); groups that do not fit are left out and named in a note at the end.

use super::model::{short_list, Group, Review};
use super::text::unchanged_line;
use super::{counts, group_heading, receiving_note};

/// GitHub's limit on a comment's body, in characters.
pub const LIMIT: usize = 65_536;

/// Room kept for the note on what was left out.
const NOTE_ROOM: usize = 1_024;

pub fn write(review: &Review, limit: usize) -> String {
    let mut out = format!("### tailor review\n\n**{}**\n\n", escape(&review.summary()));
    if !review.unchanged.is_empty() {
        out.push_str(&unchanged_line(review.unchanged.len()));
        out.push('\n');
    }
    let mut left_out: Vec<&Group> = Vec::new();
    for group in &review.groups {
        let section = section(group);
        if chars(&out) + chars(&section) + NOTE_ROOM > limit {
            left_out.push(group);
        } else {
            out.push_str(&section);
        }
    }
    if !left_out.is_empty() {
        out.push_str(&note(&left_out, limit));
    }
    out
}

fn chars(s: &str) -> usize {
    s.chars().count()
}

/// One group: its heading as the summary of a `<details>`, its objects and diffs inside.
fn section(group: &Group) -> String {
    let mut s = format!(
        "<details><summary><b>{}</b>: {}</summary>\n\n",
        escape(&group_heading(group)),
        counts(&group.change)
    );
    if group.clusters.len() > super::model::SHOWN {
        s.push_str(&format!(
            "Clusters: {}\n\n",
            escape(&group.clusters.join(", "))
        ));
    }
    if let Some(note) = receiving_note(&group.change) {
        s.push_str(&format!("_{note}_\n\n"));
    }
    for object in &group.change.objects {
        let fence = fence_for(&object.diff);
        s.push_str(&format!(
            "**{}** `{}`\n\n{fence}diff\n{}{fence}\n\n",
            object.kind.word(),
            object.id.display().replace('`', "'"),
            object.diff
        ));
    }
    s.push_str("</details>\n\n");
    s
}

/// A code fence longer than any run of backticks in `text`.
fn fence_for(text: &str) -> String {
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    "`".repeat(longest.max(2) + 1)
}

/// What was left out to stay under the limit, and where to see it.
fn note(left_out: &[&Group], limit: usize) -> String {
    let clusters: Vec<String> = left_out
        .iter()
        .flat_map(|g| g.clusters.iter().cloned())
        .collect();
    format!(
        "> [!NOTE]\n> Left out to stay under {limit} characters: {} group{} of changes on {} cluster{} ({}). Run `tailor diff --base BASE --format html` (or `--format text`) for the whole review.\n",
        left_out.len(),
        if left_out.len() == 1 { "" } else { "s" },
        clusters.len(),
        if clusters.len() == 1 { "" } else { "s" },
        escape(&short_list(&clusters))
    )
}

/// Text from the input made inert in Markdown and HTML.
fn escape(text: &str) -> String {
    super::html::escape(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::review::model::{Change, ChangeKind, ObjectChange, ObjectId, Presence};

    fn group(cluster: &str, lines: usize) -> Group {
        let diff: String = (0..lines).map(|i| format!("+line {i} ```\n")).collect();
        Group {
            clusters: vec![cluster.to_string()],
            change: Change {
                before: Presence::Receives,
                after: Presence::Receives,
                objects: vec![ObjectChange {
                    id: ObjectId {
                        api_version: "v1".into(),
                        kind: "ConfigMap".into(),
                        namespace: None,
                        name: "c".into(),
                        occurrence: 0,
                    },
                    kind: ChangeKind::Changed,
                    diff,
                }],
            },
        }
    }

    #[test]
    fn groups_past_the_limit_are_left_out_with_a_note() {
        let review = Review {
            destinations: 3,
            groups: vec![group("small", 2), group("huge", 3_000), group("<b>", 2)],
            unchanged: Vec::new(),
        };
        let out = write(&review, 4_000);
        assert!(chars(&out) <= 4_000, "{}", chars(&out));
        assert!(out.contains("<b>small</b>") && out.contains("<b>&lt;b&gt;</b>"));
        assert!(!out.contains("<b>huge</b>"));
        assert!(
            out.contains("1 group of changes on 1 cluster (huge)"),
            "{out}"
        );
        // The diff's own backticks cannot close its fence.
        assert!(out.contains("````diff\n"), "{out}");
        let all = write(&review, LIMIT);
        assert!(all.contains("<b>huge</b>") && !all.contains("Left out"));
    }
}
