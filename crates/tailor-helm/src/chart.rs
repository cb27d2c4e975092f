//! A chart read from a directory as Helm's `loader.LoadDir` reads it (`pkg/chart/loader`):
//! `Chart.yaml`, `values.yaml`, `templates/`, `crds/`, other files, and subcharts under
//! `charts/` as directories and `.tgz` archives; `.helmignore` honoured.

use crate::ignore::Rules;
use crate::strvals::numbers_as_float;
use serde_json::{Map, Value as Json};
use std::path::Path;
use tailor_yaml::sigs::v2read::yaml11_to_json;

/// A file of a chart: its slash path relative to the chart root and its bytes.
pub type File = (String, Vec<u8>);

/// A loaded chart (Helm's `chart.Chart`).
#[derive(Debug, Clone, Default)]
pub struct Chart {
    /// `Chart.yaml` as JSON, keys as written.
    pub metadata: Map<String, Json>,
    /// `values.yaml`, numbers as Go's float64.
    pub values: Map<String, Json>,
    /// Files under `templates/`, by path in the chart (`templates/x.yaml`), sorted.
    pub templates: Vec<(String, String)>,
    /// Files under `crds/`.
    pub crds: Vec<(String, String)>,
    /// Every other file (what `.Files` serves), by path in the chart.
    pub files: Vec<(String, Vec<u8>)>,
    /// `values.schema.json`, when the chart has one.
    pub schema: Option<Json>,
    /// Subcharts found under `charts/`.
    pub dependencies: Vec<Chart>,
}

impl Chart {
    pub fn name(&self) -> &str {
        self.metadata
            .get("name")
            .and_then(Json::as_str)
            .unwrap_or("")
    }

    /// `type: library` charts are never rendered themselves.
    pub fn is_library(&self) -> bool {
        self.metadata.get("type").and_then(Json::as_str) == Some("library")
    }

    /// What values coalescing needs of this chart and its subcharts.
    pub fn coalesce_view(&self) -> crate::coalesce::Chart {
        crate::coalesce::Chart {
            name: self.name().to_string(),
            values: self.values.clone(),
            dependencies: self.dependencies.iter().map(Chart::coalesce_view).collect(),
        }
    }
}

/// Reads the chart in `dir`; the error names the file at fault.
pub fn load_dir(dir: &Path) -> Result<Chart, String> {
    let rules = match std::fs::read_to_string(dir.join(".helmignore")) {
        Ok(text) => {
            Rules::parse(&text).map_err(|e| format!("{}/.helmignore: {e}", dir.display()))?
        }
        Err(_) => Rules::parse("")?,
    };
    let mut files = Vec::new();
    collect(dir, "", &rules, &mut files)?;
    load_files(&dir.display().to_string(), files)
}

