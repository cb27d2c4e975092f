//! Standalone mode's run, in one call: `tailor CONFIG [FILE|DIR|-]...` reads the CONFIG and
//! the inputs (plain YAML files, directories, stdin, a bundle directory the binary reads),
//! builds the job once (the command line's overrides and a bundle are inputs to building it),
//! runs it, and writes a stream, a ResourceList, or the files under `--output-dir`.
//!
//! - [`Session`]: what the command line asks (the binary turns argv into it);
//! - [`Plugin`]: what only the binary knows (how a functionConfig becomes a job, which
//!   directories are bundles and how they are read), so this crate names no upstream;
//! - [`run`]: read, run, write; [`render`]: read and run (`tailor diff` writes a diff).
//!
//! Each input file is read from disk once ([`crate::package::Texts`]), however many times its
//! objects are read (a run that must read them again without streaming, the objects as read
//! for a failed run's answer).

mod inputs;
mod output;
mod render;
mod stream_sink;

use std::path::{Path, PathBuf};

use tailor_yaml::ParseOptions;

use crate::job::Job;
use crate::package::Select;
use crate::{KrmResult, Resource};

pub use render::{Attempt, Opened, Rendered};
use stream_sink::StreamSink;

/// One standalone run, as the command line asks it.
#[derive(Clone, Debug)]
pub struct Session {
    /// The CONFIG file; `-` reads it from stdin.
    pub config: String,
    /// Files and directories to read, in order; `-` is stdin.
    pub inputs: Vec<String>,
    pub sink: Sink,
    pub overrides: Overrides,
}

/// Where the output goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Sink {
    /// Plain multi-document YAML on stdout, for kubectl.
    Stream,
    /// A ResourceList on stdout, each object annotated with its file as `kpt fn source` does.
    ResourceList,
    /// The files under `--output-dir dir` (`--clean`: an output of tailor's there is replaced).
    Dir { dir: PathBuf, clean: bool },
}

/// The command line's choices that go into building the job (never changed after).
#[derive(Clone, Debug, Default)]
pub struct Overrides {
    /// `--strict`: warnings are errors.
    pub strict: bool,
    /// `--explain`: report what each destination's run does instead of the objects.
    pub explain: bool,
    /// `--cluster NAME`: only this destination.
    pub cluster: Option<String>,
    /// `--shard K/N` (1-based).
    pub shard: Option<(usize, usize)>,
}

/// A job a functionConfig makes, or the error results of one it does not.
pub type Parsed<J> = Result<J, Vec<KrmResult>>;

/// Why the overrides and a bundle could not be built into the job.
pub enum Refused {
    /// A bad command line (`--cluster` names no destination of the job): exit code 2.
    Usage(String),
    /// The bundle clashes with the functionConfig: error results.
    Results(Vec<KrmResult>),
}

/// What the binary plugs into a standalone run: the job a functionConfig asks for, and the
/// inputs only it can read. Everything else (the reading policy, the files passed through,
/// reading again, writing) is decided here.
pub trait Plugin {
    type Job: Job;
    /// What a bundle directory adds to building the job (its own targets and overlays).
    type Bundle;
    /// What a bundle directory is, for the error when a run is given two.
    const BUNDLE: &'static str;

    /// The job the CONFIG text `config` asks for, before the overrides: how the inputs are
    /// read is decided from it. `Err` when the text is no single YAML object (the error names
    /// the file `name`, as [`crate::files::read_config_text`] does); a job the object does not
    /// make is its error results. The text is parsed once, so a plugin may drop the parts of
    /// the tree it has read (a fan-out's destinations) as they are parsed.
    fn parse(
        &self,
        config: &str,
        name: &str,
        opts: &ParseOptions,
    ) -> Result<Parsed<Self::Job>, KrmResult>;
    /// The job that runs: `job` with the overrides and the bundle (if one was read) built in.
    fn build(
        &self,
        job: Self::Job,
        overrides: &Overrides,
        bundle: Option<Self::Bundle>,
    ) -> Result<Self::Job, Refused>;
    /// Which files of a directory `job` reads, when not every file `kpt fn source` reads.
    fn select(&self, job: &Self::Job) -> Option<Select>;
    /// Whether the directory `path` is a bundle, read by [`Plugin::read_bundle`].
    fn is_bundle(&self, path: &Path) -> bool;
    /// A bundle directory: what it adds to the job, and its objects (they keep their trees).
    fn read_bundle(
        &self,
        path: &Path,
        opts: &ParseOptions,
    ) -> Result<(Self::Bundle, Vec<Resource>), Vec<KrmResult>>;
    /// The refusal of a file or directory that is no input of tailor's, if it is none.
    fn refuse(&self, path: &Path) -> Result<(), KrmResult>;
    /// The path a file given on the command line is known by (in kpt's path annotation and
    /// under `--output-dir`).
    fn named(&self, path: &Path) -> String;
    /// Shows a run's results to the user (stderr).
    fn report(&self, results: &[KrmResult]);
    /// A bad command line: says `message`, and the exit code.
    fn usage(&self, message: &str) -> i32;
    /// One line for the user on stderr (the output is written, something after it failed).
    fn say(line: &str);
}

