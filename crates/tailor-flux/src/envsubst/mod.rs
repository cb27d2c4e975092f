//! Flux kustomize-controller `postBuild` variable substitution, ported from fluxcd/pkg
//! `envsubst` v1.7.0 (Flux's fork of drone/envsubst with strict mode), as used by
//! kustomize-controller v1.9.x.
//!
//! The goal is identical results and error texts, quirks included: `$$` collapses to `$` in
//! top-level text, bare `$var` is left alone, `${v:?msg}` and `${v:+alt}` behave like `:-`,
//! `${v-d}` is a parse error, lengths and offsets count bytes, trims use Flux's glob matcher.
//! See `docs/semantics/flux.md` §1 for the dialect.
//!
//! ```
//! use tailor_flux::envsubst::{substitute, Options};
//!
//! let lookup = |name: &str| (name == "env").then(|| "prod".to_string());
//! let out = substitute("env: ${env}, tier: ${tier:=gold}", &lookup, &Options::default()).unwrap();
//! assert_eq!(out, "env: prod, tier: gold");
//!
//! let err = substitute("${missing}", &lookup, &Options::default()).unwrap_err();
//! assert_eq!(err.to_string(), "variable not set (strict mode): \"missing\"");
//! ```
//!
//! Applying this to Kubernetes resources the way the controller does (which text it sees,
//! which variables exist, when it is skipped, how errors are wrapped) is described in
//! [`flux`], which also provides the pieces for it.

mod error;
mod eval;
pub mod flux;
mod funcs;
mod glob;
mod parse;
mod scan;

pub use error::Error;
pub use flux::{InvalidVarName, Vars};

/// How deeply `${...}` may nest inside another expression's arguments. Go has no such limit
/// (its stacks grow); real manifests nest a handful of levels at most.
pub const MAX_NESTING: usize = 256;

/// Default for [`Options::max_output_bytes`]: 64 MiB.
pub const DEFAULT_MAX_OUTPUT_BYTES: usize = 64 << 20;

/// Maps a variable name to its value; `None` means "not set".
pub type Lookup<'a> = dyn Fn(&str) -> Option<String> + 'a;

/// Evaluation settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// Flux strict mode (feature gate `StrictPostBuildSubstitutions`, on by default since
    /// kustomize-controller v1.9.0): a variable the lookup does not know is an error, except
    /// under the default operators `=`, `:=`, `:-`, `:?`, `:+`. When off, unknown variables
    /// read as the empty string.
    pub strict: bool,
    /// Upper bound for the output and for any intermediate value, in bytes. Exceeding it gives
    /// [`Error::OutputTooLarge`] (replacements such as `${v//${empty}/long}` multiply sizes).
    pub max_output_bytes: usize,
    /// The run's budget: the values substituted count against it (the text around them is
    /// the input's own), and so do the nodes the substituted text's aliases expand to. The
    /// default never runs out.
    pub budget: tailor_go::Budget,
}

impl Default for Options {
    /// Strict, as Flux ≥ v1.9 is by default, with a 64 MiB output limit.
    fn default() -> Self {
        Options {
            strict: true,
            max_output_bytes: DEFAULT_MAX_OUTPUT_BYTES,
            budget: tailor_go::Budget::unlimited(),
        }
    }
}

/// Substitutes every `${...}` expression in `text` (Flux's `envsubst.Eval`).
///
/// The whole text is parsed before anything is evaluated, so a malformed expression anywhere
/// fails the call even if the error is after a strict-mode miss. `lookup` is called once per
/// expression, after that expression's arguments have been evaluated.
///
/// Fails with [`Error::InvalidUtf8`] when byte-wise slicing (`${u:0:2}`) cut a character; use
/// [`substitute_bytes`] to get Go's exact bytes instead.
pub fn substitute(text: &str, lookup: &Lookup<'_>, opts: &Options) -> Result<String, Error> {
    let bytes = substitute_bytes(text, lookup, opts)?;
    String::from_utf8(bytes).map_err(|e| Error::InvalidUtf8 {
        valid_up_to: e.utf8_error().valid_up_to(),
    })
}

/// Like [`substitute`], returning the raw bytes Go would produce, which may be invalid UTF-8.
pub fn substitute_bytes(text: &str, lookup: &Lookup<'_>, opts: &Options) -> Result<Vec<u8>, Error> {
    // Every expression, and the `$$` escape, starts with `$`: text without one is all literal.
    // Most resources a Flux postBuild passes through are such text.
    if !text.contains('$') && text.len() <= opts.max_output_bytes {
        return Ok(text.as_bytes().to_vec());
    }
    let nodes = parse::parse(text)?;
    eval::Evaluator { lookup, opts }.eval(&nodes)
}

/// The names of the variables `text`'s expressions look up, nested ones included (envsubst
/// has no indirect names, so these are all it can read); `None` when it does not parse (its
/// error is then the same whatever the variables).
pub fn variable_names(text: &str) -> Option<std::collections::BTreeSet<String>> {
    let mut names = std::collections::BTreeSet::new();
    if !text.contains('$') {
        return Some(names);
    }
    let mut pending: Vec<&parse::Node> = Vec::new();
    let nodes = parse::parse(text).ok()?;
    pending.extend(nodes.iter());
    while let Some(node) = pending.pop() {
        if let parse::Node::Func(f) = node {
            names.insert(f.param.clone());
            pending.extend(f.args.iter());
        }
    }
    Some(names)
}

#[cfg(test)]
mod tests;
