//! A Fleet Helm bundle rendered per destination with tailor's Helm engine (`tailor-helm`), as
//! the Fleet agent's Helm deployer renders it (rancher/fleet at commit
//! a03565936549761d8fc6d6d936b25b431ed57ff6, `internal/helmdeployer/install.go` `getOpts`,
//! `getValues`; `postrender.go`):
//!
//! - the chart: a directory of the bundle holding a `Chart.yaml` (`helm.chart`, or the
//!   bundle's root), or a chart Fleet downloads (`helm.repo`, an OCI or https `helm.chart`),
//!   read from the chart directory the user names (`--chart-dir`, `TAILOR_HELM_CHART_DIR`),
//!   laid out as `helm pull --untar --untardir DIR` leaves it. Each chart is loaded and
//!   parsed once; every destination renders the parsed chart;
//! - the release name: `helm.releaseName`, else the bundle's name limited to 53 characters
//!   (Fleet names the bundle after the GitRepo and path; tailor, given only the directory,
//!   uses the directory's name and says so);
//! - the release namespace: `namespace`, else `defaultNamespace`, else `default` (the agent's
//!   default namespace);
//! - the values: Fleet's merged `helm.values` with `valuesFiles` folded in, after its
//!   `${ }` cluster-value templating (`tailor_fleet::values::helm_values`, with the Fleet
//!   `Cluster` inventory object's namespace and `spec.templateValues`), then `helm.valuesFrom`
//!   read from ConfigMaps and Secrets given as inputs (`tailor_fleet::values_from`);
//! - dependencies: one missing from `charts/` is an error unless
//!   `helm.disableDependencyUpdate` (Fleet downloads it; tailor is offline);
//! - what Helm installs: CRDs from `crds/` first, no test hooks, no hooks at all with
//!   `helm.disableHooks`;
//! - the Kubernetes version (`.Capabilities.KubeVersion`, and the chart's `kubeVersion`
//!   constraint, which the agent's install refuses to break): the cluster's own, as given by
//!   its `kubeVersion`, else `v1.25.0`, what `fleet deploy --dry-run` assumes without
//!   `--kube-version` (`internal/helmdeployer/template.go` at commit
//!   3b2c622ce176b11644abc7fb768f87c3ffb5a3ab); `.Capabilities.APIVersions`: Helm's default
//!   set and the cluster's `apiVersions` (the agent asks the cluster's discovery).
//!
//! The rendered objects replace the bundle's own manifests (a Helm bundle deploys its chart);
//! the post-render labels Fleet's namespace and CRD keep policy follow in the stages after this
//! one, as for a raw YAML bundle.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use serde_json::{Map, Value};
use tailor_cluster::Cluster;
use tailor_fleet::chart_source::{chart_source, ChartSource};
use tailor_fleet::style::Layout;
use tailor_fleet::values::{helm_values, FleetCluster, ValuesCache};
use tailor_fleet::values_from::{agent_values, referenced, release_namespace, Source};
use tailor_go::Budget;
use tailor_helm::Engine;

use super::{Claim, Context, Declaration, Scope, Stage};
use crate::stages::Tailoring;
use tailor_kio::{files, KrmResult, Resource};

/// The environment variable naming the chart directory when `--chart-dir` does not.
pub const CHART_DIR_ENV: &str = "TAILOR_HELM_CHART_DIR";

/// The Kubernetes version Fleet's own offline rendering (`fleet deploy --dry-run`) assumes
/// when it is not told one, used for a cluster whose `kubeVersion` is not given.
const FLEET_DRY_RUN_KUBE_VERSION: &str = "v1.25.0";

/// Helm's limit on release names (`pkg/action/install.go`), which Fleet applies to the
/// bundle's name.
const MAX_RELEASE_NAME: usize = 53;

