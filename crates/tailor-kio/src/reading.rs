//! How items are read, decided once from the job's declarations: a ResourceList's by the job
//! of the functionConfig read ahead of them (kpt and kustomize write it last), standalone
//! mode's files by the job built before they are read.

use std::sync::Arc;

use tailor_yaml::{Node, ParseOptions};

use crate::host::OwnConfig;
use crate::job::{
    header_annotations, may_consume, reads_every_object, reads_every_object_after_read,
    stage_at_read, Job, AT_READ,
};
use crate::pipeline::Stage;
use crate::read::{function_config_ahead, read_input_or_back, Input, Prepared, Trees, Unread};
use crate::resource::HeaderKeys;
pub use crate::streaming::Step;
use crate::streaming::{stream_hook, stream_steps};
use crate::write::{ListSyntax, Rendering};
use crate::{read_input, KrmResult, Resource};

/// How the items of a ResourceList are read (see [`Ahead::reading`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reading {
    /// Every item keeps its tree.
    Keep,
    /// Trees are dropped as items are read and built again for the objects a stage reads.
    Defer,
    /// The job's first stage runs on each object as it is read ([`stage_at_read`]).
    Strip,
    /// Every stage that changes objects one by one runs on each object as it is read, and an
    /// object they changed is held as its output text ([`stream_steps`]).
    Stream,
}

/// How a functionConfig becomes a job: every problem an error result naming the field.
pub type Parse<J> = fn(Option<&Node>) -> Result<J, Vec<KrmResult>>;

/// The functionConfig of an input, read ahead of its items, with the job it asks for: the
/// reader decides from it how to read the items, and the run uses the very same job when the
/// functionConfig it finds is the one read ahead.
pub struct Ahead<J> {
    pub job: Result<J, Vec<KrmResult>>,
    /// Its own item, if the host passes it as one: never changed as it is read.
    pub own: Option<OwnConfig>,
    /// Where the functionConfig's text sits in the input.
    span: (usize, usize),
}

/// The functionConfig of `text`, read ahead of its items, with the job `parse` makes of it.
pub fn read_ahead<J: Job>(text: &str, parse: Parse<J>) -> Option<Ahead<J>> {
    let (fc, offset) = function_config_ahead(text)?;
    let span = (
        offset + fc.span.start as usize,
        offset + fc.span.end as usize,
    );
    Some(Ahead {
        job: parse(Some(&fc)),
        own: OwnConfig::of(&fc),
        span,
    })
}

impl<J: Job> Ahead<J> {
    /// Whether `fc` (as the run read it) is the functionConfig read ahead.
    pub fn is_for(&self, fc: Option<&Node>) -> bool {
        fc.is_some_and(|fc| (fc.span.start as usize, fc.span.end as usize) == self.span)
    }

    /// When the job has no stage that reads every object, the items' trees are deferred: only
    /// the objects a stage looks into are parsed again, and a large list is held as its text.
    /// When every stage that reads every object treats them one by one, they all run as
    /// objects are read, and what they change is held as text ([`stream_steps`]). Else, when
    /// its first stage can run as objects are read (the built-in strip), it does, so what it
    /// removes (managedFields, status) never accumulates. The guess costs time when wrong,
    /// never a different output: deferred trees are rebuilt exactly, and items are read again
    /// as they were when the run's functionConfig turns out to be another.
    pub fn reading(&self) -> Reading {
        match &self.job {
            Ok(job) if !reads_every_object(job) => Reading::Defer,
            Ok(job) if stream_steps(job).is_some() => Reading::Stream,
            Ok(job) if stage_at_read(job).is_some() => Reading::Strip,
            _ => Reading::Keep,
        }
    }
}

/// How the items of `text` are read: see [`Ahead::reading`].
pub fn item_reading<J: Job>(text: &str, parse: Parse<J>) -> Reading {
    read_ahead(text, parse).map_or(Reading::Keep, |a| a.reading())
}

/// Reads `text` the way `reading` says, with what the job read ahead (if any) declares: the
/// annotations deferred objects keep, the stages that run as objects are read, and which items
/// the run consumes (those are never changed as they are read).
pub fn read_items<J: Job>(
    text: String,
    reading: Reading,
    ahead: Option<&Ahead<J>>,
) -> Result<Input, Unread> {
    let opts = parse_options();
    let job = ahead.and_then(|a| Some((a.job.as_ref().ok()?, a.own.as_ref())));
    let keys = |job: &J| -> HeaderKeys { Arc::from(header_annotations(job)) };
    match (reading, job) {
        (Reading::Keep, _) | (Reading::Strip | Reading::Stream, None) => {
            read_input_or_back(text, &opts, Trees::Keep)
        }
        (Reading::Defer, job) => {
            let keys = job.map_or_else(|| Arc::from(Vec::new()), |(job, _)| keys(job));
            read_input_or_back(text, &opts, Trees::Defer(keys))
        }
        (Reading::Stream, Some((job, own))) => match stream_steps(job) {
            Some(steps) => read_streaming(text, job, own, steps, ahead),
            // Asked to stream under a job that does not allow it: as its first stage reads.
            None => read_items(text, Reading::Strip, ahead),
        },
        (Reading::Strip, Some((job, own))) => {
            let Some(stage) = stage_at_read(job) else {
                return read_input_or_back(text, &opts, Trees::Keep);
            };
            let mut hook = at_read_hook(job, own, stage);
            // When no later stage reads every object, an object the strip left as it was
            // keeps only its header: a pipeline that strips nothing (clean manifests from git)
            // is held as its text, not as trees.
            let defer = (!reads_every_object_after_read(job)).then(|| keys(job));
            read_input_or_back(
                text,
                &opts,
                Trees::Prepare {
                    hook: &mut hook,
                    defer,
                    render: None,
                },
            )
        }
    }
}

