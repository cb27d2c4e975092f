//! KubeStellar's JSONPath subset (`pkg/jsonpath`, `ParseQuery`),
//! `docs/semantics/kubestellar.md` §2.3.
//!
//! ```text
//! query   := '$' segment*
//! segment := '.' name | '[' dq-string ']'
//! ```
//! Bracket strings are JavaScript string literals (KubeStellar hands them to goja), decoded by
//! [`decode_js_string_literal`]. Positions in error texts are byte offsets, as in Go.

use std::fmt;

/// A parse failure, with KubeStellar's exact text (see [`fmt::Display`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueryError(pub String);

impl fmt::Display for QueryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for QueryError {}

fn is_name_first(c: char) -> bool {
    c.is_ascii_alphabetic()
        || c == '_'
        || ('\u{80}'..='\u{D7FF}').contains(&c)
        || ('\u{E000}'..='\u{10FFFF}').contains(&c)
}

fn is_name_char(c: char) -> bool {
    is_name_first(c) || c.is_ascii_digit()
}

/// Parses a path in KubeStellar's grammar into its member names.
///
/// `$` alone gives an empty list (the caller reports "it identifies the whole object").
pub fn parse_kubestellar_query(src: &str) -> Result<Vec<String>, QueryError> {
    if src.is_empty() {
        return Err(QueryError("EOF".into()));
    }
    let err = |pos: usize, msg: String| QueryError(format!("syntax error at {pos}: {msg}"));
    // What stands at `pos` (NUL at the end) is not what the grammar wants there.
    let unexpected = |(pos, c): (usize, char), wanted: &str| {
        err(
            pos,
            format!("{wanted}, got {}", tailor_go::strconv::quote_char(c)),
        )
    };
    let mut chars = src.char_indices().peekable();
    match chars.next() {
        Some((_, '$')) => {}
        _ => {
            return Err(err(0, "missing root identifier (dollar sign)".into()));
        }
    }
    let end = src.len();
    let mut members = Vec::new();
    while let Some((pos, c)) = chars.next() {
        match c {
            '.' => {
                let (npos, nc) = chars.peek().copied().unwrap_or((end, '\0'));
                if !is_name_first(nc) {
                    return Err(unexpected((npos, nc), "expected member-name-shorthand"));
                }
                let mut stop = end;
                while let Some(&(p, ch)) = chars.peek() {
                    if !is_name_char(ch) {
                        stop = p;
                        break;
                    }
                    chars.next();
                }
                members.push(src.get(npos..stop).unwrap_or_default().to_string());
            }
            '[' => {
                let (qpos, qc) = chars.peek().copied().unwrap_or((end, '\0'));
                if qc != '"' {
                    return Err(unexpected((qpos, qc), "expected open quote"));
                }
                chars.next();
                // Scan to the next unescaped quote; a backslash skips one rune.
                let close_end = loop {
                    match chars.next() {
                        None => return Err(err(end, "missing close quote".into())),
                        Some((_, '\\')) => {
                            if chars.next().is_none() {
                                return Err(err(end, "escape-EOF".into()));
                            }
                        }
                        Some((p, '"')) => break p + 1,
                        Some(_) => {}
                    }
                };
                let raw = src.get(qpos..close_end).unwrap_or_default();
                let name = decode_js_string_literal(raw).map_err(|msg| {
                    QueryError(format!(
                        "lexical error at {close_end} from goja: SyntaxError: lit: Line 1:1 {msg}"
                    ))
                })?;
                let next = chars.peek().copied().unwrap_or((end, '\0'));
                if next.1 != ']' {
                    return Err(unexpected(next, "missing close bracket"));
                }
                chars.next();
                members.push(name);
            }
            other => {
                return Err(err(
                    pos,
                    format!(
                        "extra junk {} after last segment",
                        tailor_go::strconv::quote_char(other)
                    ),
                ));
            }
        }
    }
    Ok(members)
}

