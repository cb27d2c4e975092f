//! What kustomize-controller does around `envsubst` for each resource (fluxcd/pkg
//! `kustomize/kustomize_varsub.go`, `SubstituteVariables`), minus the YAML handling, which
//! belongs to the caller.
//!
//! Per resource, in this order (`docs/semantics/flux.md` §2.1–2.5):
//! 1. Skip the resource, untouched and without a YAML round trip, when its label **or**
//!    annotation [`SUBSTITUTE_KEY`] is exactly [`DISABLED_VALUE`] ([`is_disabled`]).
//! 2. Build [`Vars`]: `substituteFrom` sources in list order ([`Vars::add_source`], later
//!    sources overwrite earlier ones; Secret `.data` decoded with [`decode_secret_value`]),
//!    then inline `substitute` ([`Vars::set_inline`], which always wins). Every value loses
//!    its `\n` characters.
//! 3. Run only if [`Vars::should_run`]: at least one variable, or `substituteStrategy: Always`.
//!    Otherwise the resource is untouched (no `$$` unescaping either).
//! 4. [`Vars::substitute_text`] on the resource's YAML text as Flux prints it (keys sorted,
//!    yaml.v2 quoting, comments gone, long lines folded at 80 columns). This checks every
//!    variable name first, used or not, then evaluates.
//! 5. Re-read the output as YAML 1.1 and convert through JSON (numbers become float64); its
//!    errors read `envsubst error: YAMLToJSON: <err>` ([`yaml_to_json_error`]).
//! 6. Wrap any error with [`post_build_error`].

use std::collections::BTreeMap;
use std::fmt;

use crate::envsubst::error::Error;
use crate::envsubst::{substitute, Options};

/// Label and annotation key that turns substitution off for one resource.
pub const SUBSTITUTE_KEY: &str = "kustomize.toolkit.fluxcd.io/substitute";
/// The only value of [`SUBSTITUTE_KEY`] that disables substitution (case-sensitive).
pub const DISABLED_VALUE: &str = "disabled";
/// The pattern Flux checks variable names against, as it prints it in errors. Go's RE2 classes
/// are ASCII-only, so it means `[_A-Za-z][_A-Za-z0-9]*`.
pub const VAR_NAME_PATTERN: &str = "^[_[:alpha:]][_[:alpha:][:digit:]]*$";

/// Whether a resource opted out: pass the value of [`SUBSTITUTE_KEY`] in its labels and in its
/// annotations (post-build metadata, i.e. after patches and commonLabels).
pub fn is_disabled(label: Option<&str>, annotation: Option<&str>) -> bool {
    label == Some(DISABLED_VALUE) || annotation == Some(DISABLED_VALUE)
}

/// Whether `name` is acceptable as a `substitute`/`substituteFrom` key.
pub fn is_valid_var_name(name: &str) -> bool {
    let mut bytes = name.bytes();
    match bytes.next() {
        Some(b) if b == b'_' || b.is_ascii_alphabetic() => {}
        _ => return false,
    }
    bytes.all(|b| b == b'_' || b.is_ascii_alphanumeric())
}

/// Checks one variable name, with Flux's error.
pub fn check_var_name(name: &str) -> Result<(), InvalidVarName> {
    if is_valid_var_name(name) {
        Ok(())
    } else {
        Err(InvalidVarName(name.to_string()))
    }
}

/// A variable name Flux rejects. Displays as
/// `'<key>' var name is invalid, must match '^[_[:alpha:]][_[:alpha:][:digit:]]*$'`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidVarName(pub String);

impl fmt::Display for InvalidVarName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}' var name is invalid, must match '{}'",
            self.0, VAR_NAME_PATTERN
        )
    }
}

impl std::error::Error for InvalidVarName {}

/// The variables of one Kustomization's `postBuild`, with Flux's precedence: inline
/// `substitute` over every `substituteFrom` source, and later sources over earlier ones.
///
/// The layers are kept apart so the precedence holds whatever order the caller fills them in.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Vars {
    from_sources: BTreeMap<String, String>,
    inline: BTreeMap<String, String>,
}

