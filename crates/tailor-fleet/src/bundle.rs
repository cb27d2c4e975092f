//! Reading a Fleet bundle directory as Fleet reads it (`docs/semantics/fleet.md` §3b):
//!
//! - the configuration is `fleet.yaml`, else `fleet.yml` (`bundlereader/read.go`
//!   `setupIOReader`), read as [`crate::parse_fleet_yaml`] does;
//! - the files loaded are those `GetContent` loads (`bundlereader/loaddirectory.go`): hidden
//!   files and directories are skipped, `.fleetignore` patterns apply in their directory and
//!   below, the bundle file and `helm.valuesFiles` are left out, and a symlink that leads out
//!   of the directory fails the bundle;
//! - `helm.valuesFiles` are merged into `helm.values` (`resources.go` `generateValues`): the
//!   bundle's only when it sets `helm.chart` or `helm.repo`, a target's whenever it has `helm`;
//! - files under `overlays/` are overlay sets (never deployed);
//! - the manifests are what `render/helm.go` `manifests()` keeps: `.yaml`, `.yml` and `.json`
//!   files, not the bundle file, nothing under a directory holding its own `fleet.yaml`,
//!   `fleet.yml` or `Chart.yaml`; files under `templates/` are Helm templates (kept as
//!   manifests when they hold no template action, refused per cluster otherwise);
//! - of a manifest, what `rawyaml.ToObjects` deploys: a file with a non-empty document that has
//!   no `kind` is skipped whole; empty documents (`{}`, `null`) are skipped; objects without
//!   `apiVersion` or `kind` are dropped ([`deployable`]).
//!
//! The loaded files are the bundle's [`Layout`], from which each cluster's rendering style is
//! decided (`crate::style`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};
use tailor_kube::tree::Refused;
use tailor_kube::{Diagnostic, FieldError};
use tailor_yaml::{parse_stream_with, ParseOptions};

use crate::config::{parse_fleet_yaml, FleetConfig};
use crate::merge::merge_into;
use crate::options::{Extra, Options};
use crate::overlay::{is_under_overlays, BundleFile};
use crate::style::Layout;

/// A bundle directory, read.
#[derive(Debug)]
pub struct Bundle<E = ()> {
    /// fleet.yaml, with the bundle's [`Layout`] and the values files folded in.
    pub config: FleetConfig<E>,
    /// The overlay files (`overlays/<set>/...`), parsed.
    pub overlays: Vec<BundleFile>,
    /// The manifest files Fleet deploys objects from: their path relative to the bundle and
    /// their text.
    pub manifests: Vec<(String, String)>,
    /// What reading the files found worth saying (files skipped, and why).
    pub notes: Vec<Diagnostic>,
}

/// The bundle's configuration file: `fleet.yaml`, else `fleet.yml`.
pub fn fleet_yaml_path(dir: &Path) -> Option<PathBuf> {
    ["fleet.yaml", "fleet.yml"]
        .iter()
        .map(|f| dir.join(f))
        .find(|p| p.is_file())
}

/// Whether `dir` is a bundle (has a `fleet.yaml` or `fleet.yml`).
pub fn is_bundle(dir: &Path) -> bool {
    dir.is_dir() && fleet_yaml_path(dir).is_some()
}

/// Whether Fleet deploys an object with this apiVersion and kind (`rawyaml.ToObjects` drops
/// objects where either is empty).
pub fn deployable(api_version: &str, kind: &str) -> bool {
    !api_version.is_empty() && !kind.is_empty()
}

fn err(at: &Path, e: impl std::fmt::Display) -> Vec<FieldError> {
    vec![FieldError::error(format!("{}: {e}", at.display()))]
}

