//! One run of the function: read, configure, tailor for each destination, write.
//! Any error result means nothing tailored is written: the input items come back unchanged,
//! with the results, and the exit code is 1.

use tailor_cluster::{inventory, Cluster, Inventory};
use tailor_kubestellar::strip::{parse_custom_transform_at, CustomTransform, PathSyntax};
use tailor_yaml::{Node, ParseOptions};

use crate::config::{self, Pipeline};
use crate::filters::{self, StageContext};
use crate::krm::read::{read_input_owned, Input, Trees};
use crate::krm::{annotations, read_input, KrmResult, Resource};

/// What a run produced: the list to print and the exit code.
pub struct Outcome {
    pub items: Vec<Resource>,
    pub results: Vec<KrmResult>,
    pub failed: bool,
}

/// A Fleet bundle directory read in standalone mode: its fleet.yaml and overlay files.
pub struct FleetBundle {
    pub config: tailor_fleet::FleetConfig,
    pub overlays: Vec<tailor_fleet::BundleFile>,
}

/// Runs the pipeline the functionConfig asks for over `items`.
pub fn process(items: Vec<Resource>, fc: Option<&Node>) -> Outcome {
    process_with_bundle(items, fc, None)
}

/// Like [`process`], with a Fleet bundle's fleet.yaml read as if written in the `Tailor` spec.
pub fn process_with_bundle(
    items: Vec<Resource>,
    fc: Option<&Node>,
    bundle: Option<FleetBundle>,
) -> Outcome {
    let mut pipeline = match config::parse(fc) {
        Ok(p) => p,
        Err(results) => return failed(results),
    };
    if let Some(bundle) = bundle {
        if let Err(r) = adopt_bundle(&mut pipeline, bundle) {
            return failed(vec![r]);
        }
    }
    let mut results = Vec::new();
    let (work, consumed) = split_inputs(items, &mut results);
    let work = take_overlay_files(&mut pipeline, work);
    if results.iter().any(KrmResult::is_error) {
        return failed(results);
    }
    let clusters = match resolve_clusters(&pipeline, &consumed, &mut results) {
        Some(c) => c,
        None => return failed(results),
    };
    let mut transforms = pipeline.custom_transforms.clone();
    transforms.extend(item_transforms(&consumed, &mut results));
    if results.iter().any(KrmResult::is_error) {
        return failed(results);
    }
    if !clusters.is_empty()
        && clusters.len().saturating_mul(work.len()) > pipeline.max_fan_out_items
    {
        return failed(vec![KrmResult::error(format!(
            "fan-out of {} items to {} clusters exceeds the limit of {} tailored items (spec.limits.maxFanOutItems)",
            work.len(),
            clusters.len(),
            pipeline.max_fan_out_items
        ))
        .at_field("spec.clusters")]);
    }
    let out;
    if clusters.is_empty() {
        let mut items = work;
        run_stages(&pipeline, &mut items, None, &transforms, &mut results, None);
        out = items;
    } else {
        let mut work = work;
        // Stripping is WEC-independent: with several destinations it runs once, before the
        // copies are made, instead of once per copy (its warnings then appear once too). So do
        // the overlay stages when every destination gets the same options (no Fleet target
        // customizations, no Kratix schedule in front of them).
        let per_cluster;
        let (pipeline, transforms): (&Pipeline, &[CustomTransform]) = if clusters.len() > 1 {
            let mut ctx = StageContext {
                cluster: None,
                custom_transforms: &transforms,
                results: &mut results,
                memo: None,
            };
            filters::strip::run(&pipeline, &mut work, &mut ctx);
            let mut p = pipeline.clone();
            p.strip_builtin = false;
            p.custom_transforms.clear();
            if let Some(shared) = shared_options(&pipeline, &clusters) {
                filters::overlay_stages(&shared, &pipeline, &mut work, &mut ctx);
                if let Some(fleet) = &mut p.fleet {
                    fleet.root = filters::without_overlay_stages(&shared);
                }
            }
            per_cluster = p;
            (&per_cluster, &[])
        } else {
            (&pipeline, &transforms)
        };
        if clusters.len() == 1 {
            let mut items = work;
            run_stages(
                pipeline,
                &mut items,
                Some(&clusters[0]),
                transforms,
                &mut results,
                None,
            );
            if pipeline.fan_out {
                for item in &mut items {
                    prefix_path(item, &clusters[0].name);
                }
            }
            out = items;
        } else {
            let (items, cluster_results) = fan_out(pipeline, &work, &clusters);
            out = items;
            results.extend(cluster_results);
        }
    }
    if results.iter().any(KrmResult::is_error) {
        return failed(results);
    }
    Outcome {
        items: out,
        results,
        failed: false,
    }
}

