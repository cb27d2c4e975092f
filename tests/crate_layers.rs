//! The workspace's crates form layers, and a crate depends only on layers below its own: the
//! Go runtime under the YAML layer, under the Kubernetes core, under the cluster model, under
//! one crate per upstream system, under the binary. An edge that runs back up (the cluster
//! model calling into an upstream crate, one upstream crate borrowing another's helpers)
//! couples systems that are meant to be compared one at a time, so this test reads every
//! `Cargo.toml` and fails on such an edge. A new crate fails too until it is given a layer here.

use std::collections::BTreeMap;
use std::path::Path;

/// Each crate's layer; a normal dependency must sit in a lower layer.
const LAYERS: &[(&str, u8)] = &[
    ("tailor-go", 0),
    ("tailor-yaml", 1),
    ("tailor-testkit", 2),
    ("tailor-kube", 2),
    ("tailor-cluster", 3),
    ("tailor-kubestellar", 4),
    ("tailor-kustomize", 4),
    ("tailor-flux", 4),
    ("tailor-fleet", 4),
    ("tailor-kratix", 4),
    // The pipeline sits beside the upstream crates and may name none of them.
    ("tailor-kio", 4),
    ("tailor-helm", 4),
    ("tailor-bench", 5),
    ("tailor", 6),
];

/// Edges inside one layer that are deliberate: Flux builds its overlays with kustomize, as
/// kustomize-controller runs kustomize's API; Fleet's `${ }` values templates have sprig's
/// list, dict and math functions, which tailor-helm implements for Helm.
const SAME_LAYER: &[(&str, &str)] = &[
    ("tailor-flux", "tailor-kustomize"),
    ("tailor-fleet", "tailor-helm"),
];

/// The `tailor-*` names under `[dependencies]` (not dev- or build-dependencies: a test may
/// use any crate).
fn normal_dependencies(manifest: &str) -> Vec<String> {
    let mut in_deps = false;
    let mut deps = Vec::new();
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            in_deps = line == "[dependencies]";
            continue;
        }
        if !in_deps {
            continue;
        }
        if let Some((name, _)) = line.split_once('=') {
            let name = name.trim();
            if name.starts_with("tailor-") {
                deps.push(name.to_string());
            }
        }
    }
    deps
}

fn package_name(manifest: &str) -> Option<String> {
    let mut in_package = false;
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            in_package = line == "[package]";
        } else if in_package {
            if let Some(value) = line.strip_prefix("name").map(str::trim_start) {
                if let Some(value) = value.strip_prefix('=') {
                    return Some(value.trim().trim_matches('"').to_string());
                }
            }
        }
    }
    None
}

fn manifests() -> BTreeMap<String, Vec<String>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut paths = vec![root.join("Cargo.toml")];
    for entry in std::fs::read_dir(root.join("crates")).expect("crates/ is readable") {
        let manifest = entry.expect("a directory entry").path().join("Cargo.toml");
        if manifest.is_file() {
            paths.push(manifest);
        }
    }
    paths
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).expect("a readable Cargo.toml");
            let name = package_name(&text).unwrap_or_else(|| panic!("{path:?} names no package"));
            (name, normal_dependencies(&text))
        })
        .collect()
}

fn layer(name: &str) -> u8 {
    LAYERS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, l)| *l)
        .unwrap_or_else(|| {
            panic!("crate {name} has no layer: give it one in tests/crate_layers.rs")
        })
}

#[test]
fn every_dependency_points_down_a_layer() {
    let crates = manifests();
    assert!(crates.len() >= LAYERS.len(), "found only {crates:?}");
    let mut wrong = Vec::new();
    for (name, deps) in &crates {
        for dep in deps {
            let allowed = layer(dep) < layer(name) || SAME_LAYER.contains(&(name.as_str(), dep));
            if !allowed {
                wrong.push(format!("{name} -> {dep}"));
            }
        }
    }
    assert!(wrong.is_empty(), "edges that run up or sideways: {wrong:?}");
}

#[test]
fn the_reader_sees_dependencies_only() {
    let manifest = "[package]\nname = \"x\"\n[dependencies]\ntailor-a = { path = \"a\" }\nserde = \"1\"\n[dev-dependencies]\ntailor-b = { path = \"b\" }\n";
    assert_eq!(package_name(manifest).as_deref(), Some("x"));
    assert_eq!(normal_dependencies(manifest), vec!["tailor-a".to_string()]);
}
