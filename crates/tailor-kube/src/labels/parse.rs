//! The string form of a label selector, a port of apimachinery's `labels.Parse` lexer and
//! recursive-descent parser (`pkg/labels/selector.go`), including its quirks:
//! `in`/`notin` are keywords only in operator position, `()` means the set `{""}`, `a=` means
//! `a=""`, and a NUL character ends the input.

use super::{Operator, ReqPaths, Requirement};
use crate::diag::FieldError as SelectorError;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tok {
    Error,
    End,
    ClosedPar,
    Comma,
    DoesNotExist,
    DoubleEquals,
    Equals,
    GreaterThan,
    Identifier,
    In,
    LessThan,
    NotEquals,
    NotIn,
    OpenPar,
}

fn keyword(s: &str) -> Option<Tok> {
    Some(match s {
        ")" => Tok::ClosedPar,
        "," => Tok::Comma,
        "!" => Tok::DoesNotExist,
        "==" => Tok::DoubleEquals,
        "=" => Tok::Equals,
        ">" => Tok::GreaterThan,
        "in" => Tok::In,
        "<" => Tok::LessThan,
        "!=" => Tok::NotEquals,
        "notin" => Tok::NotIn,
        "(" => Tok::OpenPar,
        _ => return None,
    })
}

fn is_whitespace(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\r' | '\n')
}

fn is_special(c: char) -> bool {
    matches!(c, '=' | '!' | '(' | ')' | ',' | '>' | '<')
}

/// Splits the input into tokens; always ends with `Tok::End`.
fn lex(input: &str) -> Vec<(Tok, String)> {
    // Go's lexer reads bytes and treats 0 as end of input.
    let chars: Vec<char> = input.chars().take_while(|c| *c != '\0').collect();
    let mut out = Vec::new();
    let mut pos = 0;
    loop {
        while chars.get(pos).is_some_and(|c| is_whitespace(*c)) {
            pos += 1;
        }
        let Some(&c) = chars.get(pos) else {
            out.push((Tok::End, String::new()));
            return out;
        };
        if is_special(c) {
            // Longest run of special symbols that is still a known token ("!=" but "!(" is "!").
            let mut buffer = String::new();
            let mut last: Option<(Tok, String)> = None;
            while let Some(&c) = chars.get(pos) {
                if !is_special(c) {
                    break;
                }
                buffer.push(c);
                if let Some(t) = keyword(&buffer) {
                    last = Some((t, buffer.clone()));
                } else if last.is_some() {
                    break;
                }
                pos += 1;
            }
            out.push(last.unwrap_or_else(|| {
                (
                    Tok::Error,
                    format!("error expected: keyword found '{buffer}'"),
                )
            }));
        } else {
            let start = pos;
            while chars
                .get(pos)
                .is_some_and(|c| !is_whitespace(*c) && !is_special(*c))
            {
                pos += 1;
            }
            let word: String = chars.get(start..pos).unwrap_or_default().iter().collect();
            let tok = keyword(&word).unwrap_or(Tok::Identifier);
            out.push((tok, word));
        }
    }
}

/// In value position `in` and `notin` are plain identifiers.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ctx {
    KeyAndOperator,
    Values,
}

struct Parser<'a> {
    items: Vec<(Tok, String)>,
    pos: usize,
    path: &'a str,
}

