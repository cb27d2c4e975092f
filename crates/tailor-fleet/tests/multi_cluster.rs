//! The rancher/fleet-examples multi-cluster bundle, run through this crate's pieces (fleet.yaml
//! → resolve → overlay plan → apply → namespace) and compared with the hand-derived
//! expectations in tests/data/multi-cluster-expected.yaml.
//!
//! Patches are applied by a small RFC 7386 merge engine. Fleet uses a strategic merge patch
//! for these (built-in kinds); the test asserts that no patch contains a list, the case in which
//! the two give the same result, so the engine stands in for SMP faithfully here.

use std::path::{Path, PathBuf};

use serde_json::Value;
use tailor_cluster::Cluster;
use tailor_fleet::{
    apply_namespaces, apply_overlays, parse_fleet_yaml, plan_overlays, BundleFile, Decision,
    OverlayOp, PatchKind, Scopes,
};
use tailor_yaml::Node;

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

/// Every `.yaml` file under `dir`, relative paths, sorted (fleet.yaml and SOURCE.txt left out).
fn read_bundle(dir: &Path) -> Vec<BundleFile> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<BundleFile>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                walk(root, &p, out);
                continue;
            }
            let rel = p
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            if !rel.ends_with(".yaml") || rel == "fleet.yaml" {
                continue;
            }
            let text = std::fs::read_to_string(&p).unwrap();
            let docs = tailor_yaml::parse_stream(&text)
                .unwrap()
                .into_iter()
                .filter(|d| !d.empty)
                .map(|d| d.root)
                .collect();
            out.push(BundleFile { path: rel, docs });
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out
}

fn has_list(v: &Value) -> bool {
    match v {
        Value::Array(_) => true,
        Value::Object(m) => m.values().any(has_list),
        _ => false,
    }
}

/// RFC 7386.
fn merge_patch(target: &mut Value, patch: &Value) {
    let Value::Object(p) = patch else {
        *target = patch.clone();
        return;
    };
    if !target.is_object() {
        *target = Value::Object(Default::default());
    }
    let t = target.as_object_mut().unwrap();
    for (k, v) in p {
        if v.is_null() {
            t.remove(k);
        } else {
            merge_patch(t.entry(k.clone()).or_insert(Value::Null), v);
        }
    }
}

fn engine(kind: PatchKind, doc: &mut Node, patch: &Node) -> Result<(), String> {
    let p = patch.to_json().map_err(|e| e.to_string())?;
    assert_eq!(
        kind,
        PatchKind::Strategic,
        "every base in this bundle is a built-in kind"
    );
    assert!(!has_list(&p), "SMP equals a merge patch only without lists");
    let mut d = doc.to_json().map_err(|e| e.to_string())?;
    merge_patch(&mut d, &p);
    *doc = tailor_yaml::from_json(&d);
    Ok(())
}

fn strs(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect()
}

#[test]
fn multi_cluster_bundle_matches_the_hand_derived_expectations() {
    let bundle_dir = data().join("multi-cluster");
    let config =
        parse_fleet_yaml::<()>(&std::fs::read_to_string(bundle_dir.join("fleet.yaml")).unwrap())
            .unwrap();
    let files = read_bundle(&bundle_dir);
    let (base, overlays): (Vec<_>, Vec<_>) = files
        .into_iter()
        .partition(|f| !tailor_fleet::is_under_overlays(&f.path));
    let expected_text =
        std::fs::read_to_string(data().join("multi-cluster-expected.yaml")).unwrap();
    let expected = tailor_yaml::parse_stream(&expected_text).unwrap()[0]
        .root
        .to_json()
        .unwrap();
    let cases = expected["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 4);
    for case in cases {
        let cluster = Cluster::from_json(&case["cluster"], "cluster").unwrap();
        let who = &cluster.name;
        let Decision::Deploy { matched, options } = config.resolve(&cluster) else {
            panic!("{who}: expected a deployment");
        };
        assert_eq!(matched, strs(&case["matched"]), "{who}: matched");
        assert!(!case["doNotDeploy"].as_bool().unwrap());
        assert_eq!(
            options.yaml_overlays,
            strs(&case["overlays"]),
            "{who}: overlays"
        );
        assert_eq!(
            options.namespace.as_deref(),
            case["namespace"].as_str(),
            "{who}"
        );

        let steps = plan_overlays(&base, &overlays, &options.yaml_overlays).unwrap();
        let got_steps: Vec<Value> = steps
            .iter()
            .map(|s| {
                let mut v = serde_json::json!({"overlay": s.overlay, "source": s.source, "target": s.target});
                match &s.op {
                    OverlayOp::Remove => v["op"] = "remove".into(),
                    OverlayOp::Replace(_) => v["op"] = "replace".into(),
                    OverlayOp::Patch { kind, .. } => {
                        v["op"] = "patch".into();
                        v["patchKind"] = match kind {
                            PatchKind::Strategic => "strategic",
                            PatchKind::MergePatch => "merge",
                            PatchKind::Json6902 => "json6902",
                        }
                        .into();
                    }
                }
                v
            })
            .collect();
        assert_eq!(Value::Array(got_steps), case["steps"], "{who}: steps");

        let mut out = base.clone();
        apply_overlays(&mut out, &steps, &mut engine).unwrap();
        let mut items: Vec<Node> = out.iter().flat_map(|f| f.docs.clone()).collect();
        let scopes = Scopes::from_items(&items);
        apply_namespaces(
            &mut items,
            options.namespace.as_deref(),
            options.default_namespace.as_deref(),
            &scopes,
        )
        .unwrap();
        let paths: Vec<&str> = out
            .iter()
            .flat_map(|f| f.docs.iter().map(move |_| f.path.as_str()))
            .collect();
        let want = case["manifests"].as_array().unwrap();
        assert_eq!(items.len(), want.len(), "{who}: number of objects");
        for ((item, path), w) in items.iter().zip(&paths).zip(want) {
            assert_eq!(Some(*path), w["path"].as_str(), "{who}");
            assert_eq!(item.to_json().unwrap(), w["object"], "{who}: {path}");
        }
    }
}
