//! YAML test inputs as the crates' functions take them.

use tailor_yaml::{parse_stream, Node};

/// The root nodes of the documents in `text`, empty documents skipped. Panics when `text`
/// does not parse: test inputs are expected to.
pub fn docs(text: &str) -> Vec<Node> {
    parse_stream(text)
        .unwrap_or_else(|e| panic!("test input does not parse: {e}\n{text}"))
        .into_iter()
        .filter(|d| !d.empty)
        .map(|d| d.root)
        .collect()
}

/// `text` with each non-empty line prefixed by `by`, ending in a newline: a block to nest
/// under a key (`- patch: |-` plus [`indent`]`(patch, "    ")`).
pub fn indent(text: &str, by: &str) -> String {
    text.lines()
        .map(|l| {
            if l.is_empty() {
                String::new()
            } else {
                format!("{by}{l}")
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}