pub struct FleetHelm {
    /// The bundle's files and where downloaded charts are read from.
    pub layout: Layout,
    /// The charts parsed so far, by directory: each is parsed once for every destination.
    pub engines: Mutex<HashMap<PathBuf, Prepared>>,
    /// The ConfigMaps and Secrets some destination's `helm.valuesFrom` reads, as (kind,
    /// name): the run takes them as inputs, as the agent reads them from the cluster.
    pub values_from: Vec<(&'static str, String)>,
    /// The run's budget: every destination's values templating and chart rendering spend it.
    pub budget: Budget,
    /// The values templating's work that does not depend on the cluster, done once for all
    /// the destinations whose merged values are equal.
    pub values: ValuesCache,
}

impl FleetHelm {
    pub fn new(layout: Layout, budget: Budget) -> FleetHelm {
        FleetHelm {
            layout,
            engines: Mutex::new(HashMap::new()),
            values_from: Vec::new(),
            budget,
            values: ValuesCache::default(),
        }
    }

    /// The chart's directory on disk, or the error naming the `helm pull` that fills it.
    fn chart_dir(&self, source: &ChartSource, cluster: &str) -> Result<PathBuf, String> {
        let bundle = Path::new(&self.layout.dir);
        match source {
            ChartSource::Local(rel) if rel.is_empty() => Ok(bundle.to_path_buf()),
            ChartSource::Local(rel) => Ok(bundle.join(rel)),
            remote => {
                let name = remote.pulled_name().unwrap_or_default();
                let Some(dir) = self.layout.chart_dir.as_deref() else {
                    return Err(format!(
                        "cluster {cluster:?}: {} names a chart Fleet downloads; tailor reads it from a local chart directory: run `{}` and pass `--chart-dir charts` (or set {CHART_DIR_ENV}=charts)",
                        remote.named_by(),
                        remote.pull_command("charts")
                    ));
                };
                let found = Path::new(dir).join(&name);
                if found.join("Chart.yaml").is_file() {
                    check_version(remote, &found)?;
                    return Ok(found);
                }
                Err(format!(
                    "cluster {cluster:?}: the chart directory {dir} has no chart {name:?} ({} is missing): run `{}`",
                    found.join("Chart.yaml").display(),
                    remote.pull_command(dir)
                ))
            }
        }
    }

    /// The parsed chart at `dir`, parsed the first time a destination asks for it.
    fn engine(&self, dir: &Path) -> Result<Prepared, String> {
        let mut engines = self.engines.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(e) = engines.get(dir) {
            return Ok(e.clone());
        }
        let chart = tailor_helm::load_dir(dir)?;
        // What `helm dependency update` would download: Fleet's bundle reader runs it unless
        // `helm.disableDependencyUpdate`; without it, Helm's install renders the chart without them.
        let missing = tailor_helm::dependencies::missing(&chart);
        let engine = Arc::new(tailor_helm::prepare(chart).map_err(|e| e.0)?);
        let prepared = Prepared { engine, missing };
        engines.insert(dir.to_path_buf(), prepared.clone());
        Ok(prepared)
    }