/// Tailors a copy of `work` for each destination. Destinations are independent, so they are
/// split into contiguous runs, one per available core; the copies and results are joined in
/// destination order, so the output is the same bytes however many threads ran.
fn fan_out(
    pipeline: &Pipeline,
    work: &[Resource],
    clusters: &[Cluster],
) -> (Vec<Resource>, Vec<KrmResult>) {
    let threads = fan_out_threads().clamp(1, clusters.len());
    let per_thread = clusters.len().div_ceil(threads);
    let run = |chunk: &[Cluster]| {
        let mut memo = filters::substitute::Memo::default();
        let mut out = Vec::with_capacity(work.len() * chunk.len());
        let mut results = Vec::new();
        for (i, cluster) in chunk.iter().enumerate() {
            memo.last_destination = i + 1 == chunk.len();
            let mut items = work.to_vec();
            run_stages(
                pipeline,
                &mut items,
                Some(cluster),
                &[],
                &mut results,
                Some(&mut memo),
            );
            if pipeline.fan_out {
                for item in &mut items {
                    prefix_path(item, &cluster.name);
                }
            }
            out.extend(items);
        }
        (out, results)
    };
    if threads == 1 {
        return run(clusters);
    }
    std::thread::scope(|scope| {
        let handles: Vec<_> = clusters
            .chunks(per_thread)
            .map(|chunk| scope.spawn(move || run(chunk)))
            .collect();
        let mut out = Vec::with_capacity(work.len() * clusters.len());
        let mut results = Vec::new();
        for handle in handles {
            match handle.join() {
                Ok((items, r)) => {
                    out.extend(items);
                    results.extend(r);
                }
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        (out, results)
    })
}

/// One per core, or `TAILOR_THREADS` (for CI runners that share their cores).
fn fan_out_threads() -> usize {
    std::env::var("TAILOR_THREADS")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|&n| n > 0)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from))
}

/// The options every destination resolves to, when they cannot differ: Fleet options without
/// target customizations, and no Kratix schedule (it picks objects per destination before the
/// overlays run).
fn shared_options(pipeline: &Pipeline, clusters: &[Cluster]) -> Option<tailor_fleet::Options> {
    let fleet = pipeline.fleet.as_ref()?;
    if !fleet.customizations.is_empty() || pipeline.kratix.is_some() {
        return None;
    }
    match fleet.resolve(clusters.first()?) {
        tailor_fleet::Decision::Deploy { options, .. } => Some(options),
        tailor_fleet::Decision::Skip { .. } => None,
    }
}

fn failed(results: Vec<KrmResult>) -> Outcome {
    Outcome {
        items: Vec::new(),
        results,
        failed: true,
    }
}

