//! Rendering a chart as Helm's `pkg/engine` does, and printing it as `helm template` does
//! (`pkg/action/action.go` `renderResources`, `cmd/helm/template.go`).
//!
//! A chart is parsed once into an [`Engine`]; [`Engine::render`] may then run many times
//! (per cluster) with other values and options.

use crate::builtins::{template_object, top_levels, ChartNode};
use crate::chart::Chart;
use crate::funcs::{HelmFuncs, WARN_END, WARN_START};
use crate::release::{sort_by_kind, split_manifests, INSTALL_ORDER};
use serde_json::{Map, Value as Json};
use std::collections::BTreeMap;
use tailor_go::{ExecOptions, MissingKey, Syntax, Template, Value};

pub use crate::builtins::{DEFAULT_API_VERSIONS, DEFAULT_KUBE_VERSION};

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
    /// Refuse a chart whose `kubeVersion` does not admit the Kubernetes version, as Helm's
    /// `renderResources` does. Fleet's agent checks the cluster's own version, which is not
    /// known offline, so a Fleet bundle's chart is rendered without the check.
    pub check_kube_version: bool,
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
            check_kube_version: true,
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

/// A failed render. `debug` is `Some` when Helm had made its release before failing
/// (`pkg/action/install.go`: template errors and documents that are not YAML, not values or
/// chart errors): `helm template` then adds its `--debug` hint to the error, and with
/// `--debug` prints this text first (`cmd/helm/template.go`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    pub error: Error,
    pub debug: Option<String>,
}

impl From<Error> for Failure {
    fn from(error: Error) -> Failure {
        Failure { error, debug: None }
    }
}

impl Failure {
    /// A failure while rendering, with the text `--debug` prints.
    fn rendering(error: Error, debug: String) -> Failure {
        Failure {
            error,
            debug: Some(debug),
        }
    }
}

/// One template file to execute and the chart it belongs to.
struct Renderable {
    name: String,
    base_path: String,
    /// Index into [`Engine::charts`].
    chart: usize,
}

/// A hook document: its template path, text, kind, and whether it is a test.
type Hook = (String, String, String, bool);

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
    collect(&chart, chart.name(), &mut files, &mut charts, &mut texts);
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