    /// The chart rendered for `cluster` with `options`, as objects with the bundle-relative
    /// path of the template each came from; `sources` are the ConfigMaps and Secrets
    /// `helm.valuesFrom` reads.
    fn render(
        &self,
        options: &Tailoring,
        cluster: &Cluster,
        sources: &[Source],
    ) -> Result<Vec<Resource>, String> {
        let helm = options.helm.as_ref();
        let Some(source) = chart_source(helm, &self.layout) else {
            return Err(String::new());
        };
        let dir = self.chart_dir(&source, &cluster.name)?;
        let Prepared { engine, missing } = self.engine(&dir)?;
        if !missing.is_empty() && !flag(helm, "disableDependencyUpdate") {
            return Err(format!(
                "cluster {:?}: the chart {} declares dependencies missing from its charts/ directory ({}), which Fleet downloads before it renders (helm.disableDependencyUpdate is not set); tailor is offline: run `helm dependency update {}` first",
                cluster.name,
                dir.display(),
                missing.join(", "),
                dir.display()
            ));
        }
        let namespace = release_namespace(options);
        let values = release_values(options, cluster, sources, &self.budget, &self.values)?;
        let opts = tailor_helm::Options {
            release_name: release_name(helm, &self.layout, &cluster.name)?,
            namespace,
            include_crds: true,
            skip_tests: true,
            no_hooks: flag(helm, "disableHooks"),
            budget: self.budget.clone(),
            kube_version: Some(kube_version(cluster).to_string()),
            api_versions: cluster.api_versions.clone(),
            // As the agent's install checks it, after the values.
            check_kube_version: true,
            ..tailor_helm::Options::default()
        };
        let rendered = engine.render(&values, &opts).map_err(|e| {
            // A refusal of the version assumed says how to give the cluster's own.
            let assumed = cluster.kube_version.is_none() && engine.admits_kube_version(&opts).is_err();
            let hint = if assumed {
                format!(" (the cluster's kubeVersion is not given, so {FLEET_DRY_RUN_KUBE_VERSION} is assumed, as `fleet deploy --dry-run` assumes it: give the cluster entry its kubeVersion)")
            } else {
                String::new()
            };
            format!(
                "cluster {:?}: the chart of {} ({}): {e}{hint}",
                cluster.name,
                source.named_by(),
                dir.display()
            )
        })?;
        let prefix = match &source {
            ChartSource::Local(rel) if !rel.is_empty() => format!("{rel}/"),
            _ => String::new(),
        };
        to_objects(rendered, &prefix)
    }
}

/// The Kubernetes version a chart renders for on `cluster`: its own when given.
fn kube_version(cluster: &Cluster) -> &str {
    cluster
        .kube_version
        .as_deref()
        .unwrap_or(FLEET_DRY_RUN_KUBE_VERSION)
}

/// The values Helm renders with for `cluster`: Fleet's merged `helm.values` after its `${ }`
/// templating (done by Fleet's controller, with the Fleet `Cluster` object's namespace and
/// `spec.templateValues` when the inventory has it), then `helm.valuesFrom` as the agent reads
/// it in the release namespace; both spend the run's `budget`. `cache` keeps what does not
/// depend on the cluster.
fn release_values(
    options: &Tailoring,
    cluster: &Cluster,
    sources: &[Source],
    budget: &Budget,
    cache: &ValuesCache,
) -> Result<Map<String, Value>, String> {
    let helm = options.helm.as_ref();
    let fleet = match FleetCluster::of(cluster) {
        Some(fleet) => fleet,
        None => {
            unknown_cluster_fields(helm, &cluster.name)?;
            FleetCluster::default()
        }
    };
    let stored = helm_values(helm, cluster, &fleet, budget, cache)?;
    let values = agent_values(options, stored, sources, budget)
        .map_err(|e| format!("cluster {:?}: {e}", cluster.name))?;
    Ok(values.unwrap_or_default())
}

/// A parsed chart, and the dependencies its `Chart.yaml` declares that `charts/` lacks.
#[derive(Clone)]
pub struct Prepared {
    engine: Arc<Engine>,
    missing: Vec<String>,
}

/// `.ClusterNamespace` and `.ClusterValues` come from the Fleet `Cluster` object: without one
/// in the inventory, values that use them are refused rather than rendered empty.
fn unknown_cluster_fields(helm: Option<&Map<String, Value>>, cluster: &str) -> Result<(), String> {
    if flag(helm, "disablePreProcess") {
        return Ok(());
    }
    match [".ClusterNamespace", ".ClusterValues"]
        .into_iter()
        .find(|f| helm.is_some_and(|h| mentions(h, f)))
    {
        Some(f) => Err(format!(
            "cluster {cluster:?}: helm values use {f}, which comes from the Fleet Cluster object (its metadata.namespace and spec.templateValues): give tailor that object (apiVersion fleet.cattle.io/v1alpha1, kind Cluster, name {cluster}) as an inventory input"
        )),
        None => Ok(()),
    }
}

/// Whether some key or string in `map` (at any depth) contains `field`: what searching its
/// JSON text finds, without printing it (the field has no character JSON escapes).
fn mentions(map: &Map<String, Value>, field: &str) -> bool {
    fn within(v: &Value, field: &str) -> bool {
        match v {
            Value::String(s) => s.contains(field),
            Value::Array(items) => items.iter().any(|v| within(v, field)),
            Value::Object(m) => mentions(m, field),
            _ => false,
        }
    }
    map.iter()
        .any(|(k, v)| k.contains(field) || within(v, field))
}

fn flag(helm: Option<&Map<String, Value>>, key: &str) -> bool {
    helm.and_then(|h| h.get(key)).and_then(Value::as_bool) == Some(true)
}

/// `helm.version` against the pulled chart's `Chart.yaml` version, when both are exact: a
/// directory holding another version would render the wrong chart.
fn check_version(source: &ChartSource, dir: &Path) -> Result<(), String> {
    let ChartSource::Remote {
        version: Some(want),
        ..
    } = source
    else {
        return Ok(());
    };
    let text = std::fs::read_to_string(dir.join("Chart.yaml")).unwrap_or_default();
    let have = tailor_yaml::sigs::v2read::yaml11_to_json(&text)
        .ok()
        .and_then(|v| v.get("version").and_then(Value::as_str).map(str::to_string));
    let exact = !want.contains(['^', '~', '>', '<', '*', 'x', ' ', ',', '|']);
    match have {
        Some(have) if exact && have.trim_start_matches('v') != want.trim_start_matches('v') => {
            Err(format!(
                "{}: version {have}, but helm.version asks for {want}: pull that version",
                dir.join("Chart.yaml").display()
            ))
        }
        _ => Ok(()),
    }
}

/// `getOpts`: `helm.releaseName`, else the bundle's name (here its directory's) when it is
/// within Helm's limit; a longer one Fleet shortens with a hash, which tailor leaves to
/// `helm.releaseName`.
fn release_name(
    helm: Option<&Map<String, Value>>,
    layout: &Layout,
    cluster: &str,
) -> Result<String, String> {
    if let Some(name) = helm
        .and_then(|h| h.get("releaseName"))
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
    {
        return Ok(name.to_string());
    }
    let dir = Path::new(&layout.dir);
    let base = std::fs::canonicalize(dir)
        .ok()
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().to_lowercase()))
        .unwrap_or_else(|| "release".into());
    if base.len() > MAX_RELEASE_NAME {
        return Err(format!(
            "cluster {cluster:?}: the bundle's name {base:?} is longer than Helm's {MAX_RELEASE_NAME} characters; set helm.releaseName in fleet.yaml"
        ));
    }
    Ok(base)
}