/// Reads the bundle at `dir`. Errors name the file (and the field of fleet.yaml).
pub fn read_dir<E: Extra>(dir: &Path, opts: &ParseOptions) -> Result<Bundle<E>, Vec<FieldError>> {
    let fleet_yaml = fleet_yaml_path(dir).ok_or_else(|| err(dir, "no fleet.yaml or fleet.yml"))?;
    let bundle_file = fleet_yaml
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let text = std::fs::read_to_string(&fleet_yaml).map_err(|e| err(&fleet_yaml, e))?;
    // Diagnostics about fleet.yaml name the file as given, then the field.
    let file = fleet_yaml.display().to_string();
    let locate = |d: Diagnostic| {
        let rest = d
            .field
            .strip_prefix("fleet.yaml")
            .map(|r| r.trim_start().to_string())
            .unwrap_or_else(|| d.field.clone());
        let field = if rest.is_empty() {
            file.clone()
        } else {
            format!("{file} {rest}")
        };
        Diagnostic { field, ..d }
    };
    let mut config: FleetConfig<E> = parse_fleet_yaml(&text)
        .map_err(|errors| errors.into_iter().map(locate).collect::<Vec<_>>())?;
    config.notes = std::mem::take(&mut config.notes)
        .into_iter()
        .map(locate)
        .collect();
    // ignoreApplyConfigs: the bundle file and every values file, by path and by base name.
    let mut ignore: Vec<String> = vec!["fleet.yaml".into(), bundle_file];
    for vf in values_files(&config) {
        ignore.push(vf.clone());
        ignore.push(vf.rsplit('/').next().unwrap_or(&vf).to_string());
    }
    let mut loader = Loader {
        root: dir.to_path_buf(),
        root_real: std::fs::canonicalize(dir).map_err(|e| err(dir, e))?,
        ignore,
        patterns: Vec::new(),
        files: BTreeMap::new(),
        on_disk: BTreeSet::new(),
    };
    loader.walk(dir, "")?;
    fold_values_files(&mut config, dir)?;

    let mut bundle = Bundle {
        config,
        overlays: Vec::new(),
        manifests: Vec::new(),
        notes: Vec::new(),
    };
    let mut layout = Layout {
        dir: dir.display().to_string(),
        files: loader.files.keys().cloned().collect(),
        on_disk: loader.on_disk,
        templated: Vec::new(),
        ..Layout::default()
    };
    // manifests(): directories holding another bundle's fleet.yaml or a chart are not this
    // bundle's raw YAML.
    let nested: Vec<String> = loader
        .files
        .keys()
        .filter(|n| !is_under_overlays(n))
        .filter(|n| {
            n.ends_with("/fleet.yaml") || n.ends_with("/fleet.yml") || n.ends_with("/Chart.yaml")
        })
        .map(|n| format!("{}/", n.rsplit_once('/').map_or("", |(d, _)| d)))
        .collect();
    for (name, bytes) in &loader.files {
        let is_yaml = name.ends_with(".yaml") || name.ends_with(".yml") || name.ends_with(".json");
        if is_under_overlays(name) {
            if is_yaml {
                let text = utf8(dir, name, bytes)?;
                let docs = parse_stream_with(&text, opts)
                    .map_err(|e| vec![FieldError::error(format!("{name}: {e}"))])?
                    .into_iter()
                    .filter(|d| !d.empty)
                    .map(|d| d.root)
                    .collect();
                bundle.overlays.push(BundleFile {
                    path: name.clone(),
                    docs,
                });
            }
            continue;
        }
        if name == "fleet.yaml" || name == "fleet.yml" || !is_yaml {
            continue;
        }
        if nested.iter().any(|p| name.starts_with(p.as_str())) {
            continue;
        }
        let text = utf8(dir, name, bytes)?;
        if name.starts_with("templates/") && text.contains("{{") {
            layout.templated.push(name.clone());
            continue;
        }
        match raw_yaml(name, &text, opts) {
            Ok(Raw::Keep(text)) => bundle.manifests.push((name.clone(), text)),
            Ok(Raw::Skip(note)) => bundle.notes.push(note),
            Err(e) => return Err(vec![e]),
        }
    }
    bundle.config.layout = Some(layout);
    Ok(bundle)
}

fn utf8(dir: &Path, name: &str, bytes: &[u8]) -> Result<String, Vec<FieldError>> {
    String::from_utf8(bytes.to_vec()).map_err(|_| err(&dir.join(name), "not UTF-8 text"))
}

/// What to do with one raw YAML file.
enum Raw {
    /// Read it (the text, without `null` documents, which Fleet skips).
    Keep(String),
    /// Skip it, saying why.
    Skip(Diagnostic),
}

