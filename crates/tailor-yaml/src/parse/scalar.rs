//! Scalars: plain, single- and double-quoted, and `|`/`>` block scalars, with YAML's line
//! folding and libyaml's error texts.

use super::{
    count_spaces, first_lane, is_blank, is_break, lanes_below, lanes_equal, spanned, word_at, Mark,
    Parser, R,
};
use crate::node::{Node, Style, Text};

/// The bytes that may end a line of a plain scalar (`: `, ` #`, a line break), by value: one
/// load per byte where a chain of comparisons cost five.
const PLAIN_STOPS: [bool; 256] = {
    let mut stops = [false; 256];
    let mut i = 0;
    let stop_bytes = [b':', b' ', b'\t', b'\n', b'\r'];
    while i < stop_bytes.len() {
        stops[stop_bytes[i] as usize] = true;
        i += 1;
    }
    stops
};

/// The offset from `at` of the first byte of `b[at..]` in [`PLAIN_STOPS`] (the length of the
/// rest when there is none). Words of eight bytes are screened at once for the bytes below
/// `!` (blanks, line breaks and controls) and colons; a flagged byte that is no stop (a
/// control, which the reader refuses anyway) is stepped over.
fn plain_run(b: &[u8], at: usize) -> usize {
    let mut n = 0;
    while let Some(word) = word_at(b, at + n) {
        let flags = lanes_below(word, b'!') | lanes_equal(word, b':');
        if flags == 0 {
            n += 8;
            continue;
        }
        let i = n + first_lane(flags);
        if b.get(at + i).is_some_and(|&c| PLAIN_STOPS[usize::from(c)]) {
            return i;
        }
        n = i + 1;
    }
    while let Some(&c) = b.get(at + n) {
        if PLAIN_STOPS[usize::from(c)] {
            return n;
        }
        n += 1;
    }
    n
}

/// Where the first `"`, `\` or line break of `b[at..]` is, as an offset from `at`: the end of
/// a double-quoted scalar's text, when it is not an escape or a break. Screened eight bytes
/// at a time as [`plain_run`] does (JSON is mostly such text); a flagged byte that is none of
/// these (a tab or a control) is stepped over. Inline: most strings are short, and the call
/// cost a third of the look.
#[inline]
fn quoted_run(b: &[u8], at: usize) -> Option<usize> {
    let is_stop = |c: u8| matches!(c, b'"' | b'\\' | b'\n' | b'\r');
    let mut n = 0;
    while let Some(word) = word_at(b, at + n) {
        let flags =
            lanes_equal(word, b'"') | lanes_equal(word, b'\\') | lanes_below(word, b'\r' + 1);
        if flags == 0 {
            n += 8;
            continue;
        }
        let i = n + first_lane(flags);
        if b.get(at + i).is_some_and(|&c| is_stop(c)) {
            return Some(i);
        }
        n = i + 1;
    }
    b.get(at + n..)?
        .iter()
        .position(|&c| is_stop(c))
        .map(|i| n + i)
}

