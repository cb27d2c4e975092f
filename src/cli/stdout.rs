//! Standard output with every write checked. `print!` panics on a write error and a
//! `let _ = out.write_all(..)` hides it: either way a full disk or `/dev/full` behind
//! `tailor ... > out.yaml` would leave a truncated file and exit 0. Every byte tailor writes to
//! stdout goes through [`Stdout`], and its [`Stdout::finish`] decides the exit code:
//!
//! - a write error names the stream (an `anyhow` context, as ripgrep's errors name theirs)
//!   and the exit code is 1;
//! - a closed pipe (`tailor ... | head -1`, EPIPE) ends the output quietly with exit code 141,
//!   what a shell reports for a program killed by SIGPIPE (`cat`, `kubectl` and `kustomize`
//!   end so): the output is incomplete, so it is never 0, and `set -o pipefail` treats tailor
//!   as it treats them.

use std::io::{self, BufWriter, StdoutLock, Write};

/// The exit code after a closed pipe cut the output short: 128 + SIGPIPE (13).
pub const BROKEN_PIPE_EXIT: i32 = 141;

/// Buffered stdout that remembers its first write error (the writers that write to it may
/// drop the error they get; this one keeps it for [`Stdout::finish`]).
pub struct Stdout {
    inner: BufWriter<StdoutLock<'static>>,
    error: Option<io::Error>,
}

impl Stdout {
    pub fn new() -> Stdout {
        Stdout {
            inner: BufWriter::with_capacity(1 << 16, io::stdout().lock()),
            error: None,
        }
    }

    fn keep<T>(&mut self, result: io::Result<T>) -> io::Result<T> {
        if let Err(e) = &result {
            if self.error.is_none() {
                self.error = Some(io::Error::new(e.kind(), e.to_string()));
            }
        }
        result
    }

    /// Flushes, and the exit code of a run that would exit with `code` had stdout taken
    /// everything: [`outcome_code`].
    pub fn finish(mut self, code: i32) -> i32 {
        let flushed = self.inner.flush();
        let flushed = self.keep(flushed);
        let error = self.error.take().or(flushed.err());
        let error = error.map(|e| anyhow::Error::new(e).context("writing stdout"));
        outcome_code(code, error.as_ref(), &mut io::stderr().lock())
    }
}

impl Default for Stdout {
    fn default() -> Stdout {
        Stdout::new()
    }
}

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.error.is_some() {
            // Nothing after the first error: a later write could land after a gap.
            return Err(io::Error::other("stdout failed earlier"));
        }
        let written = self.inner.write(buf);
        self.keep(written)
    }

    fn flush(&mut self) -> io::Result<()> {
        let flushed = self.inner.flush();
        self.keep(flushed)
    }
}

/// The exit code of a run that would exit with `code`, after stdout failed with `error` (its
/// context names the stream): 1 with the message on `stderr`, [`BROKEN_PIPE_EXIT`] quietly
/// for a closed pipe, `code` when nothing failed.
pub fn outcome_code(code: i32, error: Option<&anyhow::Error>, stderr: &mut dyn Write) -> i32 {
    let Some(e) = error else {
        return code;
    };
    if is_broken_pipe(e) {
        return BROKEN_PIPE_EXIT;
    }
    let _ = writeln!(stderr, "tailor: {e:#}");
    1
}

/// Whether `error` comes from a pipe its reader closed (ripgrep tells it the same way).
fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error
        .chain()
        .filter_map(|e| e.downcast_ref::<io::Error>())
        .any(|e| e.kind() == io::ErrorKind::BrokenPipe)
}

/// Writes `text` to stdout: the exit code of a run that would exit with `code`.
pub fn emit(text: &str, code: i32) -> i32 {
    emit_with(code, |out| out.write_all(text.as_bytes()))
}

/// Streams what `write` writes to stdout (the whole text is never held): the exit code of a
/// run that would exit with `code`.
pub fn emit_with(code: i32, write: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> i32 {
    let mut out = Stdout::new();
    // The error, if any, is kept by `out` and reported by `finish`.
    let _ = write(&mut out);
    out.finish(code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_write_error_names_stdout_and_fails() {
        let mut err = Vec::new();
        let full = anyhow::Error::new(io::Error::from_raw_os_error(28)).context("writing stdout");
        assert_eq!(outcome_code(0, Some(&full), &mut err), 1);
        let said = String::from_utf8(err).unwrap();
        assert!(said.starts_with("tailor: writing stdout: No space left on device"));
    }

    #[test]
    fn a_closed_pipe_is_quiet_and_never_zero() {
        let mut err = Vec::new();
        let pipe = anyhow::Error::new(io::Error::from(io::ErrorKind::BrokenPipe))
            .context("writing stdout");
        assert_eq!(outcome_code(0, Some(&pipe), &mut err), BROKEN_PIPE_EXIT);
        assert!(err.is_empty());
        assert_eq!(outcome_code(1, None, &mut err), 1);
    }
}
