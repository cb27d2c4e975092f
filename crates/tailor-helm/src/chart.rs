//! A chart read from a directory as Helm's `loader.LoadDir` reads it (`pkg/chart/loader`):
//! `Chart.yaml`, `values.yaml`, `templates/`, `crds/`, other files, and subcharts under
//! `charts/` as directories. `.tgz` subcharts and `.helmignore` are refused, not ignored.

use crate::ignore::Rules;
use crate::strvals::numbers_as_float;
use serde_json::{Map, Value as Json};
use std::path::Path;
use tailor_yaml::sigs::v2read::yaml11_to_json;

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
    let mut chart = Chart::default();
    let mut subdirs = Vec::new();
    for (path, data) in files {
        let text = || String::from_utf8_lossy(&data).into_owned();
        match path.as_str() {
            "Chart.yaml" => chart.metadata = read_map(&text(), dir, &path)?,
            "values.yaml" => chart.values = read_values(&text(), dir, &path)?,
            p if p.starts_with("charts/") => {
                let rest = &p["charts/".len()..];
                match rest.split_once('/') {
                    Some((sub, _)) => {
                        if !subdirs.contains(&sub.to_string()) {
                            subdirs.push(sub.to_string());
                        }
                    }
                    None if rest.ends_with(".tgz") || rest.ends_with(".tar.gz") => {
                        return Err(format!(
                            "{}: subchart archives (charts/{rest}) are not supported yet: unpack it with tar -xzf",
                            dir.display()
                        ))
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
        return Err(format!("{}: Chart.yaml file is missing", dir.display()));
    }
    validate_metadata(&chart.metadata)?;
    for sub in subdirs {
        chart
            .dependencies
            .push(load_dir(&dir.join("charts").join(sub))?);
    }
    Ok(chart)
}

fn read_map(text: &str, dir: &Path, path: &str) -> Result<Map<String, Json>, String> {
    match yaml11_to_json(text) {
        Ok(Json::Object(m)) => Ok(m),
        Ok(Json::Null) => Ok(Map::new()),
        Ok(_) => Err(format!("{}/{path}: not a YAML map", dir.display())),
        Err(e) => Err(format!(
            "cannot load {path}: error converting YAML to JSON: {e}"
        )),
    }
}

/// A values file as Helm's `ReadValues`: every number a Go float64.
pub fn read_values(text: &str, dir: &Path, path: &str) -> Result<Map<String, Json>, String> {
    let map = read_map(text, dir, path)?;
    match numbers_as_float(Json::Object(map)) {
        Json::Object(m) => Ok(m),
        _ => Ok(Map::new()),
    }
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
    Ok(())
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
        let current = read_values(&text, Path::new(""), f)
            .map_err(|e| format!("failed to parse {f}: {e}"))?;
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
