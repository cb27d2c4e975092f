//! The one error type of the crate's three modules.

use std::fmt;

/// A replacement, patch or transformer error. `Display` is kustomize's message; it names the
/// resource and the field where it can.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    message: String,
    /// The configuration field it is about (`spec.images[2].newTag`), when it is about one;
    /// the message then starts with it.
    field: Option<String>,
    /// The entry of a `replacements` list it came from.
    replacement: Option<usize>,
}

impl Error {
    pub fn new(message: impl Into<String>) -> Error {
        Error {
            message: message.into(),
            field: None,
            replacement: None,
        }
    }

    /// An error about the configuration field `field`: the message is `field: what`.
    pub fn at(field: impl Into<String>, what: impl fmt::Display) -> Error {
        let field = field.into();
        Error {
            message: format!("{field}: {what}"),
            field: Some(field),
            replacement: None,
        }
    }

    /// The error came from the replacement at `index` of the list.
    pub fn in_replacement(mut self, index: usize) -> Error {
        self.replacement = Some(index);
        self
    }

    /// The index of the replacement that failed, when one did (a later check of every
    /// written resource names none).
    pub fn replacement(&self) -> Option<usize> {
        self.replacement
    }

    pub fn message(&self) -> &str {
        &self.message
    }

    /// The configuration field the error is about, for errors made by [`Error::at`].
    pub fn field(&self) -> Option<&str> {
        self.field.as_deref()
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}
