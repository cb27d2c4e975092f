//! The Go runtime behaviour tailor's upstreams inherit, in one place: wherever an upstream's
//! answer depends on how Go quotes, decodes, classifies or matches text, tailor asks this
//! crate, so each Go quirk has one implementation.
//!
//! - [`base64`]: `encoding/base64` as Kubernetes clients decode `[]byte` fields;
//! - [`path`]: `path.Clean` on slash paths and `path.Match` (`.fleetignore` patterns);
//! - [`strconv`]: `Quote` (Go's `%q`), `QuoteRune`, `Unquote`, `Atoi`, and Go's number
//!   parsing and formatting;
//! - [`utf8`]: decoding byte strings that may hold invalid UTF-8, as `utf8.DecodeRune` does;
//! - [`unicode`]: `IsLetter`, `IsDigit`, `IsPrint`, simple case mapping, and
//!   `go/token.IsIdentifier`, from generated general-category tables;
//! - [`strings`]: the `strings` functions envsubst's filters use;
//! - [`regexp`]: Go's RE2 dialect and error texts on the `regex` crate;
//! - [`template`]: Go 1.19's `text/template`, byte for byte (KubeStellar's template
//!   expansion), with other delimiters and a sprig subset for Fleet's values templating.
//!
//! ```
//! assert_eq!(tailor_go::strconv::quote("a\u{7}b\"é"), r#""a\ab\"é""#);
//! assert!(tailor_go::unicode::is_identifier("clusterName"));
//! assert!(!tailor_go::unicode::is_identifier("location-group"));
//! let re = tailor_go::regexp::compile_anchored(r"web-\d+").unwrap();
//! assert!(re.is_match("web-12") && !re.is_match("my-web-12"));
//! ```

pub mod base64;
pub mod budget;
pub mod path;
pub mod regexp;
pub mod strconv;
pub mod strings;
pub mod template;
pub mod unicode;
mod unicode_tables;
pub mod utf8;

pub use budget::Budget;
pub use template::{
    DataReads, Dict, Error, ErrorKind, ExecOptions, MissingKey, Syntax, Template, Value,
    MAX_PARSE_DEPTH, SPRIG_IMPLEMENTED,
};
