//! The pipeline's stages, in the spirit of kyaml's `kio.Filter`: each is one type that says
//! what it is ([`Stage`]: its name, whether its result depends on the destination, which
//! objects it reads) and runs on the item list. The plan (`config::Plan`) lists the stages a
//! functionConfig asks for, in `docs/design.md`'s order; how items are read, which stages run
//! once before a fan-out's copies are made, and what a deferred object keeps at hand are all
//! derived from what the stages declare.
//!
//! Every stage leaves the Kptfile and local-config objects alone, and the shell of a `*List`
//! whose items it tailors (`Resource::is_left_alone`).

pub mod common_metadata;
#[cfg(test)]
mod example;
pub mod explain;
pub mod fleet_namespaces;
pub mod fleet_overlays;
pub mod flux_overlays;
mod identity;
mod nodes;
pub mod owner_labels;
pub mod replacements;
pub mod schedule;
pub mod sops;
pub mod strip;
pub mod substitution;
pub mod targets;
pub mod templates;
mod unmatched;

use tailor_cluster::Cluster;
use tailor_kubestellar::strip::CustomTransform;

use tailor_kio::{KrmResult, Resource};

pub use targets::{Tailoring, TargetFields};

/// Whether a stage's answer depends on the destination.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// The same for every destination: with several, it runs once, before the copies are made.
    Shared,
    /// Depends on the destination, but only keeps or drops each object on its own (a
    /// schedule): a shared stage that also treats each object on its own may run before it.
    Selects,
    /// Depends on the destination: it runs for each.
    PerDestination,
}

impl Scope {
    /// The scope of a stage applying target-customization options: shared when every
    /// destination gets the same ones.
    pub fn of_options(per_destination: bool) -> Scope {
        if per_destination {
            Scope::PerDestination
        } else {
            Scope::Shared
        }
    }
}

/// Which objects a stage looks into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reads {
    /// Every object's whole tree.
    Every,
    /// Only objects carrying one of these annotations; the rest it decides on from the
    /// annotation alone, which a deferred object keeps at hand.
    Annotated(&'static [&'static str]),
}

/// One stage of the pipeline.
pub trait Stage: Send + Sync {
    /// For messages and `--explain`.
    fn name(&self) -> &'static str;
    fn scope(&self) -> Scope;
    /// Which objects it looks into: every object's tree, unless it says otherwise.
    fn reads(&self) -> Reads {
        Reads::Every
    }
    /// Whether each object's result depends on that object alone (so the stage commutes with
    /// a schedule, and may run as objects are read).
    fn per_object(&self) -> bool {
        false
    }
    /// The stage's work on one object as it is read, when it has such a form (the built-in
    /// strip; commonMetadata and substitution whose variables are all written in the
    /// configuration), with the options every destination shares: `Some` with what it would
    /// report about the object when it did that work (the object is dirty if the work
    /// changed it; [`Stage::run`] then passes on the results it carries, by the stage's name,
    /// in its place), `None` when it left the object to [`Stage::run`].
    fn at_read(&self, _item: &mut Resource, _tailoring: &Tailoring) -> Option<Vec<KrmResult>> {
        None
    }
    /// Whether an object that [`Stage::at_read`] looked into needs nothing more from
    /// [`Stage::run`] as long as no input of the stage arrives among the items: a later stage
    /// may run on it as it is read too, and a run may leave an object it left as it was,
    /// reporting nothing, out of the list altogether.
    fn done_at_read(&self, _item: &Resource) -> bool {
        false
    }
    /// Whether [`Stage::at_read`] does anything for this plan (for the options every
    /// destination shares, and with no destination when its scope is
    /// [`Scope::PerDestination`]).
    fn runs_at_read(&self) -> bool {
        false
    }
    /// Whether `item` may be an input this stage reads rather than an object to tailor (it is
    /// then never changed as it is read).
    fn consumes(&self, _item: &Resource) -> bool {
        false
    }
    /// Which of `items` the run hands this stage as inputs (in [`Context::inputs`]) instead of
    /// tailoring them.
    fn take_inputs(&self, items: &[Resource]) -> Vec<usize> {
        (0..items.len())
            .filter(|&i| self.consumes(&items[i]))
            .collect()
    }
    /// Whether it applies the destination's target-customization options (the stages the plan
    /// rebuilds when a Fleet bundle brings its own).
    fn tailors(&self) -> bool {
        false
    }
    fn run(&self, items: &mut Vec<Resource>, ctx: &mut Context<'_>);
}

/// What a stage runs with besides the items.
pub struct Context<'a> {
    /// The destination being tailored for, if any.
    pub cluster: Option<&'a Cluster>,
    /// The target customization's options for this destination (or the ones every destination
    /// shares).
    pub tailoring: &'a Tailoring,
    /// CustomTransforms that arrived as items.
    pub transforms: &'a [CustomTransform],
    /// The items the run consumed instead of tailoring: inventory objects and the inputs
    /// stages asked for (`substituteFrom` sources), as they were read.
    pub inputs: &'a [Resource],
    /// Fleet overlay files: written in the functionConfig, arrived as items under
    /// `overlays/`, or read from a bundle directory.
    pub overlay_files: &'a [tailor_fleet::BundleFile],
    pub results: &'a mut Vec<KrmResult>,
    /// Outcomes kept from one destination to the next of a fan-out.
    pub memo: Option<&'a mut substitution::Memo>,
    /// What `--explain` records, when the run explains itself.
    pub explain: Option<&'a mut explain::Notes>,
}

impl Context<'_> {
    /// Whether the run records what each rule does (stages then count, which costs time).
    pub fn explaining(&self) -> bool {
        self.explain.is_some()
    }

    /// Records what the rule written at `field` did, when the run explains itself.
    pub fn note_rule(&mut self, field: impl Into<String>, what: impl Into<String>) {
        if let Some(notes) = self.explain.as_deref_mut() {
            notes.rules.push((field.into(), what.into()));
        }
    }
}

/// Runs `stages` in order. A stage that reports an error does not stop the others: every
/// problem is reported at once, and a failed run returns the input unchanged anyway.
pub fn run_all(stages: &[&dyn Stage], items: &mut Vec<Resource>, ctx: &mut Context<'_>) {
    // Reported once, after the stage that did it.
    let mut lost = false;
    let mut check =
        |stage: &dyn Stage, items: &[Resource], named: &[bool], results: &mut Vec<KrmResult>| {
            if !lost {
                let errors = identity::lost_identity(stage, items, named);
                lost = !errors.is_empty();
                results.extend(errors);
            }
        };
    for stage in stages {
        let named = identity::named(items);
        if !ctx.explaining() {
            stage.run(items, ctx);
            check(*stage, items, &named, ctx.results);
            continue;
        }
        let before = explain::Snapshot::of(items);
        stage.run(items, ctx);
        check(*stage, items, &named, ctx.results);
        let note = before.compare(stage.name(), items);
        if let Some(notes) = ctx.explain.as_deref_mut() {
            notes.stages.push(note);
        }
    }
}
