//! Scalar text in each style, as libyaml's writers put it: quoted scalars with their escapes
//! and line breaks, block scalars with their indicators. Whatever is written here must read
//! back as the same value.

use crate::scalar_style::{
    chomping_indicator, is_line_break, needs_escape, push_escape, push_literal_lines, Lines,
};

use super::write_line_comment;

pub(super) fn write_single_quoted(out: &mut String, value: &str, indent: usize) {
    out.push('\'');
    let mut lines = Lines::new(out, indent, false);
    for c in value.chars() {
        if is_line_break(c) {
            lines.line_break(c, true);
        } else {
            lines.content();
            if c == '\'' {
                lines.out.push('\'');
            }
            lines.out.push(c);
        }
    }
    out.push('\'');
}

pub(super) fn write_double_quoted(out: &mut String, value: &str) {
    out.push('"');
    for c in value.chars() {
        if needs_escape(c) {
            push_escape(out, c);
        } else {
            out.push(c);
        }
    }
    out.push('"');
}

/// `|` and `>` with go-yaml's indentation and chomping hints.
pub(super) fn write_block_scalar(
    out: &mut String,
    value: &str,
    literal: bool,
    indent: usize,
    comment: &str,
) {
    out.push(if literal { '|' } else { '>' });
    // Without an indentation indicator a reader takes the first line's leading blanks as
    // indentation, and refuses a tab there ("found a tab character where an indentation
    // space is expected"); go-yaml checks only for a space, and writes text it cannot read.
    if value.starts_with([' ', '\t']) || value.starts_with(is_line_break) {
        out.push('2');
    }
    let chars: Vec<char> = value.chars().collect();
    out.extend(chomping_indicator(&chars));
    if !comment.is_empty() {
        write_line_comment(out, comment);
    }
    out.push('\n');
    if literal {
        push_literal_lines(out, &chars, indent);
    } else {
        let mut leading_spaces = true;
        let starts_blank = chars
            .iter()
            .find(|&&c| !is_line_break(c))
            .is_none_or(|&c| is_blank(c));
        let mut lines = Lines::new(out, indent, true);
        for (i, &c) in chars.iter().enumerate() {
            if is_line_break(c) {
                // Only the first break of a run is looked at, so each run is scanned once.
                let fold = c == '\n'
                    && !leading_spaces
                    && lines.after_content()
                    && folded_break_needs_empty_line(&chars[i..], starts_blank);
                lines.line_break(c, fold);
            } else {
                if lines.content() {
                    leading_spaces = c == ' ' || c == '\t';
                }
                lines.out.push(c);
            }
        }
    }
    if !at_line_start(out) {
        out.push('\n');
    }
}

fn is_blank(c: char) -> bool {
    c == ' ' || c == '\t'
}

/// Whether a folded scalar needs an empty line before the run of breaks that starts `rest`
/// (after a line that does not start with a blank), so that a reader keeps the first break
/// instead of folding it into a space. A reader folds it only when the next line is not more
/// indented, so it is needed exactly when text that does not start with a blank follows.
///
/// go-yaml's `yaml_emitter_write_folded_scalar` asks whether the *value* starts with a blank
/// (it looks at `value[k]`, not `value[i+k]`), which adds a line before a more-indented line
/// (`"a\n  b\n"` reads back as `"a\n\n  b\n"`) and drops the one a value starting with a blank
/// needs (`" x\na\nb"` reads back with `a b`). Where the two rules agree, or go-yaml's extra
/// line cannot change the value (the single final break of a clipped scalar), its bytes are
/// kept; where they disagree, the value wins. `value_starts_blank`: go-yaml's test.
fn folded_break_needs_empty_line(rest: &[char], value_starts_blank: bool) -> bool {
    match rest.iter().position(|&c| !is_line_break(c)) {
        Some(next) => !is_blank(rest[next]),
        // The run ends the value. Clip chomping drops trailing empty lines, so go-yaml's extra
        // one is harmless and written; under keep chomping (more than one break) it would be
        // read as one more `\n`.
        None => rest.len() == 1 && !value_starts_blank,
    }
}

