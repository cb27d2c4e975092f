//! The fleet-examples `multi-cluster/manifests` bundle rendered for clusters labelled env=dev,
//! env=test, env=prod and none, through the whole function in standalone mode
//! (`tailor CONFIG DIR`, DIR holding fleet.yaml and overlays/). Expected objects were derived
//! by hand from docs/semantics/fleet.md (crates/tailor-fleet/tests/data/multi-cluster-expected.yaml
//! explains each); outputs are also kept as golden snapshots.
mod common;

use std::collections::BTreeMap;

use common::{repo_root, tailor_bin};
use serde_json::Value;

fn parse_all(text: &str) -> Vec<Value> {
    tailor_yaml::parse_stream(text)
        .unwrap()
        .into_iter()
        .filter(|d| !d.empty)
        .map(|d| d.root.to_json().unwrap())
        .collect()
}

#[test]
fn multi_cluster_bundle_as_fleet_deploys_it() {
    let data = repo_root().join("crates/tailor-fleet/tests/data");
    let bundle = data.join("multi-cluster");
    let expected =
        parse_all(&std::fs::read_to_string(data.join("multi-cluster-expected.yaml")).unwrap());
    let cases = expected[0]["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 4);
    let dir = common::temp_dir("fleet-bundle");
    for case in cases {
        let cluster = &case["cluster"];
        let name = cluster["name"].as_str().unwrap();
        let config = dir.join(format!("{name}.yaml"));
        std::fs::write(
            &config,
            format!(
                "apiVersion: tailor.dev/v1alpha1\nkind: Tailor\nmetadata: {{name: fleet}}\nspec:\n  cluster: {}\n",
                serde_json::to_string(cluster).unwrap()
            ),
        )
        .unwrap();
        let out = std::process::Command::new(tailor_bin())
            .arg(&config)
            .arg(&bundle)
            .args(["-o", "resource-list"])
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{name}: {}{stdout}",
            String::from_utf8_lossy(&out.stderr)
        );
        let list = parse_all(&stdout).remove(0);
        let mut got: BTreeMap<String, Value> = BTreeMap::new();
        for item in list["items"].as_array().unwrap() {
            let mut item = item.clone();
            let path = item["metadata"]["annotations"]["internal.config.kubernetes.io/path"]
                .as_str()
                .unwrap()
                .to_string();
            // The path/index annotations are how the ResourceList records files; the objects
            // Fleet deploys do not carry them.
            let annotations = item["metadata"].as_object_mut().unwrap();
            if let Some(Value::Object(a)) = annotations.get_mut("annotations") {
                a.retain(|k, _| !k.contains("config.kubernetes.io/"));
                if a.is_empty() {
                    annotations.remove("annotations");
                }
            }
            assert!(
                got.insert(path.clone(), item).is_none(),
                "{name}: two objects in {path}"
            );
        }
        let want: BTreeMap<String, Value> = case["manifests"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| (m["path"].as_str().unwrap().to_string(), m["object"].clone()))
            .collect();
        assert_eq!(
            got.keys().collect::<Vec<_>>(),
            want.keys().collect::<Vec<_>>(),
            "{name}: files deployed"
        );
        for (path, object) in &want {
            assert_eq!(&got[path], object, "{name}: {path}");
        }
        // The stream as a user sees it, kept as a golden file.
        let stream = std::process::Command::new(tailor_bin())
            .arg(&config)
            .arg(&bundle)
            .output()
            .unwrap();
        insta::assert_snapshot!(
            format!("fleet_multi_cluster_{name}"),
            String::from_utf8_lossy(&stream.stdout)
        );
    }
}