/// Helm's `loader.LoadFiles`: a chart from its files (paths relative to the chart root);
/// `charts/NAME/...` and `charts/*.tgz` become subcharts. `origin` names the chart in errors.
pub fn load_files(origin: &str, files: Vec<(String, Vec<u8>)>) -> Result<Chart, String> {
    let mut chart = Chart::default();
    let mut subdirs: Vec<(String, Vec<File>)> = Vec::new();
    let mut archives = Vec::new();
    let mut requirements = None;
    for (path, data) in files {
        let text = || String::from_utf8_lossy(&data).into_owned();
        match path.as_str() {
            "Chart.yaml" => chart.metadata = read_map(&text(), origin, &path)?,
            "values.yaml" => chart.values = read_values(&text(), origin, &path)?,
            "requirements.yaml" => {
                let req = read_map(&text(), origin, &path)
                    .map_err(|e| format!("cannot load requirements.yaml: {e}"))?;
                requirements = Some(req);
                if api_v1(&chart.metadata) {
                    chart.files.push((path.clone(), data));
                }
            }
            "requirements.lock" if api_v1(&chart.metadata) => {
                chart.files.push((path.clone(), data))
            }
            "requirements.lock" => {}
            "values.schema.json" => {
                let schema = serde_json::from_slice(&data)
                    .map_err(|e| format!("{origin}/values.schema.json: {e}"))?;
                chart.schema = Some(schema);
                chart.files.push((path.clone(), data));
            }
            p if p.starts_with("charts/") => {
                let rest = &p["charts/".len()..];
                match rest.split_once('/') {
                    Some((sub, inner)) => {
                        let entry = (inner.to_string(), data);
                        match subdirs.iter_mut().find(|(n, _)| n == sub) {
                            Some((_, list)) => list.push(entry),
                            None => subdirs.push((sub.to_string(), vec![entry])),
                        }
                    }
                    None if rest.ends_with(".tgz") || rest.ends_with(".tar.gz") => {
                        archives.push((path.clone(), data))
                    }
                    None => chart.files.push((path.clone(), data)),
                }
            }
            p if p.starts_with("templates/") => chart.templates.push((path.clone(), text())),
            p if p.starts_with("crds/") => chart.crds.push((path.clone(), text())),
            _ => chart.files.push((path.clone(), data)),
        }
    }
    if chart.metadata.is_empty() {
        return Err(format!("{origin}: Chart.yaml file is missing"));
    }
    // Deprecated `requirements.yaml` (apiVersion v1 charts): its dependencies replace
    // Chart.yaml's, as Helm's loader unmarshals it over the metadata.
    if let Some(deps) = requirements.and_then(|mut r| r.remove("dependencies")) {
        chart.metadata.insert("dependencies".into(), deps);
    }
    validate_metadata(&chart.metadata)?;
    for (sub, files) in subdirs {
        chart
            .dependencies
            .push(load_files(&format!("{origin}/charts/{sub}"), files)?);
    }
    for (path, data) in archives {
        let files = untar(&data).map_err(|e| format!("{origin}/{path}: {e}"))?;
        chart
            .dependencies
            .push(load_files(&format!("{origin}/{path}"), files)?);
    }
    Ok(chart)
}

/// The files of a gzipped chart archive, the leading `NAME/` directory cut off as Helm's
/// `LoadArchiveFiles` does.
fn untar(data: &[u8]) -> Result<Vec<(String, Vec<u8>)>, String> {
    use std::io::Read;
    let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(data));
    let mut out = Vec::new();
    let entries = archive.entries().map_err(|e| e.to_string())?;
    for entry in entries {
        let mut entry = entry.map_err(|e| e.to_string())?;
        if !entry.header().entry_type().is_file() {
            continue;
        }
        let path = entry
            .path()
            .map_err(|e| e.to_string())?
            .to_string_lossy()
            .replace('\\', "/");
        let Some((_, rel)) = path.split_once('/') else {
            continue;
        };
        if rel.split('/').any(|seg| seg == "..") {
            return Err(format!(
                "chart illegally references parent directory: {path}"
            ));
        }
        let rel = rel.to_string();
        let mut data = Vec::new();
        entry.read_to_end(&mut data).map_err(|e| e.to_string())?;
        out.push((rel, data));
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(out)
}

/// Helm's `Metadata.Validate` (`pkg/chart/metadata.go`), the checks a loaded chart must pass.
fn validate_metadata(m: &Map<String, Json>) -> Result<(), String> {
    let field = |k: &str| m.get(k).and_then(Json::as_str).unwrap_or("");
    if field("apiVersion").is_empty() {
        return Err("validation: chart.metadata.apiVersion is required".into());
    }
    if field("name").is_empty() {
        return Err("validation: chart.metadata.name is required".into());
    }
    if field("version").is_empty() {
        return Err("validation: chart.metadata.version is required".into());
    }
    if !matches!(field("type"), "" | "application" | "library") {
        return Err("validation: chart.metadata.type must be application or library".into());
    }
    validate_dependencies(m)
}

/// `Dependency.Validate` for each listed dependency, and no two under one name or alias.
fn validate_dependencies(m: &Map<String, Json>) -> Result<(), String> {
    let Some(Json::Array(deps)) = m.get("dependencies") else {
        return Ok(());
    };
    let mut seen: Vec<&str> = Vec::new();
    for d in deps {
        if d.is_null() {
            return Err("validation: dependencies must not contain empty or null nodes".into());
        }
        let field = |k: &str| d.get(k).and_then(Json::as_str).unwrap_or("");
        let alias = field("alias");
        let alias_ok = alias
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
        if !alias_ok {
            return Err(format!(
                "validation: dependency {} has disallowed characters in the alias",
                tailor_go::strconv::quote(field("name"))
            ));
        }
        let key = if alias.is_empty() {
            field("name")
        } else {
            alias
        };
        if seen.contains(&key) {
            return Err(format!(
                "validation: more than one dependency with name or alias {}",
                tailor_go::strconv::quote(key)
            ));
        }
        seen.push(key);
    }
    Ok(())
}

