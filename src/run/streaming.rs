//! Streaming per item: the stages that treat objects one by one run on each object as the
//! parser hands it over (a ResourceList's items) or as its file is read (standalone mode,
//! `reading::AtRead`), and an object they finished changing is held as its output text, so
//! a pipeline that changes every object (commonMetadata, inline substitution, the strip) holds
//! text, not trees. Decided from what the stages declare (`Stage::each`, `Reads`).

use crate::config::{Plan, Targets};
use crate::stages::Tailoring;
use crate::stages::{Reads, Stage};
use tailor_kio::read::Prepared;
use tailor_kio::Resource;

/// One step of an object's way through the plan as it is read.
#[derive(Clone, Copy)]
pub enum Step<'p> {
    /// The stage runs on the object now ([`Stage::each`]).
    Runs(&'p dyn Stage<Tailoring>),
    /// The stage leaves an object alone unless it carries one of these annotations.
    Passes(&'static [&'static str]),
}

/// How each object goes through `plan` as it is read, when every stage of the plan either
/// treats objects one by one with the options every destination shares ([`Stage::each`])
/// or leaves alone the objects without its annotations, and at least one does the former;
/// `None` otherwise. Not with several destinations (each gets its own copy) or options that
/// vary between them, nor with `--explain` (it compares each stage's before and after).
pub fn stream_steps(plan: &Plan) -> Option<Vec<Step<'_>>> {
    if plan.fan_out || plan.clusters.len() > 1 || plan.explain || plan.targets.vary() {
        return None;
    }
    let mut steps = Vec::with_capacity(plan.stages.len());
    for stage in &plan.stages {
        let shared = stage.scope().shared() || plan.clusters.is_empty();
        steps.push(match stage.reads() {
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
pub fn stream_hook<'p>(
    plan: &'p Plan,
    steps: Vec<Step<'p>>,
) -> impl FnMut(&mut Resource) -> Prepared + 'p {
    let tailoring = match &plan.targets {
        Targets::Fixed(t) => (**t).clone(),
        Targets::Fleet(c) => c.root.clone(),
    };
    let carries =
        |item: &Resource, keys: &[&str]| keys.iter().any(|k| item.annotation(k).is_some());
    move |item: &mut Resource| {
        if super::inputs::may_consume(Some(plan), item) {
            return Prepared::Untouched;
        }
        // How far the object went: past every step, or to the one that stopped it.
        let mut reached = steps.len();
        for (i, step) in steps.iter().enumerate() {
            let goes_on = match *step {
                Step::Passes(keys) => !carries(item, keys),
                Step::Runs(stage) => match stage.each().and_then(|e| e.apply(item, &tailoring)) {
                    Some(applied) => {
                        item.set_read_results(stage.name(), applied.results, applied.done);
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
