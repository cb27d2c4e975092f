use std::fmt;

/// A YAML syntax or conversion error, with go-yaml's wording and the line go-yaml names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    pub message: String,
    /// The line go-yaml v3 names in its message (`yaml: line N: ...`), 0 when it names none.
    /// For libyaml's scanner and parser errors that is not always the problem's line: see
    /// [`Error::libyaml`].
    pub line: usize,
    /// 1-based column of the problem, in bytes.
    pub column: usize,
    /// 1-based line of the problem.
    pub problem_line: usize,
    stage: Stage,
    /// 0-based line of libyaml's context mark (0 also when there is none, as in libyaml).
    context_line0: usize,
}

/// Which part of libyaml refused the input: go-yaml counts the line of each differently.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// The tokenizer (`yaml_parser_set_scanner_error`).
    Scanner,
    /// The grammar (`yaml_parser_set_parser_error[_context]`).
    Parser,
    /// Anything else: the error names its own line.
    Other,
}

impl Error {
    /// An error that names `line` (1-based, 0 for none) and `column` as they are.
    pub fn new(message: impl Into<String>, line: usize, column: usize) -> Error {
        Error {
            message: message.into(),
            line,
            column,
            problem_line: line,
            stage: Stage::Other,
            context_line0: 0,
        }
    }

    /// One of libyaml's errors, at the 0-based `problem` (line, column) with the 0-based line
    /// of the context mark libyaml sets (the start of the node, key or collection being read;
    /// `None` where libyaml sets none). go-yaml's `parser.fail` names the context's line when it
    /// is not the first, else the problem's; those are libyaml's 0-based lines, which a scanner
    /// error (and only it) turns 1-based. So a parser error names the line *before* the
    /// context mark's, and none at all on the first two lines.
    pub fn libyaml(
        stage: Stage,
        message: impl Into<String>,
        problem: (usize, usize),
        context_line0: Option<usize>,
    ) -> Error {
        let mut e = Error {
            message: message.into(),
            line: 0,
            column: problem.1 + 1,
            problem_line: problem.0 + 1,
            stage,
            context_line0: context_line0.unwrap_or(0),
        };
        e.line = e.goyaml_v3_line();
        e
    }

    /// The same libyaml error raised while reading a token that starts on 0-based line
    /// `context_line0` (a quoted or block scalar refusing something inside it).
    pub(crate) fn in_context(mut self, context_line0: usize) -> Error {
        if self.stage != Stage::Other {
            self.context_line0 = context_line0;
            self.line = self.goyaml_v3_line();
        }
        self
    }

    fn goyaml_v3_line(&self) -> usize {
        let base = if self.context_line0 != 0 {
            self.context_line0
        } else {
            self.problem_line - 1
        };
        match (self.stage, base) {
            (_, 0) => 0,
            (Stage::Scanner, l) => l + 1,
            (_, l) => l,
        }
    }

    /// Which part of libyaml refused the input (`Other` for the rest).
    pub fn stage(&self) -> Stage {
        self.stage
    }

    /// The line yaml.v2 names for this error: its `parser.fail` looks at the problem's line
    /// first and the context's second, the reverse of go-yaml v3.
    pub fn yaml_v2_line(&self) -> usize {
        let problem0 = self.problem_line.saturating_sub(1);
        match self.stage {
            Stage::Other => self.line,
            Stage::Scanner if problem0 != 0 => problem0 + 1,
            Stage::Parser if problem0 != 0 => problem0,
            _ => self.context_line0,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_named_as_go_yaml_names_them() {
        // A parser error names the context's 0-based line: `metadata:\n  name: {a: b}-x`
        // fails at line index 1 in the mapping that starts there, which go-yaml calls line 1.
        let e = Error::libyaml(Stage::Parser, "did not find expected key", (1, 14), Some(1));
        assert_eq!(e.to_string(), "yaml: line 1: did not find expected key");
        assert_eq!((e.problem_line, e.column), (2, 15));
        // A scanner error counts from 1; a context on the first line gives way to the problem.
        let e = Error::libyaml(Stage::Scanner, "x", (4, 0), Some(0));
        assert_eq!(e.line, 5);
        let e = Error::libyaml(Stage::Scanner, "x", (4, 0), Some(2));
        assert_eq!(e.line, 3);
        // Nothing to name when both are on the first line, or the parser's on the second.
        assert_eq!(Error::libyaml(Stage::Scanner, "x", (0, 3), Some(0)).line, 0);
        assert_eq!(Error::libyaml(Stage::Parser, "x", (0, 3), None).line, 0);
        assert_eq!(Error::libyaml(Stage::Parser, "x", (3, 0), None).line, 3);
    }

    #[test]
    fn yaml_v2_names_the_problem_first() {
        let e = Error::libyaml(Stage::Parser, "x", (5, 0), Some(2));
        assert_eq!((e.line, e.yaml_v2_line()), (2, 5));
        let e = Error::libyaml(Stage::Scanner, "x", (5, 0), Some(2));
        assert_eq!((e.line, e.yaml_v2_line()), (3, 6));
        assert_eq!(Error::new("x", 7, 1).yaml_v2_line(), 7);
    }
}
