//! The stream: `%` directives, `---` and `...` markers, and the documents between them.

use super::{is_blank, is_break, spanned, Ctx, Document, Parser, R};
use crate::node::{Node, Span, Style};

impl Parser<'_> {
    pub(super) fn stream(&mut self) -> R<Vec<Document>> {
        let mut docs = Vec::new();
        let mut doc_start = 0usize;
        // After `...` go-yaml v3 wants the next document to start with `---`.
        let mut ended_explicitly = false;
        loop {
            self.skip_to_next_token()?;
            let mut directives = Vec::new();
            let mut seen_version = false;
            while self.col() == 0 && self.peek() == b'%' {
                let text = self.rest_of_line().trim_end();
                match check_directive(text) {
                    Ok(Some(version)) => {
                        // libyaml's parser, after the scanner: one %YAML per document, 1.1 only
                        // (go-yaml v3 refuses 1.2 as well).
                        if seen_version {
                            return self.parse_err("found duplicate %YAML directive", None);
                        }
                        seen_version = true;
                        if version != (1, 1) {
                            return self.parse_err("found incompatible YAML document", None);
                        }
                    }
                    Ok(None) => {}
                    Err((msg, offset)) => {
                        self.pos += offset;
                        return self.err(msg);
                    }
                }
                directives.push(text.to_string());
                self.pos += self.rest_of_line().len();
                self.skip_to_next_token()?;
            }
            let mut explicit_start = false;
            if self.at_boundary() && self.peek() == b'-' {
                explicit_start = true;
                self.pos += 3;
            } else if !directives.is_empty() {
                return self.parse_err("did not find expected <document start>", None);
            } else if self.at_end() {
                if !self.pending.is_empty() {
                    // A stream of only comments: keep them as an empty document.
                    let foot = self.take_pending();
                    docs.push(Document {
                        root: Node::plain(""),
                        empty: true,
                        head_comment: String::new(),
                        foot_comment: foot,
                        directives,
                        explicit_start,
                        explicit_end: false,
                        span: Span {
                            start: doc_start as u32,
                            end: self.pos as u32,
                        },
                        wide_sequences: false,
                    });
                }
                break;
            } else if self.at_boundary() {
                // go-yaml v3 skips a bare `...` only after a document; before the first one
                // it is where the implicit first document's content should be.
                if docs.is_empty() {
                    let node = self.mark();
                    return self.parse_err("did not find expected node content", Some(node));
                }
                self.pos += 3;
                ended_explicitly = true;
                continue;
            } else if ended_explicitly {
                return self.parse_err("did not find expected <document start>", None);
            }
            let doc = self.document(doc_start, directives, explicit_start)?;
            ended_explicitly = doc.explicit_end;
            self.docs_done += 1;
            doc_start = doc.span.end as usize;
            docs.push(doc);
            if self.at_end() {
                break;
            }
        }
        Ok(docs)
    }

    fn document(
        &mut self,
        doc_start: usize,
        directives: Vec<String>,
        explicit_start: bool,
    ) -> R<Document> {
        // Anchors do not reach across documents (go-yaml: "unknown anchor").
        self.anchors.clear();
        // Comments separated from the content by a blank line belong to the document, except
        // after a `---` on the stream's first line: go-yaml's scanner finds no line a foot of
        // that marker could be on (`foot_line` is -1 there), so every comment after it, blank
        // lines and all, is the head comment of the content (kpt keeps it on the object).
        let first_line_marker =
            explicit_start && !self.cut_from_stream && !self.src[..self.pos - 3].contains('\n');
        let mut head_comment = String::new();
        let crossed = if explicit_start {
            self.skip_blanks();
            if self.peek() == b'#' || is_break(self.peek()) || self.at_end() {
                self.skip_to_next_token()?
            } else {
                false
            }
        } else {
            true
        };
        if !self.pending.is_empty() && self.blank_since_token && !first_line_marker {
            head_comment = self.take_pending();
        }
        let empty =
            self.at_end() || self.at_document_break() || (crossed && self.at_document_break());
        let root = if empty {
            spanned(Node::plain(""), self.pos, self.pos)
        } else {
            self.node(-1, Ctx::Root, !crossed)?
        };
        let mut root = root;
        if root.style != Style::Block && !self.pending.is_empty() {
            // Comments right above a scalar or flow root (no blank line between) are its head
            // comment, as in go-yaml; block collections took theirs already. Left pending they
            // would become the document's foot, and move below the value on the next trip.
            let head = self.take_pending();
            let c = root.comments_mut();
            c.head = if c.head.is_empty() {
                head
            } else {
                format!("{head}\n{}", c.head)
            };
        }
        self.skip_to_next_token()?;
        let foot_comment = self.take_pending();
        let mut end = self.pos;
        let mut explicit_end = false;
        if !self.at_end() {
            if self.at_boundary() && self.peek() == b'.' {
                explicit_end = true;
                self.pos += 3;
                self.skip_blanks();
                if self.peek() == b'#' {
                    self.read_comment();
                }
                if is_break(self.peek()) {
                    self.newline();
                }
                end = self.pos;
            } else if !self.at_document_break() {
                return Err(self.unexpected_in_collection());
            }
        }
        self.blank_since_token = false;
        // Back up over the line break so the next document's span starts at its own line.
        let span_end = if self.at_document_break() {
            self.pos
        } else {
            end
        };
        Ok(Document {
            root,
            empty,
            head_comment,
            foot_comment,
            directives,
            explicit_start,
            explicit_end,
            span: Span {
                start: doc_start as u32,
                end: span_end as u32,
            },
            wide_sequences: crate::seqindent::derive_wide_sequences(&self.src[doc_start..span_end]),
        })
    }
}

/// Checks one directive line (starting at its `%`) as libyaml's scanner does. Returns the
/// version of a `%YAML` directive, or libyaml's message and the byte offset it points at.
/// `%TAG` directives are only recognised by name: their handles are not resolved here.
fn check_directive(line: &str) -> Result<Option<(u32, u32)>, (&'static str, usize)> {
    let b = line.as_bytes();
    let name_end = 1 + b[1..]
        .iter()
        .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_' || **c == b'-')
        .count();
    if name_end == 1 {
        return Err(("could not find expected directive name", 1));
    }
    if name_end < b.len() && !is_blank(b[name_end]) {
        return Err(("found unexpected non-alphabetical character", name_end));
    }
    match &line[1..name_end] {
        "YAML" => {}
        "TAG" => return Ok(None),
        _ => return Err(("found unknown directive name", 1)),
    }
    let mut i = name_end;
    while i < b.len() && is_blank(b[i]) {
        i += 1;
    }
    let major = version_number(b, &mut i)?;
    if b.get(i) != Some(&b'.') {
        return Err(("did not find expected digit or '.' character", i));
    }
    i += 1;
    let minor = version_number(b, &mut i)?;
    while i < b.len() && is_blank(b[i]) {
        i += 1;
    }
    if i < b.len() && b[i] != b'#' {
        return Err(("did not find expected comment or line break", i));
    }
    Ok(Some((major, minor)))
}

/// One number of a `%YAML` version: at most nine digits, as libyaml allows.
fn version_number(b: &[u8], i: &mut usize) -> Result<u32, (&'static str, usize)> {
    let start = *i;
    let mut v: u32 = 0;
    while *i < b.len() && b[*i].is_ascii_digit() {
        if *i - start == 9 {
            return Err(("found extremely long version number", start));
        }
        v = v * 10 + u32::from(b[*i] - b'0');
        *i += 1;
    }
    if *i == start {
        return Err(("did not find expected version number", start));
    }
    Ok(v)
}
