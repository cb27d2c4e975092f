//! Reading a session's inputs under the reading policy its job declares, and running the job
//! built with the overrides: what the output modes (and `tailor diff`) write from.

use std::collections::HashSet;
use std::path::Path;
use std::sync::Arc;

use tailor_yaml::{Handed, Node};

use super::stream_sink::{Out, StreamSink};
use super::{inputs, Parsed, Plugin, Refused, Session, Sink};
use crate::files::{self, KeptFile};
use crate::host::Guest;
use crate::job::Job;
use crate::output_dir::{self, DirSink};
use crate::package::{PackageOptions, PackageReading, Passed, Texts};
use crate::reading::{self, parse_options, FileOutput};
use crate::run::{self, Tailored};
use crate::write::Rendering;
use crate::{KrmResult, Resource};

/// A session whose CONFIG is read and parsed (once), with the texts of the files it read:
/// each file is read from disk once, however many times the run reads its objects.
pub struct Opened<'a, P: Plugin> {
    pub(super) session: &'a Session,
    pub(super) plugin: &'a P,
    /// The text of the functionConfig. No tree of it is held through the run: 20,000
    /// destinations are a 2.9 MB text whose tree is ten times that. A tree is parsed again
    /// after the run only for what needs one (a result's line, `-o resource-list`).
    config: Arc<String>,
    /// The job parsed when opened, for the first reading to take (a reading again parses the
    /// text again).
    job: Option<Parsed<P::Job>>,
    texts: Texts,
}

/// How one reading of the inputs may go.
#[derive(Clone, Copy, Debug)]
pub struct Attempt {
    /// The objects as read are kept too (a failed resource-list run's answer, `tailor diff`'s
    /// base): none is changed as it is read then.
    pub keep_originals: bool,
    /// Files no stage can touch may be held as their text alone (only for stream and
    /// `--output-dir` output, which write them as they are).
    pub pass_through: bool,
    /// The stages may run on each object as it is read.
    pub per_item: bool,
}

/// A standalone run, read and tailored.
pub struct Rendered {
    /// The objects as read, when asked for (a failed run returns them; `tailor diff` compares
    /// with them).
    pub originals: Option<Vec<Resource>>,
    pub outcome: Tailored,
    /// Files that hold no object, for `--output-dir` to copy as they are.
    pub kept: Vec<KeptFile>,
    /// Files passed through as their text (see [`Passed`]).
    pub passed: Passed,
    /// Where a fan-out for `--output-dir` wrote its destinations as they were finished.
    pub sink: Option<DirSink>,
}