impl Parser<'_> {
    fn item(&self, at: usize, ctx: Ctx) -> (Tok, String) {
        let (tok, lit) = self
            .items
            .get(at)
            .cloned()
            .unwrap_or((Tok::End, String::new()));
        let tok = match tok {
            Tok::In | Tok::NotIn if ctx == Ctx::Values => Tok::Identifier,
            t => t,
        };
        (tok, lit)
    }

    fn lookahead(&self, ctx: Ctx) -> (Tok, String) {
        self.item(self.pos, ctx)
    }

    fn consume(&mut self, ctx: Ctx) -> (Tok, String) {
        let it = self.item(self.pos, ctx);
        self.pos += 1;
        it
    }

    fn err(&self, msg: String) -> SelectorError {
        SelectorError::new(self.path, msg)
    }

    fn parse(&mut self) -> Result<Vec<Requirement>, SelectorError> {
        let mut reqs = Vec::new();
        loop {
            let (tok, lit) = self.lookahead(Ctx::Values);
            match tok {
                Tok::Identifier | Tok::DoesNotExist => {
                    let r = self.requirement().map_err(|e| {
                        SelectorError::new(
                            e.field,
                            format!("unable to parse requirement: {}", e.message),
                        )
                    })?;
                    reqs.push(r);
                    let (t, l) = self.consume(Ctx::Values);
                    match t {
                        Tok::End => return Ok(reqs),
                        Tok::Comma => {
                            let (t2, l2) = self.lookahead(Ctx::Values);
                            if t2 != Tok::Identifier && t2 != Tok::DoesNotExist {
                                return Err(self
                                    .err(format!("found '{l2}', expected: identifier after ','")));
                            }
                        }
                        _ => {
                            return Err(
                                self.err(format!("found '{l}', expected: ',' or 'end of string'"))
                            )
                        }
                    }
                }
                Tok::End => return Ok(reqs),
                _ => {
                    return Err(self.err(format!(
                        "found '{lit}', expected: !, identifier, or 'end of string'"
                    )))
                }
            }
        }
    }

    fn requirement(&mut self) -> Result<Requirement, SelectorError> {
        let (key, inferred) = self.key_and_inferred_operator()?;
        let paths = ReqPaths {
            key: self.path,
            values: self.path,
            indexed_values: false,
        };
        if let Some(op) = inferred {
            return Requirement::with_paths(&key, op, Vec::new(), &paths);
        }
        let op = self.operator()?;
        let values = match op {
            Operator::In | Operator::NotIn => self.values()?,
            _ => self.exact_value()?,
        };
        Requirement::with_paths(&key, op, values, &paths)
    }

    /// Reads `key` or `!key`; the operator is known already for `!key`, and for `key`
    /// followed by `,` or the end (Exists).
    fn key_and_inferred_operator(&mut self) -> Result<(String, Option<Operator>), SelectorError> {
        let (mut tok, mut lit) = self.consume(Ctx::Values);
        let mut op = None;
        if tok == Tok::DoesNotExist {
            op = Some(Operator::DoesNotExist);
            (tok, lit) = self.consume(Ctx::Values);
        }
        if tok != Tok::Identifier {
            return Err(self.err(format!("found '{lit}', expected: identifier")));
        }
        let errs = super::label_key_errors(&lit);
        if !errs.is_empty() {
            return Err(self.err(format!("invalid label key {lit:?}: {}", errs.join("; "))));
        }
        let (next, _) = self.lookahead(Ctx::Values);
        if (next == Tok::End || next == Tok::Comma) && op.is_none() {
            op = Some(Operator::Exists);
        }
        Ok((lit, op))
    }

    fn operator(&mut self) -> Result<Operator, SelectorError> {
        let (tok, lit) = self.consume(Ctx::KeyAndOperator);
        Ok(match tok {
            Tok::In => Operator::In,
            Tok::Equals => Operator::Equals,
            Tok::DoubleEquals => Operator::DoubleEquals,
            Tok::GreaterThan => Operator::GreaterThan,
            Tok::LessThan => Operator::LessThan,
            Tok::NotIn => Operator::NotIn,
            Tok::NotEquals => Operator::NotEquals,
            _ => {
                return Err(self.err(format!(
                    "found '{lit}', expected: in, notin, =, ==, !=, gt, lt"
                )))
            }
        })
    }

    /// `( v1, v2 )`; Go's quirks kept: `()`, `(,` and `,)` contribute the empty value.
    fn values(&mut self) -> Result<Vec<String>, SelectorError> {
        let (tok, lit) = self.consume(Ctx::Values);
        if tok != Tok::OpenPar {
            return Err(self.err(format!("found '{lit}' expected: '('")));
        }
        let (tok, lit) = self.lookahead(Ctx::Values);
        match tok {
            Tok::Identifier | Tok::Comma => {
                let set = self.identifiers()?;
                let (tok, _) = self.consume(Ctx::Values);
                if tok != Tok::ClosedPar {
                    // Go reports the literal seen at the lookahead here, not the one consumed.
                    return Err(self.err(format!("found '{lit}', expected: ')'")));
                }
                Ok(set)
            }
            Tok::ClosedPar => {
                self.consume(Ctx::Values);
                Ok(vec![String::new()])
            }
            _ => Err(self.err(format!("found '{lit}', expected: ',', ')' or identifier"))),
        }
    }

    fn identifiers(&mut self) -> Result<Vec<String>, SelectorError> {
        let mut set: Vec<String> = Vec::new();
        loop {
            let (tok, lit) = self.consume(Ctx::Values);
            match tok {
                Tok::Identifier => {
                    set.push(lit);
                    let (t2, l2) = self.lookahead(Ctx::Values);
                    match t2 {
                        Tok::Comma => continue,
                        Tok::ClosedPar => return Ok(set),
                        _ => return Err(self.err(format!("found '{l2}', expected: ',' or ')'"))),
                    }
                }
                Tok::Comma => {
                    if set.is_empty() {
                        set.push(String::new()); // "(,"
                    }
                    let (t2, _) = self.lookahead(Ctx::Values);
                    if t2 == Tok::ClosedPar {
                        set.push(String::new()); // ",)"
                        return Ok(set);
                    }
                    if t2 == Tok::Comma {
                        self.consume(Ctx::Values);
                        set.push(String::new()); // ",,"
                    }
                }
                _ => return Err(self.err(format!("found '{lit}', expected: ',', or identifier"))),
            }
        }
    }

    /// The single value after `=`, `==`, `!=`, `>` or `<`; nothing before `,` or the end is `""`.
    fn exact_value(&mut self) -> Result<Vec<String>, SelectorError> {
        let (tok, _) = self.lookahead(Ctx::Values);
        if tok == Tok::End || tok == Tok::Comma {
            return Ok(vec![String::new()]);
        }
        let (tok, lit) = self.consume(Ctx::Values);
        if tok == Tok::Identifier {
            Ok(vec![lit])
        } else {
            Err(self.err(format!("found '{lit}', expected: identifier")))
        }
    }
}

