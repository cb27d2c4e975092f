//! Strategic merge behaviour as observed with `kubectl kustomize` v5.5.0 (each expectation
//! below was checked against it), plus presentation and performance properties.

use tailor_kustomize::patch::{apply_patches, strategic_merge, Merged, PatchSpec, PatchTarget};
use tailor_yaml::{emit_node, parse_stream, Node};

fn doc(s: &str) -> Node {
    parse_stream(s).unwrap().remove(0).root
}

const DEPLOY: &str = "\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: a
  labels:
    app: x # the app
spec:
  template:
    spec:
      containers:
      - name: side
        image: nginx:1.7
        ports:
        - containerPort: 80
        - containerPort: 80
          protocol: UDP
      - name: web
        image: reg.io/app:v2
        ports:
        - containerPort: 80
";

fn patched(patch_spec: &str) -> Node {
    let mut target = doc(DEPLOY);
    let patch = doc(&format!(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: a\nspec:\n  template:\n    spec:\n      containers:\n{patch_spec}"
    ));
    assert_eq!(strategic_merge(&mut target, &patch).unwrap(), Merged::Kept);
    target
}

/// The Deployment's containers.
fn containers(n: &Node) -> &[Node] {
    n.get_path(&["spec", "template", "spec", "containers"])
        .and_then(Node::items)
        .unwrap()
}

fn names(n: &Node) -> Vec<String> {
    containers(n)
        .iter()
        .map(|c| c.get_str("name").unwrap_or("").to_string())
        .collect()
}

#[test]
fn new_elements_come_first_then_the_rest() {
    let out = patched("      - name: new\n        image: x\n      - name: web\n        image: y\n");
    assert_eq!(names(&out), ["new", "web", "side"]);
    let web = &containers(&out)[1];
    assert_eq!(web.get_str("image"), Some("y"));
    assert!(web.get("ports").is_some(), "merged, not replaced");
}

#[test]
fn list_replace_directive_replaces_the_list() {
    let out = patched("      - name: web\n        image: X\n      - $patch: replace\n");
    assert_eq!(names(&out), ["web"]);
    let web = &containers(&out)[0];
    assert!(web.get("ports").is_none());
}

#[test]
fn element_without_merge_key_removes_keyed_elements() {
    let out = patched("      - name: web\n        image: X\n      - image: nokey\n");
    assert_eq!(names(&out), ["web"]);
}

#[test]
fn element_replace_is_undone_and_delete_removes() {
    let out = patched("      - name: side\n        $patch: delete\n      - name: web\n        $patch: replace\n        image: repl\n");
    assert_eq!(names(&out), ["web"]);
    let web = &containers(&out)[0];
    assert_eq!(web.get_str("image"), Some("reg.io/app:v2"));
}

#[test]
fn ports_merge_on_port_and_protocol() {
    // kyaml matches the patch port without protocol to the UDP one and then keeps both
    // destination ports unchanged: the patch's `name` is lost (as kustomize does).
    let out = patched(
        "      - name: side\n        ports:\n        - containerPort: 80\n          name: http\n",
    );
    let side = &containers(&out)[0];
    let ports = side.get("ports").unwrap().to_json().unwrap();
    assert_eq!(
        ports,
        serde_json::json!([{"containerPort": 80}, {"containerPort": 80, "protocol": "UDP"}])
    );
}

#[test]
fn nulls_delete_and_set_element_order_is_kept_verbatim() {
    let mut target = doc(DEPLOY);
    let patch = doc("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: a\n  labels:\n    app: null\nspec:\n  template:\n    spec:\n      $setElementOrder/containers:\n      - name: web\n");
    strategic_merge(&mut target, &patch).unwrap();
    let j = target.to_json().unwrap();
    assert_eq!(j["metadata"]["labels"], serde_json::json!({}));
    assert_eq!(
        j["spec"]["template"]["spec"]["$setElementOrder/containers"],
        serde_json::json!([{"name": "web"}])
    );
}

#[test]
fn top_level_delete_is_reported() {
    let mut target = doc(DEPLOY);
    let patch =
        doc("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: a\n$patch: delete\n");
    assert_eq!(
        strategic_merge(&mut target, &patch).unwrap(),
        Merged::Deleted
    );
    let mut all = vec![doc(DEPLOY)];
    let spec = PatchSpec::from_text(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: a\n$patch: delete\n",
        None,
    )
    .unwrap();
    let report = apply_patches(&mut all, &[spec]).unwrap();
    assert!(all.is_empty());
    assert_eq!(report.deleted[0].to_string(), "Deployment.v1.apps/a.[noNs]");
}

#[test]
fn targeted_patch_keeps_name_and_stringifies_labels() {
    let mut all = vec![doc(DEPLOY)];
    let target = PatchTarget {
        kind: "Deploy.*".into(),
        ..Default::default()
    };
    let spec = PatchSpec::from_text(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: other\n  labels:\n    app: null\n    n: 1\n",
        Some(target),
    )
    .unwrap();
    apply_patches(&mut all, &[spec]).unwrap();
    let j = all[0].to_json().unwrap();
    assert_eq!(j["metadata"]["name"], "a");
    assert_eq!(
        j["metadata"]["labels"],
        serde_json::json!({"app": "null", "n": "1"})
    );
}

#[test]
fn unmatched_patch_reports_kustomize_message() {
    let mut all = vec![doc(DEPLOY)];
    let spec = PatchSpec::from_text(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: b\nspec: {}\n",
        None,
    )
    .unwrap();
    let err = apply_patches(&mut all, &[spec]).unwrap_err();
    insta::assert_snapshot!(err.to_string());
}

#[test]
fn untouched_parts_keep_comments_and_order() {
    let out = patched("      - name: web\n        image: y\n");
    insta::assert_snapshot!(emit_node(&out, Default::default()));
}

#[test]
fn json6902_and_smp_in_one_run() {
    let mut all = vec![
        doc(DEPLOY),
        doc("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  k: v\n"),
    ];
    let specs = [
        PatchSpec::from_text(
            "- op: add\n  path: /metadata/annotations/note\n  value: hi\n- op: replace\n  path: /data/k\n  value: w\n",
            Some(PatchTarget { kind: "ConfigMap".into(), ..Default::default() }),
        )
        .unwrap(),
        PatchSpec::from_text("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: a\nspec:\n  replicas: 3\n", None).unwrap(),
    ];
    apply_patches(&mut all, &specs).unwrap();
    let out: String = all
        .iter()
        .map(|n| format!("---\n{}", emit_node(n, Default::default())))
        .collect();
    insta::assert_snapshot!(out);
}

#[test]
fn applying_one_patch_to_many_resources_is_linear() {
    let make = |n: usize| -> Vec<Node> {
        (0..n)
            .map(|i| doc(&DEPLOY.replace("name: a\n", &format!("name: d{i}\n"))))
            .collect()
    };
    let spec = PatchSpec::from_text(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: x\nspec:\n  template:\n    spec:\n      containers:\n      - name: web\n        image: new\n",
        Some(PatchTarget { kind: "Deployment".into(), ..Default::default() }),
    )
    .unwrap();
    let time = |n: usize| {
        let mut rs = make(n);
        let t = std::time::Instant::now();
        apply_patches(&mut rs, std::slice::from_ref(&spec)).unwrap();
        assert_eq!(rs.len(), n);
        t.elapsed()
    };
    let small = time(1_000);
    let large = time(10_000);
    // 10x the resources must cost far less than 100x the time (quadratic would)
    assert!(
        large < small * 40,
        "1k: {small:?}, 10k: {large:?} — not linear"
    );
}