fn strip_newlines(v: &str) -> String {
    // Only `\n`: Flux keeps `\r` and tabs.
    v.replace('\n', "")
}

impl Vars {
    /// No variables.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds one `substituteFrom` entry's data (ConfigMap `.data`, or Secret `.data` decoded),
    /// overwriting keys from earlier entries. Call in list order. Missing optional sources are
    /// skipped by the caller; ConfigMap `binaryData` is not used by Flux.
    pub fn add_source<K, V>(&mut self, data: impl IntoIterator<Item = (K, V)>)
    where
        K: Into<String>,
        V: AsRef<str>,
    {
        for (k, v) in data {
            self.from_sources
                .insert(k.into(), strip_newlines(v.as_ref()));
        }
    }

    /// Sets `spec.postBuild.substitute`; these override every source.
    pub fn set_inline<K, V>(&mut self, data: impl IntoIterator<Item = (K, V)>)
    where
        K: Into<String>,
        V: AsRef<str>,
    {
        for (k, v) in data {
            self.inline.insert(k.into(), strip_newlines(v.as_ref()));
        }
    }

    /// The effective value of `name`.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.inline
            .get(name)
            .or_else(|| self.from_sources.get(name))
            .map(String::as_str)
    }

    /// All effective variable names, sorted.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        let mut names: Vec<&str> = self
            .inline
            .keys()
            .chain(
                self.from_sources
                    .keys()
                    .filter(|k| !self.inline.contains_key(*k)),
            )
            .map(String::as_str)
            .collect();
        names.sort_unstable();
        names.into_iter()
    }

    /// Number of distinct variables (a key with an empty value counts).
    pub fn len(&self) -> usize {
        self.names().count()
    }

    /// Whether there are no variables at all.
    pub fn is_empty(&self) -> bool {
        self.inline.is_empty() && self.from_sources.is_empty()
    }

    /// Flux runs substitution only with at least one variable, or with
    /// `substituteStrategy: Always`.
    pub fn should_run(&self, always: bool) -> bool {
        always || !self.is_empty()
    }

    /// Checks every name, used or not. Flux reports the first bad key in Go map order (random);
    /// this reports the first in sorted order.
    pub fn validate_names(&self) -> Result<(), InvalidVarName> {
        self.names().try_for_each(check_var_name)
    }

    /// Substitutes one resource's YAML text the way the controller does: validate names, then
    /// evaluate with Flux's mapper (strict: known names only; otherwise unknown reads as "").
    pub fn substitute_text(&self, text: &str, opts: &Options) -> Result<String, SubstituteError> {
        self.validate_names()
            .map_err(SubstituteError::InvalidVarName)?;
        let lookup = |name: &str| self.get(name).map(str::to_string);
        substitute(text, &lookup, opts).map_err(SubstituteError::Eval)
    }
}

/// A failed [`Vars::substitute_text`], displayed with the controller's wrapping:
/// `envsubst error: '<key>' var name is invalid, ...` or
/// `envsubst error: variable substitution failed: <err>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SubstituteError {
    /// A variable name failed [`check_var_name`].
    InvalidVarName(InvalidVarName),
    /// The text failed to parse or evaluate.
    Eval(Error),
}

impl fmt::Display for SubstituteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SubstituteError::InvalidVarName(e) => write!(f, "envsubst error: {e}"),
            SubstituteError::Eval(e) => {
                write!(f, "envsubst error: variable substitution failed: {e}")
            }
        }
    }
}

impl std::error::Error for SubstituteError {}

/// The message for a failed re-read of the substituted YAML (`yaml: line 4: did not find
/// expected key`, `json: unsupported value: +Inf`, ...).
pub fn yaml_to_json_error(err: &str) -> String {
    format!("envsubst error: YAMLToJSON: {err}")
}