fn api_v1(metadata: &Map<String, Json>) -> bool {
    metadata.get("apiVersion").and_then(Json::as_str) == Some("v1")
}

/// Every file under `dir`, by slash path relative to the chart, sorted by path.
fn collect(
    dir: &Path,
    prefix: &str,
    rules: &Rules,
    out: &mut Vec<(String, Vec<u8>)>,
) -> Result<(), String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut names: Vec<_> = entries
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    for name in names {
        let path = dir.join(&name);
        let rel = format!("{prefix}{name}");
        let is_dir = path.is_dir();
        if rules.ignore(&rel, is_dir) {
            continue;
        }
        if is_dir {
            collect(&path, &format!("{rel}/"), rules, out)?;
        } else {
            let data = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            out.push((rel, data));
        }
    }
    Ok(())
}

/// The values flags of `helm template`, each in the order given.
#[derive(Debug, Clone, Default)]
pub struct ValueFlags {
    pub files: Vec<String>,
    pub json: Vec<String>,
    pub set: Vec<String>,
    pub string: Vec<String>,
    pub file: Vec<String>,
}

/// Helm's `values.Options.MergeValues`: files merged in order (maps merged, the later
/// winning), then every `--set-json`, `--set`, `--set-string`, `--set-file`.
pub fn merge_value_flags(flags: &ValueFlags) -> Result<Map<String, Json>, String> {
    let mut base = Map::new();
    for f in &flags.files {
        let text = std::fs::read_to_string(f).map_err(|e| format!("open {f}: {e}"))?;
        let current = read_values(&text, "", f).map_err(|e| format!("failed to parse {f}: {e}"))?;
        merge_maps(&mut base, current);
    }
    for s in &flags.json {
        crate::strvals::parse_json(s, &mut base)
            .map_err(|e| format!("failed parsing --set-json data {s}: {e}"))?;
    }
    for s in &flags.set {
        crate::strvals::parse_into(s, &mut base)
            .map_err(|e| format!("failed parsing --set data: {e}"))?;
    }
    for s in &flags.string {
        crate::strvals::parse_into_string(s, &mut base)
            .map_err(|e| format!("failed parsing --set-string data: {e}"))?;
    }
    for s in &flags.file {
        let mut reader = |path: &str| {
            std::fs::read_to_string(path)
                .map(Json::String)
                .map_err(|e| format!("open {path}: {e}"))
        };
        crate::strvals::parse_into_file(s, &mut base, &mut reader)
            .map_err(|e| format!("failed parsing --set-file data: {e}"))?;
    }
    Ok(base)
}

/// Helm's `mergeMaps`: nested maps merged, anything else replaced.
fn merge_maps(base: &mut Map<String, Json>, over: Map<String, Json>) {
    for (k, v) in over {
        match (base.get_mut(&k), v) {
            (Some(Json::Object(b)), Json::Object(o)) => merge_maps(b, o),
            (_, v) => {
                base.insert(k, v);
            }
        }
    }
}

fn read_map(text: &str, origin: &str, path: &str) -> Result<Map<String, Json>, String> {
    match yaml11_to_json(text) {
        Ok(Json::Object(m)) => Ok(m),
        Ok(Json::Null) => Ok(Map::new()),
        Ok(_) => Err(format!("{origin}/{path}: not a YAML map")),
        Err(e) => Err(format!(
            "cannot load {path}: error converting YAML to JSON: {e}"
        )),
    }
}

/// A values file as Helm's `ReadValues`: every number a Go float64.
pub fn read_values(text: &str, origin: &str, path: &str) -> Result<Map<String, Json>, String> {
    let map = read_map(text, origin, path)?;
    match numbers_as_float(Json::Object(map)) {
        Json::Object(m) => Ok(m),
        _ => Ok(Map::new()),
    }
}
