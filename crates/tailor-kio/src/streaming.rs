//! Streaming per item: the stages that treat objects one by one run on each object as the
//! parser hands it over (a ResourceList's items) or as its file is read (standalone mode,
//! `crate::reading::AtRead`), and an object they finished changing is held as its output text, so
//! a pipeline that changes every object (commonMetadata, inline substitution, the strip) holds
//! text, not trees. Decided from what the stages declare (`Stage::each`, `Reads`).

use crate::host::OwnConfig;
use crate::job::{copies, may_consume, Job};
use crate::pipeline::{Reads, Stage};
use crate::read::Prepared;
use crate::Resource;

/// One step of an object's way through the job as it is read.
pub enum Step<'p, O> {
    /// The stage runs on the object now ([`Stage::each`]).
    Runs(&'p dyn Stage<O>),
    /// The stage leaves an object alone unless it carries one of these annotations.
    Passes(&'static [&'static str]),
}

/// How each object goes through `job` as it is read, when every stage of the job either
/// treats objects one by one with the options every destination shares ([`Stage::each`])
/// or leaves alone the objects without its annotations, and at least one does the former;
/// `None` otherwise. Not with several destinations (each gets its own copy) or options that
/// vary between them, nor with `--explain` (it compares each stage's before and after).
pub fn stream_steps<J: Job + ?Sized>(job: &J) -> Option<Vec<Step<'_, J::Options>>> {
    let settings = job.settings();
    if copies(job) || settings.explain || job.options_vary() {
        return None;
    }
    let mut steps = Vec::with_capacity(job.stages().len());
    for stage in job.stages() {
        let shared = stage.declares().scope.shared() || settings.clusters.is_empty();
        steps.push(match stage.declares().reads {
            _ if shared && stage.each().is_some() => Step::Runs(stage.as_ref()),
            Reads::Annotated(keys) => Step::Passes(keys),
            Reads::Every => return None,
        });
    }
    steps
        .iter()
        .any(|s| matches!(s, Step::Runs(_)))
        .then_some(steps)
}

/// Runs `steps` ([`stream_steps`]) on each object as it is read, except the items the run
/// may consume. An object that went through every step is finished: no stage will read it
/// again, so the reader holds it as its output text when they changed it. One that stopped at
/// a stage (left alone by it, more to do for it in the run, or carrying the annotation of a
/// stage that reads only those) keeps its tree when changed; the stages after run on it in
/// the run. An object left as it was keeps its header, its tree parsed again if a stage
/// reads it. One that comes out carrying the annotation of a stage it went past is read
/// again as it was (that stage, in the run, would look into it).
pub fn stream_hook<'p, J: Job>(
    job: &'p J,
    own: Option<&'p OwnConfig>,
    steps: Vec<Step<'p, J::Options>>,
) -> impl FnMut(&mut Resource) -> Prepared + 'p {
    let options = job.shared_options();
    let carries =
        |item: &Resource, keys: &[&str]| keys.iter().any(|k| item.annotation(k).is_some());
    move |item: &mut Resource| {
        if may_consume(job, own, item) {
            return Prepared::Untouched;
        }
        // How far the object went: past every step, or to the one that stopped it.
        let mut reached = steps.len();
        for (i, step) in steps.iter().enumerate() {
            let goes_on = match *step {
                Step::Passes(keys) => !carries(item, keys),
                Step::Runs(stage) => match stage.each().and_then(|e| e.apply(item, &options)) {
                    Some(applied) => {
                        item.set_read_results(i, applied.results, applied.done);
                        applied.done
                    }
                    None => false,
                },
            };
            if !goes_on {
                reached = i;
                break;
            }
        }
        // In the run, a stage the object went past sees it as the later steps left it.
        let passed_by = steps[..reached]
            .iter()
            .any(|s| matches!(s, Step::Passes(keys) if carries(item, keys)));
        match (reached == steps.len(), item.is_dirty()) {
            _ if passed_by => Prepared::Undo,
            (true, true) => Prepared::Finished,
            (false, true) => Prepared::Changed,
            (_, false) if item.ran_at_read() => Prepared::Checked,
            (_, false) => Prepared::Untouched,
        }
    }
}

// Derived `Clone`/`Copy` would ask the same of `O`; a step only borrows the stage.
impl<O> Clone for Step<'_, O> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<O> Copy for Step<'_, O> {}
