//! The text Flux hands to envsubst: a resource's JSON printed by yaml.v2 (what
//! `sigs.k8s.io/yaml.JSONToYAML` produces). Keys sorted in yaml.v2's natural order, two-space
//! indentation with sequences flush under their key, yaml.v2's scalar styles, and plain and
//! quoted scalars folded at 80 columns — the fold can land inside `${...}`, which is part of
//! what Flux users see.

use std::cmp::Ordering;

use crate::scalar_style::{
    chomping_indicator, is_line_break as is_break, needs_escape, push_escape, push_literal_lines,
    select_style, Context, Printer as Rules,
};
use crate::Style;
use serde_json::Value as Json;

use crate::sigs::numbers::v2_number_text;
use crate::sigs::v2resolve::can_use_plain;

const BEST_WIDTH: usize = 80;
const BEST_INDENT: usize = 2;
/// libyaml writes longer keys as `? key` complex keys.
const MAX_SIMPLE_KEY: usize = 128;

/// Prints a JSON document as yaml.v2 would.
pub fn to_yaml_v2(doc: &Json) -> String {
    let mut p = Printer {
        out: String::new(),
        chars: Vec::new(),
    };
    match doc {
        Json::Object(m) if !m.is_empty() => p.mapping(doc, 0),
        Json::Array(a) if !a.is_empty() => p.sequence(doc, 0),
        other => {
            p.inline(other, 0);
            p.out.push('\n');
        }
    }
    p.out
}

struct Printer {
    out: String,
    /// The characters of the scalar being written, kept between scalars to save an allocation
    /// per scalar.
    chars: Vec<char>,
}

impl Printer {
    fn column(&self) -> usize {
        let line = match self.out.rfind('\n') {
            Some(i) => &self.out[i + 1..],
            None => &self.out[..],
        };
        line.chars().count()
    }

    fn newline_indent(&mut self, indent: usize) {
        self.out.push('\n');
        self.out.extend(std::iter::repeat_n(' ', indent));
    }

    /// A block mapping whose keys start at column `indent`; the cursor is already there.
    fn mapping(&mut self, node: &Json, indent: usize) {
        let Json::Object(map) = node else { return };
        let mut keys: Vec<&String> = map.keys().collect();
        keys.sort_by(|a, b| natural_cmp(a, b));
        for (i, key) in keys.into_iter().enumerate() {
            if i > 0 {
                self.out.extend(std::iter::repeat_n(' ', indent));
            }
            let value = &map[key];
            if key.chars().count() > MAX_SIMPLE_KEY {
                self.out.push_str("? ");
                self.string(key, indent + BEST_INDENT, false);
                self.out.push('\n');
                self.out.extend(std::iter::repeat_n(' ', indent));
                self.out.push(':');
            } else {
                self.string(key, indent + BEST_INDENT, true);
                self.out.push(':');
            }
            self.value(value, indent, true);
        }
    }

