//! The items a run consumes rather than tailors: inventory objects (they describe
//! destinations), CustomTransforms (they configure the strip) and, when the configuration
//! names overlay sets, the Fleet overlay files under `overlays/`. None of them is emitted.

use tailor_fleet::BundleFile;
use tailor_kubestellar::strip::{parse_custom_transform_at, CustomTransform, PathSyntax};

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
            (p.takes_overlay_files() && item.path().is_some_and(tailor_fleet::is_under_overlays))
                || p.stages.iter().any(|s| s.consumes(item))
        })
}

/// Separates the objects to tailor from the inputs the run consumes: inventory objects,
/// CustomTransforms, overlay files when the plan takes them, and what stages take as inputs.
/// CustomTransform errors go to `results`.
pub(super) fn split(items: Vec<Resource>, plan: &Plan, results: &mut Vec<KrmResult>) -> Inputs {
    let takes_overlays = plan.takes_overlay_files();
    let mut inputs = Inputs {
        work: Vec::new(),
        consumed: Vec::new(),
        transforms: Vec::new(),
        overlay_files: plan.overlay_files.clone(),
    };
    let mut taken = vec![false; items.len()];
    for stage in &plan.stages {
        for i in stage.take_inputs(&items) {
            taken[i] = true;
        }
    }
    let consumed = |(item, taken): (&Resource, &bool)| {
        *taken
            || is_custom_transform(item)
            || is_inventory(item)
            || (takes_overlays && item.path().is_some_and(tailor_fleet::is_under_overlays))
    };
    if !items.iter().zip(&taken).any(consumed) {
        // Nothing to take out (the common case): the list is the work, not moved into another.
        inputs.work = items;
        return inputs;
    }
    inputs.work.reserve(items.len());
    let mut custom = Vec::new();
    for (item, taken) in items.into_iter().zip(taken) {
        if is_custom_transform(&item) {
            custom.push(item);
        } else if taken || is_inventory(&item) {
            inputs.consumed.push(item);
        } else if takes_overlays && item.path().is_some_and(tailor_fleet::is_under_overlays) {
            add_overlay_file(&mut inputs.overlay_files, item);
        } else {
            inputs.work.push(item);
        }
    }
    inputs.transforms = item_transforms(&custom, results);
    inputs
}

/// Items under `overlays/<name>/` become the documents of their overlay file.
fn add_overlay_file(files: &mut Vec<BundleFile>, item: Resource) {
    let path = tailor_go::path::clean(item.path().unwrap_or_default());
    match files.iter_mut().find(|f| f.path == path) {
        Some(f) => f.docs.push(item.into_node()),
        None => files.push(BundleFile {
            path,
            docs: vec![item.into_node()],
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
