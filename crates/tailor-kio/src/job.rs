//! What the pipeline runs: a [`Job`] is the plan a functionConfig asks for, seen from the data
//! path. It gives the stages, the destinations and the limits, and answers the few questions
//! only the plan can (which options a destination gets, what `--explain` says of that choice,
//! which of its rules an in-place host cannot take). Everything else about a run (how items are
//! read, which items are inputs, what runs once before a fan-out's copies are made) is derived
//! here from what the stages declare.

use tailor_cluster::{Cluster, CompactSpec};
use tailor_kube::Diagnostic;

use crate::host::OwnConfig;
use crate::pipeline::{Claim, Reads, Scope, Stage};
use crate::run::Destinations;
use crate::{KrmResult, Resource};

/// How a job runs: its destinations and limits, as the functionConfig and the command line
/// set them.
#[derive(Clone, Copy)]
pub struct Settings<'a> {
    /// Destinations: one tailored copy per entry; none means "no destination named".
    pub clusters: &'a [CompactSpec],
    /// `spec.clusters` was used: each copy carries its destination's name.
    pub fan_out: bool,
    /// Largest number of tailored copies (destinations × items) one run may produce.
    pub max_fan_out_items: usize,
    /// Most output bytes a fan-out whose answer is held whole may hold
    /// (`spec.limits.maxHeldOutputBytes`); `None` for the environment variable or the default.
    pub max_held_output_bytes: Option<u64>,
    /// What reading the configuration found worth saying; they lead the run's results.
    pub notes: &'a [Diagnostic],
    /// Warnings are errors.
    pub strict: bool,
    /// `--shard` left this run no destination: it renders nothing, and says this.
    pub empty_shard: Option<&'a str>,
    /// Report what each destination's run does instead of the objects.
    pub explain: bool,
}

/// What an in-place host needs checked, beyond what every run checks.
pub enum Check<'a> {
    /// Before anything runs: a rule that tailors its own output again.
    Rules,
    /// The run's output, before its inputs come back, for its destinations: a text the next
    /// render would tailor again.
    Output {
        items: &'a [Resource],
        clusters: &'a Destinations<'a>,
        /// What each stage claimed as its inputs, by its place in the job.
        claimed: &'a [Vec<Resource>],
    },
}

/// The plan a functionConfig asks for, as the pipeline runs it.
pub trait Job: Sync {
    /// What a destination is tailored with; the pipeline only hands them over.
    type Options: Clone + Send + Sync;
    /// The stages, in order.
    fn stages(&self) -> &[Box<dyn Stage<Self::Options>>];
    fn settings(&self) -> Settings<'_>;
    /// The options every destination gets when they cannot differ.
    fn shared_options(&self) -> Self::Options;
    /// Whether destinations can get different options.
    fn options_vary(&self) -> bool;
    /// The options `cluster` (or no destination) gets, what decided them going to `results`;
    /// `None` when nothing is deployed there.
    fn options_for(
        &self,
        cluster: Option<&Cluster>,
        results: &mut Vec<KrmResult>,
    ) -> Option<Self::Options>;
    /// What chose `cluster`'s options, as a key: destinations with equal keys get equal
    /// options, so a fan-out may render them once ([`crate::renderings`]). `None` (the
    /// default) when the job cannot tell: the whole cluster, its name too, is the key.
    fn options_key(&self, _cluster: &Cluster) -> Option<Vec<usize>> {
        None
    }
    /// Warnings about the destinations as a whole (a rule that matches none of them).
    fn check_destinations(&self, clusters: &Destinations<'_>, results: &mut Vec<KrmResult>);
    /// What `--explain` says of how `cluster`'s options were chosen; `false` when nothing is
    /// deployed there.
    fn explain_choice(&self, cluster: &Cluster, out: &mut String) -> bool;
    /// The refusal of what an in-place render cannot take (the host renders in place).
    fn in_place_refusal(&self, check: Check<'_>) -> Option<KrmResult>;
}

/// Whether some stage reads (or writes) every object's tree, or the run copies every object
/// for several destinations. When not, the items' trees can be dropped as they are read, and
/// only the objects a stage does look into are parsed again.
pub fn reads_every_object<J: Job + ?Sized>(job: &J) -> bool {
    copies(job)
        || job
            .stages()
            .iter()
            .any(|s| s.declares().reads == Reads::Every)
}

/// Whether some stage reads every object besides the work the stage that runs as objects are
/// read ([`stage_at_read`]) does then.
pub fn reads_every_object_after_read<J: Job + ?Sized>(job: &J) -> bool {
    let skip = if stage_at_read(job).is_some() {
        AT_READ + 1
    } else {
        0
    };
    copies(job)
        || job.stages()[skip..]
            .iter()
            .any(|s| s.declares().reads == Reads::Every)
}

/// Whether the run copies every object for several destinations.
pub(crate) fn copies<J: Job + ?Sized>(job: &J) -> bool {
    let settings = job.settings();
    settings.fan_out || settings.clusters.len() > 1
}

/// The annotations some stage decides on before reading an object: a deferred object keeps
/// them at hand.
pub fn header_annotations<J: Job + ?Sized>(job: &J) -> Vec<&'static str> {
    let mut keys = Vec::new();
    for s in job.stages() {
        if let Reads::Annotated(k) = s.declares().reads {
            keys.extend_from_slice(k);
        }
    }
    keys
}

/// The place in its job of the stage that may run on each object as it is read
/// ([`stage_at_read`]): the first, as nothing may need an object as it was before it. What it
/// found as an object was read is kept under this place.
pub const AT_READ: usize = 0;

/// The stage that may run on each object as it is read: the one at [`AT_READ`], when it has
/// a per-object form.
pub fn stage_at_read<J: Job + ?Sized>(job: &J) -> Option<&dyn Stage<J::Options>> {
    job.stages()
        .get(AT_READ)
        .map(Box::as_ref)
        .filter(|s| s.each().is_some())
}

/// Which stages run once for every destination, before a fan-out's copies are made: the
/// shared stages up to the first that depends on the destination; past a schedule, only those
/// that treat each object on its own (they commute with it). The others run for each
/// destination, in order.
pub fn shared_stages<J: Job + ?Sized>(job: &J) -> Vec<bool> {
    let stages = job.stages();
    let mut shared = vec![false; stages.len()];
    let mut past_schedule = false;
    for (i, s) in stages.iter().enumerate() {
        match s.declares().scope {
            Scope::PerDestination => break,
            Scope::Selects => past_schedule = true,
            Scope::Shared if past_schedule => break,
            Scope::Shared | Scope::SharedEach => shared[i] = true,
        }
    }
    shared
}

/// Whether an item is an inventory object (only its identity is needed to tell).
pub fn is_inventory(r: &Resource) -> bool {
    tailor_cluster::inventory_kind_of(r.api_version(), r.kind(), r.namespace()).is_some()
}

/// Whether a run of `job` may consume `item` rather than tailor it: an inventory object, the
/// functionConfig's own item (`own`), or what a stage claims. Such items are never changed as
/// they are read.
pub fn may_consume<J: Job + ?Sized>(job: &J, own: Option<&OwnConfig>, item: &Resource) -> bool {
    is_inventory(item)
        || own.is_some_and(|c| c.is(item))
        || job.stages().iter().any(|s| s.claims(item) != Claim::No)
}