/// Whether the output ends a line: with `\n`, or with the U+2028 or U+2029 that ends a block
/// scalar's value. Those are line breaks to a reader, so go-yaml's emitter, whose column is 0
/// after writing one, adds no `\n`: under keep chomping it would be one more line of the value.
pub(super) fn at_line_start(out: &str) -> bool {
    match out.as_bytes().last() {
        Some(b'\n') => true,
        // The last bytes of U+2028 and U+2029; this runs for every line written.
        Some(0xa8 | 0xa9) => out.ends_with(['\u{2028}', '\u{2029}']),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use crate::node::{Node, Pair, Style};
    use crate::scalar_style::{select_style, Context, Printer};
    use crate::{emit_node, parse_stream, EmitOptions};
    use proptest::prelude::*;

    /// `value` in `style` at three places a block scalar is written (a nested mapping value,
    /// a sequence item, the root), each emitted and parsed again: the value read back, or
    /// `None` where the emitter would not write that style for it.
    fn written_and_read(value: &str, style: Style) -> Option<Vec<(String, String)>> {
        if select_style(value, style, Context::Block, Printer::GoYamlV3) != style {
            return None;
        }
        let scalar = || Node::scalar(value, style);
        let pair = |key: &str, value: Node| Pair {
            key: Node::plain(key),
            value,
        };
        let trees = [
            Node::from_pairs(vec![pair("d", Node::from_pairs(vec![pair("k", scalar())]))]),
            Node::sequence(vec![scalar(), Node::plain("next")]),
            scalar(),
        ];
        let mut out = Vec::new();
        for (tree, path) in trees.iter().zip([&["d", "k"][..], &[], &[]]) {
            let text = emit_node(tree, EmitOptions::default());
            let read = parse_stream(&text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
            let root = &read[0].root;
            let node = match root.items() {
                Some(items) => &items[0],
                None => root.get_path(path).expect("the key"),
            };
            out.push((
                text.clone(),
                node.as_scalar().unwrap_or_default().to_string(),
            ));
        }
        Some(out)
    }

    fn assert_reads_back(value: &str) {
        for style in [Style::Literal, Style::Folded] {
            for (text, back) in written_and_read(value, style).unwrap_or_default() {
                assert_eq!(back, value, "{style:?} {value:?} written as {text:?}");
            }
        }
    }

    fn folded(value: &str) -> String {
        let tree = Node::from_pairs(vec![Pair {
            key: Node::plain("e"),
            value: Node::scalar(value, Style::Folded),
        }]);
        emit_node(&tree, EmitOptions::default())
    }

    #[test]
    fn folded_scalar_keeps_more_indented_lines_as_they_were() {
        // Issue 19: go-yaml writes an empty line before `  b`, which reads back as "a\n\n  b\n".
        assert_eq!(folded("a\n  b\n"), "e: >\n  a\n    b\n");
        assert_eq!(
            folded("first line\n  more indented\nlast line"),
            "e: >-\n  first line\n    more indented\n  last line\n"
        );
        // Under keep chomping go-yaml's empty line after the last break is one more `\n`.
        assert_eq!(folded("v\n\n"), "e: >+\n  v\n\n");
        // A value that starts with a blank: go-yaml writes no empty line between `a` and `b`,
        // which then fold into "a b".
        assert_eq!(folded(" x\na\nb"), "e: >2-\n   x\n  a\n\n  b\n");
    }

    #[test]
    fn folded_scalar_keeps_go_yaml_bytes_where_they_keep_the_value() {
        // As kpt fn source writes them (go-yaml v3's emitter), final empty line included.
        assert_eq!(folded("a\nb\n"), "e: >\n  a\n\n  b\n\n");
        assert_eq!(folded("a\n"), "e: >\n  a\n\n");
        assert_eq!(folded(" a\nb c"), "e: >2-\n   a\n  b c\n");
        assert_eq!(folded("a\n\nb"), "e: >-\n  a\n\n\n  b\n");
    }

    #[test]
    fn line_separators_are_written_as_themselves() {
        // A `\n` in their place would read back as a `\n` (literal) or a space (folded), and a
        // `\n` after a final one as one more line under keep chomping.
        let lit = |v: &str| {
            let tree = Node::from_pairs(vec![Pair {
                key: Node::plain("k"),
                value: Node::scalar(v, Style::Literal),
            }]);
            emit_node(&tree, EmitOptions::default())
        };
        assert_eq!(lit("a\u{2028}b"), "k: |-\n  a\u{2028}  b\n");
        assert_eq!(lit("a\n\u{2029}"), "k: |+\n  a\n\u{2029}");
    }

    #[test]
    fn every_short_value_reads_back() {
        // All strings of up to 8 characters over an alphabet that exercises folding: text,
        // a blank that makes a line more indented, line breaks.
        let alphabet = ['a', ' ', '\n', '\t'];
        let mut values = vec![String::new()];
        let mut start = 0;
        for _ in 0..7 {
            let end = values.len();
            for i in start..end {
                for c in alphabet {
                    let mut v = values[i].clone();
                    v.push(c);
                    values.push(v);
                }
            }
            start = end;
        }
        for v in &values {
            assert_reads_back(v);
        }
    }

    proptest! {
        #[test]
        fn block_scalars_read_back(value in "[ab #:\\-'\"\t\né😀]{0,24}") {
            assert_reads_back(&value);
        }
    }
}