/// The rendered documents as objects, each remembering its template's path in the bundle; a
/// template's documents stay one file.
fn to_objects(rendered: tailor_helm::Rendered, prefix: &str) -> Result<Vec<Resource>, String> {
    let opts = tailor_yaml::ParseOptions::default();
    let mut out = Vec::new();
    let mut files_in_order: Vec<(String, Vec<String>)> = Vec::new();
    for (source, doc) in rendered.documents {
        let rel = source.split_once('/').map_or(source.as_str(), |(_, r)| r);
        let path = format!("{prefix}{rel}");
        match files_in_order.last_mut() {
            Some((p, docs)) if *p == path => docs.push(doc),
            _ => files_in_order.push((path, vec![doc])),
        }
    }
    for (path, docs) in files_in_order {
        let text = docs.join("\n---\n") + "\n";
        for item in files::read_documents(text, &path, &opts).map_err(|r| r.message.clone())? {
            if tailor_fleet::bundle::deployable(item.api_version(), item.kind()) {
                files::check_object(&item).map_err(|r| r.message.clone())?;
                out.push(item);
            }
        }
    }
    Ok(out)
}

impl Stage<Tailoring> for FleetHelm {
    fn declares(&self) -> Declaration {
        // The values follow each cluster's labels (Fleet's `${ }` templating), so it runs per
        // destination.
        Declaration::new("fleet helm", Scope::PerDestination)
    }

    /// A ConfigMap or Secret some `helm.valuesFrom` names is cluster state the agent reads, not
    /// a manifest: among several of one identity, the one marked local-config is the source.
    fn claims(&self, item: &Resource) -> Claim {
        let named = self
            .values_from
            .iter()
            .any(|(kind, name)| item.kind() == *kind && item.name() == name);
        if named && item.api_version() == "v1" {
            Claim::Sole("a helm.valuesFrom source")
        } else {
            Claim::No
        }
    }

    fn run(&self, items: &mut Vec<Resource>, ctx: &mut Context<'_>) {
        let unnamed = Cluster::default();
        let cluster = ctx.cluster().unwrap_or(&unnamed);
        if chart_source(ctx.options.helm.as_ref(), &self.layout).is_none() {
            return; // this destination gets the bundle as raw YAML
        }
        let sources = match sources(ctx.inputs) {
            Ok(s) => s,
            Err(message) => {
                items.clear();
                ctx.log.results.push(KrmResult::error(message));
                return;
            }
        };
        match self.render(ctx.options, cluster, &sources) {
            Ok(rendered) => {
                let layout = &self.layout;
                items.retain(|i| !i.path().is_some_and(|p| layout.files.contains(p)));
                items.extend(rendered);
            }
            Err(message) => {
                items.clear();
                ctx.log.results.push(KrmResult::error(message));
            }
        }
    }
}