/// The controller's per-resource wrapper:
/// `post build failed for '<Kind>.<version>.<group>/<name>': <err>`, empty parts printed as
/// `[noKind]`, `[noVer]`, `[noGrp]` (kustomize's `Gvk.String`).
pub fn post_build_error(
    group: &str,
    version: &str,
    kind: &str,
    name: &str,
    err: &dyn fmt::Display,
) -> String {
    let or = |s: &str, empty: &'static str| {
        if s.is_empty() {
            empty.to_string()
        } else {
            s.to_string()
        }
    };
    format!(
        "post build failed for '{}.{}.{}/{}': {}",
        or(kind, "[noKind]"),
        or(version, "[noVer]"),
        or(group, "[noGrp]"),
        name,
        err
    )
}

/// Decodes one Secret `.data` value as the API client does (standard base64 with padding,
/// `\r`/`\n` ignored). Go then uses the bytes as a string; bytes that are not UTF-8 are
/// replaced by U+FFFD here (Flux would only fail later, when such a value is substituted).
/// Go's `base64.CorruptInputError`: `illegal base64 data at input byte N`.
pub type Base64Error = tailor_go::base64::CorruptInputError;

pub fn decode_secret_value(b64: &str) -> Result<String, Base64Error> {
    let bytes = tailor_go::base64::decode_std(b64.as_bytes())?;
    Ok(String::from_utf8(bytes)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        for ok in ["a", "_", "A_1", "cluster_env", "_9"] {
            assert!(is_valid_var_name(ok), "{ok}");
        }
        for bad in ["", "1a", "my-key", "a.b", "über", "a b", "a٣"] {
            assert!(!is_valid_var_name(bad), "{bad}");
        }
        assert_eq!(
            check_var_name("my-key").unwrap_err().to_string(),
            "'my-key' var name is invalid, must match '^[_[:alpha:]][_[:alpha:][:digit:]]*$'"
        );
    }

    #[test]
    fn disabled() {
        assert!(is_disabled(Some("disabled"), None));
        assert!(is_disabled(None, Some("disabled")));
        assert!(!is_disabled(Some("Disabled"), Some("true")));
    }

    #[test]
    fn precedence() {
        let mut vars = Vars::new();
        vars.set_inline([("a", "inline")]);
        vars.add_source([("a", "cm1"), ("b", "cm1"), ("c", "x\ny\r")]);
        vars.add_source([("b", "cm2")]);
        assert_eq!(vars.get("a"), Some("inline"));
        assert_eq!(vars.get("b"), Some("cm2"));
        assert_eq!(vars.get("c"), Some("xy\r"));
        assert_eq!(vars.len(), 3);
        assert!(vars.should_run(false));
        assert!(!Vars::new().should_run(false));
        assert!(Vars::new().should_run(true));
    }

    #[test]
    fn every_name_is_checked() {
        let mut vars = Vars::new();
        vars.add_source([("my-key", "unused"), ("ok", "v")]);
        let err = vars
            .substitute_text("a: ${ok}", &Options::default())
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "envsubst error: 'my-key' var name is invalid, must match '^[_[:alpha:]][_[:alpha:][:digit:]]*$'"
        );
    }

    #[test]
    fn wrapped_errors() {
        let mut vars = Vars::new();
        vars.set_inline([("other", "o")]);
        let err = vars
            .substitute_text("m: ${missing}", &Options::default())
            .unwrap_err();
        let msg = post_build_error("", "v1", "ConfigMap", "cm", &err);
        assert_eq!(
            msg,
            "post build failed for 'ConfigMap.v1.[noGrp]/cm': envsubst error: variable substitution failed: variable not set (strict mode): \"missing\""
        );
        assert_eq!(
            yaml_to_json_error("json: unsupported value: +Inf"),
            "envsubst error: YAMLToJSON: json: unsupported value: +Inf"
        );
    }

    #[test]
    fn base64() {
        // Go's decoding and its errors are tailor_go::base64's; this checks the text.
        assert_eq!(decode_secret_value("cHJvZA==").unwrap(), "prod");
        assert_eq!(
            decode_secret_value("YQ=").unwrap_err().to_string(),
            "illegal base64 data at input byte 3"
        );
    }
}
