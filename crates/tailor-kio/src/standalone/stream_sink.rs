//! Stream output of a fan-out: each destination's copies go to stdout as soon as the
//! destination is finished, in destination order, so memory holds the input and a few
//! destinations rather than every copy. A pipe cannot take back what it was given: when a
//! destination fails, the destinations before it are already written, and the run ends with
//! the error result and exit code 1 (`-o resource-list` and `--output-dir` are all or nothing).

use std::cell::RefCell;
use std::io::{self, Write};

use crate::package::Passed;
use crate::run::FanOutSink;
use crate::write::{StreamDoc, StreamWriter};
use crate::Resource;

/// The session's stdout, shared by the fan-out's sink (which writes while the run goes on)
/// and the writing of what follows it; written by one of them at a time.
pub(super) type Out<'o> = RefCell<&'o mut dyn Write>;

/// A writer onto the shared stdout: each write borrows it for that write only.
struct Shared<'r, 'o>(&'r Out<'o>);

impl Write for Shared<'_, '_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.borrow_mut().write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.borrow_mut().flush()
    }
}

/// Streams a fan-out's destinations to stdout.
pub struct StreamSink<'r, 'o> {
    out: &'r Out<'o>,
    stream: Option<StreamWriter<Shared<'r, 'o>>>,
    /// The message the run failed with when stdout refused a write.
    write_error: Option<String>,
}

impl<'r, 'o> StreamSink<'r, 'o> {
    /// A sink for stream output, when nothing passed through as read must go between the
    /// copies (files are passed through only when no object is copied; checked all the same).
    pub(super) fn for_stream(out: &'r Out<'o>, passed: &Passed) -> Option<StreamSink<'r, 'o>> {
        passed.files().is_empty().then_some(StreamSink {
            out,
            stream: None,
            write_error: None,
        })
    }

    /// Whether the fan-out wrote its destinations here: the rest of the stream follows them
    /// ([`StreamSink::finish`]).
    pub(super) fn streamed(&self) -> bool {
        self.stream.is_some()
    }

    /// The error result a failed write of stdout gave the run: stdout's owner reports it
    /// (quietly for a closed pipe, as every write of stdout), so the run's results drop it.
    pub(super) fn write_error(&self) -> Option<&str> {
        self.write_error.as_deref()
    }

    /// Writes the documents that follow the destinations (none when the run failed) and
    /// flushes; `code` is the run's exit code, given back.
    pub(super) fn finish<'a>(
        self,
        rest: impl IntoIterator<Item = StreamDoc<'a>>,
        code: i32,
    ) -> i32 {
        if let Some(mut stream) = self.stream {
            // A failed write is kept by stdout's owner, which reports it.
            let _ = stream.write_docs(rest);
            let _ = stream.finish();
        }
        code
    }
}

impl FanOutSink for StreamSink<'_, '_> {
    fn begin(&mut self, _destinations: &[&str], _staying: &[&Resource]) -> Result<bool, String> {
        // What is written once (inputs that come back) follows every copy, as when held.
        self.stream = Some(StreamWriter::new(Shared(self.out)));
        Ok(true)
    }

    fn destination(&mut self, _destination: &str, copies: Vec<Resource>) -> Result<(), String> {
        let Some(stream) = &mut self.stream else {
            return Err("a destination came before the fan-out began".into());
        };
        // kubectl cannot apply a Kptfile, and kustomize drops local-config objects.
        let docs = copies.iter().filter(|c| !c.is_meta_or_local());
        stream.write_docs(docs.map(StreamDoc::Object)).map_err(|e| {
            let message = format!("writing stdout: {e}");
            self.write_error = Some(message.clone());
            message
        })
    }
}
