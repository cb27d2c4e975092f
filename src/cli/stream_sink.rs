//! Stream output of a fan-out: each destination's copies go to stdout as soon as the
//! destination is finished, in destination order, so memory holds the input and a few
//! destinations rather than every copy. A pipe cannot take back what it was given: when a
//! destination fails, the destinations before it are already written, and the run ends with
//! the error result and exit code 1 (`-o resource-list` and `--output-dir` are all or nothing).

use super::stdout::Stdout;
use tailor_kio::package::Passed;
use tailor_kio::run::FanOutSink;
use tailor_kio::write::{StreamDoc, StreamWriter};
use tailor_kio::Resource;

use super::standalone::Rendered;

/// A sink for stream output, when nothing passed through as read must go between the copies
/// (files are passed through only when no object is copied; checked all the same).
pub fn for_stream(passed: &Passed) -> Option<StdoutSink> {
    passed.files().is_empty().then(StdoutSink::default)
}

/// Drops the error result of a failed write of stdout from `rendered`'s results:
/// [`StdoutSink::finish`] reports it (quietly for a closed pipe, as every write of stdout).
pub(super) fn drop_write_error(rendered: &mut Rendered) {
    let Some(message) = rendered.stdout.as_ref().and_then(StdoutSink::write_error) else {
        return;
    };
    let message = message.to_string();
    rendered.outcome.results.retain(|r| r.message != message);
}

/// Streams a fan-out's destinations to stdout.
#[derive(Default)]
pub struct StdoutSink {
    stream: Option<StreamWriter<Stdout>>,
    /// The message the run failed with when stdout refused a write.
    write_error: Option<String>,
}

impl StdoutSink {
    /// Whether the fan-out wrote its destinations here: the rest of the stream follows them
    /// ([`StdoutSink::finish`]).
    pub fn streamed(&self) -> bool {
        self.stream.is_some()
    }

    /// The error result a failed write of stdout gave the run.
    fn write_error(&self) -> Option<&str> {
        self.write_error.as_deref()
    }

    /// Writes the documents that follow the destinations (none when the run failed) and
    /// flushes: the exit code of a run that would exit with `code`.
    pub fn finish<'a>(self, rest: impl IntoIterator<Item = StreamDoc<'a>>, code: i32) -> i32 {
        let Some(mut stream) = self.stream else {
            return code;
        };
        // A failed write is kept by the Stdout, whose `finish` reports it.
        let _ = stream.write_docs(rest);
        let (out, _) = stream.into_writer();
        out.finish(code)
    }
}

impl FanOutSink for StdoutSink {
    fn begin(&mut self, _destinations: &[&str], _staying: &[&Resource]) -> Result<bool, String> {
        // What is written once (inputs that come back) follows every copy, as when held.
        self.stream = Some(StreamWriter::new(Stdout::new()));
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