/// [`Reading::Stream`]: `steps` run on each object as it is read.
fn read_streaming<J: Job>(
    text: String,
    job: &J,
    own: Option<&OwnConfig>,
    steps: Vec<Step<'_, J::Options>>,
    ahead: Option<&Ahead<J>>,
) -> Result<Input, Unread> {
    let keys: HeaderKeys = Arc::from(header_annotations(job));
    let mut hook = stream_hook(job, own, steps);
    let input = read_input_or_back(
        text,
        &parse_options(),
        Trees::Prepare {
            hook: &mut hook,
            defer: Some(keys),
            render: Some(Rendering::Item(ListSyntax::Yaml)),
        },
    )?;
    if !input.items.iter().any(|i| may_consume(job, own, i)) {
        return Ok(input);
    }
    // An input of the run arrived among the items (a CustomTransform, an inventory object):
    // it may change what the stages do to every object, so they run in the run, on the items
    // as they were read.
    let Input { items, source, .. } = input;
    drop(items);
    let again = Arc::unwrap_or_clone(source);
    let fallback = if stage_at_read(job).is_some() {
        Reading::Strip
    } else {
        Reading::Keep
    };
    read_items(again, fallback, ahead)
}

/// `stage`'s work on each object as it is read ([`Stage::each`]), except on the items the
/// run may consume: those are read as they are.
pub fn at_read_hook<'a, J: Job>(
    job: &'a J,
    own: Option<&'a OwnConfig>,
    stage: &'a dyn Stage<J::Options>,
) -> impl FnMut(&mut Resource) -> Prepared + 'a {
    let options = job.shared_options();
    move |item: &mut Resource| {
        if may_consume(job, own, item) {
            return Prepared::Untouched;
        }
        match stage.each().and_then(|each| each.apply(item, &options)) {
            Some(applied) => {
                item.set_read_results(AT_READ, applied.results, applied.done);
                if item.is_dirty() {
                    Prepared::Changed
                } else {
                    Prepared::Checked
                }
            }
            None => Prepared::Untouched,
        }
    }
}

/// What runs on each object as standalone mode reads it.
enum AtRead<'p, O> {
    /// The job's first stage (the built-in strip), the only one that reads every object.
    Stage(&'p dyn Stage<O>),
    /// Every stage of the job ([`stream_steps`]): an object they finish is held as the text
    /// the output writes for it.
    Steps(Vec<Step<'p, O>>),
}

impl<O> Clone for AtRead<'_, O> {
    fn clone(&self) -> Self {
        match self {
            AtRead::Stage(stage) => AtRead::Stage(*stage),
            AtRead::Steps(steps) => AtRead::Steps(steps.clone()),
        }
    }
}

impl<'p, O: Clone + Send + Sync + 'p> AtRead<'p, O> {
    /// The hook that does it on each object of `job`'s run.
    fn hook<J: Job<Options = O>>(self, job: &'p J) -> Hook<'p> {
        match self {
            AtRead::Stage(stage) => Box::new(at_read_hook(job, None, stage)),
            AtRead::Steps(steps) => Box::new(stream_hook(job, None, steps)),
        }
    }

    /// Whether every stage that runs as objects are read ran on `item`, reported nothing, and
    /// has nothing more to do with it.
    fn done_with(&self, item: &Resource) -> bool {
        match self {
            AtRead::Stage(_) => item.finished_at_read(AT_READ),
            AtRead::Steps(steps) => steps.iter().enumerate().all(|(at, step)| match step {
                Step::Runs(_) => item.finished_at_read(at),
                Step::Passes(_) => true,
            }),
        }
    }
}