/// Numbers `c` and its subcharts in pre-order into `charts` and lists their templates.
fn collect(
    c: &Chart,
    full_path: &str,
    files: &mut Vec<Renderable>,
    charts: &mut Vec<ChartNode>,
    texts: &mut Vec<String>,
) {
    let index = charts.len();
    charts.push(ChartNode::of(c, index == 0));
    for dep in &c.dependencies {
        let child = charts.len();
        charts[index].children.push(child);
        let sub_path = format!("{full_path}/charts/{}", dep.name());
        collect(dep, &sub_path, files, charts, texts);
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

impl Engine {
    /// Renders with `values` (the user's, already merged from -f and --set*) and `opts`.
    pub fn render(&self, values: &Map<String, Json>, opts: &Options) -> Result<Rendered, Error> {
        self.render_release(values, opts).map_err(|f| f.error)
    }

    /// Whether the chart's `kubeVersion` constraint admits the Kubernetes version of `opts`,
    /// as [`Engine::render`] checks it with `check_kube_version` (the error is Helm's), for a
    /// caller that explains a refusal in its own terms before rendering.
    pub fn admits_kube_version(&self, opts: &Options) -> Result<(), Error> {
        check_kube_version(&self.chart, opts)
    }

    /// [`Engine::render`], telling a failure of the release's rendering from the errors
    /// before it, as `helm template` does.
    pub fn render_release(
        &self,
        values: &Map<String, Json>,
        opts: &Options,
    ) -> Result<Rendered, Failure> {
        if self.chart.is_library() {
            return Err(Error("library charts are not installable".into()).into());
        }
        let resolved = crate::dependencies::process(&self.deps, values).map_err(Error)?;
        let coalesced =
            crate::coalesce::coalesce_values(&resolved.chart, values).map_err(|e| Error(e.0))?;
        if !opts.skip_schema_validation {
            crate::schema::validate(&self.chart, &coalesced.values, &resolved.enabled)
                .map_err(Error)?;
        }
        if opts.check_kube_version {
            check_kube_version(&self.chart, opts)
                .map_err(|e| Failure::rendering(e, debug_text(&BTreeMap::new(), &[], opts)))?;
        }
        // One shared map for the whole render: a template's `set` on `.Values` shows in the
        // templates rendered after it, and a subchart's `.Values` is its parent's table.
        let values = crate::funcs::from_json_shared(&Json::Object(coalesced.values));
        let tops = top_levels(&self.charts, &resolved.enabled, values, opts)?;
        let exec = ExecOptions {
            missing_key: MissingKey::Zero,
            budget: opts.budget.clone(),
            ..ExecOptions::default()
        };
        let mut rendered: BTreeMap<String, String> = BTreeMap::new();
        for f in &self.files {
            let Some(top) = &tops[f.chart] else { continue };
            if f.name
                .rsplit('/')
                .next()
                .is_some_and(|b| b.starts_with('_'))
            {
                continue;
            }
            top.insert(
                "Template".to_string(),
                template_object(&f.name, &f.base_path),
            );
            let t = self
                .set
                .lookup(&f.name)
                .ok_or_else(|| Error(format!("template {} missing", f.name)))?;
            let mut out = Vec::new();
            t.execute_with(&Value::Dict(top.clone()), &exec, &HelmFuncs, &mut out)
                .map_err(|e| {
                    let error = Error(exec_error(&f.name, &e.message));
                    Failure::rendering(error, debug_text(&BTreeMap::new(), &[], opts))
                })?;
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
    ) -> Result<Rendered, Failure> {
        let mut generic: Vec<(String, String, String)> = Vec::new();
        let mut hooks: Vec<Hook> = Vec::new();
        for (path, content) in &rendered {
            if path.ends_with("NOTES.txt") || content.trim().is_empty() {
                continue;
            }
            for doc in split_manifests(content) {
                let head = match tailor_yaml::sigs::v2read::yaml11_to_json(&doc) {
                    Ok(Json::Object(m)) => m,
                    Ok(_) => Map::new(),
                    Err(e) => {
                        let error = Error(format!(
                            "YAML parse error on {path}: error converting YAML to JSON: {e}"
                        ));
                        return Err(Failure::rendering(
                            error,
                            debug_text(&rendered, &hooks, opts),
                        ));
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

/// Loads nothing: `helm template`'s dependency check, [`prepare`] then
/// [`Engine::render_release`] in one call. A template that does not parse fails the
/// release's rendering, as in Helm, where parsing is part of it.
pub fn render(
    chart: Chart,
    values: &Map<String, Json>,
    opts: &Options,
) -> Result<Rendered, Failure> {
    crate::dependencies::check_present(&chart).map_err(Error)?;
    let engine = prepare(chart)
        .map_err(|e| Failure::rendering(e, debug_text(&BTreeMap::new(), &[], opts)))?;
    engine.render_release(values, opts)
}

/// `renderResources`' first check: the chart's `kubeVersion` constraint
/// (`chartutil.IsCompatibleRange`) against the Kubernetes version (`--kube-version`, else
/// Helm's default), named as `Capabilities.KubeVersion.String()` prints it.
fn check_kube_version(chart: &Chart, opts: &Options) -> Result<(), Error> {
    let Some(wanted) = chart.metadata.get("kubeVersion").and_then(Json::as_str) else {
        return Ok(());
    };
    if wanted.is_empty() {
        return Ok(());
    }
    let given = opts.kube_version.as_deref().unwrap_or(DEFAULT_KUBE_VERSION);
    let kube = crate::semver::Version::parse(given)
        .map(|v| format!("v{}", v.canonical()))
        .unwrap_or_else(|_| given.to_string());
    if crate::semver::is_compatible_range(wanted, &kube) {
        Ok(())
    } else {
        Err(Error(format!(
            "chart requires kubeVersion: {wanted} which is incompatible with Kubernetes {kube}"
        )))
    }
}

/// What `helm template --debug` prints before the error of a failed rendering: every file
/// that rendered to more than blanks (`renderResources` returns them "as a big blob of data
/// to help the user debug parser errors"; Helm's order is Go's map order, which changes
/// between runs; here path order, one of Helm's), trimmed, then the hooks found before the
/// failure unless `--no-hooks` (tests left out with `--skip-tests`). A template error leaves
/// no files: the text is an empty line, as Helm prints.
fn debug_text(files: &BTreeMap<String, String>, hooks: &[Hook], opts: &Options) -> String {
    let mut blob = String::new();
    for (name, content) in files {
        if !content.trim().is_empty() && !name.ends_with("NOTES.txt") {
            blob.push_str(&format!("---\n# Source: {name}\n{content}\n"));
        }
    }
    let mut out = format!("{}\n", blob.trim());
    if !opts.no_hooks {
        for (path, doc, _, test) in hooks {
            if !(opts.skip_tests && *test) {
                out.push_str(&format!("---\n# Source: {path}\n{doc}\n"));
            }
        }
    }
    out
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
