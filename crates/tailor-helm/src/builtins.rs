//! The built-in objects templates see, built as Helm's `pkg/engine/engine.go` `recAllTpls`
//! builds them: one top-level map (`$`) per chart and render, shared by all the chart's
//! templates (`set $ "k" v` in one template shows in the chart's later templates), with only
//! `.Template` replaced before each template runs. `.Release` is one map for the whole
//! render, `.Values` the chart's table of the shared values, `.Subcharts` the enabled
//! subcharts' own top-level maps.

use crate::chart::Chart;
use crate::engine::{Error, Options};
use crate::funcs::{from_json_value, object};
use serde_json::Value as Json;
use std::collections::BTreeMap;
use tailor_go::{Dict, Value};

/// A chart's place in the tree and what does not change between renders.
pub(crate) struct ChartNode {
    /// `.Chart`.
    pub chart_object: Value,
    /// The chart's name in its parent: the key of its values table and of `.Subcharts`.
    pub name: String,
    /// The contents `.Files` serves, by path.
    pub files: BTreeMap<String, Value>,
    /// Indexes of the subcharts' nodes.
    pub children: Vec<usize>,
}

impl ChartNode {
    pub fn of(c: &Chart, is_root: bool) -> ChartNode {
        ChartNode {
            chart_object: chart_object(c, is_root),
            name: c.name().to_string(),
            files: crate::files::served(&c.files),
            children: Vec::new(),
        }
    }
}

/// Every chart's top-level map for one render, by node index; `None` for a disabled chart.
/// `values` is the root's `.Values` (a shared dict).
pub(crate) fn top_levels(
    charts: &[ChartNode],
    enabled: &[bool],
    values: Value,
    opts: &Options,
) -> Result<Vec<Option<Dict>>, Error> {
    let shared = Shared {
        release: release(opts),
        capabilities: capabilities(opts)?,
    };
    let mut tops = vec![None; charts.len()];
    if !charts.is_empty() && enabled.first().copied().unwrap_or(true) {
        instantiate(charts, enabled, 0, values, &shared, &mut tops);
    }
    Ok(tops)
}

/// What all charts' top-level maps hold in common (Go: the same map and pointer).
struct Shared {
    release: Value,
    capabilities: Value,
}

/// `recAllTpls` for node `index` and its enabled subcharts, with `values` as its `.Values`.
fn instantiate(
    charts: &[ChartNode],
    enabled: &[bool],
    index: usize,
    values: Value,
    shared: &Shared,
    tops: &mut [Option<Dict>],
) -> Dict {
    let node = &charts[index];
    let subcharts = Dict::default();
    let top = Dict::new(BTreeMap::from([
        ("Chart".to_string(), node.chart_object.clone()),
        ("Files".to_string(), files_object(node.files.clone())),
        ("Release".to_string(), shared.release.clone()),
        ("Capabilities".to_string(), shared.capabilities.clone()),
        ("Values".to_string(), values.clone()),
        ("Subcharts".to_string(), Value::Dict(subcharts.clone())),
    ]));
    for &child in &node.children {
        if !enabled.get(child).copied().unwrap_or(true) {
            continue;
        }
        let name = &charts[child].name;
        let sub = instantiate(charts, enabled, child, table(&values, name), shared, tops);
        subcharts.insert(name.clone(), Value::Dict(sub));
    }
    tops[index] = Some(top.clone());
    top
}

/// `Values.Table(name)`: the map under `name`, or a new empty one when there is none.
fn table(values: &Value, name: &str) -> Value {
    match values {
        Value::Dict(d) => match d.get(name) {
            Some(v @ Value::Dict(_)) => v,
            _ => Value::Dict(Dict::default()),
        },
        _ => Value::Dict(Dict::default()),
    }
}

/// `.Template` for the template `name` whose chart's templates live under `base_path`.
pub(crate) fn template_object(name: &str, base_path: &str) -> Value {
    Value::Dict(Dict::new(BTreeMap::from([
        ("Name".to_string(), Value::String(name.to_string())),
        ("BasePath".to_string(), Value::String(base_path.to_string())),
    ])))
}

/// `.Files`: a host object whose methods read the contents, held in a shared dict so that
/// copying the object (every `.Files` read, every method call) does not copy the files.
pub(crate) fn files_object(files: BTreeMap<String, Value>) -> Value {
    object("Files", Value::Dict(Dict::new(files)), Vec::new())
}

/// `.Release` (`chartutil.ToRenderValues`): a map, one for every chart of the render.
fn release(opts: &Options) -> Value {
    Value::Dict(Dict::new(BTreeMap::from([
        ("Name".to_string(), Value::String(opts.release_name.clone())),
        (
            "Namespace".to_string(),
            Value::String(opts.namespace.clone()),
        ),
        ("IsInstall".to_string(), Value::Bool(!opts.is_upgrade)),
        ("IsUpgrade".to_string(), Value::Bool(opts.is_upgrade)),
        ("Revision".to_string(), Value::Int(1)),
        ("Service".to_string(), Value::String("Helm".into())),
    ])))
}

