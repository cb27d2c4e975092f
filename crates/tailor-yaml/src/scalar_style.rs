//! libyaml's emitter rules for scalars, in one copy: which styles can hold a value
//! (`analyze_scalar`), which style is written (`select_scalar_style`), and the escapes of
//! double-quoted text. go-yaml v3 (this crate's emitter) and yaml.v2 (the printer Flux's
//! post-build substitution goes through, in tailor-flux) both carry libyaml's C code; they
//! differ only in how a tab counts, which [`Printer`] selects.
//!
//! ```
//! use tailor_yaml::scalar_style::{select_style, Context, Printer};
//! use tailor_yaml::Style;
//!
//! // A value that starts with a space cannot be plain: single quotes hold it.
//! assert_eq!(
//!     select_style(" x", Style::Plain, Context::Block, Printer::GoYamlV3),
//!     Style::SingleQuoted
//! );
//! // A tab rules out single quotes; yaml.v2 also rules out a literal block for it.
//! assert_eq!(
//!     select_style("a\tb\n", Style::Literal, Context::Block, Printer::GoYamlV3),
//!     Style::Literal
//! );
//! assert_eq!(
//!     select_style("a\tb\n", Style::Literal, Context::Block, Printer::YamlV2),
//!     Style::DoubleQuoted
//! );
//! ```

use crate::node::Style;

/// Whose copy of libyaml's rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Printer {
    /// go-yaml v3: a tab rules out plain and single-quoted styles, but not a block scalar.
    GoYamlV3,
    /// yaml.v2: a tab is a special (non-printable) character like any other, so it also rules
    /// out block scalars.
    YamlV2,
}

/// Where the scalar is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Context {
    /// A value in block context.
    Block,
    /// A key in block context (`key:`).
    SimpleKey,
    /// A value inside `[...]` or `{...}`.
    Flow,
    /// A key inside `{...}`.
    FlowKey,
}

/// What libyaml's `analyze_scalar` concludes about a value: the styles that can hold it.
#[derive(Debug, Default, PartialEq, Eq)]
struct Analysis {
    multiline: bool,
    flow_plain: bool,
    block_plain: bool,
    single_quoted: bool,
    block: bool,
}

impl Analysis {
    const ANY_STYLE: Analysis = Analysis {
        multiline: false,
        flow_plain: true,
        block_plain: true,
        single_quoted: true,
        block: true,
    };
}

/// libyaml's `is_printable` as go-yaml's `isPrintable` has it (characters above U+FFFF are not
/// "printable" to it, and neither are tab and CR).
pub fn is_printable(c: char) -> bool {
    let v = c as u32;
    v == 0x0A
        || (0x20..=0x7E).contains(&v)
        || (0xA0..=0xD7FF).contains(&v)
        || ((0xE000..=0xFFFD).contains(&v) && v != 0xFEFF)
}

/// libyaml's `is_break`: LF, CR, NEL, LS, PS.
pub fn is_line_break(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

/// libyaml's `select_scalar_style`: fall back from plain to single to double quotes, and from
/// block styles to double quotes, where the `requested` style cannot hold the value in `ctx`.
pub fn select_style(value: &str, requested: Style, ctx: Context, printer: Printer) -> Style {
    let a = analyze(value, printer);
    let flow = matches!(ctx, Context::Flow | Context::FlowKey);
    let simple_key = matches!(ctx, Context::SimpleKey | Context::FlowKey);
    let mut style = requested;
    if simple_key && a.multiline {
        style = Style::DoubleQuoted;
    }
    if style == Style::Plain {
        if (flow && !a.flow_plain) || (!flow && !a.block_plain) {
            style = Style::SingleQuoted;
        }
        if value.is_empty() && (flow || simple_key) {
            style = Style::SingleQuoted;
        }
    }
    if style == Style::SingleQuoted && !a.single_quoted {
        style = Style::DoubleQuoted;
    }
    if matches!(style, Style::Literal | Style::Folded) && (!a.block || flow || simple_key) {
        style = Style::DoubleQuoted;
    }
    style
}

/// Whether a character is written escaped in double-quoted text.
pub fn needs_escape(c: char) -> bool {
    !is_printable(c) || c == '\u{feff}' || is_line_break(c) || c == '"' || c == '\\'
}

/// Writes the escape of `c` (one that [`needs_escape`]): `\n`, `\N`, `\x1F`, `\U0001F600`...
pub fn push_escape(out: &mut String, c: char) {
    out.push('\\');
    match c {
        '\0' => out.push('0'),
        '\x07' => out.push('a'),
        '\x08' => out.push('b'),
        '\t' => out.push('t'),
        '\n' => out.push('n'),
        '\x0b' => out.push('v'),
        '\x0c' => out.push('f'),
        '\r' => out.push('r'),
        '\x1b' => out.push('e'),
        '"' => out.push('"'),
        '\\' => out.push('\\'),
        '\u{85}' => out.push('N'),
        '\u{a0}' => out.push('_'),
        '\u{2028}' => out.push('L'),
        '\u{2029}' => out.push('P'),
        _ => {
            let v = c as u32;
            let (letter, width) = if v <= 0xFF {
                ('x', 2)
            } else if v <= 0xFFFF {
                ('u', 4)
            } else {
                ('U', 8)
            };
            out.push(letter);
            out.push_str(&format!("{v:0width$X}"));
        }
    }
}

/// The chomping indicator of a block scalar holding `chars`: `-` (strip) when it does not end
/// in a line break, `+` (keep) when it ends in more than one (or is just one), none (clip)
/// otherwise.
pub fn chomping_indicator(chars: &[char]) -> Option<char> {
    match chars {
        [] => Some('-'),
        [.., last] if !is_line_break(*last) => Some('-'),
        [_] => Some('+'),
        [.., before, _] if is_line_break(*before) => Some('+'),
        _ => None,
    }
}

/// `n` spaces (indentation), written in chunks: this runs for every line an emitter writes.
pub fn push_spaces(out: &mut String, n: usize) {
    const SPACES: &str = "                                                                ";
    let mut n = n;
    while n > 0 {
        let k = n.min(SPACES.len());
        out.push_str(&SPACES[..k]);
        n -= k;
    }
}

/// The line breaks and indentation of multi-line scalar text, as libyaml's writers keep them:
/// a run of breaks, then the next content indented.
pub(crate) struct Lines<'o> {
    pub out: &'o mut String,
    indent: usize,
    /// The last thing written was a break (content starts indented).
    breaks: bool,
}