    /// A block sequence whose `- ` starts at column `indent`; the cursor is already there.
    fn sequence(&mut self, node: &Json, indent: usize) {
        let Json::Array(items) = node else { return };
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                self.out.extend(std::iter::repeat_n(' ', indent));
            }
            self.out.push('-');
            self.value(item, indent, false);
        }
    }

    /// What follows `key:` or `-`: nested collections on the next lines, scalars after a space.
    fn value(&mut self, value: &Json, indent: usize, in_mapping: bool) {
        match value {
            Json::Object(m) if !m.is_empty() => {
                if in_mapping {
                    self.newline_indent(indent + BEST_INDENT);
                } else {
                    self.out.push(' ');
                }
                self.mapping(value, indent + BEST_INDENT);
            }
            Json::Array(a) if !a.is_empty() => {
                if in_mapping {
                    // Sequences in a mapping are indentless in yaml.v2.
                    self.newline_indent(indent);
                    self.sequence(value, indent);
                } else {
                    self.out.push(' ');
                    self.sequence(value, indent + BEST_INDENT);
                }
            }
            other => {
                self.out.push(' ');
                self.inline(other, indent + BEST_INDENT);
                self.out.push('\n');
            }
        }
    }

    fn inline(&mut self, value: &Json, indent: usize) {
        match value {
            Json::Null => self.out.push_str("null"),
            Json::Bool(b) => self.out.push_str(if *b { "true" } else { "false" }),
            Json::Number(n) => self.out.push_str(&v2_number_text(n)),
            Json::String(s) => self.string(s, indent, false),
            Json::Object(_) => self.out.push_str("{}"),
            Json::Array(_) => self.out.push_str("[]"),
        }
    }

    /// yaml.v2's `stringv` plus libyaml's style fallbacks; `indent` is where folded and block
    /// lines continue.
    fn string(&mut self, s: &str, indent: usize, simple_key: bool) {
        let requested = if s.contains('\n') {
            Style::Literal
        } else if can_use_plain(s) {
            Style::Plain
        } else {
            Style::DoubleQuoted
        };
        let mut chars = std::mem::take(&mut self.chars);
        chars.clear();
        chars.extend(s.chars());
        let ctx = if simple_key {
            Context::SimpleKey
        } else {
            Context::Block
        };
        let allow_breaks = !simple_key;
        match select_style(s, requested, ctx, Rules::YamlV2) {
            Style::Plain => self.plain_or_single(&chars, indent, allow_breaks, false),
            Style::SingleQuoted => self.plain_or_single(&chars, indent, allow_breaks, true),
            Style::Literal => self.literal(s, &chars, indent),
            _ => self.double(&chars, indent, allow_breaks),
        }
        self.chars = chars;
    }

    /// libyaml's `write_plain_scalar`, and with `single` its `write_single_quoted`: a space
    /// past column 80 becomes a line break (in quotes, not the first or last character), unless
    /// another space follows it.
    fn plain_or_single(&mut self, chars: &[char], indent: usize, allow_breaks: bool, single: bool) {
        if single {
            self.out.push('\'');
        }
        let mut spaces = false;
        for (i, &c) in chars.iter().enumerate() {
            if c == ' ' {
                let next_space = chars.get(i + 1) == Some(&' ');
                let inside = !single || (i > 0 && i + 1 < chars.len());
                if allow_breaks && !spaces && inside && !next_space && self.column() > BEST_WIDTH {
                    self.newline_indent(indent);
                } else {
                    self.out.push(c);
                }
                spaces = true;
            } else {
                if single && c == '\'' {
                    self.out.push('\'');
                }
                self.out.push(c);
                spaces = false;
            }
        }
        if single {
            self.out.push('\'');
        }
    }

    fn double(&mut self, chars: &[char], indent: usize, allow_breaks: bool) {
        self.out.push('"');
        let mut spaces = false;
        for (i, &c) in chars.iter().enumerate() {
            if needs_escape(c) {
                push_escape(&mut self.out, c);
                spaces = false;
            } else if c == ' ' {
                if allow_breaks
                    && !spaces
                    && self.column() > BEST_WIDTH
                    && i > 0
                    && i + 1 < chars.len()
                {
                    self.newline_indent(indent);
                    if chars.get(i + 1) == Some(&' ') {
                        self.out.push('\\');
                    }
                } else {
                    self.out.push(c);
                }
                spaces = true;
            } else {
                self.out.push(c);
                spaces = false;
            }
        }
        self.out.push('"');
    }

    fn literal(&mut self, s: &str, chars: &[char], indent: usize) {
        self.out.push('|');
        if s.starts_with(' ') || s.starts_with(is_break) {
            self.out.push(char::from(b'0' + BEST_INDENT as u8));
        }
        self.out.extend(chomping_indicator(chars));
        self.out.push('\n');
        push_literal_lines(&mut self.out, chars, indent);
        // The caller ends the line; a value ending in a break already did.
        if self.out.ends_with('\n') {
            self.out.pop();
        }
    }
}

/// yaml.v2's `keyList.Less` for string keys: letters before other characters, digit runs
/// compared as numbers (`a9` < `a10`).
pub fn natural_cmp(a: &str, b: &str) -> Ordering {
    // Keys are nearly always ASCII: then bytes are the characters, and nothing is allocated.
    if a.is_ascii() && b.is_ascii() {
        return natural_order(a.as_bytes(), b.as_bytes());
    }
    let ar: Vec<char> = a.chars().collect();
    let br: Vec<char> = b.chars().collect();
    natural_order(&ar, &br)
}

