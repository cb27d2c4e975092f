//! The one diagnostic type: a message, how severe it is, and the field it is about. Every
//! crate reports problems with a field as a [`Diagnostic`]; the binary turns it into a KRM
//! result in one place.

use std::fmt;

/// How bad a diagnostic is, in the KRM results' vocabulary.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Error,
    Warning,
    Info,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

/// A message about one field of the input, e.g.
/// `clusterSelector.matchExpressions[0].operator: unsupported operator "Foo"`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    /// Dotted path of the field (`spec.cluster.labels.env`); empty when it is about no field.
    pub field: String,
    pub message: String,
}

/// An error about a field: the name most parsers use for a [`Diagnostic`].
pub type FieldError = Diagnostic;

impl Diagnostic {
    /// An error about `field`.
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Error,
            field: field.into(),
            message: message.into(),
        }
    }

    pub fn error(message: impl Into<String>) -> Self {
        Diagnostic::new("", message)
    }

    pub fn warning(message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(message)
        }
    }

    pub fn info(message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Info,
            ..Diagnostic::error(message)
        }
    }

    /// The same diagnostic about `field`.
    pub fn at(mut self, field: impl Into<String>) -> Self {
        self.field = field.into();
        self
    }

    /// The same diagnostic about `field`, when there is one.
    pub fn at_opt(self, field: Option<String>) -> Self {
        match field {
            Some(f) => self.at(f),
            None => self,
        }
    }

    /// The same diagnostic with `prefix` put in front of its field path (a nested parser
    /// reports relative to its own root: `[0].name` within `spec.clusters`).
    pub fn within(mut self, prefix: &str) -> Self {
        if prefix.is_empty() {
            return self;
        }
        self.field = if self.field.is_empty() {
            prefix.to_string()
        } else if self.field.starts_with('[') {
            format!("{prefix}{}", self.field)
        } else {
            format!("{prefix}.{}", self.field)
        };
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.field.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.field, self.message)
        }
    }
}

impl std::error::Error for Diagnostic {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_with_and_without_field() {
        assert_eq!(Diagnostic::new("a.b", "bad").to_string(), "a.b: bad");
        assert_eq!(Diagnostic::new("", "bad").to_string(), "bad");
        assert_eq!(Diagnostic::warning("w").severity, Severity::Warning);
    }

    #[test]
    fn within_prefixes_paths() {
        assert_eq!(Diagnostic::new("x", "m").within("spec").field, "spec.x");
        assert_eq!(
            Diagnostic::new("[0]", "m").within("items").field,
            "items[0]"
        );
        assert_eq!(Diagnostic::new("", "m").within("spec").field, "spec");
        assert_eq!(Diagnostic::new("x", "m").within("").field, "x");
    }
}