impl<'o> Lines<'o> {
    /// `at_line_start`: the text starts on a line of its own (block scalars), so its first
    /// content is indented too.
    pub fn new(out: &'o mut String, indent: usize, at_line_start: bool) -> Lines<'o> {
        Lines {
            out,
            indent,
            breaks: at_line_start,
        }
    }

    /// A break in the value. A `\n` right after content gets an empty line before it when
    /// `keep_lone_newline` (a reader folds a lone break into a space). U+2028 and U+2029 are
    /// written as they are, as libyaml's `write_break` does: a reader keeps them unfolded, and
    /// a `\n` in their place would read back as a `\n` or a space.
    pub fn line_break(&mut self, c: char, keep_lone_newline: bool) {
        if !self.breaks && keep_lone_newline && c == '\n' {
            self.out.push('\n');
        }
        self.out.push(c);
        self.breaks = true;
    }

    /// Whether the last thing written was content (so a break now ends a line of text).
    pub fn after_content(&self) -> bool {
        !self.breaks
    }

    /// Before a content character: the indentation when a break came before. Returns whether
    /// it started a line.
    pub fn content(&mut self) -> bool {
        let starts_line = self.breaks;
        if starts_line {
            push_spaces(self.out, self.indent);
        }
        self.breaks = false;
        starts_line
    }
}

/// The content lines of a literal block scalar holding `chars` (libyaml's
/// `write_literal_scalar` after the header line): each line `indent` spaces in, breaks kept.
pub fn push_literal_lines(out: &mut String, chars: &[char], indent: usize) {
    let mut lines = Lines::new(out, indent, true);
    for &c in chars {
        if is_line_break(c) {
            lines.line_break(c, false);
        } else {
            lines.content();
            lines.out.push(c);
        }
    }
}

fn analyze(value: &str, printer: Printer) -> Analysis {
    if value.is_empty() {
        return Analysis {
            multiline: false,
            flow_plain: false,
            block_plain: true,
            single_quoted: true,
            block: false,
        };
    }
    if is_simple_word(value) {
        return Analysis::ANY_STYLE;
    }
    analyze_chars(value, printer)
}

/// Names, versions and paths (`app-1`, `v1.2`, `apps/v1`): no character in them is an
/// indicator, a space or a break, so every style can hold them. Most scalars are like this.
fn is_simple_word(value: &str) -> bool {
    let b = value.as_bytes();
    b.first().is_some_and(u8::is_ascii_alphanumeric)
        && b.iter()
            .all(|&c| c.is_ascii_alphanumeric() || matches!(c, b'.' | b'_' | b'/' | b'-'))
}

/// libyaml's character-by-character analysis.
fn analyze_chars(value: &str, printer: Printer) -> Analysis {
    let mut block_ind = false;
    let mut flow_ind = false;
    let mut line_breaks = false;
    let mut special = false;
    let mut tabs = false;
    let mut leading_space = false;
    let mut leading_break = false;
    let mut trailing_space = false;
    let mut trailing_break = false;
    let mut break_space = false;
    let mut space_break = false;
    let mut prev_space = false;
    let mut prev_break = false;
    if value.starts_with("---") || value.starts_with("...") {
        block_ind = true;
        flow_ind = true;
    }
    // One pass with one character of lookahead: this runs for every scalar written.
    let mut chars = value.chars().peekable();
    let mut preceded_by_ws = true;
    let mut first = true;
    while let Some(c) = chars.next() {
        let next = chars.peek().copied();
        let last = next.is_none();
        let followed_by_ws = next.is_none_or(|n| n == ' ' || n == '\t' || is_line_break(n));
        if first {
            match c {
                '#' | ',' | '[' | ']' | '{' | '}' | '&' | '*' | '!' | '|' | '>' | '\'' | '"'
                | '%' | '@' | '`' => {
                    flow_ind = true;
                    block_ind = true;
                }
                '?' | ':' => {
                    flow_ind = true;
                    if followed_by_ws {
                        block_ind = true;
                    }
                }
                '-' if followed_by_ws => {
                    flow_ind = true;
                    block_ind = true;
                }
                _ => {}
            }
        } else {
            match c {
                ',' | '?' | '[' | ']' | '{' | '}' => flow_ind = true,
                ':' => {
                    flow_ind = true;
                    if followed_by_ws {
                        block_ind = true;
                    }
                }
                '#' if preceded_by_ws => {
                    flow_ind = true;
                    block_ind = true;
                }
                _ => {}
            }
        }
        if c == '\t' && printer == Printer::GoYamlV3 {
            tabs = true;
        } else if !is_printable(c) {
            special = true;
        }
        if c == ' ' {
            if first {
                leading_space = true;
            }
            if last {
                trailing_space = true;
            }
            if prev_break {
                break_space = true;
            }
            prev_space = true;
            prev_break = false;
        } else if is_line_break(c) {
            line_breaks = true;
            if first {
                leading_break = true;
            }
            if last {
                trailing_break = true;
            }
            if prev_space {
                space_break = true;
            }
            prev_space = false;
            prev_break = true;
        } else {
            prev_space = false;
            prev_break = false;
        }
        preceded_by_ws = c == ' ' || c == '\t' || is_line_break(c);
        first = false;
    }
    let mut a = Analysis {
        multiline: line_breaks,
        flow_plain: true,
        block_plain: true,
        single_quoted: true,
        block: true,
    };
    if leading_space || leading_break || trailing_space || trailing_break {
        a.flow_plain = false;
        a.block_plain = false;
    }
    if trailing_space {
        a.block = false;
    }
    if break_space {
        a.flow_plain = false;
        a.block_plain = false;
        a.single_quoted = false;
    }
    if space_break || tabs || special {
        a.flow_plain = false;
        a.block_plain = false;
        a.single_quoted = false;
    }
    if space_break || special {
        a.block = false;
    }
    if line_breaks {
        a.flow_plain = false;
        a.block_plain = false;
    }
    if flow_ind {
        a.flow_plain = false;
    }
    if block_ind {
        a.block_plain = false;
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shortcut must agree with the full analysis on every word it accepts, and reject
    /// everything with an indicator, space or non-ASCII character.
    #[test]
    fn simple_words_need_no_analysis() {
        let alphabet = [
            "a", "Z", "0", "9", ".", "_", "/", "-", ":", "#", " ", "é", "'", ",",
        ];
        let mut words = vec![String::new()];
        for _ in 0..3 {
            let longer: Vec<String> = words
                .iter()
                .flat_map(|w| alphabet.iter().map(move |c| format!("{w}{c}")))
                .collect();
            words.extend(longer);
        }
        let mut accepted = 0;
        for w in &words {
            if is_simple_word(w) {
                accepted += 1;
                for printer in [Printer::GoYamlV3, Printer::YamlV2] {
                    assert_eq!(analyze_chars(w, printer), Analysis::ANY_STYLE, "{w:?}");
                }
            }
        }
        assert!(accepted > 250, "{accepted}");
        for w in ["", "-a", ".a", "a:b", "a b", "a#", "é", "a,b", "---"] {
            assert!(!is_simple_word(w), "{w:?}");
        }
    }

    #[test]
    fn escapes() {
        let mut s = String::new();
        for c in "a\"b\\c\t😀\u{85}\u{7f}\u{feff}".chars() {
            if needs_escape(c) {
                push_escape(&mut s, c);
            } else {
                s.push(c);
            }
        }
        assert_eq!(s, r#"a\"b\\c\t\U0001F600\N\x7F\uFEFF"#);
    }

    #[test]
    fn chomping() {
        let ind = |s: &str| chomping_indicator(&s.chars().collect::<Vec<_>>());
        assert_eq!(ind(""), Some('-'));
        assert_eq!(ind("a"), Some('-'));
        assert_eq!(ind("a\n"), None);
        assert_eq!(ind("\n"), Some('+'));
        assert_eq!(ind("a\n\n"), Some('+'));
        assert_eq!(ind("a\r\n"), Some('+'));
    }

    #[test]
    fn tabs_count_as_libyaml_copy_has_them() {
        let lit = |p| select_style("a\tb\n", Style::Literal, Context::Block, p);
        assert_eq!(lit(Printer::GoYamlV3), Style::Literal);
        assert_eq!(lit(Printer::YamlV2), Style::DoubleQuoted);
        for p in [Printer::GoYamlV3, Printer::YamlV2] {
            assert_eq!(
                select_style("a\tb", Style::Plain, Context::Block, p),
                Style::DoubleQuoted
            );
        }
    }
}
