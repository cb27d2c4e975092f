//! sprig's word functions, as sprig v3.3.0 takes them from Masterminds/goutils v1.1.1
//! (`abbrev`, `abbrevboth`, `untitle`, `initials`, `swapcase`, `wrap`, `wrapWith`) and
//! from huandu/xstrings v1.5.0 (`camelcase` = `ToPascalCase`, `snakecase`, `kebabcase`).
//! goutils counts bytes where Go slices strings by bytes; a cut inside a UTF-8 sequence is
//! shown as U+FFFD, as Go's template output would carry the broken byte.

use tailor_go::unicode::{is_letter, to_lower, to_upper};

/// Go's `str[a:b]` where the bounds may cut a character.
fn bytes(s: &str, a: usize, b: usize) -> String {
    String::from_utf8_lossy(&s.as_bytes()[a..b]).into_owned()
}

/// goutils `AbbreviateFull` (errors come back as sprig ignores them: "").
pub fn abbreviate(s: &str, offset: i64, width: i64) -> String {
    let len = s.len() as i64;
    if s.is_empty() || width < 4 {
        return String::new();
    }
    if len <= width {
        return s.to_string();
    }
    let mut offset = offset.min(len);
    if len - offset < width - 3 {
        offset = len - (width - 3);
    }
    if offset <= 4 {
        return bytes(s, 0, (width - 3) as usize) + "...";
    }
    if width < 7 {
        return String::new();
    }
    if offset + width - 3 < len {
        let rest = bytes(s, offset as usize, s.len());
        return format!("...{}", abbreviate(&rest, 0, width - 3));
    }
    format!("...{}", bytes(s, (len - (width - 3)) as usize, s.len()))
}

/// sprig `abbrev WIDTH S`.
pub fn abbrev(width: i64, s: &str) -> String {
    if width < 4 {
        return s.to_string();
    }
    abbreviate(s, 0, width)
}

/// sprig `abbrevboth LEFT RIGHT S`.
pub fn abbrevboth(left: i64, right: i64, s: &str) -> String {
    if right < 4 || left > 0 && right < 7 {
        return s.to_string();
    }
    abbreviate(s, left, right)
}

/// goutils `Uncapitalize`: the first letter of every whitespace-separated word lowered.
pub fn untitle(s: &str) -> String {
    let mut next = true;
    s.chars()
        .map(|c| {
            if c.is_whitespace() {
                next = true;
                c
            } else if next {
                next = false;
                to_lower(c)
            } else {
                c
            }
        })
        .collect()
}

/// goutils `Initials`: the first byte of every whitespace-separated word (goutils reads
/// bytes as runes, so a multi-byte letter gives its first byte's Latin-1 reading).
pub fn initials(s: &str) -> String {
    let mut gap = true;
    let mut out = String::new();
    for b in s.bytes() {
        let c = char::from(b);
        if matches!(b, b'\t' | b'\n' | 0x0b | 0x0c | b'\r' | b' ' | 0x85 | 0xa0) {
            gap = true;
        } else if gap {
            out.push(c);
            gap = false;
        }
    }
    out
}

/// goutils `SwapCase`: upper to lower, lower to upper, a lower letter after whitespace to
/// title case (upper case for all but a few digraphs).
pub fn swapcase(s: &str) -> String {
    let mut space = true;
    s.chars()
        .map(|c| {
            if c.is_uppercase() {
                space = false;
                to_lower(c)
            } else if c.is_lowercase() {
                space = false;
                to_upper(c)
            } else {
                space = c.is_whitespace();
                c
            }
        })
        .collect()
}

/// goutils `WrapCustom` with `wrapLongWords` (sprig's `wrap` passes false, `wrapWith` true).
pub fn wrap(s: &str, width: i64, newline: &str, long_words: bool) -> String {
    if s.is_empty() {
        return String::new();
    }
    let nl = if newline.is_empty() { "\n" } else { newline };
    let width = width.max(1) as usize;
    let b = s.as_bytes();
    let (len, mut offset) = (b.len(), 0usize);
    let mut out: Vec<u8> = Vec::new();
    while len - offset > width {
        if b[offset] == b' ' {
            offset += 1;
            continue;
        }
        let end = width + offset + 1;
        match b[offset..end].iter().rposition(|&c| c == b' ') {
            Some(i) => {
                out.extend_from_slice(&b[offset..offset + i]);
                out.extend_from_slice(nl.as_bytes());
                offset += i + 1;
            }
            None if long_words => {
                out.extend_from_slice(&b[offset..offset + width]);
                out.extend_from_slice(nl.as_bytes());
                offset += width;
            }
            None => {
                let end = width + offset;
                match b[end..].iter().position(|&c| c == b' ') {
                    None => {
                        out.extend_from_slice(&b[offset..]);
                        offset = len;
                    }
                    Some(i) => {
                        out.extend_from_slice(&b[offset..end + i]);
                        out.extend_from_slice(nl.as_bytes());
                        offset = end + i + 1;
                    }
                }
            }
        }
    }
    out.extend_from_slice(&b[offset..]);
    String::from_utf8_lossy(&out).into_owned()
}