impl Parser<'_> {
    /// Copies the characters at the cursor up to the first byte `stop` ends the run at (at
    /// least one character). Every stop byte is ASCII, so the run ends on a character
    /// boundary. A quoted scalar is mostly such runs: one copy per run instead of one per
    /// character is a quarter of the time of reading JSON.
    fn copy_run(&mut self, out: &mut Text, stop: impl Fn(u8) -> bool) {
        let start = self.pos;
        let first = start + utf8_len(self.peek());
        let end = self.b[first.min(self.b.len())..]
            .iter()
            .position(|&c| stop(c))
            .map_or(self.b.len(), |n| first + n);
        out.push_str(&self.src[start..end]);
        self.pos = end;
    }

    /// Scans one line's worth of a plain scalar in block context: up to `: `, ` #` or the end
    /// of the line. Returns the end of the text (trailing blanks excluded). Inline: most
    /// scalars are a word or two, for which the call cost a fifth of the scan.
    #[inline(always)]
    fn plain_chunk(&mut self) -> usize {
        let mut end = self.pos;
        loop {
            // Up to the next character that may end the chunk, at once.
            let run = plain_run(self.b, self.pos);
            if run > 0 {
                self.pos += run;
                end = self.pos;
            }
            let c = self.peek();
            if self.at_end() || is_break(c) || (c == b':' && self.ws_or_end_at(1)) {
                break;
            }
            if is_blank(c) {
                let save = self.pos;
                self.skip_blanks();
                if self.peek() == b'#' || self.at_end() || is_break(self.peek()) {
                    self.pos = save;
                    break;
                }
                continue;
            }
            self.pos += 1;
            end = self.pos;
        }
        end
    }

    /// A plain scalar in block context; multi-line unless it turns out to be a key.
    ///
    /// Inline where it is called (in an optimised build: a debug build's frames inlining only
    /// grows): returned through a call, the node and whether it is a key were copied once more
    /// than they were built, about 8% of reading small block objects.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(super) fn plain_block(&mut self, indent: isize, may_be_key: bool) -> R<(Node, bool)> {
        let start_mark = self.mark();
        let start = self.pos;
        let start_line = self.line;
        let mut end = self.plain_chunk();
        let mut text = Text::from(&self.src[start..end]);
        self.pos = end;
        self.skip_blanks();
        if self.peek() == b':' && self.ws_or_end_at(1) {
            if !may_be_key {
                return self.err("mapping values are not allowed in this context");
            }
            if end - start > 1024 && self.line == start_line {
                return self.scan_err("could not find expected ':'", start_mark);
            }
            self.pos += 1;
            return Ok((spanned(Node::plain(text), start, end), true));
        }
        self.pos = end;
        if let Some(next) = self.next_line_ends_plain(end, indent) {
            self.tabs_checked_to = next.pos;
            self.reset(next);
            return Ok((spanned(Node::plain(text), start, end), false));
        }
        // Where the next token starts when the scalar ends at a single line break: the run over
        // the break found it, and nothing between needs reading again (see below).
        let mut next_token = None;
        // Continuation lines, folded as YAML folds them.
        loop {
            let save = self.mark();
            let Some(breaks) = self.plain_block_breaks(indent, start_mark)? else {
                break;
            };
            let c = self.peek();
            let stop =
                self.at_end() || self.at_boundary() || c == b'#' || (self.col() as isize) <= indent;
            if stop {
                if breaks == 1 && c != b'#' {
                    next_token = Some(self.mark());
                }
                self.reset(save);
                break;
            }
            let chunk_start = self.pos;
            end = self.plain_chunk();
            if end == chunk_start {
                // A line that is only `: ...`.
                return self.err("mapping values are not allowed in this context");
            }
            push_fold(&mut text, breaks);
            text.push_str(&self.src[chunk_start..end]);
            self.pos = end;
            let save2 = self.pos;
            self.skip_blanks();
            if self.peek() == b':' && self.ws_or_end_at(1) {
                return self.err("mapping values are not allowed in this context");
            }
            self.pos = save2;
        }
        let mut n = spanned(Node::plain(text), start, end);
        if let Some(next) = next_token {
            // Only blanks and one line break follow the scalar, up to a token that is not a
            // comment: no line comment, no comment to collect, no blank line to note, no tab
            // at the start of a line, so the cursor goes where `skip_to_next_token` would
            // take it (and that call finds itself there).
            self.reset(next);
            return Ok((n, false));
        }
        self.pos = end;
        self.skip_blanks();
        if self.peek() == b'#' {
            n.comments_mut().line = self.read_comment();
        } else {
            self.pos = end;
        }
        Ok((n, false))
    }

    /// The common end of a plain scalar in block context, told without the general loop below
    /// it: its line ends right after its text at `end`, and the next line starts with spaces
    /// and then a token at or left of `indent` (the next key or item, or the end of the input)
    /// that is no comment, tab, blank line or document marker. Then where that token is, which
    /// the general loop finds too (also marking the tabs up to it as read).
    fn next_line_ends_plain(&self, end: usize, indent: isize) -> Option<Mark> {
        if self.b.get(end) != Some(&b'\n') {
            return None;
        }
        let line_start = end + 1;
        let spaces = count_spaces(self.b, line_start);
        let at = line_start + spaces;
        match self.b.get(at) {
            Some(b'\n' | b'\r' | b'\t' | b'#') => return None,
            Some(b'-' | b'.') if spaces == 0 => return None,
            _ => {}
        }
        if spaces as isize > indent {
            return None;
        }
        Some(Mark {
            pos: at,
            line: self.line + 1,
            line_start,
        })
    }

    /// libyaml's run over the blanks and line breaks after a line of a plain scalar in block
    /// context, which it takes as the scalar's own whatever follows: a tab in column `indent`
    /// or left of it after a break is refused there, even on a line with nothing else. The
    /// number of breaks, or `None` (back where it was) when no break follows.
    fn plain_block_breaks(&mut self, indent: isize, start: Mark) -> R<Option<usize>> {
        let before = self.pos;
        self.skip_blanks();
        if !is_break(self.peek()) {
            self.pos = before;
            return Ok(None);
        }
        let mut breaks = 0;
        loop {
            let c = self.peek();
            if is_break(c) {
                self.newline();
                breaks += 1;
            } else if c == b' ' {
                self.pos += count_spaces(self.b, self.pos);
            } else if is_blank(c) {
                if c == b'\t' && (self.col() as isize) <= indent {
                    return self.scan_err("found a tab character that violates indentation", start);
                }
                self.pos += 1;
            } else {
                break;
            }
        }
        // These tabs were read as the scalar's: the search for the next token must not refuse
        // them again.
        self.tabs_checked_to = self.pos;
        Ok(Some(breaks))
    }

    /// A quoted scalar in `style`: past the opening quote, `step` reads on from each
    /// character (into the text) until it has read the closing quote, which it says by
    /// returning `true`.
    fn quoted(
        &mut self,
        style: Style,
        mut step: impl FnMut(&mut Self, u8, &mut Text) -> R<bool>,
    ) -> R<Node> {
        let start = self.mark();
        self.pos += 1;
        let mut out = Text::default();
        loop {
            if self.at_end() {
                return self.scan_err("found unexpected end of stream", start);
            }
            // libyaml refuses what is inside "while scanning a quoted scalar" from its start.
            if step(self, self.peek(), &mut out).map_err(|e| e.in_context(start.line))? {
                break;
            }
        }
        Ok(spanned(Node::scalar(out, style), start.pos, self.pos))
    }

    pub(super) fn single_quoted(&mut self) -> R<Node> {
        // Most single-quoted scalars (PyYAML's timestamps and numbers as strings) hold no
        // quote and no line break: their text is what stands between the quotes.
        let from = self.pos + 1;
        let closing = self.b.get(from..).and_then(|rest| {
            rest.iter()
                .position(|&c| matches!(c, b'\'' | b'\n' | b'\r'))
        });
        if let Some(n) = closing {
            let end = from + n;
            if self.b[end] == b'\'' && self.b.get(end + 1) != Some(&b'\'') {
                let start = self.pos;
                self.pos = end + 1;
                let text = Text::from(&self.src[from..end]);
                return Ok(spanned(
                    Node::scalar(text, Style::SingleQuoted),
                    start,
                    self.pos,
                ));
            }
        }
        self.quoted(Style::SingleQuoted, |p, c, out| {
            if c == b'\'' {
                if p.peek_at(1) == b'\'' {
                    out.push('\'');
                    p.pos += 2;
                    return Ok(false);
                }
                p.pos += 1;
                return Ok(true);
            }
            if is_blank(c) || is_break(c) {
                p.fold_quoted_whitespace(out)?;
            } else {
                p.copy_run(out, |c| c == b'\'' || is_blank(c) || is_break(c));
            }
            Ok(false)
        })
    }

    /// Whitespace inside a quoted scalar: blanks before a line break are dropped, one break
    /// folds to a space, n breaks to n-1 newlines.
    fn fold_quoted_whitespace(&mut self, out: &mut Text) -> R<()> {
        let ws_start = self.pos;
        self.skip_blanks();
        if !is_break(self.peek()) {
            out.push_str(&self.src[ws_start..self.pos]);
            return Ok(());
        }
        let mut breaks = 0;
        while is_break(self.peek()) || is_blank(self.peek()) {
            if is_break(self.peek()) {
                self.newline();
                breaks += 1;
                if self.at_boundary() {
                    return self.err("found unexpected document indicator");
                }
            } else {
                self.pos += 1;
            }
        }
        if self.at_end() {
            return self.err("found unexpected end of stream");
        }
        push_fold(out, breaks);
        Ok(())
    }

    /// Inline where it is called: most quoted scalars (every JSON string) hold no escape and
    /// no line break, and their text is what stands between the quotes, taken at once;
    /// returned through a call, the node was copied once more than it was built. Not in a
    /// debug build, whose frames inlining only grows: `flow_node` is recursive, and a test
    /// thread's stack held 300 levels of nested flow sequences only without it.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(super) fn double_quoted(&mut self) -> R<Node> {
        let from = self.pos + 1;
        if let Some(n) = quoted_run(self.b, from) {
            if self.b[from + n] == b'"' {
                let start = self.pos;
                self.pos = from + n + 1;
                let text = Text::from(&self.src[from..from + n]);
                return Ok(spanned(
                    Node::scalar(text, Style::DoubleQuoted),
                    start,
                    self.pos,
                ));
            }
        }
        self.double_quoted_escaped()
    }

    /// A double-quoted scalar with escapes or line breaks.
    #[inline(never)]
    fn double_quoted_escaped(&mut self) -> R<Node> {
        self.quoted(Style::DoubleQuoted, |p, c, out| {
            match c {
                b'"' => {
                    p.pos += 1;
                    return Ok(true);
                }
                b'\\' => {
                    let e = p.peek_at(1);
                    if is_break(e) {
                        // An escaped line break joins the lines without a space.
                        p.pos += 1;
                        p.newline();
                        p.skip_blanks();
                        while is_break(p.peek()) {
                            out.push('\n');
                            p.newline();
                            p.skip_blanks();
                        }
                        return Ok(false);
                    }
                    let simple = match e {
                        b'0' => Some('\0'),
                        b'a' => Some('\x07'),
                        b'b' => Some('\x08'),
                        b't' | b'\t' => Some('\t'),
                        b'n' => Some('\n'),
                        b'v' => Some('\x0b'),
                        b'f' => Some('\x0c'),
                        b'r' => Some('\r'),
                        b'e' => Some('\x1b'),
                        b' ' => Some(' '),
                        b'"' => Some('"'),
                        b'/' => Some('/'),
                        b'\\' => Some('\\'),
                        b'N' => Some('\u{85}'),
                        b'_' => Some('\u{a0}'),
                        b'L' => Some('\u{2028}'),
                        b'P' => Some('\u{2029}'),
                        _ => None,
                    };
                    if let Some(ch) = simple {
                        out.push(ch);
                        p.pos += 2;
                        return Ok(false);
                    }
                    let width = match e {
                        b'x' => 2,
                        b'u' => 4,
                        b'U' => 8,
                        _ => {
                            p.pos += 1;
                            return p.err("found unknown escape character");
                        }
                    };
                    p.pos += 2;
                    let ch = p.hex_escape(width, e == b'u')?;
                    out.push(ch);
                }
                _ if is_blank(c) || is_break(c) => p.fold_quoted_whitespace(out)?,
                _ => p.copy_run(out, |c| {
                    c == b'"' || c == b'\\' || is_blank(c) || is_break(c)
                }),
            }
            Ok(false)
        })
    }

    /// The character of a `\x`, `\u` or `\U` escape whose `width` hex digits are at the
    /// cursor, which ends after them. libyaml refuses every UTF-16 surrogate; after `\u`
    /// (`pairs`) tailor takes a high one followed by a `\u` low one for the character they
    /// encode, as JSON does: JSON writes a character beyond U+FFFF so (`"\ud83c\udf0d"`), and
    /// tailor reads JSON (ResourceLists, property files) as YAML. A lone one stays refused.
    fn hex_escape(&mut self, width: usize, pairs: bool) -> R<char> {
        let Some(v) = self.hex_at(self.pos, width) else {
            return self.err("did not find expected hexdecimal number");
        };
        const INVALID: &str = "found invalid Unicode character escape code";
        let v = match v {
            0xd800..=0xdbff if pairs => {
                let after = self.pos + width;
                let low = (self.b.get(after..after + 2) == Some(&b"\\u"[..]))
                    .then(|| self.hex_at(after + 2, 4))
                    .flatten()
                    .filter(|l| (0xdc00..=0xdfff).contains(l));
                let Some(low) = low else {
                    return self.err(format!(
                        "{INVALID}: \\u{v:04x} is a high surrogate without a low one \
                         (\\udc00 to \\udfff) right after it"
                    ));
                };
                self.pos += 6;
                0x10000 + ((v - 0xd800) << 10) + (low - 0xdc00)
            }
            0xdc00..=0xdfff if pairs => {
                return self.err(format!(
                    "{INVALID}: \\u{v:04x} is a low surrogate without a high one before it"
                ));
            }
            _ => v,
        };
        let Some(ch) = char::from_u32(v) else {
            return self.err(INVALID);
        };
        self.pos += width;
        Ok(ch)
    }

    /// The value of the `width` hex digits at byte `at`, if there are that many.
    fn hex_at(&self, at: usize, width: usize) -> Option<u32> {
        let hex = self.b.get(at..at + width)?;
        if !hex.iter().all(u8::is_ascii_hexdigit) {
            return None;
        }
        u32::from_str_radix(std::str::from_utf8(hex).ok()?, 16).ok()
    }

    /// `|` and `>` scalars, following libyaml's `scan_block_scalar` (indentation detection,
    /// chomping, folding of lines that are not more indented).
    pub(super) fn block_scalar(&mut self, indent: isize) -> R<Node> {
        // libyaml refuses what is inside "while scanning a block scalar" from its indicator.
        let line = self.line;
        self.block_scalar_body(indent)
            .map_err(|e| e.in_context(line))
    }

    fn block_scalar_body(&mut self, indent: isize) -> R<Node> {
        let start = self.pos;
        let literal = self.peek() == b'|';
        self.pos += 1;
        let mut chomp: i8 = 0;
        let mut increment: usize = 0;
        for _ in 0..2 {
            let c = self.peek();
            if (c == b'+' || c == b'-') && chomp == 0 {
                chomp = if c == b'+' { 1 } else { -1 };
                self.pos += 1;
            } else if c.is_ascii_digit() && increment == 0 {
                if c == b'0' {
                    return self.err("found an indentation indicator equal to 0");
                }
                increment = (c - b'0') as usize;
                self.pos += 1;
            }
        }
        self.skip_blanks();
        let mut line_comment = String::new();
        if self.peek() == b'#' {
            line_comment = self.read_comment();
        }
        if !(self.at_end() || is_break(self.peek())) {
            return self.err("did not find expected comment or line break");
        }
        if !self.at_end() {
            self.newline();
        }
        let parent = indent.max(-1);
        let mut block_indent: usize = if increment > 0 {
            if parent >= 0 {
                parent as usize + increment
            } else {
                increment
            }
        } else {
            0
        };
        let mut out = String::new();
        let mut trailing_breaks = String::new();
        self.block_scalar_breaks(&mut block_indent, &mut trailing_breaks, parent)?;
        let mut leading_break = String::new();
        let mut leading_blank = false;
        let mut end = self.pos;
        while self.col() == block_indent && !self.at_end() {
            if self.col() == 0 && self.at_boundary() {
                break;
            }
            let trailing_blank = is_blank(self.peek());
            if !literal && leading_break.starts_with('\n') && !leading_blank && !trailing_blank {
                if trailing_breaks.is_empty() {
                    out.push(' ');
                }
                leading_break.clear();
            } else {
                out.push_str(&leading_break);
                leading_break.clear();
            }
            out.push_str(&trailing_breaks);
            trailing_breaks.clear();
            leading_blank = is_blank(self.peek());
            let line = self.rest_of_line();
            out.push_str(line);
            self.pos += line.len();
            end = self.pos;
            if self.at_end() {
                break;
            }
            self.newline();
            leading_break.push('\n');
            self.block_scalar_breaks(&mut block_indent, &mut trailing_breaks, parent)?;
        }
        if chomp != -1 {
            out.push_str(&leading_break);
        }
        if chomp == 1 {
            out.push_str(&trailing_breaks);
        }
        // Leave the cursor at the start of the line that ended the scalar, so indentation is
        // measured from column 0 by the caller. A scalar that runs to the end of input (no
        // final line break) ends there: rewinding would read its last line again, forever.
        if !self.at_end() {
            self.pos = self.line_start;
        }
        let mut n = spanned(
            Node::scalar(
                out,
                if literal {
                    Style::Literal
                } else {
                    Style::Folded
                },
            ),
            start,
            end,
        );
        if !line_comment.is_empty() {
            n.comments_mut().line = line_comment;
        }
        Ok(n)
    }

    fn block_scalar_breaks(
        &mut self,
        indent: &mut usize,
        breaks: &mut String,
        parent: isize,
    ) -> R<()> {
        let mut max_indent = 0;
        loop {
            while (*indent == 0 || self.col() < *indent) && self.peek() == b' ' {
                self.pos += 1;
            }
            if self.col() > max_indent {
                max_indent = self.col();
            }
            if (*indent == 0 || self.col() < *indent) && self.peek() == b'\t' {
                return self.err("found a tab character where an indentation space is expected");
            }
            if !is_break(self.peek()) {
                break;
            }
            self.newline();
            breaks.push('\n');
        }
        if *indent == 0 {
            *indent = max_indent;
            if (*indent as isize) < parent + 1 {
                *indent = (parent + 1) as usize;
            }
            if *indent < 1 {
                *indent = 1;
            }
        }
        Ok(())
    }
}