/// How standalone mode reads its files under `job`: with trees dropped when no stage reads
/// every object; with every stage run as objects are read when the job allows it
/// ([`stream_steps`]) and the output can write an object held as its text (`renders`); or
/// with the stage that runs as objects are read when it is the only one that reads every
/// object. Trees are dropped for the objects what ran left as they were; `None` keeps every
/// tree. `TAILOR_KEEP_TREES=1` keeps them anyway, to compare answers.
fn standalone_deferral<J: Job>(
    job: &J,
    renders: bool,
) -> Option<(HeaderKeys, Option<AtRead<'_, J::Options>>)> {
    if keeps_trees() {
        return None;
    }
    let keys: HeaderKeys = Arc::from(header_annotations(job));
    if !reads_every_object(job) {
        return Some((keys, None));
    }
    if let Some(steps) = stream_steps(job).filter(|_| renders) {
        return Some((keys, Some(AtRead::Steps(steps))));
    }
    match stage_at_read(job) {
        Some(stage) if !reads_every_object_after_read(job) => {
            Some((keys, Some(AtRead::Stage(stage))))
        }
        _ => None,
    }
}

/// Work on an object as it is read.
pub type Hook<'p> = Box<dyn FnMut(&mut Resource) -> Prepared + 'p>;
/// A question about an object as it is read.
pub type Test<'p> = Box<dyn FnMut(&Resource) -> bool + 'p>;

/// How standalone mode reads its files under a job, decided once ([`file_reading`]).
pub struct FileReading<'p> {
    /// The annotations an object whose tree is dropped keeps at hand.
    pub keys: HeaderKeys,
    /// What runs on each object as it is read.
    pub hook: Option<Hook<'p>>,
    /// Whether no stage can touch an object any more: a file of such objects may be passed
    /// through as its text.
    pub inert: Option<Test<'p>>,
    /// Objects the stages finish as they are read are held as their output text.
    pub renders: bool,
}

/// What standalone mode's output allows its reading.
#[derive(Clone, Copy, Debug, Default)]
pub struct FileOutput {
    /// The output can write an object held as its text (stream, `--output-dir`).
    pub renders: bool,
    /// It writes a file no stage can touch as it is ([`FileReading::inert`]).
    pub passes_through: bool,
    /// The objects as read are kept too (a failed resource-list run's answer, `tailor diff`'s
    /// base): none is changed as it is read then.
    pub keeps_originals: bool,
}

/// How standalone mode reads its files under `job` for `output` ([`standalone_deferral`],
/// [`passes_by`]); `None` keeps every tree.
pub fn file_reading<J: Job>(job: &J, output: FileOutput) -> Option<FileReading<'_>> {
    let (keys, at_read) = standalone_deferral(job, output.renders)?;
    if at_read.is_some() && output.keeps_originals {
        return None;
    }
    let inert = output
        .passes_through
        .then(|| passes_by(job, at_read.clone()))
        .flatten()
        .map(|f| Box::new(f) as Test<'_>);
    Some(FileReading {
        keys,
        renders: matches!(at_read, Some(AtRead::Steps(_))),
        hook: at_read.map(|a| a.hook(job)),
        inert,
    })
}

/// `TAILOR_KEEP_TREES=1`: every item keeps its tree however the configuration would let it
/// be read, in standalone mode and for a ResourceList, so the answers of both ways of reading
/// can be compared through the binary.
pub fn keeps_trees() -> bool {
    std::env::var_os("TAILOR_KEEP_TREES").is_some_and(|v| v == "1")
}

/// Whether no stage of `job` can touch an object read in standalone mode any more, whatever
/// the other objects (`None` when the job does not allow telling): its tree was dropped as it
/// was read ([`standalone_deferral`], with `at_read` what ran then), as it was or held as its
/// output text, it keeps no annotation a stage or the output decides on, it is not one the
/// run may consume nor left alone, and every stage that ran as it was read reported nothing
/// and has nothing more to do with it. The job names no destination: the fan-out limit
/// counts every object for one.
fn passes_by<'a, J: Job>(
    job: &'a J,
    at_read: Option<AtRead<'a, J::Options>>,
) -> Option<impl FnMut(&Resource) -> bool + 'a> {
    if !job.settings().clusters.is_empty() {
        return None;
    }
    Some(move |item: &Resource| {
        item.is_deferred()
            && (!item.is_dirty() || item.rendered().is_some())
            && item.header_annotations_empty()
            && !item.is_meta_or_local()
            && !may_consume(job, None, item)
            && match &at_read {
                Some(at_read) => at_read.done_with(item),
                None => !item.ran_at_read(),
            }
    })
}

/// Whether a run of `job` may use items read with `reading`: items changed as they were read
/// need the very job that changed them (`same_config`: the run's functionConfig is the one
/// read ahead).
pub fn reading_holds<J: Job>(reading: Reading, same_config: bool, job: &J) -> bool {
    match reading {
        Reading::Keep | Reading::Defer => true,
        Reading::Strip => same_config && stage_at_read(job).is_some(),
        Reading::Stream => same_config && stream_steps(job).is_some(),
    }
}

/// Parse limits for every input.
pub fn parse_options() -> ParseOptions {
    ParseOptions::default()
}

/// Reads the original items again, for the "nothing half tailored" output of a failed run.
pub fn original_items(text: &str) -> Vec<Resource> {
    read_input(text, &parse_options())
        .map(|i| i.items)
        .unwrap_or_default()
}