/// `.Chart`: `chart.Metadata` with Go's field names and zero values, plus `IsRoot`.
fn chart_object(c: &Chart, is_root: bool) -> Value {
    const FIELDS: &[(&str, &str)] = &[
        ("name", "Name"),
        ("home", "Home"),
        ("version", "Version"),
        ("description", "Description"),
        ("icon", "Icon"),
        ("apiVersion", "APIVersion"),
        ("condition", "Condition"),
        ("tags", "Tags"),
        ("appVersion", "AppVersion"),
        ("kubeVersion", "KubeVersion"),
        ("type", "Type"),
    ];
    let mut m = BTreeMap::new();
    for (yaml, go) in FIELDS {
        let v = c
            .metadata
            .get(*yaml)
            .cloned()
            .unwrap_or(Json::String(String::new()));
        m.insert(go.to_string(), from_json_value(&v));
    }
    for (yaml, go) in [
        ("sources", "Sources"),
        ("keywords", "Keywords"),
        ("maintainers", "Maintainers"),
        ("annotations", "Annotations"),
        ("dependencies", "Dependencies"),
    ] {
        m.insert(
            go.to_string(),
            c.metadata
                .get(yaml)
                .map(from_json_value)
                .unwrap_or(Value::Nil),
        );
    }
    let deprecated = c
        .metadata
        .get("deprecated")
        .and_then(Json::as_bool)
        .unwrap_or(false);
    m.insert("Deprecated".into(), Value::Bool(deprecated));
    m.insert("IsRoot".into(), Value::Bool(is_root));
    Value::Map(m)
}

/// Helm's default Kubernetes version (`pkg/chartutil/capabilities.go`, unset ldflags).
pub const DEFAULT_KUBE_VERSION: &str = "v1.20.0";

/// The group versions client-go's scheme registers (Helm's `DefaultVersionSet`), as of the
/// Kubernetes libraries Helm v3.21 builds with; see docs/differences.md.
pub const DEFAULT_API_VERSIONS: &[&str] = &[
    "v1",
    "admissionregistration.k8s.io/v1",
    "admissionregistration.k8s.io/v1alpha1",
    "admissionregistration.k8s.io/v1beta1",
    "apps/v1",
    "apps/v1beta1",
    "apps/v1beta2",
    "authentication.k8s.io/v1",
    "authentication.k8s.io/v1alpha1",
    "authentication.k8s.io/v1beta1",
    "authorization.k8s.io/v1",
    "authorization.k8s.io/v1beta1",
    "autoscaling/v1",
    "autoscaling/v2",
    "autoscaling/v2beta1",
    "autoscaling/v2beta2",
    "batch/v1",
    "batch/v1beta1",
    "certificates.k8s.io/v1",
    "certificates.k8s.io/v1alpha1",
    "certificates.k8s.io/v1beta1",
    "coordination.k8s.io/v1",
    "coordination.k8s.io/v1alpha2",
    "coordination.k8s.io/v1beta1",
    "discovery.k8s.io/v1",
    "discovery.k8s.io/v1beta1",
    "events.k8s.io/v1",
    "events.k8s.io/v1beta1",
    "extensions/v1beta1",
    "flowcontrol.apiserver.k8s.io/v1",
    "flowcontrol.apiserver.k8s.io/v1beta1",
    "flowcontrol.apiserver.k8s.io/v1beta2",
    "flowcontrol.apiserver.k8s.io/v1beta3",
    "internal.apiserver.k8s.io/v1alpha1",
    "networking.k8s.io/v1",
    "networking.k8s.io/v1alpha1",
    "networking.k8s.io/v1beta1",
    "node.k8s.io/v1",
    "node.k8s.io/v1alpha1",
    "node.k8s.io/v1beta1",
    "policy/v1",
    "policy/v1beta1",
    "rbac.authorization.k8s.io/v1",
    "rbac.authorization.k8s.io/v1alpha1",
    "rbac.authorization.k8s.io/v1beta1",
    "resource.k8s.io/v1alpha3",
    "resource.k8s.io/v1beta1",
    "resource.k8s.io/v1beta2",
    "scheduling.k8s.io/v1",
    "scheduling.k8s.io/v1alpha1",
    "scheduling.k8s.io/v1beta1",
    "storage.k8s.io/v1",
    "storage.k8s.io/v1alpha1",
    "storage.k8s.io/v1beta1",
    "storagemigration.k8s.io/v1alpha1",
];

fn capabilities(opts: &Options) -> Result<Value, Error> {
    let v = opts.kube_version.as_deref().unwrap_or(DEFAULT_KUBE_VERSION);
    let parsed = tailor_kube::kube_version::parse(v)
        .map_err(|e| Error(format!("invalid kube version '{v}': {e}")))?;
    let kube = crate::funcs::object(
        "KubeVersion",
        Value::Nil,
        vec![
            ("Version", Value::String(parsed.version)),
            ("Major", Value::String(parsed.major)),
            ("Minor", Value::String(parsed.minor)),
        ],
    );
    let mut apis: Vec<Value> = DEFAULT_API_VERSIONS
        .iter()
        .map(|s| Value::String(s.to_string()))
        .collect();
    apis.extend(opts.api_versions.iter().cloned().map(Value::String));
    let apis = crate::funcs::object("VersionSet", Value::List(apis), Vec::new());
    Ok(Value::Map(BTreeMap::from([
        ("KubeVersion".to_string(), kube),
        ("APIVersions".to_string(), apis),
    ])))
}