#[test]
fn do_not_deploy_gives_empty_items_and_an_info_result() {
    let input = "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\nfunctionConfig:\n  apiVersion: tailor.dev/v1alpha1\n  kind: Tailor\n  spec:\n    cluster: {name: edge-1, labels: {env: edge}}\n    targetCustomizations:\n    - name: no-edge\n      clusterSelector: {matchLabels: {env: edge}}\n      doNotDeploy: true\n";
    let r = common::run_tailor(&[], input);
    assert_eq!(r.code, 0, "{}", r.stdout);
    assert!(r.stdout.contains("items: []"), "{}", r.stdout);
    assert!(r.stdout.contains("severity: info"), "{}", r.stdout);
    assert!(r.stdout.contains("no-edge"), "{}", r.stdout);
}

/// KRM mode with the overlay sets written inline in the config (`spec.overlays`), including
/// the empty replacement file that removes redis-slave-deployment.yaml: the same result as the
/// bundle directory for the dev cluster.
#[test]
fn inline_overlays_in_krm_mode() {
    let data = repo_root().join("crates/tailor-fleet/tests/data");
    let bundle = data.join("multi-cluster");
    let mut items = String::new();
    let mut names: Vec<String> = std::fs::read_dir(&bundle)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".yaml") && n != "fleet.yaml")
        .collect();
    names.sort();
    for name in &names {
        let text = std::fs::read_to_string(bundle.join(name)).unwrap();
        let mut node = tailor_yaml::parse_stream(&text).unwrap().remove(0).root;
        let meta = node
            .entry_or_insert("metadata", tailor_yaml::Node::mapping)
            .unwrap();
        let annos = meta
            .entry_or_insert("annotations", tailor_yaml::Node::mapping)
            .unwrap();
        annos.set(
            "config.kubernetes.io/path",
            tailor_yaml::Node::string(name.clone()),
        );
        let json = node.to_json().unwrap();
        items.push_str(&format!("- {}\n", serde_json::to_string(&json).unwrap()));
    }
    let overlay = |set: &str, file: &str| {
        let text = std::fs::read_to_string(bundle.join("overlays").join(set).join(file)).unwrap();
        serde_json::to_string(&text).unwrap()
    };
    let input = format!(
        "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n{items}functionConfig:\n  apiVersion: tailor.dev/v1alpha1\n  kind: Tailor\n  spec:\n    cluster: {{name: dev-1, labels: {{env: dev}}}}\n    namespace: fleet-mc-manifest-example\n    targetCustomizations:\n    - name: dev\n      clusterSelector: {{matchLabels: {{env: dev}}}}\n      yaml: {{overlays: [noreplication]}}\n    overlays:\n      noreplication:\n        redis-slave-deployment.yaml: {}\n        redis-slave-service_patch.yaml: {}\n",
        overlay("noreplication", "redis-slave-deployment.yaml"),
        overlay("noreplication", "redis-slave-service_patch.yaml"),
    );
    let r = common::run_tailor(&[], &input);
    assert_eq!(r.code, 0, "{}", r.stdout);
    let expected =
        parse_all(&std::fs::read_to_string(data.join("multi-cluster-expected.yaml")).unwrap());
    let dev = expected[0]["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["cluster"]["name"] == "dev-1")
        .unwrap();
    let list = parse_all(&r.stdout).remove(0);
    let mut got: BTreeMap<String, Value> = BTreeMap::new();
    for item in list["items"].as_array().unwrap() {
        let mut item = item.clone();
        let path = item["metadata"]["annotations"]["config.kubernetes.io/path"]
            .as_str()
            .unwrap()
            .to_string();
        let meta = item["metadata"].as_object_mut().unwrap();
        meta.remove("annotations");
        got.insert(path, item);
    }
    let want: BTreeMap<String, Value> = dev["manifests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m["path"].as_str().unwrap().to_string(), m["object"].clone()))
        .collect();
    assert_eq!(got, want);

    // A wrong type names the field.
    let bad = input.replace(
        "redis-slave-deployment.yaml: \"\"",
        "redis-slave-deployment.yaml: 3",
    );
    let r = common::run_tailor(&[], &bad);
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(
        r.stdout
            .contains("spec.overlays.noreplication.redis-slave-deployment.yaml"),
        "{}",
        r.stdout
    );
}
