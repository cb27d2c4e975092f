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
}

impl Error {
    pub fn new(message: impl Into<String>) -> Error {
        Error {
            message: message.into(),
            field: None,
        }
    }

    /// An error about the configuration field `field`: the message is `field: what`.
    pub fn at(field: impl Into<String>, what: impl fmt::Display) -> Error {
        let field = field.into();
        Error {
            message: format!("{field}: {what}"),
            field: Some(field),
        }
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
