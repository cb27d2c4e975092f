//! The parser of envsubst/parse/parse.go: text and `${...}` expressions into a flat node list.
//!
//! Each function mirrors its Go counterpart, including which scanner mode and accept rule it sets
//! before each scan, because the error returned for malformed input depends on exactly that.
//! Go recurses once per top-level token; this loops instead, and bounds the genuine nesting of
//! expressions so hostile input cannot overflow the stack.

use crate::envsubst::error::Error;
use crate::envsubst::scan::{
    Accept, Scanner, Token, ESC_ALL, ESC_DOLLAR, SCAN_ESCAPE, SCAN_IDENT, SCAN_LBRACK, SCAN_RBRACK,
};
use crate::envsubst::MAX_NESTING;

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Node {
    Text(Vec<u8>),
    Func(Func),
}

/// `${param<op>args}`; `op` is the operator text (`""`, `:=`, `//`, `#`, ...).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Func {
    pub(crate) param: String,
    pub(crate) op: String,
    pub(crate) args: Vec<Node>,
}

/// Parses the whole input; any malformed expression anywhere fails it.
pub(crate) fn parse(input: &str) -> Result<Vec<Node>, Error> {
    Parser {
        sc: Scanner::new(input.as_bytes()),
    }
    .parse_any()
}

struct Parser<'a> {
    sc: Scanner<'a>,
}

