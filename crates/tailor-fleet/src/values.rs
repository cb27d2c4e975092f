//! The Helm values Fleet passes for one cluster (`docs/semantics/fleet.md` §5), so that
//! `helm template -f` reproduces what Fleet deploys:
//!
//! 1. the bundle's `helm.values` with its `valuesFiles` folded in, and each target's
//!    ([`crate::bundle`], `resources.go` `parseValuesFiles`);
//! 2. the cluster's options merged as Fleet merges them (`options.Merge`, FirstMatch or
//!    AllMatches; [`FleetConfig::resolve_options`]);
//! 3. `preprocessHelmValues` (`target/builder.go`): the cluster's labels cleaned for export
//!    (wrangler `CleanAnnotationsForExport`: keys starting `kubectl.kubernetes.io/` or
//!    containing `cattle.io/` go) with `fleet.cattle.io/` and `management.cattle.io/` labels
//!    put back; nothing happens without labels, without `helm`, or with neither
//!    `templateValues` nor values; `global.fleet.clusterLabels.<label>` strings are replaced
//!    (in maps, and maps in lists, 50 levels deep); then, unless `helm.disablePreProcess`, the
//!    values printed as YAML are one Go template with delimiters `${ }`, `missingkey=error`
//!    and sprig (without `env`, `expandenv`, `getHostByName`), read back as YAML, and each
//!    `templateValues` entry is rendered and read the same way and overwrites its top-level
//!    key. The template's data: `.ClusterName`, `.ClusterNamespace`, `.ClusterLabels`,
//!    `.ClusterAnnotations`, `.ClusterValues` (the Fleet Cluster's `spec.templateValues`).

use std::collections::BTreeMap;

use serde_json::{Map, Value};
use tailor_cluster::Cluster;
use tailor_go::template::{Funcs, Host, ParamType};
use tailor_go::{Budget, ExecOptions, MissingKey, Syntax, Template};
use tailor_helm::funcs::HelmFuncs;
use tailor_kube::StringMap;
use tailor_yaml::sigs::numbers::as_float64;
use tailor_yaml::sigs::v2print::to_yaml_v2;
use tailor_yaml::sigs::v2read::{yaml11_to_json_within, ReadError};

use crate::config::FleetConfig;
use crate::options::Extra;
use crate::resolve::Decision;
use crate::values_from::{agent_values, Source};

mod cache;
pub use cache::ValuesCache;

/// What Fleet knows of a cluster beyond its name, labels and annotations: its `Cluster`
/// object's namespace and `spec.templateValues`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FleetCluster {
    pub namespace: String,
    pub template_values: Map<String, Value>,
}

impl FleetCluster {
    /// From the Fleet `Cluster` inventory object `cluster` was resolved with, if any.
    pub fn of(cluster: &Cluster) -> Option<FleetCluster> {
        cluster.inventory.as_ref().map(|f| FleetCluster {
            namespace: f.namespace.clone(),
            template_values: f.template_values.clone(),
        })
    }

    /// From a Fleet `Cluster` object (`fleet.cattle.io/v1alpha1`), as JSON.
    pub fn from_object(o: &Value) -> FleetCluster {
        FleetCluster {
            namespace: o
                .pointer("/metadata/namespace")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string(),
            template_values: o
                .pointer("/spec/templateValues")
                .and_then(Value::as_object)
                .cloned()
                .unwrap_or_default(),
        }
    }
}

/// One cluster's values.
#[derive(Debug, Clone, PartialEq)]
pub enum ClusterValues {
    /// The cluster gets no BundleDeployment: why.
    NotDeployed(String),
    /// The values Fleet passes to Helm, after the named customizations; `None` when it passes
    /// none (no `helm.values`).
    Values {
        matched: Vec<String>,
        values: Option<Map<String, Value>>,
    },
}

