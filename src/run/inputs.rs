//! The items a run consumes rather than tailors: inventory objects (they describe
//! destinations), CustomTransforms (they configure the strip) and, when the configuration
//! names overlay sets, the Fleet overlay files under `overlays/`. None of them is tailored;
//! they come back as read when the host writes files back (kpt), else they are not emitted.

use tailor_fleet::BundleFile;
use tailor_kubestellar::strip::{parse_custom_transform_at, CustomTransform, PathSyntax};

use super::returned::Returned;
use crate::config::{is_custom_transform, Plan};
use tailor_kio::{KrmResult, Resource};

/// The run's items, sorted.
pub(super) struct Inputs {
    /// The objects to tailor.
    pub work: Vec<Resource>,
    /// Inventory objects and the inputs stages take (`substituteFrom` sources), as read.
    pub consumed: Vec<Resource>,
    /// CustomTransforms that arrived as items, parsed.
    pub transforms: Vec<CustomTransform>,
    /// Fleet overlay files: the plan's own, then those among the items.
    pub overlay_files: Vec<BundleFile>,
    /// The inputs that come back in the answer.
    pub returned: Returned,
}

/// Whether an item is an inventory object (only its identity is needed to tell).
pub fn is_inventory(r: &Resource) -> bool {
    tailor_cluster::inventory_kind_of(r.api_version(), r.kind(), r.namespace()).is_some()
}

/// Whether the run may consume `item` (see [`split`]); `plan` is the one read ahead, if any.
/// Such items are never changed as they are read.
pub fn may_consume(plan: Option<&Plan>, item: &Resource) -> bool {
    is_custom_transform(item)
        || is_inventory(item)
        || plan.is_some_and(|p| {
            p.own_config.as_ref().is_some_and(|c| c.is(item))
                || (p.takes_overlay_files()
                    && item.path().is_some_and(tailor_fleet::is_under_overlays))
                || p.stages.iter().any(|s| s.consumes(item))
        })
}

/// Separates the objects to tailor from the inputs the run consumes: inventory objects,
/// CustomTransforms, overlay files when the plan takes them, and what stages take as inputs.
/// (A `substituteFrom` source that shares its name with a manifest of the build is the one
/// marked local-config, and the manifest is tailored and deployed, as Flux deploys it: see
/// the stage's `take_inputs`.) When the host writes files back, the
/// inputs and the functionConfig's own item come back as read ([`Returned`]).
/// CustomTransform errors go to `results`.
pub(super) fn split(items: Vec<Resource>, plan: &Plan, results: &mut Vec<KrmResult>) -> Inputs {
    let takes_overlays = plan.takes_overlay_files();
    let returns = plan.host.writes_files_back();
    let own_config =
        |item: &Resource| returns && plan.own_config.as_ref().is_some_and(|c| c.is(item));
    let mut inputs = Inputs {
        work: Vec::new(),
        consumed: Vec::new(),
        transforms: Vec::new(),
        overlay_files: plan.overlay_files.clone(),
        returned: Returned::default(),
    };
    let mut taken = vec![false; items.len()];
    for stage in &plan.stages {
        for i in stage.take_inputs(&items) {
            taken[i] = true;
        }
    }
    let overlay = |item: &Resource| {
        takes_overlays && item.path().is_some_and(tailor_fleet::is_under_overlays)
    };
    let consumed = |(item, taken): (&Resource, &bool)| {
        *taken
            || is_custom_transform(item)
            || is_inventory(item)
            || overlay(item)
            || own_config(item)
    };
    if !items.iter().zip(&taken).any(consumed) {
        // Nothing to take out (the common case): the list is the work, not moved into another.
        inputs.work = items;
        return inputs;
    }
    inputs.work.reserve(items.len());
    let mut custom = Vec::new();
    for (item, taken) in items.into_iter().zip(taken) {
        let before = inputs.work.len();
        // Only what came from a file comes back: another would be written to a new one.
        let comes_back = returns && item.path().is_some();
        let returned = &mut inputs.returned;
        let mut keep = |item: &Resource, what: &str| {
            if comes_back {
                returned.keep(before, item.clone(), Some(what), results);
            }
        };
        if own_config(&item) {
            if comes_back {
                inputs.returned.keep(before, item, None, results);
            }
        } else if is_custom_transform(&item) {
            keep(&item, "a CustomTransform tailor reads");
            custom.push(item);
        } else if is_inventory(&item) {
            keep(&item, "an inventory object tailor reads");
            inputs.consumed.push(item);
        } else if taken {
            keep(&item, "a `substituteFrom` source tailor reads");
            inputs.consumed.push(item);
        } else if overlay(&item) {
            keep(&item, "a Fleet overlay file tailor reads");
            add_overlay_file(&mut inputs.overlay_files, item);
        } else {
            inputs.work.push(item);
        }
    }
    inputs.transforms = item_transforms(&custom, results);
    inputs
}

/// Items under `overlays/<name>/` become the documents of their overlay file, without the
/// host's bookkeeping (their path is the overlay's, not the patched object's).
fn add_overlay_file(files: &mut Vec<BundleFile>, item: Resource) {
    let path = tailor_go::path::clean(item.path().unwrap_or_default());
    let mut node = item.into_node();
    tailor_kio::orchestrator::drop_bookkeeping(&mut node);
    match files.iter_mut().find(|f| f.path == path) {
        Some(f) => f.docs.push(node),
        None => files.push(BundleFile {
            path,
            docs: vec![node],
        }),
    }
}

/// The CustomTransform items, parsed; errors name the item's place in the ResourceList
/// (`items[3].spec.remove[0]`), or, for a document of a file, the field in the object.
fn item_transforms(items: &[Resource], results: &mut Vec<KrmResult>) -> Vec<CustomTransform> {
    let mut out = Vec::new();
    for (i, r) in items.iter().enumerate() {
        let name = r
            .place()
            .map_or_else(|| format!("item {i}"), |p| p.into_owned());
        match parse_custom_transform_at(
            r.node(),
            &name,
            PathSyntax::Extended,
            &r.place().unwrap_or_default(),
        ) {
            Ok(t) => out.push(t),
            Err(findings) => results.extend(findings.into_iter().map(|f| {
                let result = KrmResult::from(f);
                if r.place().is_none() {
                    result.about(r)
                } else {
                    result
                }
            })),
        }
    }
    out
}
