//! Rendering a chart as Helm's `pkg/engine` does, and printing it as `helm template` does
//! (`pkg/action/action.go` `renderResources`, `cmd/helm/template.go`).
//!
//! A chart is parsed once into an [`Engine`]; [`Engine::render`] may then run many times
//! (per cluster) with other values and options.

use crate::chart::Chart;
use crate::funcs::{from_json_value, HelmFuncs, WARN_END, WARN_START};
use crate::release::{sort_by_kind, split_manifests, INSTALL_ORDER};
use serde_json::{Map, Value as Json};
use std::collections::BTreeMap;
use tailor_go::{ExecOptions, MissingKey, Syntax, Template, Value};

/// `helm template`'s options that apply offline.
#[derive(Debug, Clone)]
pub struct Options {
    pub release_name: String,
    pub namespace: String,
    pub is_upgrade: bool,
    /// `--kube-version`, as `v1.20.0` or `1.20.0`.
    pub kube_version: Option<String>,
    /// `--api-versions`, added to the default set.
    pub api_versions: Vec<String>,
    pub include_crds: bool,
    pub skip_tests: bool,
    pub no_hooks: bool,
    /// `--skip-schema-validation`.
    pub skip_schema_validation: bool,
    /// The run's budget, which the templates' output and evaluation steps spend (a chart
    /// rendered for every destination of a fan-out spends it once per destination). The
    /// default never runs out.
    pub budget: tailor_go::Budget,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            release_name: "release-name".into(),
            namespace: "default".into(),
            is_upgrade: false,
            kube_version: None,
            api_versions: Vec::new(),
            include_crds: false,
            skip_tests: false,
            no_hooks: false,
            skip_schema_validation: false,
            budget: tailor_go::Budget::unlimited(),
        }
    }
}

/// A rendered chart: each document with the template path it came from, in output order.
#[derive(Debug, Clone, Default)]
pub struct Rendered {
    /// `(source path, document)` pairs, CRDs first when included, then manifests in install
    /// order, then hooks.
    pub documents: Vec<(String, String)>,
}

impl Rendered {
    /// The text `helm template` prints.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for (source, doc) in &self.documents {
            out.push_str(&format!("---\n# Source: {source}\n{doc}\n"));
        }
        out
    }
}

/// The error `helm template` prints after `Error: `.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error(pub String);

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// One template file to execute and the chart it belongs to.
struct Renderable {
    name: String,
    base_path: String,
    /// Index into [`Engine::charts`].
    chart: usize,
}

/// A chart's place in the tree: its metadata object and where its values live.
struct ChartNode {
    chart_object: Value,
    /// The keys leading from the root's values to this chart's (`[sub, subsub]`).
    values_path: Vec<String>,
    /// `.Files`.
    files: Value,
}

/// A chart with its templates parsed once.
pub struct Engine {
    chart: Chart,
    set: Template,
    files: Vec<Renderable>,
    /// Every chart of the tree in pre-order, as [`crate::dependencies::Tree`] numbers them.
    charts: Vec<ChartNode>,
    deps: crate::dependencies::Tree,
}

/// Parses every template of `chart` into one set, as Helm's engine does.
pub fn prepare(chart: Chart) -> Result<Engine, Error> {
    let chart = crate::dependencies::resolve_aliases(chart);
    let syntax = Syntax {
        sprig: true,
        without: vec!["env".into(), "expandenv".into()],
        host: crate::funcs::host_names(),
        ..Syntax::default()
    };
    let mut set = Template::parse_with("gotpl", "", &syntax).map_err(|e| Error(e.message))?;
    let mut files = Vec::new();
    let mut charts = Vec::new();
    let mut texts = Vec::new();
    collect(
        &chart,
        chart.name(),
        Vec::new(),
        &mut files,
        &mut charts,
        &mut texts,
    );
    let mut order: Vec<usize> = (0..files.len()).collect();
    order.sort_by(|&a, &b| by_path_len(&files[b].name, &files[a].name));
    for &i in &order {
        set.add(&files[i].name, &texts[i])
            .map_err(|e| Error(parse_error(&e.message)))?;
    }
    let files = order
        .into_iter()
        .map(|i| {
            std::mem::replace(
                &mut files[i],
                Renderable {
                    name: String::new(),
                    base_path: String::new(),
                    chart: 0,
                },
            )
        })
        .collect();
    Ok(Engine {
        deps: crate::dependencies::Tree::of(&chart),
        chart,
        set,
        files,
        charts,
    })
}

