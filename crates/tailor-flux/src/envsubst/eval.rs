//! Evaluation of parsed nodes (envsubst/template.go at fluxcd/pkg envsubst v1.7.0).

use crate::envsubst::error::Error;
use crate::envsubst::funcs::apply;
use crate::envsubst::parse::{Func, Node};
use crate::envsubst::{Lookup, Options};

pub(crate) struct Evaluator<'a> {
    pub(crate) lookup: &'a Lookup<'a>,
    pub(crate) opts: &'a Options,
}

/// Operators that supply their own fallback and so never trip strict mode. `-`, `+` and `?`
/// cannot be parsed, but Flux lists them and so does this.
fn is_default_op(op: &str) -> bool {
    matches!(op, "-" | "+" | "=" | "?" | ":-" | ":+" | ":=" | ":?")
}

impl Evaluator<'_> {
    pub(crate) fn eval(&self, nodes: &[Node]) -> Result<Vec<u8>, Error> {
        let mut out = Vec::new();
        for node in nodes {
            match node {
                Node::Text(t) => self.push(&mut out, t)?,
                Node::Func(f) => {
                    let v = self.eval_func(f)?;
                    self.opts
                        .budget
                        .charge_output(v.len() as u64)
                        .map_err(Error::RunBudget)?;
                    self.push(&mut out, &v)?;
                }
            }
        }
        Ok(out)
    }

    fn push(&self, out: &mut Vec<u8>, piece: &[u8]) -> Result<(), Error> {
        let limit = self.opts.max_output_bytes;
        if out.len().saturating_add(piece.len()) > limit {
            return Err(Error::OutputTooLarge { limit });
        }
        out.extend_from_slice(piece);
        Ok(())
    }

    fn eval_func(&self, f: &Func) -> Result<Vec<u8>, Error> {
        // Arguments first, eagerly: a missing variable inside an unused default still fails
        // strict mode, as in Flux.
        let mut args = Vec::with_capacity(f.args.len());
        for a in &f.args {
            args.push(match a {
                Node::Text(t) => t.clone(),
                Node::Func(g) => self.eval_func(g)?,
            });
        }
        let value = match (self.lookup)(&f.param) {
            Some(v) => v.into_bytes(),
            None if self.opts.strict && !is_default_op(&f.op) => {
                return Err(Error::VariableNotSet(f.param.clone()))
            }
            // Non-strict Flux maps every name to (value, true): unknown reads as "".
            None => Vec::new(),
        };
        let limit = self.opts.max_output_bytes;
        let out = apply(&f.op, value, &args, limit)?;
        if out.len() > limit {
            return Err(Error::OutputTooLarge { limit });
        }
        Ok(out)
    }
}