/// Decodes a double- or single-quoted JavaScript (ECMAScript, non-strict) string literal,
/// quotes included, the way goja does: `\b \f \n \r \t \v \0`, `\xHH`, `\uHHHH`, `\u{H…}`,
/// legacy octal, line continuations and identity escapes. Lone surrogates become U+FFFD.
/// The error is goja's message.
pub fn decode_js_string_literal(raw: &str) -> Result<String, String> {
    let mut it = raw.chars();
    let quote = match it.next() {
        Some(q @ ('"' | '\'')) => q,
        _ => return Err("Unexpected token ILLEGAL".into()),
    };
    let inner: Vec<char> = it.collect();
    let Some((&last, body)) = inner.split_last() else {
        return Err("String not terminated".into());
    };
    if last != quote {
        return Err("String not terminated".into());
    }
    let mut units: Vec<u16> = Vec::with_capacity(body.len());
    let push = |units: &mut Vec<u16>, c: char| {
        let mut buf = [0u16; 2];
        units.extend_from_slice(c.encode_utf16(&mut buf));
    };
    // `body[from..to]` (clipped to its end) as Go's `%q` prints it, for goja's messages.
    let quoted = |from: usize, to: usize| -> String {
        let s: String = body
            .get(from..to.min(body.len()))
            .unwrap_or_default()
            .iter()
            .collect();
        tailor_go::strconv::quote(&s)
    };
    // `\xHH` and `\uHHHH`: exactly `width` hex digits at `at`.
    let fixed_hex = |at: usize, width: usize, letter: char| -> Result<u16, String> {
        let Some(digits) = body.get(at..at + width) else {
            return Err(format!(
                "invalid escape: \\{letter}: len({}) != {width}",
                quoted(at, body.len())
            ));
        };
        if !digits.iter().all(char::is_ascii_hexdigit) {
            return Err(format!(
                "invalid escape: \\{letter}: {}",
                quoted(at, at + width)
            ));
        }
        let value = digits
            .iter()
            .fold(0, |v, d| (v << 4) | d.to_digit(16).unwrap_or(0));
        Ok(value as u16)
    };
    let mut i = 0;
    while let Some(&c) = body.get(i) {
        i += 1;
        match c {
            '\n' | '\r' => return Err("String not terminated".into()),
            c if c == quote => return Err("Unexpected token ILLEGAL".into()),
            '\\' => {
                let Some(&e) = body.get(i) else {
                    return Err("String not terminated".into());
                };
                i += 1;
                match e {
                    'b' => units.push(0x08),
                    'f' => units.push(0x0c),
                    'n' => units.push(0x0a),
                    'r' => units.push(0x0d),
                    't' => units.push(0x09),
                    'v' => units.push(0x0b),
                    '\r' => {
                        if body.get(i) == Some(&'\n') {
                            i += 1;
                        }
                    }
                    '\n' | '\u{2028}' | '\u{2029}' => {}
                    'x' => {
                        units.push(fixed_hex(i, 2, 'x')?);
                        i += 2;
                    }
                    'u' if body.get(i) == Some(&'{') => {
                        let start = i + 1;
                        let mut j = start;
                        let mut val: u32 = 0;
                        loop {
                            match body.get(j) {
                                None => {
                                    return Err(format!(
                                        "unterminated \\u{{: {}",
                                        quoted(start, body.len())
                                    ))
                                }
                                Some('}') => {
                                    if j == start {
                                        return Err("invalid escape: \\u".into());
                                    }
                                    break;
                                }
                                Some(&d) => {
                                    let Some(v) = d.to_digit(16) else {
                                        return Err(format!(
                                            "invalid escape: \\u: {}",
                                            quoted(start, j + 1)
                                        ));
                                    };
                                    val = (val << 4) | v;
                                    if val > 0x10FFFF {
                                        return Err(format!(
                                            "undefined Unicode code-point: {}",
                                            quoted(start, j + 1)
                                        ));
                                    }
                                    j += 1;
                                }
                            }
                        }
                        i = j + 1;
                        match char::from_u32(val) {
                            Some(ch) => push(&mut units, ch),
                            // A surrogate code point: keep the unit (decoded as U+FFFD if lone).
                            None => units.push(val as u16),
                        }
                    }
                    'u' => {
                        units.push(fixed_hex(i, 4, 'u')?);
                        i += 4;
                    }
                    '0' if !body.get(i).is_some_and(|d| ('0'..='7').contains(d)) => units.push(0),
                    '0'..='7' => {
                        let mut v = e as u32 - '0' as u32;
                        for _ in 0..2 {
                            match body.get(i) {
                                Some(&d) if ('0'..='7').contains(&d) => {
                                    v = (v << 3) | (d as u32 - '0' as u32);
                                    i += 1;
                                }
                                _ => break,
                            }
                        }
                        units.push(v as u16);
                    }
                    other => push(&mut units, other),
                }
            }
            other => push(&mut units, other),
        }
    }
    Ok(String::from_utf16_lossy(&units))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(src: &str) -> Vec<String> {
        parse_kubestellar_query(src).unwrap()
    }

    fn err(src: &str) -> String {
        parse_kubestellar_query(src).unwrap_err().0
    }

    // §4.1: KubeStellar's lexer_test.go cases.
    #[test]
    fn kubestellar_lexer_test_cases() {
        assert_eq!(err(""), "EOF");
        assert!(parse_kubestellar_query("'xyz").is_err());
        assert_eq!(ok("$.xyz"), ["xyz"]);
        assert_eq!(ok(r#"$["foo.bar/baz"]"#), ["foo.bar/baz"]);
        assert_eq!(ok(r#"$["foo.bar/baz"].zork"#), ["foo.bar/baz", "zork"]);
        assert_eq!(ok(r#"$.zot["foo.bar/baz"]"#), ["zot", "foo.bar/baz"]);
        assert!(parse_kubestellar_query("$.").is_err());
        assert!(parse_kubestellar_query("$[").is_err());
        assert!(parse_kubestellar_query("$[]").is_err());
    }

    #[test]
    fn dollar_alone_is_the_empty_query() {
        assert_eq!(ok("$"), Vec::<String>::new());
    }

    #[test]
    fn empty_string_member_is_valid() {
        assert_eq!(ok(r#"$[""]"#), [""]);
    }

    // §2.3 error texts, one per rule.
    #[test]
    fn error_empty_is_eof() {
        assert_eq!(err(""), "EOF");
    }

    #[test]
    fn error_missing_root() {
        assert_eq!(
            err("'xyz"),
            "syntax error at 0: missing root identifier (dollar sign)"
        );
        assert_eq!(
            err(".a"),
            "syntax error at 0: missing root identifier (dollar sign)"
        );
    }

    #[test]
    fn error_expected_member_name() {
        assert_eq!(
            err("$."),
            r"syntax error at 2: expected member-name-shorthand, got '\x00'"
        );
        assert_eq!(
            err("$..a"),
            "syntax error at 2: expected member-name-shorthand, got '.'"
        );
        assert_eq!(
            err("$.1a"),
            "syntax error at 2: expected member-name-shorthand, got '1'"
        );
    }

    #[test]
    fn error_expected_open_quote() {
        assert_eq!(
            err("$["),
            r"syntax error at 2: expected open quote, got '\x00'"
        );
        assert_eq!(
            err("$[]"),
            "syntax error at 2: expected open quote, got ']'"
        );
        assert_eq!(
            err("$['a']"),
            r"syntax error at 2: expected open quote, got '\''"
        );
        assert_eq!(
            err("$.a[0]"),
            "syntax error at 4: expected open quote, got '0'"
        );
        assert_eq!(
            err("$.a[*]"),
            "syntax error at 4: expected open quote, got '*'"
        );
    }

    #[test]
    fn error_missing_close_quote_and_escape_eof() {
        assert_eq!(err(r#"$["abc"#), "syntax error at 6: missing close quote");
        assert_eq!(err(r#"$["ab\"#), "syntax error at 6: escape-EOF");
        // An escaped quote does not close the string.
        assert_eq!(err(r#"$["a\"]"#), "syntax error at 7: missing close quote");
    }

    #[test]
    fn error_missing_close_bracket() {
        assert_eq!(
            err(r#"$["a" ]"#),
            "syntax error at 5: missing close bracket, got ' '"
        );
        assert_eq!(
            err(r#"$["a""#),
            r"syntax error at 5: missing close bracket, got '\x00'"
        );
    }

    #[test]
    fn error_extra_junk() {
        assert_eq!(
            err("$.a-b"),
            "syntax error at 3: extra junk '-' after last segment"
        );
        assert_eq!(
            err("$.spec suspend"),
            "syntax error at 6: extra junk ' ' after last segment"
        );
        assert_eq!(
            err("$x"),
            "syntax error at 1: extra junk 'x' after last segment"
        );
        assert_eq!(
            err(r#"$["a"]x"#),
            "syntax error at 6: extra junk 'x' after last segment"
        );
    }

    #[test]
    fn error_goja_rejects_raw_newline() {
        assert_eq!(
            err("$[\"a\nb\"]"),
            "lexical error at 7 from goja: SyntaxError: lit: Line 1:1 String not terminated"
        );
    }

    #[test]
    fn error_goja_rejects_bad_hex_escape() {
        let e = err(r#"$["\xZZ"]"#);
        assert!(
            e.starts_with("lexical error at 8 from goja: SyntaxError: lit: Line 1:1 "),
            "{e}"
        );
    }

    #[test]
    fn names_take_non_ascii_and_digits() {
        assert_eq!(ok("$.é1_x"), ["é1_x"]);
        assert_eq!(ok("$._a.B9"), ["_a", "B9"]);
    }

    #[test]
    fn positions_are_byte_offsets() {
        // 'é' is two bytes, so '-' is at byte 4.
        assert_eq!(
            err("$.é-"),
            "syntax error at 4: extra junk '-' after last segment"
        );
    }

    #[test]
    fn js_escapes() {
        let d = |s: &str| decode_js_string_literal(s).unwrap();
        assert_eq!(d(r#""a\nb""#), "a\nb");
        assert_eq!(d(r#""\b\f\r\t\v\0""#), "\u{8}\u{c}\r\t\u{b}\0");
        assert_eq!(d(r#""\"\'\\\/""#), "\"'\\/");
        assert_eq!(d(r#""\x41\u0042\u{43}\u{1F600}""#), "ABC😀");
        assert_eq!(d(r#""\101\7\08""#), "A\u{7}\u{0}8");
        assert_eq!(d(r#""\q\8""#), "q8");
        assert_eq!(d("\"a\\\nb\""), "ab");
        assert_eq!(d("\"a\\\r\nb\""), "ab");
        assert_eq!(d(r#""\uD83D\uDE00""#), "😀");
        assert_eq!(d(r#""\uD800""#), "\u{FFFD}");
        assert_eq!(d("\"a\u{2028}b\""), "a\u{2028}b");
        assert_eq!(d("\"tab\there\""), "tab\there");
    }

    #[test]
    fn js_escape_errors() {
        assert!(decode_js_string_literal(r#""\x4""#).is_err());
        assert!(decode_js_string_literal(r#""\u12""#).is_err());
        assert!(decode_js_string_literal(r#""\u{}""#).is_err());
        assert!(decode_js_string_literal(r#""\u{110000}""#).is_err());
        assert!(decode_js_string_literal("\"a\rb\"").is_err());
    }

    #[test]
    fn bracket_member_with_escapes() {
        assert_eq!(
            ok(r#"$.metadata.labels["test.kubestellar.io/delete-me"]"#),
            ["metadata", "labels", "test.kubestellar.io/delete-me"]
        );
        assert_eq!(ok(r#"$["a\"b"]"#), ["a\"b"]);
        assert_eq!(ok(r#"$["\u0041"]"#), ["A"]);
    }

    #[test]
    fn go_quote_rune_matches_go() {
        assert_eq!(tailor_go::strconv::quote_char('\0'), r"'\x00'");
        assert_eq!(tailor_go::strconv::quote_char('\''), r"'\''");
        assert_eq!(tailor_go::strconv::quote_char('"'), "'\"'");
        assert_eq!(tailor_go::strconv::quote_char('\\'), r"'\\'");
        assert_eq!(tailor_go::strconv::quote_char('\n'), r"'\n'");
        assert_eq!(tailor_go::strconv::quote_char('é'), "'é'");
        assert_eq!(tailor_go::strconv::quote_char('\u{a0}'), r"'\u00a0'");
        assert_eq!(tailor_go::strconv::quote_char('\u{1b}'), r"'\x1b'");
    }
}