/// xstrings' connector: `-`, `_` or whitespace.
fn is_connector(c: char) -> bool {
    c == '-' || c == '_' || c.is_whitespace()
}

/// xstrings `ToPascalCase` (sprig's `camelcase`): words split at connectors, each word's
/// first letter upper-cased, the rest kept; leading connectors and doubled ones stay.
pub fn camelcase(s: &str) -> String {
    let mut chars = s.chars();
    let mut out = String::new();
    let mut r0 = None;
    for c in chars.by_ref() {
        if !is_connector(c) {
            r0 = Some(to_upper(c));
            break;
        }
        out.push(c);
    }
    let Some(mut r0) = r0 else { return out };
    for c in chars {
        let r1 = r0;
        r0 = c;
        if is_connector(r0) && is_connector(r1) {
            out.push(r1);
            continue;
        }
        if is_connector(r1) {
            r0 = to_upper(r0);
        } else {
            out.push(r1);
        }
    }
    out.push(r0);
    out
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Word {
    None,
    Number,
    Upper,
    Alphabet,
    Connector,
    Punct,
    Other,
}

/// Go's `unicode.IsPunct` for ASCII (category P); other characters count as not punctuation.
fn is_punct(c: char) -> bool {
    c.is_ascii_punctuation() && !"$+<=>^`|~".contains(c)
}

/// xstrings' `isAlphabet`: a letter outside the common CJK blocks.
fn is_alphabet(c: char) -> bool {
    let cjk =
        matches!(c as u32, 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF | 0x20000..=0x2FA1F);
    is_letter(c) && !cjk
}

fn is_number(c: char) -> bool {
    c.is_numeric()
}

/// xstrings `nextWord`: the kind and length in bytes of the word at the start of `s`.
fn next_word(s: &str) -> (Word, usize) {
    let mut it = s.char_indices().peekable();
    let Some((_, r)) = it.next() else {
        return (Word::None, 0);
    };
    let end_while = |it: &mut std::iter::Peekable<std::str::CharIndices<'_>>,
                     f: &dyn Fn(char) -> bool| {
        while let Some(&(_, c)) = it.peek() {
            if !f(c) {
                break;
            }
            it.next();
        }
        it.peek().map_or(s.len(), |&(i, _)| i)
    };
    let lower_letter = |c: char| is_alphabet(c) && !c.is_uppercase();
    if is_connector(r) {
        return (Word::Connector, end_while(&mut it, &is_connector));
    }
    if is_punct(r) {
        return (Word::Punct, end_while(&mut it, &is_punct));
    }
    if r.is_uppercase() {
        let Some(&(_, c)) = it.peek() else {
            return (Word::Upper, s.len());
        };
        if c.is_uppercase() {
            let mut last_start = it.peek().map_or(s.len(), |&(i, _)| i);
            while let Some(&(i, c)) = it.peek() {
                if !c.is_uppercase() {
                    // "HTTPStatus": the last upper letter starts the next word.
                    let end = if is_alphabet(c) { last_start } else { i };
                    return (Word::Upper, end);
                }
                last_start = i;
                it.next();
            }
            return (Word::Upper, s.len());
        }
        if is_alphabet(c) {
            return (Word::Upper, end_while(&mut it, &lower_letter));
        }
        return (Word::Upper, it.peek().map_or(s.len(), |&(i, _)| i));
    }
    if is_alphabet(r) {
        return (Word::Alphabet, end_while(&mut it, &lower_letter));
    }
    if is_number(r) {
        return (Word::Number, end_while(&mut it, &is_number));
    }
    let other = |c: char| !(is_connector(c) || is_alphabet(c) || is_number(c) || is_punct(c));
    (Word::Other, end_while(&mut it, &other))
}

/// xstrings `toLower`: an upper-case or connector word lowered (connectors become `conn`).
fn push_lower(out: &mut String, w: Word, word: &str, conn: char) {
    if w != Word::Upper && w != Word::Connector {
        out.push_str(word);
        return;
    }
    for c in word.chars() {
        out.push(if is_connector(c) { conn } else { to_lower(c) });
    }
}

/// A reader of words over a string, as xstrings' `nextWord` loop walks it.
struct Words<'s> {
    rest: &'s str,
}

impl<'s> Words<'s> {
    fn next(&mut self) -> (Word, &'s str) {
        let (w, n) = next_word(self.rest);
        let (word, rest) = self.rest.split_at(n);
        self.rest = rest;
        (w, word)
    }
}