fn text_string(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

impl Parser<'_> {
    fn parse_any(&mut self) -> Result<Vec<Node>, Error> {
        let mut nodes = Vec::new();
        loop {
            self.sc.accept = Accept::Rune;
            self.sc.mode = SCAN_IDENT | SCAN_LBRACK | SCAN_ESCAPE;
            self.sc.escape = ESC_DOLLAR;
            match self.sc.scan() {
                Token::Ident => nodes.push(Node::Text(self.sc.text())),
                Token::Eof => return Ok(nodes),
                Token::Lbrack => nodes.push(Node::Func(self.parse_func(1)?)),
                _ => return Err(Error::BadSubstitution),
            }
        }
    }

    fn parse_func(&mut self, depth: usize) -> Result<Func, Error> {
        if depth > MAX_NESTING {
            return Err(Error::NestingTooDeep { limit: MAX_NESTING });
        }
        // Go switches every escape on here and leaves it on until the next top-level token.
        self.sc.escape = ESC_ALL;
        if self.sc.peek() == '#' {
            return self.parse_len_func();
        }
        self.sc.accept = Accept::Ident;
        self.sc.mode = SCAN_IDENT;
        let name = match self.sc.scan() {
            Token::Ident => text_string(self.sc.text()),
            _ => return Err(Error::ParseVariableName),
        };
        match self.sc.peek() {
            ':' => return self.parse_default_or_substr(name, depth),
            '=' => return self.parse_default_func(name, depth),
            ',' | '^' => return self.parse_casing_func(name),
            '/' => return self.parse_replace_func(name, depth),
            '#' => return self.parse_remove_func(name, Accept::HashFunc, depth),
            '%' => return self.parse_remove_func(name, Accept::PercentFunc, depth),
            _ => {}
        }
        self.sc.accept = Accept::Ident;
        self.sc.mode = SCAN_RBRACK;
        match self.sc.scan() {
            Token::Rbrack => Ok(Func {
                param: name,
                op: String::new(),
                args: Vec::new(),
            }),
            _ => Err(Error::MissingClosingBrace),
        }
    }

    /// One argument: a nested expression, or text up to what `accept` rejects.
    fn parse_param(&mut self, accept: Accept, mode: u8, depth: usize) -> Result<Node, Error> {
        self.sc.accept = accept;
        self.sc.mode = mode | SCAN_LBRACK;
        match self.sc.scan() {
            Token::Lbrack => Ok(Node::Func(self.parse_func(depth + 1)?)),
            Token::Ident | Token::Rbrack => Ok(Node::Text(self.sc.text())),
            _ => Err(Error::ParseFuncSubstitution),
        }
    }

    /// Scans the operator token, failing with `err` when there is none.
    fn scan_op(&mut self, accept: Accept, err: Error) -> Result<String, Error> {
        self.sc.accept = accept;
        self.sc.mode = SCAN_IDENT;
        match self.sc.scan() {
            Token::Ident => Ok(text_string(self.sc.text())),
            _ => Err(err),
        }
    }

    fn parse_default_or_substr(&mut self, name: String, depth: usize) -> Result<Func, Error> {
        // Go's unread here steps back by the *peeked* rune's width, so a multibyte rune after
        // `:` rewinds into the name and the substring parse then fails: kept on purpose.
        self.sc.read();
        let r = self.sc.peek();
        self.sc.unread();
        match r {
            '=' | '-' | '?' | '+' => self.parse_default_func(name, depth),
            _ => self.parse_substr_func(name, depth),
        }
    }

    /// The function once its arguments are read: the closing `}` must follow.
    fn func(&mut self, name: String, op: String, args: Vec<Node>) -> Result<Func, Error> {
        self.consume_rbrack()?;
        Ok(Func {
            param: name,
            op,
            args,
        })
    }

    fn parse_substr_func(&mut self, name: String, depth: usize) -> Result<Func, Error> {
        let op = self.scan_op(Accept::OneColon, Error::BadSubstitution)?;
        let mut args = vec![self.parse_param(Accept::RejectColonClose, SCAN_IDENT, depth)?];
        self.sc.accept = Accept::Colon;
        self.sc.mode = SCAN_IDENT | SCAN_RBRACK;
        match self.sc.scan() {
            Token::Rbrack => {
                return Ok(Func {
                    param: name,
                    op,
                    args,
                })
            }
            Token::Ident => {}
            _ => return Err(Error::BadSubstitution),
        }
        args.push(self.parse_param(Accept::NotClosing, SCAN_IDENT, depth)?);
        self.func(name, op, args)
    }

    fn parse_remove_func(
        &mut self,
        name: String,
        accept: Accept,
        depth: usize,
    ) -> Result<Func, Error> {
        let op = self.scan_op(accept, Error::BadSubstitution)?;
        let args = vec![self.parse_param(Accept::NotClosing, SCAN_IDENT, depth)?];
        self.func(name, op, args)
    }

    fn parse_replace_func(&mut self, name: String, depth: usize) -> Result<Func, Error> {
        let op = self.scan_op(Accept::ReplaceFunc, Error::BadSubstitution)?;
        let mut args = vec![self.parse_param(Accept::NotSlash, SCAN_IDENT | SCAN_ESCAPE, depth)?];
        // The delimiter is a run of one or more slashes.
        self.scan_op(Accept::Slash, Error::BadSubstitution)?;
        if self.sc.peek() != '}' {
            args.push(self.parse_param(Accept::NotClosing, SCAN_IDENT | SCAN_ESCAPE, depth)?);
        }
        self.func(name, op, args)
    }

    fn parse_default_func(&mut self, name: String, depth: usize) -> Result<Func, Error> {
        let accept = if self.sc.peek() == '=' {
            Accept::OneEqual
        } else {
            Accept::DefaultFunc
        };
        let op = self.scan_op(accept, Error::ParseDefaultFunction)?;
        let mut args = Vec::new();
        while self.sc.peek() != '}' {
            args.push(self.parse_param(Accept::NotClosing, SCAN_IDENT, depth)?);
        }
        self.func(name, op, args)
    }

    fn parse_casing_func(&mut self, name: String) -> Result<Func, Error> {
        let op = self.scan_op(Accept::CasingFunc, Error::BadSubstitution)?;
        self.consume_rbrack()?;
        Ok(Func {
            param: name,
            op,
            args: Vec::new(),
        })
    }

    fn parse_len_func(&mut self) -> Result<Func, Error> {
        let op = self.scan_op(Accept::OneHash, Error::BadSubstitution)?;
        let param = self.scan_op(Accept::Ident, Error::BadSubstitution)?;
        self.consume_rbrack()?;
        Ok(Func {
            param,
            op,
            args: Vec::new(),
        })
    }

    fn consume_rbrack(&mut self) -> Result<(), Error> {
        self.sc.mode = SCAN_RBRACK;
        match self.sc.scan() {
            Token::Rbrack => Ok(()),
            _ => Err(Error::BadSubstitution),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn func(param: &str, op: &str, args: Vec<Node>) -> Node {
        Node::Func(Func {
            param: param.into(),
            op: op.into(),
            args,
        })
    }

    fn text(s: &str) -> Node {
        Node::Text(s.as_bytes().to_vec())
    }

    #[test]
    fn shapes() {
        assert_eq!(
            parse("a${b}c").unwrap(),
            vec![text("a"), func("b", "", vec![]), text("c")]
        );
        assert_eq!(
            parse("${a:=x${b}y}").unwrap(),
            vec![func(
                "a",
                ":=",
                vec![text("x"), func("b", "", vec![]), text("y")]
            )]
        );
        assert_eq!(
            parse("${a==x}").unwrap(),
            vec![func("a", "=", vec![text("=x")])]
        );
        assert_eq!(
            parse("${v:1:2:3}").unwrap(),
            vec![func("v", ":", vec![text("1"), text("2:3")])]
        );
        assert_eq!(
            parse("${v/a//b}").unwrap(),
            vec![func("v", "/", vec![text("a"), text("b")])]
        );
        assert_eq!(
            parse("${v/b/$${x}}").unwrap(),
            vec![func("v", "/", vec![text("b"), text("${x")]), text("}")]
        );
        assert_eq!(
            parse("$$${x}").unwrap(),
            vec![text("$"), func("x", "", vec![])]
        );
    }

    #[test]
    fn errors() {
        let cases = [
            ("${}", Error::ParseVariableName),
            ("abc${", Error::ParseVariableName),
            ("${var }", Error::MissingClosingBrace),
            ("${var", Error::MissingClosingBrace),
            ("${a:=${b", Error::MissingClosingBrace),
            ("${a:=${b}", Error::ParseFuncSubstitution),
            ("${var:}", Error::ParseFuncSubstitution),
            ("${var::2}", Error::ParseFuncSubstitution),
            ("${var/abc}", Error::BadSubstitution),
            ("${#v:1}", Error::BadSubstitution),
            ("${##v}", Error::BadSubstitution),
            ("${#}", Error::BadSubstitution),
            ("${v^^^}", Error::BadSubstitution),
            ("${v,,,}", Error::BadSubstitution),
            ("${v-d}", Error::MissingClosingBrace),
            ("${v+d}", Error::MissingClosingBrace),
            ("${v?d}", Error::MissingClosingBrace),
            ("${a:é}", Error::BadSubstitution),
        ];
        for (input, err) in cases {
            assert_eq!(parse(input), Err(err), "{input}");
        }
    }

    #[test]
    fn nul_ends_the_input() {
        assert_eq!(parse("a\0${b").unwrap(), vec![text("a")]);
    }

    #[test]
    fn nesting_is_bounded() {
        let deep = "${a:=".repeat(MAX_NESTING + 1) + &"}".repeat(MAX_NESTING + 1);
        assert_eq!(
            parse(&deep),
            Err(Error::NestingTooDeep { limit: MAX_NESTING })
        );
        let ok = "${a:=".repeat(MAX_NESTING) + &"}".repeat(MAX_NESTING);
        assert!(parse(&ok).is_ok());
    }
}
