//! Writing a new string into an existing scalar without losing how the author wrote it.

use tailor_yaml::{Node, Style};

/// Quoted scalars stay quoted and block scalars stay blocks while they can hold the value;
/// a plain scalar becomes "any style", so the emitter quotes it only if the new text would
/// otherwise read back as a number, boolean or null.
pub fn set_string(node: &mut Node, text: &str) {
    node.style = match node.style {
        Style::SingleQuoted | Style::DoubleQuoted => node.style,
        Style::Literal | Style::Folded if text.contains('\n') => node.style,
        _ => Style::Any,
    };
    node.set_scalar_text(text);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rewrite(src: &str, text: &str) -> String {
        let mut doc = tailor_yaml::parse_stream(src).unwrap().remove(0);
        set_string(doc.root.get_mut("k").unwrap(), text);
        tailor_yaml::emit_document(&doc, Default::default())
    }

    #[test]
    fn keeps_quoting_and_quotes_ambiguous_plain_text() {
        assert_eq!(rewrite("k: a-{{.x}}\n", "a-b"), "k: a-b\n");
        assert_eq!(rewrite("k: a-{{.x}}\n", "3"), "k: \"3\"\n");
        assert_eq!(rewrite("k: 'a-{{.x}}'\n", "on"), "k: 'on'\n");
        assert_eq!(rewrite("k: \"{{.x}}\"\n", "v"), "k: \"v\"\n");
    }
}