/// Parses a whole selector string into requirements (unsorted).
pub(super) fn parse(input: &str, path: &str) -> Result<Vec<Requirement>, SelectorError> {
    let mut p = Parser {
        items: lex(input),
        pos: 0,
        path,
    };
    p.parse()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<Tok> {
        lex(s).into_iter().map(|(t, _)| t).collect()
    }

    #[test]
    fn lexer_tokens() {
        use Tok::*;
        assert_eq!(toks("a!=b"), [Identifier, NotEquals, Identifier, End]);
        assert_eq!(toks("a==b"), [Identifier, DoubleEquals, Identifier, End]);
        assert_eq!(toks("!a"), [DoesNotExist, Identifier, End]);
        assert_eq!(
            toks("a in (x, y)"),
            [Identifier, In, OpenPar, Identifier, Comma, Identifier, ClosedPar, End]
        );
        assert_eq!(
            toks("a notin(x)"),
            [Identifier, NotIn, OpenPar, Identifier, ClosedPar, End]
        );
        assert_eq!(
            toks("a>1,b<2"),
            [
                Identifier,
                GreaterThan,
                Identifier,
                Comma,
                Identifier,
                LessThan,
                Identifier,
                End
            ]
        );
        assert_eq!(toks("!("), [DoesNotExist, OpenPar, End]);
        assert_eq!(
            toks("a===b"),
            [Identifier, DoubleEquals, Equals, Identifier, End]
        );
        assert_eq!(toks(""), [End]);
        assert_eq!(toks("a\0=b"), [Identifier, End]);
    }

    #[test]
    fn special_runs_split_at_the_longest_token() {
        // Every single special character is a token, so the run "=!" splits into "=" and "!".
        assert_eq!(toks("=!"), [Tok::Equals, Tok::DoesNotExist, Tok::End]);
    }
}
