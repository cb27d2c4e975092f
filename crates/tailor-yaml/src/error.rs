use std::fmt;

/// A YAML syntax or conversion error, with go-yaml's wording and a 1-based position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    pub message: String,
    pub line: usize,
    pub column: usize,
}

impl Error {
    pub fn new(message: impl Into<String>, line: usize, column: usize) -> Error {
        Error {
            message: message.into(),
            line,
            column,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line > 0 {
            write!(f, "yaml: line {}: {}", self.line, self.message)
        } else {
            write!(f, "yaml: {}", self.message)
        }
    }
}

impl std::error::Error for Error {}