/// The CustomTransform items, parsed; errors name the item's place in the ResourceList
/// (`items[3].spec.remove[0]`), or, for a document of a file, the field in the object.
fn item_transforms(consumed: &[Resource], results: &mut Vec<KrmResult>) -> Vec<CustomTransform> {
    let mut out = Vec::new();
    for (i, r) in consumed
        .iter()
        .filter(|r| is_custom_transform(r))
        .enumerate()
    {
        let name = r
            .place()
            .map_or_else(|| format!("item {i}"), str::to_string);
        match parse_custom_transform_at(
            r.node(),
            &name,
            PathSyntax::Extended,
            r.place().unwrap_or(""),
        ) {
            Ok(t) => out.push(t),
            Err(findings) => results.extend(findings.into_iter().map(|f| {
                let result = filters::strip::finding_result(f);
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

fn is_custom_transform(r: &Resource) -> bool {
    r.kind() == "CustomTransform" && r.api_version() == "control.kubestellar.io/v1alpha1"
}

/// Separates the objects to tailor from inputs that describe destinations or transforms:
/// those are consumed, not emitted.
fn split_inputs(
    items: Vec<Resource>,
    results: &mut Vec<KrmResult>,
) -> (Vec<Resource>, Vec<Resource>) {
    let mut work = Vec::with_capacity(items.len());
    let mut consumed = Vec::new();
    for item in items {
        let is_input = is_custom_transform(&item)
            || (might_be_inventory(&item)
                && match item.node().to_json() {
                    Ok(j) => inventory::is_inventory(&j),
                    Err(e) => {
                        results.push(KrmResult::error(e.to_string()).about(&item));
                        false
                    }
                });
        if is_input {
            consumed.push(item);
        } else {
            work.push(item);
        }
    }
    (work, consumed)
}

/// A cheap pre-check so ordinary objects are not converted to JSON.
fn might_be_inventory(r: &Resource) -> bool {
    matches!(
        r.kind(),
        "ManagedCluster" | "Cluster" | "ClusterGroup" | "Destination"
    ) || (r.kind() == "ConfigMap" && r.namespace() == Some(inventory::PROPERTIES_NAMESPACE))
}

fn resolve_clusters(
    pipeline: &Pipeline,
    consumed: &[Resource],
    results: &mut Vec<KrmResult>,
) -> Option<Vec<Cluster>> {
    let mut inventory = Inventory::default();
    for r in consumed.iter().filter(|r| !is_custom_transform(r)) {
        // Items that do not convert were reported and left out by split_inputs.
        let Ok(json) = r.node().to_json() else {
            continue;
        };
        // A ResourceList item is named by its place there (`items[3].metadata.name`);
        // a document of a file by its file and index, with paths inside the object.
        if let Err(e) = inventory.add_item(&json, r.place().unwrap_or("")) {
            let mut result = KrmResult::error(e.to_string()).at_field(e.field.clone());
            if r.place().is_none() {
                result = result.about(r);
            }
            results.push(result);
            return None;
        }
    }
    for w in inventory.warnings() {
        results.push(KrmResult::warning(w.clone()));
    }
    Some(
        pipeline
            .clusters
            .iter()
            .map(|spec| inventory.resolve_spec(spec))
            .collect(),
    )
}

/// fleet.yaml takes the place of the Fleet fields of the spec; setting them in both is an error.
fn adopt_bundle(pipeline: &mut Pipeline, bundle: FleetBundle) -> Result<(), KrmResult> {
    let mut config = bundle.config;
    if let Some(spec) = &pipeline.fleet {
        let fleet_fields_set = !spec.customizations.is_empty()
            || spec.root.namespace.is_some()
            || spec.root.default_namespace.is_some()
            || !spec.root.yaml_overlays.is_empty();
        if fleet_fields_set {
            return Err(KrmResult::error(
                "the bundle's fleet.yaml and the Tailor spec both set Fleet fields (targetCustomizations, namespace, defaultNamespace, yaml): keep them in one place",
            )
            .at_field("spec.targetCustomizations"));
        }
        if config.root.flux.is_empty() {
            config.root.flux = spec.root.flux.clone();
        }
    }
    pipeline.fleet = Some(config);
    pipeline.overlay_files.extend(bundle.overlays);
    Ok(())
}

/// Fleet overlay content arrives as items under `overlays/<name>/`: when the configuration names
/// overlay sets, those items are overlay input, not objects to deploy.
fn take_overlay_files(pipeline: &mut Pipeline, work: Vec<Resource>) -> Vec<Resource> {
    let Some(fleet) = &pipeline.fleet else {
        return work;
    };
    if !fleet.uses_yaml_overlays() {
        return work;
    }
    let (overlay_items, rest): (Vec<Resource>, Vec<Resource>) = work
        .into_iter()
        .partition(|r| r.path().is_some_and(tailor_fleet::is_under_overlays));
    for item in overlay_items {
        let path = tailor_go::path::clean(item.path().unwrap_or_default());
        match pipeline.overlay_files.iter_mut().find(|f| f.path == path) {
            Some(f) => f.docs.push(item.into_node()),
            None => pipeline.overlay_files.push(tailor_fleet::BundleFile {
                path,
                docs: vec![item.into_node()],
            }),
        }
    }
    rest
}

fn run_stages(
    pipeline: &Pipeline,
    items: &mut Vec<Resource>,
    cluster: Option<&Cluster>,
    transforms: &[CustomTransform],
    results: &mut Vec<KrmResult>,
    memo: Option<&mut filters::substitute::Memo>,
) {
    let mut ctx = StageContext {
        cluster,
        custom_transforms: transforms,
        results,
        memo,
    };
    filters::run_all(pipeline, items, &mut ctx);
}

/// Fan-out: each copy lives under `<cluster>/` so kpt and `--output-dir` keep them apart.
fn prefix_path(item: &mut Resource, cluster: &str) {
    item.set_cluster(cluster);
    let path = item
        .annotation(annotations::PATH)
        .or_else(|| item.annotation(annotations::LEGACY_PATH))
        .map(str::to_string);
    if let Some(p) = path {
        let prefixed = format!("{cluster}/{p}");
        item.set_annotation(annotations::PATH, &prefixed);
        item.set_annotation(annotations::LEGACY_PATH, &prefixed);
    } else if !matches!(
        item.origin(),
        crate::krm::Origin::Document { file: Some(_), .. }
    ) {
        let prefixed = format!("{cluster}/{}", item.default_path());
        item.set_annotation(annotations::PATH, &prefixed);
        item.set_annotation(annotations::LEGACY_PATH, &prefixed);
    }
}

/// How the items of a ResourceList are read (see [`item_reading`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reading {
    /// Every item keeps its tree.
    Keep,
    /// Trees are dropped as items are read and built again for the objects a stage reads.
    Defer,
    /// The built-in strip runs on each object as it is read.
    Strip,
}

/// How the items of this input are read. When the functionConfig, read ahead of them, asks
/// for no stage that reads every object, their trees are deferred: only the objects a stage
/// looks into are parsed again, and a large list is held as its text. When it asks for the
/// built-in strip (and nothing that must see objects before it), each item is stripped as
/// soon as it is read, so what strip removes (managedFields, status) never accumulates. The
/// guess costs time when wrong, never a different output: deferred trees are rebuilt exactly,
/// and [`crate::cli::respond`] reads again without stripping when the real functionConfig
/// does not allow it.
pub fn item_reading(text: &str) -> Reading {
    let Some(fc) = crate::krm::read::function_config_ahead(text) else {
        return Reading::Keep;
    };
    match config::parse(Some(&fc)) {
        Ok(pipeline) if !pipeline.reads_every_object() => Reading::Defer,
        Ok(pipeline) if strips_while_reading(&pipeline) => Reading::Strip,
        _ => Reading::Keep,
    }
}

/// Reads the input text the way `reading` says.
pub fn read_items(text: String, reading: Reading) -> Result<Input, KrmResult> {
    let opts = parse_options();
    match reading {
        Reading::Keep => read_input_owned(text, &opts, Trees::Keep),
        Reading::Defer => read_input_owned(text, &opts, Trees::Defer),
        Reading::Strip => read_input_owned(text, &opts, Trees::Prepare(&mut strip_as_read)),
    }
}

/// The built-in strip of one object as it is read, unless the run consumes it (inventory
/// objects and CustomTransforms are read before any stage runs).
fn strip_as_read(item: &mut Resource) -> bool {
    if is_custom_transform(item) || might_be_inventory(item) {
        return false;
    }
    match filters::strip::strip_while_reading(item) {
        Some(results) => {
            item.set_strip_results(results);
            true
        }
        None => false,
    }
}

/// Whether the functionConfig a run got allows the strip that ran as the items were read.
pub fn may_strip_while_reading(fc: Option<&Node>) -> bool {
    fc.is_some() && config::parse(fc).is_ok_and(|p| strips_while_reading(&p))
}

/// Whether the built-in strip may run as items are read: it is on, and nothing needs an
/// object as it was before the strip stage (a Kratix schedule picks objects before it; Fleet
/// overlay files are taken out of the items first). Inventory objects, CustomTransforms and
/// local-config objects are never stripped while reading (`krm::read`).
pub fn strips_while_reading(pipeline: &Pipeline) -> bool {
    pipeline.strip_builtin
        && pipeline.kratix.is_none()
        && !pipeline
            .fleet
            .as_ref()
            .is_some_and(tailor_fleet::FleetConfig::uses_yaml_overlays)
        && pipeline.overlay_files.is_empty()
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