/// `rawyaml.ToObjects` for one file: skipped whole when a non-empty document has no kind.
fn raw_yaml(name: &str, text: &str, opts: &ParseOptions) -> Result<Raw, FieldError> {
    let docs =
        parse_stream_with(text, opts).map_err(|e| FieldError::error(format!("{name}: {e}")))?;
    let docs: Vec<_> = docs.into_iter().filter(|d| !d.empty).collect();
    let mut with_kind = 0;
    let mut without_kind = None;
    let mut has_null = false;
    for (i, d) in docs.iter().enumerate() {
        let root = &d.root;
        if root.is_null() {
            has_null = true;
            continue;
        }
        let Some(pairs) = root.pairs() else {
            continue; // not an object: the reader reports it
        };
        if pairs.is_empty() {
            continue;
        }
        match root.get_str("kind") {
            Some(k) if !k.is_empty() => with_kind += 1,
            _ => {
                without_kind.get_or_insert(i);
            }
        }
    }
    if let Some(i) = without_kind {
        let message = format!(
            "{name}: not deployed: document {i} has no kind, and Fleet skips a file with such a document (values files, kustomization.yaml, Chart.yaml are such files)"
        );
        return Ok(Raw::Skip(if with_kind > 0 {
            Diagnostic::warning(message)
        } else {
            Diagnostic::info(message)
        }));
    }
    if !has_null {
        return Ok(Raw::Keep(text.to_string()));
    }
    // Keep the other documents, each as it was written.
    let kept: Vec<&str> = docs
        .iter()
        .filter(|d| !d.root.is_null())
        .filter_map(|d| text.get(d.span.start as usize..d.span.end as usize))
        .collect();
    Ok(Raw::Keep(kept.join("\n---\n")))
}

/// Every `helm.valuesFiles` entry of the bundle and its targets.
fn values_files<E: Extra>(config: &FleetConfig<E>) -> Vec<String> {
    std::iter::once(&config.root)
        .chain(config.customizations.iter().map(|c| &c.options))
        .filter_map(|o| o.helm.as_ref())
        .filter_map(|h| h.get("valuesFiles").and_then(Value::as_array))
        .flatten()
        .filter_map(Value::as_str)
        .map(str::to_string)
        .collect()
}

/// `parseValuesFiles`: each values file merged in order over the inline `values` (wrangler
/// `MergeMaps`); the bundle's only when it names a chart (`helm.chart` or `helm.repo`), a
/// target's whenever it has `helm`.
fn fold_values_files<E: Extra>(
    config: &mut FleetConfig<E>,
    dir: &Path,
) -> Result<(), Vec<FieldError>> {
    let root_has_chart = config.root.helm.as_ref().is_some_and(|h| {
        ["chart", "repo"].iter().any(|k| {
            h.get(*k)
                .and_then(Value::as_str)
                .is_some_and(|s| !s.is_empty())
        })
    });
    if root_has_chart {
        fold_into(&mut config.root, dir, "helm.valuesFiles")?;
    }
    for c in &mut config.customizations {
        let at = format!("{}.helm.valuesFiles", c.field_path);
        fold_into(&mut c.options, dir, &at)?;
    }
    Ok(())
}

