//! A port of `text/template/parse/lex.go`. Go runs the lexer as a goroutine;
//! here it is a plain state machine that the parser pulls items from.

use super::fmt::{q, sharp_u};
use crate::unicode::{is_digit, is_letter};

/// text/template's `isSpace`: the spaces and newlines that separate tokens.
fn is_space(r: char) -> bool {
    matches!(r, ' ' | '\t' | '\r' | '\n')
}

/// text/template's `isAlphaNumeric`: `_`, a letter or a digit.
fn is_alnum(r: char) -> bool {
    r == '_' || is_letter(r) || is_digit(r)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum ItemType {
    Error,
    Bool,
    Char,
    CharConstant,
    Complex,
    Assign,
    Declare,
    Eof,
    Field,
    Identifier,
    LeftDelim,
    LeftParen,
    Number,
    Pipe,
    RawString,
    RightDelim,
    RightParen,
    Space,
    String,
    Text,
    Variable,
    // Keywords: everything after this marker prints as `<word>`.
    Keyword,
    Block,
    Break,
    Continue,
    Dot,
    Define,
    Else,
    End,
    If,
    Nil,
    Range,
    Template,
    With,
}

#[derive(Clone, Debug)]
pub(crate) struct Item {
    pub typ: ItemType,
    pub pos: usize,
    pub val: String,
    pub line: usize,
}

impl Item {
    /// Go's `item.String()`, which parse errors quote.
    pub(crate) fn describe(&self) -> String {
        match self.typ {
            ItemType::Eof => "EOF".to_string(),
            ItemType::Error => self.val.clone(),
            t if t > ItemType::Keyword => format!("<{}>", self.val),
            _ => {
                if self.val.len() > 10 {
                    let cut: String = self.val.chars().take(10).collect();
                    format!("{}...", q(cut.as_bytes()))
                } else {
                    q(self.val.as_bytes())
                }
            }
        }
    }
}

fn keyword(word: &str) -> Option<ItemType> {
    Some(match word {
        "." => ItemType::Dot,
        "block" => ItemType::Block,
        "break" => ItemType::Break,
        "continue" => ItemType::Continue,
        "define" => ItemType::Define,
        "else" => ItemType::Else,
        "end" => ItemType::End,
        "if" => ItemType::If,
        "range" => ItemType::Range,
        "nil" => ItemType::Nil,
        "template" => ItemType::Template,
        "with" => ItemType::With,
        _ => return None,
    })
}

/// Go's default action delimiters.
pub(crate) const LEFT_DELIM: &str = "{{";
pub(crate) const RIGHT_DELIM: &str = "}}";
const LEFT_COMMENT: &str = "/*";
const RIGHT_COMMENT: &str = "*/";
const TRIM_MARKER_LEN: usize = 2;

#[derive(Clone, Copy)]
enum State {
    Text,
    LeftDelim,
    Comment,
    RightDelim,
    InsideAction,
    Space,
    Identifier,
    Field,
    Variable,
    Char,
    Number,
    Quote,
    RawQuote,
    Done,
}

pub(crate) struct Lexer<'t> {
    input: &'t str,
    /// The action delimiters (`Template.Delims`).
    left_delim: &'t str,
    right_delim: &'t str,
    pos: usize,
    start: usize,
    at_eof: bool,
    paren_depth: i64,
    line: usize,
    start_line: usize,
    state: State,
    pending: std::collections::VecDeque<Item>,
}

fn has_left_trim_marker(s: &[u8]) -> bool {
    s.len() >= 2 && s[0] == b'-' && is_space(s[1] as char)
}

fn has_right_trim_marker(s: &[u8]) -> bool {
    s.len() >= 2 && is_space(s[0] as char) && s[1] == b'-'
}

impl<'t> Lexer<'t> {
    /// A lexer with other action delimiters (Go's `Delims`; empty means the default).
    pub(crate) fn with_delims(input: &'t str, left: &'t str, right: &'t str) -> Self {
        Lexer {
            input,
            left_delim: if left.is_empty() { LEFT_DELIM } else { left },
            right_delim: if right.is_empty() { RIGHT_DELIM } else { right },
            pos: 0,
            start: 0,
            at_eof: false,
            paren_depth: 0,
            line: 1,
            start_line: 1,
            state: State::Text,
            pending: Default::default(),
        }
    }

