//! The review as one self-contained HTML page (inline CSS and script, no external asset; it
//! works opened from a file): the summary, the cluster × object matrix of the change, and
//! each object's diff one click away from its cell.

use std::collections::BTreeSet;
use std::fmt::Write;

use super::model::{ChangeKind, Group, ObjectId, Review};
use super::{counts, receiving_note};

const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:1.5em;color:#1f2328}\
h1{font-size:1.4em}#summary{font-weight:600}\
table{border-collapse:collapse;font-size:.85em}th,td{border:1px solid #d0d7de;padding:2px 6px}\
thead th{writing-mode:vertical-rl;transform:rotate(180deg);text-align:left;font-weight:500}\
tbody th{text-align:left;font-weight:500;white-space:nowrap}\
button{border:0;border-radius:3px;width:1.8em;cursor:pointer;font-weight:700}\
.added{background:#dafbe1}.removed{background:#ffebe9}.changed{background:#fff8c5}\
.bundle{font-size:.8em;color:#57606a}\
.diff{border:1px solid #d0d7de;margin:1em 0;padding:.5em}\
pre{margin:0;font-size:.85em;overflow-x:auto}.add{color:#116329}.del{color:#82071e}.hunk{color:#0550ae}";

const SCRIPT: &str = "(function(){var shown=null;\
function show(id){var d=document.getElementById(id);if(!d)return;if(shown)shown.hidden=true;d.hidden=false;shown=d;d.scrollIntoView({block:'nearest'});}\
document.getElementById('matrix').addEventListener('click',function(e){var b=e.target.closest('button[data-diff]');if(b)show(b.getAttribute('data-diff'));});\
if(location.hash)show(location.hash.slice(1));\
document.getElementById('rows').textContent=String(document.querySelectorAll('#matrix tbody tr').length);\
document.body.setAttribute('data-ready','yes');})();";

pub fn write(review: &Review) -> String {
    let t = review.totals();
    let mut out = format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>tailor review</title><style>{STYLE}</style></head>\n<body>\n<h1>tailor review</h1>\n<p id=\"summary\">{}</p>\n",
        escape(&review.summary())
    );
    let _ = writeln!(
        out,
        "<p id=\"counts\" data-destinations=\"{}\" data-changed=\"{}\" data-unchanged=\"{}\" data-objects-changed=\"{}\" data-objects-added=\"{}\" data-objects-removed=\"{}\">{} unchanged; the matrix shows <span id=\"rows\">{}</span> changed clusters. Click a cell for its diff.</p>",
        review.destinations, t.clusters, review.unchanged.len(), t.changed, t.added, t.removed,
        review.unchanged.len(), t.clusters
    );
    if review.changes() {
        let columns: Vec<&ObjectId> = review
            .groups
            .iter()
            .flat_map(|g| g.change.objects.iter().map(|o| &o.id))
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        matrix(&mut out, review, &columns);
        diffs(&mut out, review, &columns);
    }
    let _ = write!(out, "<script>{SCRIPT}</script>\n</body></html>\n");
    out
}

/// The table: a row per changed cluster (a group's rows together), a column per object that
/// changes anywhere, a button per changed cell.
fn matrix(out: &mut String, review: &Review, columns: &[&ObjectId]) {
    out.push_str("<table id=\"matrix\"><thead><tr><th>cluster</th><th>bundle</th>");
    for id in columns {
        let _ = write!(
            out,
            "<th title=\"{}\">{} {}</th>",
            escape(&id.display()),
            escape(&id.kind),
            escape(&id.name)
        );
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for (g, group) in review.groups.iter().enumerate() {
        let row = row_cells(g, group, columns);
        for cluster in &group.clusters {
            let _ = writeln!(
                out,
                "<tr data-group=\"{g}\"><th>{}</th>{row}</tr>",
                escape(cluster)
            );
        }
    }
    out.push_str("</tbody></table>\n");
}

/// The cells of a group's rows after the cluster name: the bundle's status, then each column.
fn row_cells(g: usize, group: &Group, columns: &[&ObjectId]) -> String {
    let bundle = match group.change.receiving() {
        Some(true) => "starts",
        Some(false) => "stops",
        None => "",
    };
    let mut row = format!("<td class=\"bundle\">{bundle}</td>");
    for (c, id) in columns.iter().enumerate() {
        match group.change.objects.iter().find(|o| &o.id == *id) {
            Some(o) => {
                let _ = write!(
                    row,
                    "<td><button class=\"{}\" data-diff=\"d{g}-{c}\" title=\"{} {}\">{}</button></td>",
                    o.kind.word(),
                    o.kind.word(),
                    escape(&id.display()),
                    sign(o.kind)
                );
            }
            None => row.push_str("<td></td>"),
        }
    }
    row
}

fn sign(kind: ChangeKind) -> &'static str {
    match kind {
        ChangeKind::Added => "+",
        ChangeKind::Removed => "−",
        ChangeKind::Changed => "~",
    }
}

/// Every diff, hidden until its cell is clicked.
fn diffs(out: &mut String, review: &Review, columns: &[&ObjectId]) {
    out.push_str("<section id=\"diffs\">\n");
    for (g, group) in review.groups.iter().enumerate() {
        let who = super::group_heading(group);
        let note = receiving_note(&group.change).unwrap_or_default();
        for object in &group.change.objects {
            let c = columns.iter().position(|id| *id == &object.id).unwrap_or(0);
            let _ = write!(
                out,
                "<div class=\"diff\" id=\"d{g}-{c}\" hidden><h3>{} — {} {}</h3><p>{} {}</p><pre>",
                escape(&who),
                object.kind.word(),
                escape(&object.id.display()),
                counts(&group.change),
                note
            );
            for line in object.diff.lines() {
                let class = match line.as_bytes().first() {
                    _ if line.starts_with("---") || line.starts_with("+++") => "",
                    Some(b'+') => "add",
                    Some(b'-') => "del",
                    Some(b'@') => "hunk",
                    _ => "",
                };
                let _ = writeln!(out, "<span class=\"{class}\">{}</span>", escape(line));
            }
            out.push_str("</pre></div>\n");
        }
    }
    out.push_str("</section>\n");
}

/// `text` safe in HTML text and attribute values.
pub fn escape(text: &str) -> String {
    let mut s = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => s.push_str("&amp;"),
            '<' => s.push_str("&lt;"),
            '>' => s.push_str("&gt;"),
            '"' => s.push_str("&quot;"),
            '\'' => s.push_str("&#39;"),
            c => s.push(c),
        }
    }
    s
}