fn fold_into<E: Extra>(
    options: &mut Options<E>,
    dir: &Path,
    at: &str,
) -> Result<(), Vec<FieldError>> {
    let Some(helm) = options.helm.as_mut() else {
        return Ok(());
    };
    let files: Vec<String> = helm
        .get("valuesFiles")
        .and_then(Value::as_array)
        .map(|l| {
            l.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default();
    if files.is_empty() {
        return Ok(());
    }
    let mut values: Map<String, Value> = helm
        .get("values")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    for f in &files {
        let path = values_file_path(dir, f).map_err(|why| {
            vec![FieldError::new(
                format!("fleet.yaml {at}"),
                format!("{f}: {why}; a values file must lie inside the bundle directory"),
            )]
        })?;
        let text = std::fs::read_to_string(&path).map_err(|e| {
            vec![FieldError::new(
                format!("fleet.yaml {at}"),
                format!("reading values file: {}: {e}", path.display()),
            )]
        })?;
        let data = tailor_yaml::sigs::v2read::yaml11_to_json(&text).map_err(|e| {
            vec![FieldError::new(
                format!("fleet.yaml {at}"),
                format!("{}: {e}", path.display()),
            )]
        })?;
        let data = match data {
            Value::Object(m) => m,
            Value::Null => Map::new(),
            other => {
                return Err(vec![FieldError::new(
                    format!("fleet.yaml {at}"),
                    format!(
                        "{}: a values file holds a map, not {}",
                        path.display(),
                        tailor_kube::json::type_name(&other)
                    ),
                )])
            }
        };
        merge_into(&mut values, &data);
    }
    if !values.is_empty() {
        helm.insert("values".into(), Value::Object(values));
    }
    Ok(())
}

/// Where a `helm.valuesFiles` entry leads: a regular file inside the bundle `dir`
/// ([`tailor_kube::tree`]), never an absolute path or one that climbs out (Fleet reads values
/// files from the bundle; tailor would print another file's secrets into the values).
fn values_file_path(dir: &Path, entry: &str) -> Result<PathBuf, String> {
    if Path::new(entry).is_absolute() {
        return Err("an absolute path".into());
    }
    let path = dir.join(entry);
    let root_real = std::fs::canonicalize(dir).map_err(|e| e.to_string())?;
    let real = match std::fs::canonicalize(&path) {
        Ok(real) => real,
        // Reading it says so, as it always did.
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(path),
        Err(e) => return Err(e.to_string()),
    };
    if !real.starts_with(&root_real) {
        return Err(format!("leads to {}, outside the bundle", real.display()));
    }
    tailor_kube::tree::readable_file(&root_real, &path).map_err(|e| e.to_string())?;
    Ok(path)
}

/// `GetContent`'s walk.
struct Loader {
    root: PathBuf,
    root_real: PathBuf,
    /// `ignoreApplyConfigs`: relative names never loaded.
    ignore: Vec<String>,
    /// `.fleetignore` patterns by the relative directory that holds them (`""`: the root).
    patterns: Vec<(String, Vec<String>)>,
    files: BTreeMap<String, Vec<u8>>,
    on_disk: BTreeSet<String>,
}

impl Loader {
    fn walk(&mut self, dir: &Path, rel: &str) -> Result<(), Vec<FieldError>> {
        self.add_fleetignore(dir, rel)?;
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .map_err(|e| err(dir, e))?
            .collect::<Result<_, _>>()
            .map_err(|e| err(dir, e))?;
        entries.sort_by_key(|e| e.file_name());
        for e in entries {
            let name = e.file_name().to_string_lossy().into_owned();
            let child_rel = if rel.is_empty() {
                name.clone()
            } else {
                format!("{rel}/{name}")
            };
            let path = e.path();
            self.on_disk.insert(child_rel.clone());
            let file_type = e.file_type().map_err(|e| err(&path, e))?;
            let is_dir = file_type.is_dir();
            let ignored = self.is_ignored(&child_rel, &name, is_dir)?;
            if self.ignore.contains(&child_rel) {
                if is_dir {
                    // Fleet returns without skipping: the directory's files still load.
                    self.walk(&path, &child_rel)?;
                }
                continue;
            }
            if is_dir {
                if ignored || name.starts_with('.') {
                    continue;
                }
                self.walk(&path, &child_rel)?;
                continue;
            }
            if ignored || name.starts_with('.') {
                continue;
            }
            match tailor_kube::tree::readable_file(&self.root_real, &path) {
                Ok(()) => {}
                Err(Refused::Unresolved(e)) => {
                    return Err(err(
                        &path,
                        format!("GetContent: resolving symlink {child_rel:?}: {e}"),
                    ))
                }
                Err(Refused::Escapes(_)) => {
                    return Err(err(
                        &self.root,
                        format!(
                            "GetContent: symlink {child_rel:?}: target escapes bundle directory"
                        ),
                    ))
                }
                Err(why) => return Err(err(&path, why)),
            }
            let bytes = std::fs::read(&path).map_err(|e| err(&path, e))?;
            self.files.insert(child_rel, bytes);
        }
        Ok(())
    }

    /// `readFleetIgnore`: one pattern a line; trailing blanks dropped unless escaped; blank
    /// lines and lines starting with `#` skipped.
    fn add_fleetignore(&mut self, dir: &Path, rel: &str) -> Result<(), Vec<FieldError>> {
        let path = dir.join(".fleetignore");
        let text = match std::fs::read(&path) {
            Ok(b) => String::from_utf8_lossy(&b).into_owned(),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
            Err(e) => return Err(err(&path, format!("read .fleetignore: {e}"))),
        };
        let mut patterns = Vec::new();
        for line in text.split('\n') {
            let line = line.strip_suffix('\r').unwrap_or(line);
            let line = trim_unescaped_trailing_space(line);
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            patterns.push(line.to_string());
        }
        if !patterns.is_empty() {
            self.patterns.push((rel.to_string(), patterns));
        }
        Ok(())
    }

    /// `ignoreTree.isIgnored`: the patterns of every directory whose path is a prefix of this
    /// one (as strings, as Fleet compares them), against the base name; `dir/*` patterns
    /// match a directory named `dir`.
    fn is_ignored(&self, rel: &str, base: &str, is_dir: bool) -> Result<bool, Vec<FieldError>> {
        for (dir, patterns) in &self.patterns {
            if !rel.starts_with(dir.as_str()) {
                continue;
            }
            for p in patterns {
                if is_all_files_in_dir_pattern(p) {
                    if is_dir && p.strip_suffix("/*") == Some(base) {
                        return Ok(true);
                    }
                } else {
                    match tailor_go::path::matches(p, base) {
                        Ok(true) => return Ok(true),
                        Ok(false) => {}
                        Err(e) => {
                            let at = if dir.is_empty() {
                                ".fleetignore".to_string()
                            } else {
                                format!("{dir}/.fleetignore")
                            };
                            return Err(err(&self.root.join(at), format!("{p:?}: {e}")));
                        }
                    }
                }
            }
        }
        Ok(false)
    }
}

/// `^.+/\*`: a pattern with `/*` after its first character.
fn is_all_files_in_dir_pattern(p: &str) -> bool {
    p.char_indices()
        .skip(1)
        .any(|(i, _)| p[i..].starts_with("/*"))
}

/// `([^\\])\s+$` → `$1`.
fn trim_unescaped_trailing_space(line: &str) -> &str {
    let trimmed = line.trim_end();
    if trimmed.len() == line.len() || trimmed.is_empty() || trimmed.ends_with('\\') {
        return line;
    }
    trimmed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fleetignore_lines() {
        assert_eq!(trim_unescaped_trailing_space("a.yaml  "), "a.yaml");
        assert_eq!(
            trim_unescaped_trailing_space("a.yaml\\ \\ "),
            "a.yaml\\ \\ "
        );
        assert_eq!(trim_unescaped_trailing_space("a.yaml\\  "), "a.yaml\\  ");
        assert_eq!(trim_unescaped_trailing_space("   "), "   ");
        assert!(is_all_files_in_dir_pattern("foo/*"));
        assert!(is_all_files_in_dir_pattern("a/b/*x"));
        assert!(!is_all_files_in_dir_pattern("/*"));
        assert!(!is_all_files_in_dir_pattern("foo*"));
    }

    #[test]
    fn raw_yaml_rules() {
        let opts = ParseOptions::default();
        let verdict = |t: &str| match raw_yaml("f.yaml", t, &opts).unwrap() {
            Raw::Keep(t) => format!("keep:{t}"),
            Raw::Skip(d) => format!("skip:{:?}", d.severity),
        };
        assert_eq!(verdict("kind: A\n---\n{}\n"), "keep:kind: A\n---\n{}\n");
        assert_eq!(verdict("replicas: 1\n"), "skip:Info");
        assert_eq!(verdict("kind: A\n---\nx: 1\n"), "skip:Warning");
        assert_eq!(verdict("kind: A\n---\nnull\n"), "keep:kind: A\n");
    }
}
