//! The lexer of envsubst/parse/scan.go, rune for rune.
//!
//! Its quirks decide parse results, so they are kept rather than cleaned up:
//! * a NUL rune reads as end of input (Go's `eof` is `rune(0)`);
//! * `unread` steps back by the width of the last rune *read or peeked*, which is not always the
//!   rune just consumed;
//! * an escape (`$$`, and in replace arguments `\/`, `\\`) drops the escape character from the
//!   token and consumes the escaped one unexamined. Go splices the buffer; here the buffer stays
//!   put and the dropped bytes are remembered per token, which gives the same tokens without
//!   quadratic copying.

use tailor_go::unicode::{is_digit, is_letter};
use tailor_go::utf8::decode_char as decode_rune;

/// Go's `eof`: returned at the end and for a literal NUL.
pub(crate) const EOF: char = '\0';

pub(crate) const SCAN_IDENT: u8 = 1;
pub(crate) const SCAN_LBRACK: u8 = 1 << 1;
pub(crate) const SCAN_RBRACK: u8 = 1 << 2;
pub(crate) const SCAN_ESCAPE: u8 = 1 << 3;

pub(crate) const ESC_DOLLAR: u8 = 1;
pub(crate) const ESC_BACKSLASH: u8 = 1 << 1;
pub(crate) const ESC_ALL: u8 = ESC_DOLLAR | ESC_BACKSLASH;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Token {
    Illegal,
    Eof,
    Ident,
    Lbrack,
    Rbrack,
}

/// Which runes an identifier token accepts; `i` is the token's byte length including `r`.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Accept {
    Rune,
    Ident,
    Colon,
    OneHash,
    NotClosing,
    HashFunc,
    PercentFunc,
    DefaultFunc,
    ReplaceFunc,
    OneEqual,
    OneColon,
    RejectColonClose,
    Slash,
    NotSlash,
    CasingFunc,
}

impl Accept {
    fn accepts(self, r: char, i: usize) -> bool {
        match self {
            Accept::Rune => true,
            Accept::Ident => is_letter(r) || is_digit(r) || r == '_',
            Accept::Colon => r == ':',
            Accept::OneHash => r == '#' && i == 1,
            Accept::NotClosing => r != '}',
            Accept::HashFunc => r == '#' && i < 3,
            Accept::PercentFunc => r == '%' && i < 3,
            Accept::DefaultFunc => {
                (i == 1 && r == ':') || (i == 2 && matches!(r, '=' | '-' | '?' | '+'))
            }
            Accept::ReplaceFunc => (i == 1 && r == '/') || (i == 2 && matches!(r, '/' | '#' | '%')),
            Accept::OneEqual => i == 1 && r == '=',
            Accept::OneColon => i == 1 && r == ':',
            Accept::RejectColonClose => r != ':' && r != '}',
            Accept::Slash => r == '/',
            Accept::NotSlash => r != '/',
            Accept::CasingFunc => (r == ',' || r == '^') && i < 3,
        }
    }
}

pub(crate) struct Scanner<'a> {
    buf: &'a [u8],
    pos: usize,
    start: usize,
    width: usize,
    /// Positions of escape bytes dropped from the current token.
    skipped: Vec<usize>,
    pub(crate) mode: u8,
    pub(crate) escape: u8,
    pub(crate) accept: Accept,
}

impl<'a> Scanner<'a> {
    pub(crate) fn new(buf: &'a [u8]) -> Self {
        Scanner {
            buf,
            pos: 0,
            start: 0,
            width: 0,
            skipped: Vec::new(),
            mode: 0,
            escape: 0,
            accept: Accept::Rune,
        }
    }

    pub(crate) fn read(&mut self) -> char {
        let rest = self.buf.get(self.pos..).unwrap_or(&[]);
        if rest.is_empty() {
            self.width = 0;
            return EOF;
        }
        let (r, w) = decode_rune(rest);
        self.width = w;
        self.pos += w;
        r
    }

    pub(crate) fn unread(&mut self) {
        self.pos = self.pos.saturating_sub(self.width);
    }

    pub(crate) fn peek(&mut self) -> char {
        let r = self.read();
        self.unread();
        r
    }

    /// Drops the escape character just read; the escaped byte after it joins the token as is.
    fn skip(&mut self) {
        self.skipped.push(self.pos.saturating_sub(1));
        self.pos = (self.pos + 1).min(self.buf.len());
    }

    /// The text of the token just scanned, without dropped escape characters.
    pub(crate) fn text(&self) -> Vec<u8> {
        let end = self.pos.min(self.buf.len());
        let start = self.start.min(end);
        let slice = self.buf.get(start..end).unwrap_or(&[]);
        // `skipped` is ascending: copy the runs between dropped bytes.
        let mut out = Vec::with_capacity(slice.len());
        let mut from = start;
        for &s in &self.skipped {
            if s >= from && s < end {
                out.extend_from_slice(self.buf.get(from..s).unwrap_or(&[]));
                from = s + 1;
            }
        }
        out.extend_from_slice(self.buf.get(from..end).unwrap_or(&[]));
        out
    }

    fn token_len(&self) -> usize {
        self.pos
            .saturating_sub(self.start)
            .saturating_sub(self.skipped.len())
    }

    pub(crate) fn scan(&mut self) -> Token {
        self.start = self.pos;
        self.skipped.clear();
        let r = self.read();
        if r == EOF {
            Token::Eof
        } else if self.scan_lbrack(r) {
            Token::Lbrack
        } else if self.scan_rbrack(r) {
            Token::Rbrack
        } else if self.scan_ident(r) {
            Token::Ident
        } else {
            Token::Illegal
        }
    }

    fn scan_ident(&mut self, r: char) -> bool {
        if self.mode & SCAN_IDENT == 0 {
            return false;
        }
        if self.scan_escaped(r) {
            self.skip();
        } else if !self.accept.accepts(r, self.token_len()) {
            return false;
        }
        loop {
            let r = self.read();
            if r == EOF {
                self.unread();
                break;
            }
            if self.scan_lbrack(r) {
                self.unread();
                self.unread();
                break;
            }
            if self.scan_escaped(r) {
                self.skip();
                continue;
            }
            if !self.accept.accepts(r, self.token_len()) {
                self.unread();
                break;
            }
        }
        true
    }

    fn scan_lbrack(&mut self, r: char) -> bool {
        if self.mode & SCAN_LBRACK == 0 {
            return false;
        }
        if r == '$' {
            if self.read() == '{' {
                return true;
            }
            self.unread();
        }
        false
    }

    fn scan_rbrack(&mut self, r: char) -> bool {
        self.mode & SCAN_RBRACK != 0 && r == '}'
    }

    fn scan_escaped(&mut self, r: char) -> bool {
        if self.mode & SCAN_ESCAPE == 0 {
            return false;
        }
        if r == '$' && self.escape & ESC_DOLLAR != 0 && self.peek() == '$' {
            return true;
        }
        if r == '\\' && self.escape & ESC_BACKSLASH != 0 {
            return matches!(self.peek(), '/' | '\\');
        }
        false
    }
}