/// Helm's `byPathLen`: fewer slashes first, then by name.
fn by_path_len(a: &str, b: &str) -> std::cmp::Ordering {
    let (ca, cb) = (a.matches('/').count(), b.matches('/').count());
    ca.cmp(&cb).then_with(|| a.cmp(b))
}

fn parse_error(msg: &str) -> String {
    format!(
        "parse error at ({})",
        msg.strip_prefix("template: ")
            .unwrap_or(msg)
            .replacen(": ", "): ", 1)
    )
}

fn collect(
    c: &Chart,
    full_path: &str,
    values_path: Vec<String>,
    files: &mut Vec<Renderable>,
    charts: &mut Vec<ChartNode>,
    texts: &mut Vec<String>,
) {
    let index = charts.len();
    charts.push(ChartNode {
        chart_object: chart_object(c, values_path.is_empty()),
        values_path: values_path.clone(),
        files: crate::files::files_object(&c.files),
    });
    for dep in &c.dependencies {
        let mut path = values_path.clone();
        path.push(dep.name().to_string());
        let sub_path = format!("{full_path}/charts/{}", dep.name());
        collect(dep, &sub_path, path, files, charts, texts);
    }
    for (name, text) in &c.templates {
        let base = name.rsplit('/').next().unwrap_or(name);
        if c.is_library() && !base.starts_with('_') {
            continue;
        }
        files.push(Renderable {
            name: format!("{full_path}/{name}"),
            base_path: format!("{full_path}/templates"),
            chart: index,
        });
        texts.push(text.clone());
    }
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
    let bare = v.strip_prefix('v').unwrap_or(v);
    let mut parts = bare.split('.');
    let (major, minor) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
    if major.parse::<u64>().is_err() || minor.parse::<u64>().is_err() {
        return Err(Error(format!(
            "invalid kube version '{v}': Invalid Semantic Version"
        )));
    }
    let version = format!("v{bare}");
    let kube = crate::funcs::object(
        "KubeVersion",
        Value::Nil,
        vec![
            ("Version", Value::String(version)),
            ("Major", Value::String(major.into())),
            ("Minor", Value::String(minor.into())),
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

impl Engine {
    /// Renders with `values` (the user's, already merged from -f and --set*) and `opts`.
    pub fn render(&self, values: &Map<String, Json>, opts: &Options) -> Result<Rendered, Error> {
        if self.chart.is_library() {
            return Err(Error("library charts are not installable".into()));
        }
        let resolved = crate::dependencies::process(&self.deps, values).map_err(Error)?;
        let coalesced =
            crate::coalesce::coalesce_values(&resolved.chart, values).map_err(|e| Error(e.0))?;
        if !opts.skip_schema_validation {
            crate::schema::validate(&self.chart, &coalesced.values, &resolved.enabled)
                .map_err(Error)?;
        }
        // One shared map for the whole render: a template's `set` on `.Values` shows in the
        // templates rendered after it, and a subchart's `.Values` is its parent's table.
        let top = crate::funcs::from_json_shared(&Json::Object(coalesced.values));
        let release = Value::Map(BTreeMap::from([
            ("Name".to_string(), Value::String(opts.release_name.clone())),
            (
                "Namespace".to_string(),
                Value::String(opts.namespace.clone()),
            ),
            ("IsInstall".to_string(), Value::Bool(!opts.is_upgrade)),
            ("IsUpgrade".to_string(), Value::Bool(opts.is_upgrade)),
            ("Revision".to_string(), Value::Int(1)),
            ("Service".to_string(), Value::String("Helm".into())),
        ]));
        let caps = capabilities(opts)?;
        let disabled: Vec<bool> = resolved.enabled.iter().map(|on| !on).collect();
        let exec = ExecOptions {
            missing_key: MissingKey::Zero,
            budget: opts.budget.clone(),
            ..ExecOptions::default()
        };
        let mut rendered: BTreeMap<String, String> = BTreeMap::new();
        for f in &self.files {
            if disabled[f.chart]
                || f.name
                    .rsplit('/')
                    .next()
                    .is_some_and(|b| b.starts_with('_'))
            {
                continue;
            }
            let node = &self.charts[f.chart];
            let values = node
                .values_path
                .iter()
                .try_fold(top.clone(), |v, k| match v {
                    Value::Dict(d) => d.get(k),
                    _ => None,
                });
            let values = match values {
                Some(v @ Value::Dict(_)) => v,
                _ => Value::Dict(tailor_go::Dict::default()),
            };
            let dot = Value::Map(BTreeMap::from([
                ("Chart".to_string(), node.chart_object.clone()),
                ("Release".to_string(), release.clone()),
                ("Capabilities".to_string(), caps.clone()),
                ("Values".to_string(), values),
                ("Files".to_string(), node.files.clone()),
                (
                    "Template".to_string(),
                    Value::Map(BTreeMap::from([
                        ("Name".to_string(), Value::String(f.name.clone())),
                        ("BasePath".to_string(), Value::String(f.base_path.clone())),
                    ])),
                ),
            ]));
            let t = self
                .set
                .lookup(&f.name)
                .ok_or_else(|| Error(format!("template {} missing", f.name)))?;
            let mut out = Vec::new();
            t.execute_with(&dot, &exec, &HelmFuncs, &mut out)
                .map_err(|e| Error(exec_error(&f.name, &e.message)))?;
            rendered.insert(
                f.name.clone(),
                String::from_utf8_lossy(&out).replace("<no value>", ""),
            );
        }
        self.assemble(rendered, opts, &resolved.enabled)
    }

    /// Helm's `renderResources` and `helm template`'s printing: NOTES dropped, documents
    /// split and sorted, CRDs first when asked, hooks last.
    fn assemble(
        &self,
        rendered: BTreeMap<String, String>,
        opts: &Options,
        enabled: &[bool],
    ) -> Result<Rendered, Error> {
        let mut generic: Vec<(String, String, String)> = Vec::new();
        let mut hooks: Vec<(String, String, String, bool)> = Vec::new();
        for (path, content) in &rendered {
            if path.ends_with("NOTES.txt") || content.trim().is_empty() {
                continue;
            }
            for doc in split_manifests(content) {
                let head = match tailor_yaml::sigs::v2read::yaml11_to_json(&doc) {
                    Ok(Json::Object(m)) => m,
                    Ok(_) => Map::new(),
                    Err(e) => {
                        return Err(Error(format!(
                            "YAML parse error on {path}: error converting YAML to JSON: {e}\n\nUse --debug flag to render out invalid YAML"
                        )))
                    }
                };
                let kind = head
                    .get("kind")
                    .and_then(Json::as_str)
                    .unwrap_or("")
                    .to_string();
                let hook = head
                    .get("metadata")
                    .and_then(|m| m.get("annotations"))
                    .and_then(|a| a.get("helm.sh/hook"))
                    .and_then(Json::as_str);
                match hook {
                    None => generic.push((path.clone(), doc, kind)),
                    Some(h) => {
                        let test = h.split(',').any(|e| e.trim().eq_ignore_ascii_case("test"));
                        hooks.push((path.clone(), doc, kind, test));
                    }
                }
            }
        }
        sort_by_kind(&mut generic, |m| m.2.as_str(), INSTALL_ORDER);
        sort_by_kind(&mut hooks, |m| m.2.as_str(), INSTALL_ORDER);
        let mut documents = Vec::new();
        if opts.include_crds {
            let mut next = 0;
            push_crds(
                &self.chart,
                self.chart.name(),
                enabled,
                &mut next,
                &mut documents,
            );
        }
        documents.extend(generic.into_iter().map(|(p, d, _)| (p, d)));
        if !opts.no_hooks {
            documents.extend(
                hooks
                    .into_iter()
                    .filter(|h| !(opts.skip_tests && h.3))
                    .map(|(p, d, _, _)| (p, d)),
            );
        }
        Ok(Rendered { documents })
    }
}

/// `CRDObjects`: the chart's `crds/` files, then its enabled subcharts'; `next` counts charts
/// in pre-order to read `enabled`.
fn push_crds(
    c: &Chart,
    full_path: &str,
    enabled: &[bool],
    next: &mut usize,
    out: &mut Vec<(String, String)>,
) {
    let on = enabled.get(*next).copied().unwrap_or(true);
    *next += 1;
    if on {
        for (name, text) in &c.crds {
            out.push((format!("{full_path}/{name}"), text.clone()));
        }
    }
    for dep in &c.dependencies {
        let sub = format!("{full_path}/charts/{}", dep.name());
        push_crds(dep, &sub, enabled, next, out);
    }
}

/// Helm's `cleanupExecError`: a `fail` or `required` message becomes
/// `execution error at (FILE:LINE:COL): MSG`; other errors stay Go's.
fn exec_error(filename: &str, msg: &str) -> String {
    let tokens: Vec<&str> = msg.splitn(3, ": ").collect();
    if tokens.len() != 3 {
        return format!("execution error in ({filename}): {msg}");
    }
    if let Some(start) = tokens[2].find(WARN_START) {
        if let Some(end) = tokens[2].rfind(WARN_END) {
            if end >= start + WARN_START.len() {
                let inner = &tokens[2][start + WARN_START.len()..end];
                return format!("execution error at ({}): {inner}", tokens[1]);
            }
        }
    }
    msg.to_string()
}

/// Loads nothing: `helm template`'s dependency check, [`prepare`] then [`Engine::render`] in
/// one call.
pub fn render(chart: Chart, values: &Map<String, Json>, opts: &Options) -> Result<Rendered, Error> {
    crate::dependencies::check_present(&chart).map_err(Error)?;
    prepare(chart)?.render(values, opts)
}

/// `--name-template`: the release name from a template with sprig's functions and no data,
/// as `helm template` renders it (`pkg/action/install.go` `NameAndChart`).
pub fn name_from_template(text: &str) -> Result<String, Error> {
    let syntax = Syntax {
        sprig: true,
        without: vec!["env".into(), "expandenv".into()],
        host: crate::sprig::NAMES.iter().map(|s| s.to_string()).collect(),
        ..Syntax::default()
    };
    let t = Template::parse_with("name-template", text, &syntax).map_err(|e| Error(e.message))?;
    let mut out = Vec::new();
    t.execute_with(&Value::Nil, &ExecOptions::default(), &HelmFuncs, &mut out)
        .map_err(|e| Error(e.message))?;
    Ok(String::from_utf8_lossy(&out).into_owned())
}

/// One template text executed with Helm's function map and `data` as dot, as
/// `template.New(name).Funcs(funcMap()).Parse(text).Execute(data)` (Helm's engine tests).
pub fn render_text(name: &str, text: &str, data: &Value) -> Result<String, Error> {
    let syntax = Syntax {
        sprig: true,
        without: vec!["env".into(), "expandenv".into()],
        host: crate::funcs::host_names(),
        ..Syntax::default()
    };
    let t = Template::parse_with(name, text, &syntax).map_err(|e| Error(e.message))?;
    let mut out = Vec::new();
    t.execute_with(data, &ExecOptions::default(), &HelmFuncs, &mut out)
        .map_err(|e| Error(e.message))?;
    Ok(String::from_utf8_lossy(&out).into_owned())
}
