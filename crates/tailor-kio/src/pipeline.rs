//! The stage pipeline, in the spirit of kyaml's `kio.Filter`: each stage is one type that
//! says what it is ([`Stage`]: its name, whether its answer depends on the destination, which
//! objects it reads, which items are its inputs) and runs on the item list. How items are
//! read, which stages run once before a fan-out's copies are made, and what a deferred object
//! keeps at hand are derived from those declarations. No stage and no upstream project is
//! named here: the binary's `stages/` holds one adapter per stage, and the options a
//! destination is tailored with are a type parameter.
//!
//! Every stage leaves the Kptfile and local-config objects alone, and the shell of a `*List`
//! whose items it tailors (`Resource::is_left_alone`).

use std::any::Any;

use tailor_cluster::Cluster;

pub use crate::renderings::{NameRead, PropertyReads, Sees};
use crate::{explain, identity, KrmResult, Resource};

/// Whether a stage's answer depends on the destination.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// The same for every destination: with several, it runs once, before the copies are made.
    Shared,
    /// The same for every destination, and each object's answer depends on that object alone:
    /// it commutes with a schedule, so it runs once before the copies even past one.
    SharedEach,
    /// Depends on the destination, but only keeps or drops each object on its own (a
    /// schedule): a stage that treats each object on its own may run before it.
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

    /// Whether the stage gives every destination the same answer.
    pub fn shared(self) -> bool {
        matches!(self, Scope::Shared | Scope::SharedEach)
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

/// Whether an item is an input a stage reads rather than an object to tailor, and what it is
/// (for messages: "a CustomTransform").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Claim {
    /// An object to tailor.
    No,
    /// An input of the stage.
    Input(&'static str),
    /// An input, unless other items of its identity are claimed too: then the one marked
    /// `config.kubernetes.io/local-config: "true"` is the input, the others stay objects (a
    /// Flux `substituteFrom` source may share its name with a manifest of the build).
    Sole(&'static str),
}

/// What a stage's per-object form did to one object as it was read.
pub struct Applied {
    /// What the stage reports about the object; the stage's run passes them on in its place.
    pub results: Vec<KrmResult>,
    /// Whether the stage has nothing more to do with the object as long as none of its
    /// inputs arrives among the items: a later stage may run on it as it is read too.
    pub done: bool,
}

/// The per-object form of a stage: its work on one object, with the options every destination
/// shares. The pipeline decides whether that happens as objects are read or in the run.
pub trait Apply<O>: Sync {
    /// `None` when it leaves the object to the stage's run.
    fn apply(&self, item: &mut Resource, options: &O) -> Option<Applied>;
}

/// A stage's state for one worker of a run: what it prepared from its inputs, and what it
/// keeps from one destination to the next.
pub type State = Box<dyn Any + Send>;

/// What a stage says of itself: the pipeline derives from it how objects are read (kept,
/// deferred, streamed), what runs once before a fan-out and which destinations share a
/// rendering.
#[derive(Clone, Copy, Debug)]
pub struct Declaration {
    /// For messages and `--explain`.
    pub name: &'static str,
    pub scope: Scope,
    /// Which objects it looks into.
    pub reads: Reads,
    /// What it reads of the destination besides the options: destinations that agree on it
    /// get the same answer, so a fan-out renders them once.
    pub sees: Sees,
    /// What its rules are called in the error for an object one of them left without its
    /// identity ("a CustomTransform's `remove`").
    pub rules: &'static str,
}

impl Declaration {
    /// A stage that looks into every object's tree and reads all of a destination (so a
    /// new stage cannot make destinations share a rendering by accident) unless it says less.
    pub const fn new(name: &'static str, scope: Scope) -> Declaration {
        Declaration {
            name,
            scope,
            reads: Reads::Every,
            sees: Sees::EVERYTHING,
            rules: "its rules",
        }
    }

    pub const fn reads(self, reads: Reads) -> Declaration {
        Declaration { reads, ..self }
    }

    pub const fn sees(self, sees: Sees) -> Declaration {
        Declaration { sees, ..self }
    }

    pub const fn rules(self, rules: &'static str) -> Declaration {
        Declaration { rules, ..self }
    }
}

/// One stage of the pipeline; `O` is the options a destination is tailored with (the plan's
/// business: the pipeline only hands them over).
pub trait Stage<O>: Send + Sync {
    /// Its name, scope and what it reads ([`Declaration`]).
    fn declares(&self) -> Declaration;
    /// Whether `item` is an input this stage reads rather than an object to tailor: it is
    /// never changed as it is read, and the run hands it to the stage in [`Context::inputs`].
    fn claims(&self, _item: &Resource) -> Claim {
        Claim::No
    }
    /// The stage's state for one worker, prepared from the inputs it claimed (problems with
    /// them go to `results`); a fan-out forks one per thread.
    fn fork(&self, _inputs: &[Resource], _results: &mut Vec<KrmResult>) -> State {
        Box::new(())
    }
    fn run(&self, items: &mut Vec<Resource>, ctx: &mut Context<'_, O>);
    /// Which of the destination's properties it reads when it sees [`Sees::PROPERTIES`] and
    /// runs on `items` (or fewer of them): by default any of them, and the name.
    fn properties_read(&self, _items: &[Resource]) -> PropertyReads {
        PropertyReads::ALL
    }
    /// Its per-object form, when it has one for this plan: the pipeline decides whether it
    /// runs as objects are read.
    fn each(&self) -> Option<&dyn Apply<O>> {
        None
    }
}

/// What a run records: its results, and what `--explain` notes when the run explains itself.
pub struct Log<'a> {
    pub results: &'a mut Vec<KrmResult>,
    pub explain: Option<&'a mut explain::Notes>,
    /// The place in its job of the stage running: the key of what it found as objects were
    /// read ([`Context::take_read`]).
    stage: usize,
}

impl<'a> Log<'a> {
    pub fn new(
        results: &'a mut Vec<KrmResult>,
        explain: Option<&'a mut explain::Notes>,
    ) -> Log<'a> {
        Log {
            results,
            explain,
            stage: 0,
        }
    }

    /// What the running stage's per-object form found when it ran on `item` as it was read
    /// (taken once: the stage passes it on in its place); `None` when it did not run then.
    pub fn take_read(&self, item: &mut Resource) -> Option<Vec<KrmResult>> {
        item.take_read_results(self.stage)
    }

    /// Whether the running stage's per-object form ran on `item` as it was read.
    pub fn ran_at_read(&self, item: &Resource) -> bool {
        item.read_results(self.stage).is_some()
    }
}

/// What a stage runs with besides the items.
pub struct Context<'a, O> {
    /// The destination being tailored for, if any.
    pub destination: Option<Destination<'a>>,
    /// The target customization's options for this destination (or the ones every destination
    /// shares).
    pub options: &'a O,
    /// The items the stage claimed as its inputs, as they were read.
    pub inputs: &'a [Resource],
    pub log: Log<'a>,
    /// What the stage's [`Stage::fork`] prepared for this worker.
    pub state: &'a mut (dyn Any + Send),
}