/// The values Fleet passes to Helm for `cluster`, `helm.valuesFrom` read from `sources`
/// ([`crate::values_from::agent_values`]). Errors are Fleet's (a template that does not parse
/// or execute, a result that is no YAML map, a `valuesFrom` object or key missing), naming
/// the cluster, and the run's `budget` running out (the templating and the aliases it
/// expands spend it). `cache` keeps what does not depend on the cluster for the run's other
/// clusters.
pub fn cluster_values<E: Extra>(
    config: &FleetConfig<E>,
    cluster: &Cluster,
    fleet: &FleetCluster,
    sources: &[Source],
    budget: &Budget,
    cache: &ValuesCache,
) -> Result<ClusterValues, String> {
    let (matched, options) = match config.resolve_options(cluster) {
        Decision::Deploy { matched, options } => (matched, options),
        Decision::Skip { reason, .. }
        | Decision::Refuse {
            message: reason, ..
        } => return Ok(ClusterValues::NotDeployed(reason)),
    };
    let stored = helm_values(options.helm.as_ref(), cluster, fleet, budget, cache)?;
    let values = agent_values(&options, stored, sources, budget)
        .map_err(|e| format!("cluster {:?}: {e}", cluster.name))?;
    Ok(ClusterValues::Values { matched, values })
}

/// The values Fleet passes to Helm for a cluster whose merged options carry `helm`
/// (`preprocessHelmValues`), spending the run's `budget`; `None` when it passes none. What
/// does not depend on the cluster is kept in `cache` for the run's other clusters.
pub fn helm_values(
    helm: Option<&Map<String, Value>>,
    cluster: &Cluster,
    fleet: &FleetCluster,
    budget: &Budget,
    cache: &ValuesCache,
) -> Result<Option<Map<String, Value>>, String> {
    preprocess(helm, cluster, fleet, budget, cache)
        .map_err(|e| format!("cluster {:?}: {e}", cluster.name))
}

/// The values as YAML, the way Helm reads them (numbers are float64, as after Fleet's JSON
/// round trip; keys sorted).
pub fn to_yaml(values: &Map<String, Value>) -> String {
    to_yaml_v2(&as_float64(Value::Object(values.clone())))
}