    fn rest(&self) -> &'t [u8] {
        self.input.as_bytes().get(self.pos..).unwrap_or(&[])
    }

    fn next(&mut self) -> Option<char> {
        let c = self.input.get(self.pos..).and_then(|s| s.chars().next());
        match c {
            None => {
                self.at_eof = true;
                None
            }
            Some(c) => {
                self.pos += c.len_utf8();
                if c == '\n' {
                    self.line += 1;
                }
                Some(c)
            }
        }
    }

    fn backup(&mut self) {
        if !self.at_eof && self.pos > 0 {
            if let Some(c) = self
                .input
                .get(..self.pos)
                .and_then(|s| s.chars().next_back())
            {
                self.pos -= c.len_utf8();
                if c == '\n' {
                    self.line -= 1;
                }
            }
        }
    }

    fn peek(&mut self) -> Option<char> {
        let r = self.next();
        self.backup();
        r
    }

    fn slice(&self, a: usize, b: usize) -> &'t str {
        self.input.get(a..b).unwrap_or("")
    }

    fn emit(&mut self, typ: ItemType) {
        let val = self.slice(self.start, self.pos).to_string();
        self.pending.push_back(Item {
            typ,
            pos: self.start,
            val,
            line: self.start_line,
        });
        self.start = self.pos;
        self.start_line = self.line;
    }

    fn ignore(&mut self) {
        self.line += self.slice(self.start, self.pos).matches('\n').count();
        self.start = self.pos;
        self.start_line = self.line;
    }

    fn accept(&mut self, valid: &str) -> bool {
        match self.next() {
            Some(c) if valid.contains(c) => true,
            _ => {
                self.backup();
                false
            }
        }
    }

    fn accept_run(&mut self, valid: &str) {
        while let Some(c) = self.next() {
            if !valid.contains(c) {
                break;
            }
        }
        self.backup();
    }

    fn errorf(&mut self, msg: String) -> State {
        self.pending.push_back(Item {
            typ: ItemType::Error,
            pos: self.start,
            val: msg,
            line: self.start_line,
        });
        State::Done
    }

    pub(crate) fn next_item(&mut self) -> Item {
        loop {
            if let Some(it) = self.pending.pop_front() {
                return it;
            }
            if matches!(self.state, State::Done) {
                // Go closes the channel; reading from it yields the zero item
                // (an error item with empty text).
                return Item {
                    typ: ItemType::Error,
                    pos: 0,
                    val: String::new(),
                    line: 0,
                };
            }
            self.state = self.step(self.state);
        }
    }

    fn step(&mut self, st: State) -> State {
        match st {
            State::Text => self.lex_text(),
            State::LeftDelim => self.lex_left_delim(),
            State::Comment => self.lex_comment(),
            State::RightDelim => self.lex_right_delim(),
            State::InsideAction => self.lex_inside_action(),
            State::Space => self.lex_space(),
            State::Identifier => self.lex_identifier(),
            State::Field => self.lex_field_or_variable(ItemType::Field),
            State::Variable => {
                if self.at_terminator() {
                    self.emit(ItemType::Variable);
                    State::InsideAction
                } else {
                    self.lex_field_or_variable(ItemType::Variable)
                }
            }
            State::Char => self.lex_char(),
            State::Number => self.lex_number(),
            State::Quote => self.lex_quote(),
            State::RawQuote => self.lex_raw_quote(),
            State::Done => State::Done,
        }
    }

    fn lex_text(&mut self) -> State {
        if let Some(x) = self
            .input
            .get(self.pos..)
            .and_then(|s| s.find(self.left_delim))
        {
            let ldn = self.left_delim.len();
            self.pos += x;
            let mut trim = 0;
            let after = self.input.as_bytes().get(self.pos + ldn..).unwrap_or(&[]);
            if has_left_trim_marker(after) {
                let s = self.slice(self.start, self.pos);
                trim = s.len() - s.trim_end_matches(is_space).len();
            }
            self.pos -= trim;
            if self.pos > self.start {
                self.line += self.slice(self.start, self.pos).matches('\n').count();
                self.emit(ItemType::Text);
            }
            self.pos += trim;
            self.ignore();
            return State::LeftDelim;
        }
        self.pos = self.input.len();
        if self.pos > self.start {
            self.line += self.slice(self.start, self.pos).matches('\n').count();
            self.emit(ItemType::Text);
        }
        self.emit(ItemType::Eof);
        State::Done
    }

    fn at_right_delim(&self) -> (bool, bool) {
        let rest = self.rest();
        if has_right_trim_marker(rest)
            && rest
                .get(TRIM_MARKER_LEN..)
                .is_some_and(|r| r.starts_with(self.right_delim.as_bytes()))
        {
            return (true, true);
        }
        if rest.starts_with(self.right_delim.as_bytes()) {
            return (true, false);
        }
        (false, false)
    }

    fn lex_left_delim(&mut self) -> State {
        self.pos += self.left_delim.len();
        let trim_space = has_left_trim_marker(self.rest());
        let after_marker = if trim_space { TRIM_MARKER_LEN } else { 0 };
        if self
            .rest()
            .get(after_marker..)
            .is_some_and(|r| r.starts_with(LEFT_COMMENT.as_bytes()))
        {
            self.pos += after_marker;
            self.ignore();
            return State::Comment;
        }
        self.emit(ItemType::LeftDelim);
        self.pos += after_marker;
        self.ignore();
        self.paren_depth = 0;
        State::InsideAction
    }

    fn lex_comment(&mut self) -> State {
        self.pos += LEFT_COMMENT.len();
        let Some(i) = self
            .input
            .get(self.pos..)
            .and_then(|s| s.find(RIGHT_COMMENT))
        else {
            return self.errorf("unclosed comment".into());
        };
        self.pos += i + RIGHT_COMMENT.len();
        let (delim, trim_space) = self.at_right_delim();
        if !delim {
            return self.errorf("comment ends before closing delimiter".into());
        }
        if trim_space {
            self.pos += TRIM_MARKER_LEN;
        }
        self.pos += self.right_delim.len();
        if trim_space {
            let s = self.input.get(self.pos..).unwrap_or("");
            self.pos += s.len() - s.trim_start_matches(is_space).len();
        }
        self.ignore();
        State::Text
    }

    fn lex_right_delim(&mut self) -> State {
        let trim_space = has_right_trim_marker(self.rest());
        if trim_space {
            self.pos += TRIM_MARKER_LEN;
            self.ignore();
        }
        self.pos += self.right_delim.len();
        self.emit(ItemType::RightDelim);
        if trim_space {
            let s = self.input.get(self.pos..).unwrap_or("");
            self.pos += s.len() - s.trim_start_matches(is_space).len();
            self.ignore();
        }
        State::Text
    }

    fn lex_inside_action(&mut self) -> State {
        let (delim, _) = self.at_right_delim();
        if delim {
            if self.paren_depth == 0 {
                return State::RightDelim;
            }
            return self.errorf("unclosed left paren".into());
        }
        let Some(r) = self.next() else {
            return self.errorf("unclosed action".into());
        };
        match r {
            _ if is_space(r) => {
                self.backup();
                return State::Space;
            }
            '=' => self.emit(ItemType::Assign),
            ':' => {
                if self.next() != Some('=') {
                    return self.errorf("expected :=".into());
                }
                self.emit(ItemType::Declare);
            }
            '|' => self.emit(ItemType::Pipe),
            '"' => return State::Quote,
            '`' => return State::RawQuote,
            '$' => return State::Variable,
            '\'' => return State::Char,
            '.' => {
                let next = self.rest().first().copied();
                match next {
                    Some(b) if b.is_ascii_digit() => {
                        self.backup();
                        return State::Number;
                    }
                    Some(_) => return State::Field,
                    // '.' at end of input falls through to number in Go.
                    None => {
                        self.backup();
                        return State::Number;
                    }
                }
            }
            '+' | '-' | '0'..='9' => {
                self.backup();
                return State::Number;
            }
            _ if is_alnum(r) => {
                self.backup();
                return State::Identifier;
            }
            '(' => {
                self.emit(ItemType::LeftParen);
                self.paren_depth += 1;
            }
            ')' => {
                self.emit(ItemType::RightParen);
                self.paren_depth -= 1;
                if self.paren_depth < 0 {
                    return self.errorf(format!("unexpected right paren {}", sharp_u(r)));
                }
            }
            _ if r.is_ascii() && !r.is_ascii_control() => self.emit(ItemType::Char),
            _ => return self.errorf(format!("unrecognized character in action: {}", sharp_u(r))),
        }
        State::InsideAction
    }

    fn lex_space(&mut self) -> State {
        let mut num_spaces = 0;
        while let Some(r) = self.peek() {
            if !is_space(r) {
                break;
            }
            self.next();
            num_spaces += 1;
        }
        let b = self.input.as_bytes();
        let here = b.get(self.pos.saturating_sub(1)..).unwrap_or(&[]);
        if has_right_trim_marker(here)
            && here
                .get(TRIM_MARKER_LEN..)
                .is_some_and(|r| r.starts_with(self.right_delim.as_bytes()))
        {
            self.backup();
            if num_spaces == 1 {
                return State::RightDelim;
            }
        }
        self.emit(ItemType::Space);
        State::InsideAction
    }

    fn lex_identifier(&mut self) -> State {
        loop {
            match self.next() {
                Some(r) if is_alnum(r) => {}
                r => {
                    self.backup();
                    let word = self.slice(self.start, self.pos);
                    if !self.at_terminator() {
                        return self.bad_char(r);
                    }
                    match keyword(word) {
                        Some(k) if k > ItemType::Keyword => self.emit(k),
                        _ if word.starts_with('.') => self.emit(ItemType::Field),
                        _ if word == "true" || word == "false" => self.emit(ItemType::Bool),
                        _ => self.emit(ItemType::Identifier),
                    }
                    return State::InsideAction;
                }
            }
        }
    }

    fn bad_char(&mut self, r: Option<char>) -> State {
        // Go formats eof (-1) with %#U as "U+FFFFFFFFFFFFFFFF".
        let shown = match r {
            Some(c) => sharp_u(c),
            None => "U+FFFFFFFFFFFFFFFF".to_string(),
        };
        self.errorf(format!("bad character {shown}"))
    }

    fn lex_field_or_variable(&mut self, typ: ItemType) -> State {
        if self.at_terminator() {
            if typ == ItemType::Variable {
                self.emit(ItemType::Variable);
            } else {
                self.emit(ItemType::Dot);
            }
            return State::InsideAction;
        }
        let r = loop {
            let r = self.next();
            match r {
                Some(c) if is_alnum(c) => {}
                _ => {
                    self.backup();
                    break r;
                }
            }
        };
        if !self.at_terminator() {
            return self.bad_char(r);
        }
        self.emit(typ);
        State::InsideAction
    }

    fn at_terminator(&mut self) -> bool {
        match self.peek() {
            None => true,
            Some(r) if is_space(r) => true,
            Some('.' | ',' | '|' | ':' | ')' | '(') => true,
            // Go: does r start the right delimiter (its first rune)?
            Some(r) => self.right_delim.starts_with(r),
        }
    }

    fn lex_char(&mut self) -> State {
        loop {
            match self.next() {
                Some('\\') => match self.next() {
                    Some(r) if r != '\n' => {}
                    _ => return self.errorf("unterminated character constant".into()),
                },
                None | Some('\n') => return self.errorf("unterminated character constant".into()),
                Some('\'') => break,
                _ => {}
            }
        }
        self.emit(ItemType::CharConstant);
        State::InsideAction
    }

    fn lex_number(&mut self) -> State {
        if !self.scan_number() {
            let s = self.slice(self.start, self.pos);
            return self.errorf(format!("bad number syntax: {}", q(s.as_bytes())));
        }
        if matches!(self.peek(), Some('+' | '-')) {
            if !self.scan_number() || !self.slice(self.start, self.pos).ends_with('i') {
                let s = self.slice(self.start, self.pos);
                return self.errorf(format!("bad number syntax: {}", q(s.as_bytes())));
            }
            self.emit(ItemType::Complex);
        } else {
            self.emit(ItemType::Number);
        }
        State::InsideAction
    }

    fn scan_number(&mut self) -> bool {
        self.accept("+-");
        let mut digits = "0123456789_";
        if self.accept("0") {
            if self.accept("xX") {
                digits = "0123456789abcdefABCDEF_";
            } else if self.accept("oO") {
                digits = "01234567_";
            } else if self.accept("bB") {
                digits = "01_";
            }
        }
        self.accept_run(digits);
        if self.accept(".") {
            self.accept_run(digits);
        }
        if digits.len() == 10 + 1 && self.accept("eE") {
            self.accept("+-");
            self.accept_run("0123456789_");
        }
        if digits.len() == 16 + 6 + 1 && self.accept("pP") {
            self.accept("+-");
            self.accept_run("0123456789_");
        }
        self.accept("i");
        if self.peek().is_some_and(is_alnum) {
            self.next();
            return false;
        }
        true
    }

    fn lex_quote(&mut self) -> State {
        loop {
            match self.next() {
                Some('\\') => match self.next() {
                    Some(r) if r != '\n' => {}
                    _ => return self.errorf("unterminated quoted string".into()),
                },
                None | Some('\n') => return self.errorf("unterminated quoted string".into()),
                Some('"') => break,
                _ => {}
            }
        }
        self.emit(ItemType::String);
        State::InsideAction
    }

    fn lex_raw_quote(&mut self) -> State {
        loop {
            match self.next() {
                None => return self.errorf("unterminated raw quoted string".into()),
                Some('`') => break,
                _ => {}
            }
        }
        self.emit(ItemType::RawString);
        State::InsideAction
    }
}