/// xstrings `camelCaseToLowerCase` (sprig's `snakecase` with `_`, `kebabcase` with `-`).
pub fn lower_case_words(s: &str, conn: char) -> String {
    let mut out = String::new();
    let mut words = Words { rest: s };
    let (mut wt, mut word) = words.next();
    while !words.rest.is_empty() {
        if wt != Word::Connector {
            push_lower(&mut out, wt, word, conn);
        }
        let (prev, last) = (wt, word);
        (wt, word) = words.next();
        match prev {
            Word::Number => {
                while wt == Word::Alphabet || wt == Word::Number {
                    push_lower(&mut out, wt, word, conn);
                    (wt, word) = words.next();
                }
                if !matches!(wt, Word::None | Word::Punct | Word::Connector) {
                    out.push(conn);
                }
            }
            Word::Connector => push_lower(&mut out, prev, last, conn),
            Word::Punct => {}
            _ => after_letters(&mut out, &mut words, (&mut wt, &mut word), conn),
        }
    }
    push_lower(&mut out, wt, word, conn);
    out
}

/// The `default:` branch of `camelCaseToLowerCase`: a number after letters belongs to the
/// word before it ("Bld4Floor" → "bld4_floor") unless letters follow it ("HTTP2xx" →
/// "http_2xx").
fn after_letters<'s>(
    out: &mut String,
    words: &mut Words<'s>,
    (wt, word): (&mut Word, &mut &'s str),
    conn: char,
) {
    if *wt != Word::Number {
        if *wt != Word::Connector && *wt != Word::Punct {
            out.push(conn);
        }
        return;
    }
    if words.rest.is_empty() {
        return;
    }
    let last = *word;
    (*wt, *word) = words.next();
    if *wt != Word::Alphabet {
        push_lower(out, Word::Number, last, conn);
        if *wt != Word::Connector && *wt != Word::Punct {
            out.push(conn);
        }
        return;
    }
    out.push(conn);
    push_lower(out, Word::Number, last, conn);
    while *wt == Word::Alphabet || *wt == Word::Number {
        push_lower(out, *wt, word, conn);
        (*wt, *word) = words.next();
    }
    if !matches!(*wt, Word::None | Word::Connector | Word::Punct) {
        out.push(conn);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// huandu/xstrings' documented samples (convert.go doc comments of ToSnakeCase,
    /// ToKebabCase and ToPascalCase, v1.5.0).
    #[test]
    fn xstrings_samples() {
        for (input, snake) in [
            ("FirstName", "first_name"),
            ("HTTPServer", "http_server"),
            ("NoHTTPS", "no_https"),
            ("GO_PATH", "go_path"),
            ("GO PATH", "go_path"),
            ("GO-PATH", "go_path"),
            ("http2xx", "http_2xx"),
            ("HTTP20xOK", "http_20x_ok"),
            ("Duration2m3s", "duration_2m3s"),
            ("Bld4Floor3rd", "bld4_floor_3rd"),
        ] {
            assert_eq!(lower_case_words(input, '_'), snake, "{input}");
            assert_eq!(
                lower_case_words(input, '-'),
                snake.replace('_', "-"),
                "{input}"
            );
        }
        for (input, pascal) in [
            ("some_words", "SomeWords"),
            ("http_server", "HttpServer"),
            ("no_https", "NoHttps"),
            ("_complex__case_", "_Complex_Case_"),
            ("some words", "SomeWords"),
        ] {
            assert_eq!(camelcase(input), pascal, "{input}");
        }
    }

    /// Masterminds/goutils v1.1.1 wordutils_test.go / stringutils_test.go examples.
    #[test]
    fn goutils_examples() {
        assert_eq!(abbreviate("abcdefghijklmno", -1, 10), "abcdefg...");
        assert_eq!(abbreviate("abcdefghijklmno", 5, 10), "...fghi...");
        assert_eq!(abbreviate("abcdefghijklmno", 12, 10), "...ijklmno");
        assert_eq!(abbreviate("abcdefghij", 5, 6), "");
        assert_eq!(
            wrap(
                "Here is one line of text that is going to be wrapped after 20 columns.",
                20,
                "\n",
                false
            ),
            "Here is one line of\ntext that is going\nto be wrapped after\n20 columns."
        );
        assert_eq!(
            wrap(
                "Click here, https://commons.apache.org, to jump",
                20,
                "\n",
                true
            ),
            "Click here,\nhttps://commons.apac\nhe.org, to jump"
        );
        assert_eq!(swapcase("This Is A Test"), "tHIS iS a tEST");
        assert_eq!(initials("Ben John Lee"), "BJL");
        assert_eq!(untitle("First Try"), "first try");
    }
}