/// A destination of the run, and whether the worker tailors others after it.
#[derive(Clone, Copy)]
pub struct Destination<'a> {
    pub cluster: &'a Cluster,
    /// More destinations follow on this worker: what a stage's state keeps may be reused.
    pub more: bool,
}

impl<'a, O> Context<'a, O> {
    /// The cluster being tailored for, if any.
    pub fn cluster(&self) -> Option<&'a Cluster> {
        self.destination.map(|d| d.cluster)
    }

    /// Whether the run records what each rule does (stages then count, which costs time).
    pub fn explaining(&self) -> bool {
        self.log.explain.is_some()
    }

    /// Records what the rule written at `field` did, when the run explains itself.
    pub fn note_rule(&mut self, field: impl Into<String>, what: impl Into<String>) {
        if let Some(notes) = self.log.explain.as_deref_mut() {
            notes.rules.push((field.into(), what.into()));
        }
    }

    /// The stage's state, as its [`Stage::fork`] made it.
    pub fn state<T: 'static>(&mut self) -> Option<&mut T> {
        self.state.downcast_mut()
    }
}

/// A stage of a run with the inputs it claimed and its state for one worker.
pub struct Forked<'p, O> {
    pub stage: &'p dyn Stage<O>,
    /// Its place in the job.
    at: usize,
    inputs: &'p [Resource],
    state: State,
}

/// A stage of a job, its place there and the inputs it claimed: what a worker forks.
pub type Seed<'p, O> = (&'p dyn Stage<O>, usize, &'p [Resource]);

impl<'p, O> Forked<'p, O> {
    /// The worker of `seed`'s stage, prepared from its inputs; problems with them go to
    /// `results`.
    pub fn new(seed: Seed<'p, O>, results: &mut Vec<KrmResult>) -> Forked<'p, O> {
        let (stage, at, inputs) = seed;
        let state = stage.fork(inputs, results);
        Forked {
            stage,
            at,
            inputs,
            state,
        }
    }

    /// The stage, its place and its inputs, to fork it on another thread.
    pub fn seed(&self) -> Seed<'p, O> {
        (self.stage, self.at, self.inputs)
    }
}

/// Runs `stages` in order for `destination` (if any) with `options`. A stage that reports an
/// error does not stop the others: every problem is reported at once, and a failed run
/// returns the input unchanged anyway.
pub fn run_all<O>(
    stages: &mut [Forked<'_, O>],
    items: &mut Vec<Resource>,
    destination: Option<Destination<'_>>,
    options: &O,
    log: &mut Log<'_>,
) {
    // Reported once, after the stage that did it.
    let mut lost = false;
    for forked in stages.iter_mut() {
        let stage = forked.stage;
        let named = identity::named(items);
        let before = log.explain.is_some().then(|| explain::Snapshot::of(items));
        let mut ctx = Context {
            destination,
            options,
            inputs: forked.inputs,
            log: Log {
                results: &mut *log.results,
                explain: log.explain.as_deref_mut(),
                stage: forked.at,
            },
            state: forked.state.as_mut(),
        };
        stage.run(items, &mut ctx);
        if !lost {
            let Declaration { name, rules, .. } = stage.declares();
            let errors = identity::lost_identity(name, rules, items, &named);
            lost = !errors.is_empty();
            log.results.extend(errors);
        }
        if let (Some(before), Some(notes)) = (before, log.explain.as_deref_mut()) {
            notes
                .stages
                .push(before.compare(stage.declares().name, items));
        }
    }
}
