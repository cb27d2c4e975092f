//! Errors, displayed with the exact text fluxcd/pkg envsubst produces.

use std::fmt;

/// Why a substitution failed.
///
/// The first six variants print exactly what Flux prints (the controller then wraps them as
/// `envsubst error: variable substitution failed: <this>`, see [`crate::envsubst::flux`]). The last three
/// are where this port has to stop where Go would not (a Go panic, an unbounded stack, an
/// unbounded buffer, or bytes that cannot become a Rust `String`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// `bad substitution`
    BadSubstitution,
    /// `missing closing brace`
    MissingClosingBrace,
    /// `unable to parse variable name`
    ParseVariableName,
    /// `unable to parse substitution within function`
    ParseFuncSubstitution,
    /// `unable to parse default function` (kept for completeness; the grammar cannot reach it)
    ParseDefaultFunction,
    /// `variable not set (strict mode): "NAME"` (the name is Go-`%q`-quoted)
    VariableNotSet(String),
    /// A substring with a negative length, e.g. `${s:1:${n}}` with n=-2. Go panics here
    /// (`runtime error: slice bounds out of range [...]`) and the controller does not recover;
    /// the port reports the panic text as an error instead.
    SliceOutOfRange {
        /// Start offset (absent when Go reports only the end, i.e. a negative end)
        low: Option<i64>,
        /// End offset
        high: i64,
    },
    /// Expressions nested deeper than [`crate::envsubst::MAX_NESTING`] (`${a:=${b:=${c:=...}}}`).
    NestingTooDeep {
        /// The limit that was exceeded
        limit: usize,
    },
    /// The result (or an intermediate value) grew past [`crate::envsubst::Options::max_output_bytes`].
    OutputTooLarge {
        /// The limit that was exceeded
        limit: usize,
    },
    /// The run's budget for generated text ([`crate::envsubst::Options::budget`]) ran out.
    RunBudget(tailor_go::budget::Exceeded),
    /// The output is not UTF-8: byte-wise slicing (`${u:0:2}` on `héllo`) cut a character.
    /// Flux would fail later when parsing the YAML; [`crate::envsubst::substitute_bytes`] returns the bytes.
    InvalidUtf8 {
        /// Byte offset of the first invalid sequence
        valid_up_to: usize,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::BadSubstitution => f.write_str("bad substitution"),
            Error::MissingClosingBrace => f.write_str("missing closing brace"),
            Error::ParseVariableName => f.write_str("unable to parse variable name"),
            Error::ParseFuncSubstitution => {
                f.write_str("unable to parse substitution within function")
            }
            Error::ParseDefaultFunction => f.write_str("unable to parse default function"),
            Error::VariableNotSet(name) => {
                write!(
                    f,
                    "variable not set (strict mode): {}",
                    tailor_go::strconv::quote(name)
                )
            }
            Error::SliceOutOfRange {
                low: Some(low),
                high,
            } => {
                write!(f, "runtime error: slice bounds out of range [{low}:{high}]")
            }
            Error::SliceOutOfRange { low: None, high } => {
                write!(f, "runtime error: slice bounds out of range [:{high}]")
            }
            Error::RunBudget(e) => e.fmt(f),
            Error::NestingTooDeep { limit } => {
                write!(f, "expressions nested deeper than {limit} levels")
            }
            Error::OutputTooLarge { limit } => {
                write!(f, "substitution output exceeds the limit of {limit} bytes")
            }
            Error::InvalidUtf8 { valid_up_to } => write!(
                f,
                "substitution output is not valid UTF-8 (at byte {valid_up_to})"
            ),
        }
    }
}

impl std::error::Error for Error {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_match_flux() {
        assert_eq!(
            Error::VariableNotSet("missing".into()).to_string(),
            "variable not set (strict mode): \"missing\""
        );
        assert_eq!(Error::BadSubstitution.to_string(), "bad substitution");
        assert_eq!(
            Error::SliceOutOfRange {
                low: Some(4),
                high: 2
            }
            .to_string(),
            "runtime error: slice bounds out of range [4:2]"
        );
        assert_eq!(
            Error::SliceOutOfRange {
                low: None,
                high: -1
            }
            .to_string(),
            "runtime error: slice bounds out of range [:-1]"
        );
    }
}