/// The stage, spending the run's `budget`, when the targets are a bundle's whose charts
/// tailor renders and some destination's options make it a Helm bundle.
pub fn planned(targets: &crate::config::Targets, budget: &Budget) -> Option<FleetHelm> {
    let crate::config::Targets::Fleet(config) = targets else {
        return None;
    };
    let layout = config.layout.as_ref().filter(|l| l.renders_charts)?;
    let mut stage =
        helm_somewhere(config, layout).then(|| FleetHelm::new(layout.clone(), budget.clone()))?;
    stage.values_from = std::iter::once(&config.root)
        .chain(config.customizations.iter().map(|c| &c.options))
        .flat_map(|o| referenced(o.helm.as_ref()))
        .collect();
    Some(stage)
}

/// Whether some destination's options (the root's, or a customization's merged over it) make
/// the bundle a Helm bundle.
fn helm_somewhere(
    config: &tailor_fleet::FleetConfig<crate::config::TargetFields>,
    layout: &Layout,
) -> bool {
    std::iter::once(config.root.clone())
        .chain(
            config
                .customizations
                .iter()
                .map(|c| config.root.merge(&c.options)),
        )
        .any(|o| chart_source(o.helm.as_ref(), layout).is_some())
}

/// The `valuesFrom` sources among the stage's inputs.
fn sources(inputs: &[Resource]) -> Result<Vec<Source>, String> {
    let mut out = Vec::new();
    for item in inputs {
        let json = item.node().to_json().map_err(|e| e.to_string())?;
        if let Some(source) = Source::from_object(&json)? {
            out.push(source);
        }
    }
    Ok(out)
}

/// `--chart-dir`, else `TAILOR_HELM_CHART_DIR` when set and not empty.
pub fn chart_dir(flag: Option<&str>) -> Option<String> {
    flag.map(str::to_string)
        .or_else(|| std::env::var(CHART_DIR_ENV).ok().filter(|v| !v.is_empty()))
}

/// The `helm` fields this stage renders with; the others act when Fleet's agent installs the
/// release (`takeOwnership`, `force`, `atomic`, `timeoutSeconds`, …).
const RENDERED_FIELDS: &[&str] = &[
    "chart",
    "repo",
    "version",
    "releaseName",
    "values",
    "valuesFiles",
    "templateValues",
    "disablePreProcess",
    "disableHooks",
    "disableDependencyUpdate",
    "valuesFrom",
];

/// A bundle read in standalone mode: its charts are rendered here rather than refused, and
/// fleet.yaml's warning that tailor renders no Helm becomes an info naming the install-time
/// options that change nothing rendered.
pub fn render_charts(
    config: &mut tailor_fleet::FleetConfig<crate::config::TargetFields>,
    chart_dir: Option<String>,
) {
    let Some(layout) = config.layout.as_mut() else {
        return;
    };
    layout.renders_charts = true;
    layout.chart_dir = chart_dir;
    let helm = config.layout.as_ref();
    if !helm.is_some_and(|layout| helm_somewhere(config, layout)) {
        return;
    }
    let mut apply_time: Vec<String> = Vec::new();
    let sets =
        std::iter::once(&config.root).chain(config.customizations.iter().map(|c| &c.options));
    for helm in sets.filter_map(|o| o.helm.as_ref()) {
        for key in helm
            .keys()
            .filter(|k| !RENDERED_FIELDS.contains(&k.as_str()))
        {
            let key = format!("helm.{key}");
            if !apply_time.contains(&key) {
                apply_time.push(key);
            }
        }
    }
    config.notes.retain(|n| {
        !n.message
            .starts_with("Helm options of the release Fleet deploys")
    });
    if !apply_time.is_empty() {
        config.notes.push(tailor_kube::Diagnostic::info(format!(
            "{}: options of Fleet's Helm install, applied when the agent deploys the release; they change nothing tailor renders",
            apply_time.join(", ")
        )));
    }
}