/// Standalone mode's run: reads the CONFIG and the inputs, runs the job, reports its results
/// ([`Plugin::report`]) and writes the output as `session.sink` asks (stdout to `out`); the exit
/// code (before any write error of `out`, which its owner reports).
pub fn run<P: Plugin>(session: &Session, plugin: &P, out: &mut dyn std::io::Write) -> i32 {
    // A failed resource-list run answers with the objects as read. Kept from the first
    // reading only when stdin is among the inputs (it cannot be read twice): otherwise the
    // objects may be stripped and their trees dropped as they are read, and a failed run reads
    // its inputs again for the answer.
    let keep_originals = session.sink == Sink::ResourceList && session.reads_stdin();
    let mut opened = match Opened::open(session, plugin) {
        Ok(o) => o,
        Err(code) => return code,
    };
    // A fan-out's stream output is written as each destination is finished, then the rest.
    let out = std::cell::RefCell::new(out);
    let first = Attempt {
        keep_originals,
        pass_through: true,
        per_item: true,
    };
    let (mut rendered, mut streamed) = match opened.render_to(first, Some(&out)) {
        Ok(r) => r,
        Err(code) => return code,
    };
    if rendered.passed.clashes(&rendered.outcome.items) {
        // An object goes to a file passed through as it was read (a path annotation names
        // it): read everything again as objects, to write that file from all of them.
        let again = Attempt {
            pass_through: false,
            ..first
        };
        drop(streamed);
        (rendered, streamed) = match opened.render_to(again, Some(&out)) {
            Ok(r) => r,
            Err(code) => return code,
        };
    }
    if let Some(message) = streamed.as_ref().and_then(StreamSink::write_error) {
        // stdout's owner reports its own write errors (quietly for a closed pipe).
        let message = message.to_string();
        rendered.outcome.results.retain(|r| r.message != message);
    }
    plugin.report(&rendered.outcome.results);
    output::write(&mut opened, rendered, streamed, &out)
}

/// Reads the CONFIG and the inputs of `session` and runs the job, reporting its results
/// ([`Plugin::report`]), without writing; with `keep_originals`, the objects as read come too.
/// `Err` is the exit code when it could not get that far.
pub fn render<P: Plugin>(
    session: &Session,
    plugin: &P,
    keep_originals: bool,
) -> Result<Rendered, i32> {
    let rendered = Opened::open(session, plugin)?.render(Attempt {
        keep_originals,
        pass_through: false,
        per_item: true,
    })?;
    plugin.report(&rendered.outcome.results);
    Ok(rendered)
}

impl Session {
    /// Whether the run reads stdin (the CONFIG or manifests): its inputs cannot be read twice.
    fn reads_stdin(&self) -> bool {
        self.config == "-" || self.inputs.iter().any(|i| i == "-")
    }

    /// Whether the output is written from the objects' texts as the run leaves them (a stream,
    /// `--output-dir`), and no override changes the job after reading. Not when stdin is read:
    /// a run that must read its inputs again (an input of the run among the objects, an object
    /// written to a file passed through) could not read it twice.
    fn streams(&self, keep_originals: bool) -> bool {
        matches!(self.sink, Sink::Stream | Sink::Dir { .. })
            && !keep_originals
            && !self.reads_stdin()
            && !self.overrides.explain
            && self.overrides.cluster.is_none()
            && self.overrides.shard.is_none()
    }

    /// The name results give the CONFIG file.
    fn config_name(&self) -> &str {
        if self.config == "-" {
            "<stdin>"
        } else {
            &self.config
        }
    }
}