impl<'a, P: Plugin> Opened<'a, P> {
    /// Reads the CONFIG and checks that `--output-dir` may be written; `Err` is the exit code
    /// when either fails (the error reported).
    pub fn open(session: &'a Session, plugin: &'a P) -> Result<Opened<'a, P>, i32> {
        let fail = |r: KrmResult| {
            plugin.report(std::slice::from_ref(&r));
            1
        };
        let text = if session.config == "-" {
            crate::input::read_stdin()
        } else {
            crate::input::read_file(Path::new(&session.config))
        };
        let config = Arc::new(text.map_err(|e| fail(KrmResult::error(e)))?);
        let job = plugin
            .parse(&config, &session.config, &parse_options())
            .map_err(fail)?;
        if let Sink::Dir { dir, clean } = &session.sink {
            output_dir::check(dir, &session.inputs, &session.config, *clean)
                .map_err(|msg| fail(KrmResult::error(msg)))?;
        }
        Ok(Opened {
            session,
            plugin,
            config,
            job: Some(job),
            texts: Texts::default(),
        })
    }

    /// Reads the inputs (files from the texts once read) as `attempt` allows and runs the job,
    /// without reporting the results. When an input of the run turns up among objects read
    /// with the stages run or files passed through, they are read again without either.
    pub fn render(&mut self, attempt: Attempt) -> Result<Rendered, i32> {
        self.render_to(attempt, None).map(|(rendered, _)| rendered)
    }

    /// [`Opened::render`], a fan-out for stream output written to `out` as each destination is
    /// finished (the sink it went to comes back, for the rest of the stream to follow it).
    pub(super) fn render_to<'r, 'o>(
        &mut self,
        attempt: Attempt,
        out: Option<&'r Out<'o>>,
    ) -> Result<(Rendered, Option<StreamSink<'r, 'o>>), i32> {
        let (session, plugin) = (self.session, self.plugin);
        let job = match self.job.take() {
            Some(job) => job,
            None => self.parse_again()?,
        };
        let streams = session.streams(attempt.keep_originals);
        let output = FileOutput {
            renders: attempt.per_item && streams,
            passes_through: attempt.pass_through && streams,
            keeps_originals: attempt.keep_originals,
        };
        // As for a ResourceList: trees dropped when no stage reads every object, stages run as
        // objects are read when they allow it. A bundle brings its own targets and stages: its
        // objects keep their trees.
        let policy = match &job {
            Ok(job) if !inputs::bundled(session, plugin) => reading::file_reading(job, output),
            _ => None,
        };
        let options = PackageOptions {
            keep_other_files: matches!(session.sink, Sink::Dir { .. }),
            one_input: session.inputs.len() == 1,
            select: job.as_ref().ok().and_then(|j| plugin.select(j)),
            render: Some(match session.sink {
                Sink::Dir { .. } => Rendering::File,
                _ => Rendering::Stream,
            }),
        };
        let mut reading = PackageReading::new(options, policy, Some(&mut self.texts));
        let (items, bundle) = inputs::read(session, plugin, &mut reading)?;
        if job
            .as_ref()
            .is_ok_and(|j| reading.must_read_again(&items, j))
        {
            drop(reading);
            drop(items);
            let again = Attempt {
                pass_through: false,
                per_item: false,
                ..attempt
            };
            return self.render_to(again, out);
        }
        let kept = std::mem::take(&mut reading.kept);
        let passed = std::mem::take(&mut reading.passed);
        // The reading policy borrows the job, which the run takes.
        drop(reading);
        let originals = attempt.keep_originals.then(|| items.clone());
        let mut sink = match &session.sink {
            Sink::Dir { dir, .. } => {
                let once = kept.iter().map(|k| k.rel.as_str());
                Some(DirSink::new(
                    dir,
                    P::say,
                    once.chain(passed.files().iter().map(|f| f.rel.as_str())),
                ))
            }
            _ => None,
        };
        // Not under --strict: a warning at the end fails a run whose destinations are written.
        let strict = session.overrides.strict || job.as_ref().is_ok_and(|j| j.settings().strict);
        let mut streamed = out
            .filter(|_| session.sink == Sink::Stream && !strict)
            .and_then(|out| StreamSink::for_stream(out, &passed));
        let stream = match (&mut sink, &mut streamed) {
            (Some(s), _) => Some(s as &mut dyn run::FanOutSink),
            (None, s) => s.as_mut().map(|s| s as &mut dyn run::FanOutSink),
        };
        let mut outcome = self.tailor(job, items, bundle, stream)?;
        self.locate(&mut outcome.results)?;
        let rendered = Rendered {
            originals,
            outcome,
            kept,
            passed,
            sink,
        };
        Ok((rendered, streamed))
    }

    /// Runs the job, with the overrides and the bundle built into it, over `items`. `Err` is the exit code of a bad command line.
    fn tailor(
        &self,
        job: Result<P::Job, Vec<KrmResult>>,
        items: Vec<Resource>,
        bundle: Option<P::Bundle>,
        sink: Option<&mut dyn run::FanOutSink>,
    ) -> Result<Tailored, i32> {
        let (session, plugin) = (self.session, self.plugin);
        let built = job
            .map_err(Refused::Results)
            .and_then(|j| plugin.build(j, &session.overrides, bundle));
        Ok(match built {
            Ok(job) => run::process_into(items, &job, &Guest::default(), sink, held_form(session)),
            Err(Refused::Usage(msg)) => return Err(plugin.usage(&msg)),
            Err(Refused::Results(results)) => Tailored::new(Vec::new(), results, true),
        })
    }

    /// The job, its text parsed again (it parsed when opened, so this does not fail; if it
    /// did, the error is reported and the run ends with exit code 1).
    fn parse_again(&self) -> Result<Parsed<P::Job>, i32> {
        let parsed = self
            .plugin
            .parse(&self.config, &self.session.config, &parse_options());
        parsed.map_err(|error| self.report_config_error(error))
    }

    /// The functionConfig's tree, parsed from its text again (see [`Opened::parse_again`]).
    pub(super) fn config_tree(&self) -> Result<Node, i32> {
        self.config_tree_keeping(&|_| true)
    }

    /// [`Opened::config_tree`] with the entries of a `Tailor`'s `spec.clusters` that `keep`
    /// refuses left out (`null`s in their place, spans kept, so every other field is where
    /// the whole tree has it).
    fn config_tree_keeping(&self, keep: &dyn Fn(usize) -> bool) -> Result<Node, i32> {
        let opts = parse_options();
        let name = &self.session.config;
        let mut sink = |h: tailor_yaml::Handoff| keep(h.index).then_some(h.node);
        files::read_config_handing(&self.config, name, &opts, Handed::TailorClusters, &mut sink)
            .map_err(|error| self.report_config_error(error))
    }

    fn report_config_error(&self, error: KrmResult) -> i32 {
        self.plugin.report(std::slice::from_ref(&error));
        1
    }

    /// Gives the results about the CONFIG their lines ([`crate::results::locate`]). Its tree
    /// is parsed only when a result wants a line, and holds only the destinations of a
    /// fan-out that a result names (20,000 would be 26 MB of trees again).
    fn locate(&self, results: &mut [KrmResult]) -> Result<(), i32> {
        let fields = || results.iter().filter_map(crate::results::config_field);
        if fields().next().is_none() {
            return Ok(());
        }
        let named: HashSet<usize> = fields().filter_map(cluster_index).collect();
        let fc = self.config_tree_keeping(&|i| named.contains(&i))?;
        let name = self.session.config_name();
        crate::results::locate(results, &fc, &self.config, name);
        Ok(())
    }
}

/// The entry of `spec.clusters` that `field` (`spec.clusters[3].labels`) is in.
fn cluster_index(field: &str) -> Option<usize> {
    let rest = field.strip_prefix("spec.clusters[")?;
    rest[..rest.find(']')?].parse().ok()
}

/// How a fan-out's copies are held for `session`'s output: as the items of the ResourceList
/// `-o resource-list` writes (annotated as it annotates them); as trees for a stream that is
/// held (under `--strict`, or for `tailor diff`, which writes files of its own).
fn held_form(session: &Session) -> run::HeldForm {
    match session.sink {
        Sink::ResourceList => run::HeldForm::Text {
            rendering: Rendering::Item(crate::write::ListSyntax::Yaml),
            ready: super::output::annotate_path,
        },
        _ => run::HeldForm::Trees,
    }
}
