//! One error type for the whole crate: every failure names the field it is about.

use std::fmt;

/// An error about one field of an input object, e.g.
/// `clusterSelector.matchExpressions[0].operator: unsupported operator "Foo"`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldError {
    /// Dotted path of the offending field (`spec.cluster.labels.env`); may be empty.
    pub field: String,
    /// What is wrong with it.
    pub message: String,
}

impl FieldError {
    /// An error about `field`.
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        FieldError {
            field: field.into(),
            message: message.into(),
        }
    }

    /// The same error, with `prefix` put in front of its field path
    /// (used when a nested parser reports relative to its own root).
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
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.field.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.field, self.message)
        }
    }
}

impl std::error::Error for FieldError {}

/// Errors from label selectors (object or string form).
pub type SelectorError = FieldError;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_with_and_without_field() {
        assert_eq!(FieldError::new("a.b", "bad").to_string(), "a.b: bad");
        assert_eq!(FieldError::new("", "bad").to_string(), "bad");
    }

    #[test]
    fn within_prefixes_paths() {
        assert_eq!(FieldError::new("x", "m").within("spec").field, "spec.x");
        assert_eq!(
            FieldError::new("[0]", "m").within("items").field,
            "items[0]"
        );
        assert_eq!(FieldError::new("", "m").within("spec").field, "spec");
        assert_eq!(FieldError::new("x", "m").within("").field, "x");
    }
}