fn natural_order<C: Copy + Into<char>>(a: &[C], b: &[C]) -> Ordering {
    if natural_less(a, b) {
        Ordering::Less
    } else if natural_less(b, a) {
        Ordering::Greater
    } else {
        Ordering::Equal
    }
}

fn natural_less<C: Copy + Into<char>>(x: &[C], y: &[C]) -> bool {
    let x = |k: usize| -> Option<char> { x.get(k).map(|&c| c.into()) };
    let y = |k: usize| -> Option<char> { y.get(k).map(|&c| c.into()) };
    let mut i = 0;
    while let (Some(xc), Some(yc)) = (x(i), y(i)) {
        if xc == yc {
            i += 1;
            continue;
        }
        let xl = xc.is_alphabetic();
        let yl = yc.is_alphabetic();
        if xl && yl {
            return xc < yc;
        }
        if xl || yl {
            return yl;
        }
        let (mut xn, mut yn) = (0i64, 0i64);
        if xc == '0' || yc == '0' {
            let mut j = i;
            while j > 0 && x(j - 1).is_some_and(|c| c.is_ascii_digit()) {
                j -= 1;
                if x(j) != Some('0') {
                    xn = 1;
                    yn = 1;
                    break;
                }
            }
        }
        let mut xi = i;
        while let Some(c) = x(xi).filter(char::is_ascii_digit) {
            xn = xn.wrapping_mul(10).wrapping_add(c as i64 - '0' as i64);
            xi += 1;
        }
        let mut yi = i;
        while let Some(c) = y(yi).filter(char::is_ascii_digit) {
            yn = yn.wrapping_mul(10).wrapping_add(c as i64 - '0' as i64);
            yi += 1;
        }
        if xn != yn {
            return xn < yn;
        }
        if xi != yi {
            return xi < yi;
        }
        return xc < yc;
    }
    x(i).is_none() && y(i).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn flux_prints_sorted_and_requoted() {
        let doc = json!({"kind": "ConfigMap", "apiVersion": "v1", "metadata": {"name": "x"},
                         "data": {"quoted": "${v}", "plain": "${v}", "n": "on", "num": "123"}});
        assert_eq!(
            to_yaml_v2(&doc),
            "apiVersion: v1\ndata:\n  \"n\": \"on\"\n  num: \"123\"\n  plain: ${v}\n  quoted: ${v}\nkind: ConfigMap\nmetadata:\n  name: x\n"
        );
    }

    #[test]
    fn sequences_are_indentless_and_nested() {
        let doc = json!({"a": [{"x": 1, "y": [1, 2]}, [3], {}, []], "b": []});
        assert_eq!(
            to_yaml_v2(&doc),
            "a:\n- x: 1\n  \"y\":\n  - 1\n  - 2\n- - 3\n- {}\n- []\nb: []\n"
        );
    }

    #[test]
    fn natural_key_order() {
        let mut keys = vec!["a10", "a9", "B", "a", "_x", "1", "10", "9"];
        keys.sort_by(|a, b| natural_cmp(a, b));
        // `_` is neither a letter nor a digit: it reads as the number 0.
        assert_eq!(keys, ["_x", "1", "9", "10", "B", "a", "a9", "a10"]);
    }

    #[test]
    fn folds_long_plain_scalars_at_80_columns() {
        let long = "w ".repeat(50) + "${VAR:=some default value} tail";
        let out = to_yaml_v2(&json!({"k": long}));
        assert!(out.lines().count() > 1, "{out}");
        assert!(out.lines().all(|l| l.chars().count() <= 84), "{out}");
    }

    #[test]
    fn styles() {
        assert_eq!(to_yaml_v2(&json!({"k": "a\nb\n"})), "k: |\n  a\n  b\n");
        assert_eq!(to_yaml_v2(&json!({"k": " x"})), "k: ' x'\n");
        assert_eq!(to_yaml_v2(&json!({"k": "a\tb"})), "k: \"a\\tb\"\n");
        assert_eq!(to_yaml_v2(&json!({"k": ""})), "k: \"\"\n");
        assert_eq!(to_yaml_v2(&json!({"k": "${a}: x"})), "k: '${a}: x'\n");
        assert_eq!(
            to_yaml_v2(&json!({"k": "line1 \nline2"})),
            "k: \"line1 \\nline2\"\n"
        );
    }
}