/// `CleanAnnotationsForExport`.
fn clean_for_export(m: &StringMap) -> BTreeMap<String, String> {
    m.iter()
        .filter(|(k, _)| !k.starts_with("kubectl.kubernetes.io/") && !k.contains("cattle.io/"))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

/// `preprocessHelmValues` on the merged `helm` options: the values Fleet stores.
fn preprocess(
    helm: Option<&Map<String, Value>>,
    cluster: &Cluster,
    fleet: &FleetCluster,
    budget: &Budget,
    cache: &ValuesCache,
) -> Result<Option<Map<String, Value>>, String> {
    let given = helm
        .and_then(|h| h.get("values"))
        .and_then(Value::as_object);
    let mut labels = clean_for_export(&cluster.labels);
    for (k, v) in &cluster.labels {
        if k.starts_with("fleet.cattle.io/") || k.starts_with("management.cattle.io/") {
            labels.insert(k.clone(), v.clone());
        }
    }
    if labels.is_empty() {
        return Ok(given.cloned());
    }
    let Some(helm) = helm else {
        return Ok(None);
    };
    let template_values = helm.get("templateValues").and_then(Value::as_object);
    let empty = Map::new();
    let given = given.unwrap_or(&empty);
    if template_values.is_none() && given.is_empty() {
        return Ok(Some(Map::new()));
    }
    // The cluster's labels replace strings only where some string names one: otherwise the
    // values are the same for every cluster and their templating is prepared once.
    let relabelled = if names_cluster_labels(given, 0)? {
        let mut values = given.clone();
        process_label_values(&mut values, &labels, 0)?;
        Some(values)
    } else {
        None
    };
    if helm.get("disablePreProcess").and_then(Value::as_bool) == Some(true) {
        return Ok(Some(relabelled.unwrap_or_else(|| given.clone())));
    }
    let data = template_data(cluster, fleet, &labels);
    let mut values = match relabelled {
        Some(values) => read_rendered(&render(&to_yaml(&values), &data, budget)?, budget)?,
        None => {
            let prepared = cache.prepared(given);
            let template = prepared.template.as_ref().map_err(Clone::clone)?;
            let output = execute(template, &data, budget)?;
            prepared.values(&output, &data, budget)?
        }
    };
    for (k, v) in template_values.iter().flat_map(|t| t.iter()) {
        let text = v.as_str().unwrap_or_default();
        let rendered = render(text, &data, budget)?;
        let value = yaml11_to_json_within(&rendered, budget).map_err(|e| match e {
            ReadError::Budget(e) => e.to_string(),
            ReadError::Yaml(e) => {
                format!("failed to interpret rendered template as helm values: {rendered}, {e}")
            }
        })?;
        values.insert(k.clone(), value);
    }
    Ok(Some(values))
}

/// The template's data: `.ClusterName`, `.ClusterNamespace`, `.ClusterLabels` (cleaned for
/// export), `.ClusterAnnotations`, `.ClusterValues`.
fn template_data(
    cluster: &Cluster,
    fleet: &FleetCluster,
    labels: &BTreeMap<String, String>,
) -> tailor_go::Value {
    let to_dict = |m: &BTreeMap<String, String>| {
        tailor_go::Value::Map(
            m.iter()
                .map(|(k, v)| (k.clone(), tailor_go::Value::String(v.clone())))
                .collect(),
        )
    };
    tailor_go::Value::Map(
        [
            (
                "ClusterNamespace",
                tailor_go::Value::String(fleet.namespace.clone()),
            ),
            (
                "ClusterName",
                tailor_go::Value::String(cluster.name.clone()),
            ),
            ("ClusterLabels", to_dict(labels)),
            (
                "ClusterAnnotations",
                to_dict(&clean_for_export(&cluster.annotations)),
            ),
            (
                "ClusterValues",
                go_value(&as_float64(Value::Object(fleet.template_values.clone()))),
            ),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect(),
    )
}

/// The templated values' output read back as YAML: the values Fleet stores.
fn read_rendered(rendered: &str, budget: &Budget) -> Result<Map<String, Value>, String> {
    match yaml11_to_json_within(rendered, budget) {
        Ok(Value::Object(m)) => Ok(m),
        Ok(Value::Null) => Ok(Map::new()),
        Ok(other) => Err(format!(
            "failed to interpret rendered template as helm values: a {}, not a map",
            tailor_kube::json::type_name(&other)
        )),
        Err(ReadError::Budget(e)) => Err(e.to_string()),
        Err(ReadError::Yaml(e)) => Err(format!(
            "failed to interpret rendered template as helm values: {e}"
        )),
    }
}

/// One template with Fleet's settings (`tplFuncMap`: sprig's `TxtFuncMap` without `env`,
/// `expandenv`, `include`, `tpl`, `getHostByName`), spending the run's `budget`.
fn render(text: &str, data: &tailor_go::Value, budget: &Budget) -> Result<String, String> {
    execute(&parse_template(text)?, data, budget)
}

/// `text` parsed as a values template (delimiters `${ }`, sprig).
fn parse_template(text: &str) -> Result<Template, String> {
    let syntax = Syntax {
        left_delim: "${".into(),
        right_delim: "}".into(),
        sprig: true,
        without: ["env", "expandenv", "getHostByName", "include", "tpl"]
            .iter()
            .map(|s| s.to_string())
            .collect(),
        host: SprigFuncs::names().map(str::to_string).collect(),
    };
    Template::parse_with("values", text, &syntax)
        .map_err(|e| format!("failed to parse helm values template: {e}"))
}

/// A values template executed with `data` (`missingkey=error`), spending `budget`.
fn execute(t: &Template, data: &tailor_go::Value, budget: &Budget) -> Result<String, String> {
    let opts = ExecOptions {
        missing_key: MissingKey::Error,
        budget: budget.clone(),
        ..ExecOptions::default()
    };
    let mut out = Vec::new();
    t.execute_with(data, &opts, &SprigFuncs, &mut out)
        .map_err(|e| format!("failed to render helm values template: {e}"))?;
    Ok(String::from_utf8_lossy(&out).into_owned())
}

/// The sprig functions beyond tailor-go's subset (lists, dicts, math, kinds), with
/// tailor-helm's implementations of them, and none of Helm's own additions (`toYaml`,
/// `required`, `lookup`, ...), which Fleet's values templates do not have.
struct SprigFuncs;

/// sprig's dict and list builders, which tailor-helm keeps beside Helm's functions.
const SPRIG_BUILDERS: &[&str] = &["list", "dict", "get", "set", "unset", "keys"];

impl SprigFuncs {
    fn names() -> impl Iterator<Item = &'static str> {
        tailor_helm::sprig::NAMES
            .iter()
            .chain(SPRIG_BUILDERS)
            .copied()
    }
}

impl Funcs for SprigFuncs {
    fn signature(&self, name: &str) -> Option<(&'static [ParamType], bool)> {
        SprigFuncs::names()
            .any(|n| n == name)
            .then(|| HelmFuncs.signature(name))
            .flatten()
    }

    fn call(
        &self,
        host: &mut dyn Host,
        name: &str,
        args: Vec<tailor_go::Value>,
    ) -> Result<tailor_go::Value, String> {
        if !SprigFuncs::names().any(|n| n == name) {
            return Err(format!("function {name} not defined"));
        }
        HelmFuncs.call(host, name, args)
    }
}

/// JSON as the template engine's data (numbers already float64).
fn go_value(v: &Value) -> tailor_go::Value {
    match v {
        Value::Null => tailor_go::Value::Nil,
        Value::Bool(b) => tailor_go::Value::Bool(*b),
        Value::Number(n) => tailor_go::Value::Float(n.as_f64().unwrap_or(0.0)),
        Value::String(s) => tailor_go::Value::String(s.clone()),
        Value::Array(a) => tailor_go::Value::List(a.iter().map(go_value).collect()),
        Value::Object(o) => {
            tailor_go::Value::Map(o.iter().map(|(k, v)| (k.clone(), go_value(v))).collect())
        }
    }
}

const CLUSTER_LABEL_PREFIX: &str = "global.fleet.clusterLabels.";
const MAX_DEPTH: usize = 50;

/// Whether [`process_label_values`] would replace some string, with its error for values
/// nested too deep.
fn names_cluster_labels(values: &Map<String, Value>, depth: usize) -> Result<bool, String> {
    if depth > MAX_DEPTH {
        return Err(too_deep());
    }
    let mut found = false;
    for v in values.values() {
        found |= match v {
            Value::String(s) => s.starts_with(CLUSTER_LABEL_PREFIX),
            Value::Object(m) => names_cluster_labels(m, depth + 1)?,
            Value::Array(items) => {
                let mut any = false;
                for m in items.iter().filter_map(Value::as_object) {
                    any |= names_cluster_labels(m, depth + 1)?;
                }
                any
            }
            _ => false,
        };
    }
    Ok(found)
}

fn too_deep() -> String {
    format!(
        "maximum recursion depth of {MAX_DEPTH} exceeded for cluster label prefix processing, too many nested values"
    )
}

/// `processLabelValues`: strings in maps (and in maps inside lists) naming
/// `global.fleet.clusterLabels.<label>` become that label's value, or `""`.
fn process_label_values(
    values: &mut Map<String, Value>,
    labels: &BTreeMap<String, String>,
    depth: usize,
) -> Result<(), String> {
    if depth > MAX_DEPTH {
        return Err(too_deep());
    }
    for v in values.values_mut() {
        match v {
            Value::String(s) => {
                if let Some(label) = s.strip_prefix(CLUSTER_LABEL_PREFIX) {
                    *s = labels.get(label).cloned().unwrap_or_default();
                }
            }
            Value::Object(m) => process_label_values(m, labels, depth + 1)?,
            Value::Array(items) => {
                for item in items {
                    if let Value::Object(m) = item {
                        process_label_values(m, labels, depth + 1)?;
                    }
                }
            }
            _ => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
