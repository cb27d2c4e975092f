//! Reading a Fleet bundle directory as Fleet reads it (`internal/bundlereader`): `fleet.yaml`
//! is its configuration, files under `overlays/` are overlay sets (an empty file there is a
//! removal), every other YAML file holds the bundle's objects.

use std::path::{Path, PathBuf};

use tailor_kube::FieldError;
use tailor_yaml::{parse_stream_with, ParseOptions};

use crate::config::{parse_fleet_yaml, FleetConfig};
use crate::options::Extra;
use crate::overlay::{is_under_overlays, BundleFile};

/// A bundle directory, read.
#[derive(Debug)]
pub struct Bundle<E = ()> {
    pub config: FleetConfig<E>,
    /// The overlay files (`overlays/<set>/...`), parsed.
    pub overlays: Vec<BundleFile>,
    /// The manifest files: their path relative to the bundle and their text.
    pub manifests: Vec<(String, String)>,
}

/// Whether `dir` is a bundle (has a `fleet.yaml`).
pub fn is_bundle(dir: &Path) -> bool {
    dir.join("fleet.yaml").is_file()
}

/// Reads the bundle at `dir`. Errors name the file (and the field of fleet.yaml).
pub fn read_dir<E: Extra>(dir: &Path, opts: &ParseOptions) -> Result<Bundle<E>, Vec<FieldError>> {
    let fleet_yaml = dir.join("fleet.yaml");
    let at = |p: &Path, e: &dyn std::fmt::Display| {
        vec![FieldError::error(format!("{}: {e}", p.display()))]
    };
    let text = std::fs::read_to_string(&fleet_yaml).map_err(|e| at(&fleet_yaml, &e))?;
    let config = parse_fleet_yaml(&text).map_err(|errors| {
        errors
            .into_iter()
            .map(|e| {
                let message = format!("{}: {}", fleet_yaml.display(), e.message);
                FieldError { message, ..e }
            })
            .collect::<Vec<_>>()
    })?;
    let mut bundle = Bundle {
        config,
        overlays: Vec::new(),
        manifests: Vec::new(),
    };
    for (file, rel) in yaml_files(dir).map_err(|e| at(dir, &e))? {
        if rel == "fleet.yaml" {
            continue;
        }
        let text = std::fs::read_to_string(&file).map_err(|e| at(&file, &e))?;
        if is_under_overlays(&rel) {
            let docs = parse_stream_with(&text, opts)
                .map_err(|e| vec![FieldError::error(format!("{rel}: {e}"))])?
                .into_iter()
                .filter(|d| !d.empty)
                .map(|d| d.root)
                .collect();
            bundle.overlays.push(BundleFile { path: rel, docs });
        } else {
            bundle.manifests.push((rel, text));
        }
    }
    Ok(bundle)
}

/// Every `.yaml`/`.yml` file under `dir`, sorted, with paths relative to `dir`; hidden
/// entries are skipped.
fn yaml_files(dir: &Path) -> std::io::Result<Vec<(PathBuf, String)>> {
    let mut out = Vec::new();
    walk(dir, dir, &mut out)?;
    out.sort_by(|a, b| a.1.cmp(&b.1));
    Ok(out)
}

fn walk(root: &Path, dir: &Path, out: &mut Vec<(PathBuf, String)>) -> std::io::Result<()> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)?.collect::<Result<_, _>>()?;
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let name = e.file_name().to_string_lossy().to_string();
        if name.starts_with('.') {
            continue;
        }
        let path = e.path();
        if e.file_type()?.is_dir() {
            walk(root, &path, out)?;
        } else if name.ends_with(".yaml") || name.ends_with(".yml") {
            let rel = path
                .strip_prefix(root)
                .map(|p| p.to_string_lossy().replace('\\', "/"))
                .unwrap_or_else(|_| name.clone());
            out.push((path, rel));
        }
    }
    Ok(())
}
