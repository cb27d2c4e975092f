//! Text from the input shown on a terminal. An object name, a key or a file name may hold
//! control characters: raw on stderr, `\e]0;...\a` sets the terminal's title, `\r\e[2K`
//! erases the line it is on, and a newline makes one result look like several. Every line
//! tailor writes to stderr goes through [`escape`] ([`super::say`]).

use std::borrow::Cow;
use std::fmt::Write;

/// `text` with every control character (C0, DEL, C1) and every bidirectional-formatting
/// character (which reorders what is shown) written as a visible escape: `\n`, `\r`, `\t`,
/// else `\u{1b}`. Text without any comes back as it is.
pub fn escape(text: &str) -> Cow<'_, str> {
    if !text.chars().any(needs_escape) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if needs_escape(c) => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

fn needs_escape(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_become_visible_escapes() {
        assert!(matches!(escape("plain ünïcode"), Cow::Borrowed(_)));
        assert_eq!(
            escape("evil\u{1b}]0;pwned\u{7}\r\u{1b}[2Kline1\nline2\t\u{9b}\u{202e}"),
            "evil\\u{1b}]0;pwned\\u{7}\\r\\u{1b}[2Kline1\\nline2\\t\\u{9b}\\u{202e}"
        );
        assert!(!escape("a\u{7f}b").chars().any(char::is_control));
    }
}