/// YAML line folding: one line break between text becomes a space, n breaks n-1 newlines.
pub(super) fn push_fold(text: &mut Text, breaks: usize) {
    if breaks == 1 {
        text.push(' ');
    } else {
        for _ in 1..breaks {
            text.push('\n');
        }
    }
}

fn utf8_len(first: u8) -> usize {
    match first {
        0x00..=0x7f => 1,
        0xc0..=0xdf => 2,
        0xe0..=0xef => 3,
        _ => 4,
    }
}

#[cfg(test)]
mod tests {
    use super::{plain_run, quoted_run, PLAIN_STOPS};

    /// Texts whose stops fall in every lane of a word, after high bytes (which a borrow
    /// could confuse), next to controls that are no stop, and past the last whole word.
    fn samples() -> Vec<Vec<u8>> {
        let mut out: Vec<Vec<u8>> = vec![
            b"".to_vec(),
            b"name: web".to_vec(),
            "caf\u{e9}\u{e9}\u{e9}\u{e9}: x".as_bytes().to_vec(),
            b"a\x01b\x1fc:d e\tf\rg\nh".to_vec(),
            b"\"quoted\\\" text\"".to_vec(),
            b"\xff\xfe\x80\x7f\x21\x20\x3a\x3b\x22\x5c\x0d\x0e\x0a\x09\x00".to_vec(),
        ];
        for len in 0..20 {
            for at in 0..len {
                for stop in [b':', b' ', b'\t', b'\n', b'\r', b'"', b'\\', 0x01, 0xc3] {
                    let mut t = vec![b'x'; len];
                    t[at] = stop;
                    if at > 0 {
                        t[at - 1] = 0x80;
                    }
                    out.push(t);
                }
            }
        }
        out
    }

    #[test]
    fn plain_run_stops_where_the_table_does() {
        for text in samples() {
            for at in 0..=text.len() {
                let want = text[at..]
                    .iter()
                    .position(|&c| PLAIN_STOPS[usize::from(c)])
                    .unwrap_or(text.len() - at);
                assert_eq!(plain_run(&text, at), want, "{text:?} from {at}");
            }
        }
    }

    #[test]
    fn quoted_run_stops_at_quotes_escapes_and_breaks() {
        for text in samples() {
            for at in 0..=text.len() + 1 {
                let want = text.get(at..).and_then(|t| {
                    t.iter()
                        .position(|&c| matches!(c, b'"' | b'\\' | b'\n' | b'\r'))
                });
                assert_eq!(quoted_run(&text, at), want, "{text:?} from {at}");
            }
        }
    }
}
