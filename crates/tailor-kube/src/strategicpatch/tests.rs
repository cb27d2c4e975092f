//! Cases read from apimachinery's `strategicpatch/patch.go` (each test says which rule), with
//! the answers `kubectl patch --local --type strategic` gives for built-in types.

use serde_json::{json, Value as Json};

use super::*;

fn doc(s: &str) -> Node {
    tailor_yaml::parse_stream(s).unwrap().remove(0).root
}

fn patch_as(api_version: &str, kind: &str, base: &str, patch: &str) -> Result<Json, String> {
    let mut b = doc(base);
    strategic_merge_patch(&mut b, &doc(patch), Schema::for_resource(api_version, kind))?;
    Ok(b.to_json().unwrap())
}

fn deploy(base: &str, patch: &str) -> Json {
    patch_as("apps/v1", "Deployment", base, patch).unwrap_or_else(|e| panic!("{e}"))
}

fn containers(list: &str) -> String {
    format!("spec:\n  template:\n    spec:\n      containers: {list}\n")
}

fn names(v: &Json) -> Vec<String> {
    v["spec"]["template"]["spec"]["containers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn merged_lists_keep_the_originals_items_where_they_were() {
    // normalizeElementOrder: patch items in patch order, server-only items interleaved by
    // their place in the original.
    let base = containers("[{name: a}, {name: b}, {name: c}]");
    let got = deploy(
        &base,
        &containers("[{name: c, image: c2}, {name: new}, {name: a}]"),
    );
    assert_eq!(names(&got), ["b", "c", "new", "a"]);
    let got = deploy(&base, &containers("[{name: b, image: b2}]"));
    assert_eq!(names(&got), ["a", "b", "c"]);
    assert_eq!(
        got["spec"]["template"]["spec"]["containers"][1],
        json!({"name": "b", "image": "b2"})
    );
    let got = deploy(
        &containers("[{name: a}, {name: b}]"),
        &containers("[{name: sidecar}]"),
    );
    assert_eq!(names(&got), ["sidecar", "a", "b"]);
}

#[test]
fn a_list_without_merge_strategy_is_replaced() {
    let got = deploy(
        &containers("[{name: a, args: [x, y]}]"),
        &containers("[{name: a, args: [z]}]"),
    );
    assert_eq!(
        got["spec"]["template"]["spec"]["containers"],
        json!([{"name": "a", "args": ["z"]}])
    );
}

#[test]
fn scalar_sets_merge_and_keep_patch_order_first() {
    // finalizers: patchStrategy merge on a list of strings.
    let got = patch_as(
        "v1",
        "ConfigMap",
        "metadata: {name: x, finalizers: [a, b]}\n",
        "metadata: {finalizers: [c, a]}\n",
    )
    .unwrap();
    assert_eq!(got["metadata"]["finalizers"], json!(["c", "a", "b"]));
}

#[test]
fn delete_from_primitive_list() {
    let got = patch_as(
        "v1",
        "ConfigMap",
        "metadata: {name: x, finalizers: [a, b, c]}\n",
        "metadata: {$deleteFromPrimitiveList/finalizers: [b]}\n",
    )
    .unwrap();
    assert_eq!(got["metadata"]["finalizers"], json!(["a", "c"]));
    // Nothing to delete from: nothing happens, the directive does not show.
    let got = patch_as(
        "v1",
        "ConfigMap",
        "metadata: {name: x}\n",
        "metadata: {$deleteFromPrimitiveList/finalizers: [b]}\n",
    )
    .unwrap();
    assert_eq!(got["metadata"], json!({"name": "x"}));
    let e = patch_as(
        "v1",
        "ConfigMap",
        "metadata: {name: x}\n",
        "metadata: {$deleteFromPrimitiveListX/finalizers: [b]}\n",
    )
    .unwrap_err();
    assert_eq!(e, "invalid patch format of primitive list");
}

#[test]
fn set_element_order_decides_the_order() {
    let got = deploy(
        &containers("[{name: a}, {name: b}, {name: c}]"),
        "spec:\n  template:\n    spec:\n      $setElementOrder/containers: [{name: c}, {name: a}, {name: b}]\n      containers: [{name: a, image: a2}]\n",
    );
    assert_eq!(names(&got), ["c", "a", "b"]);
    assert_eq!(
        got["spec"]["template"]["spec"]["containers"][1],
        json!({"name": "a", "image": "a2"})
    );
}

#[test]
fn retain_keys_clears_the_unlisted() {
    let got = deploy(
        "spec:\n  strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 1}}\n",
        "spec:\n  strategy: {$retainKeys: [type], type: Recreate}\n",
    );
    assert_eq!(got["spec"]["strategy"], json!({"type": "Recreate"}));
    let e = patch_as(
        "apps/v1",
        "Deployment",
        "spec: {strategy: {type: A}}\n",
        "spec:\n  strategy: {$retainKeys: [type], rollingUpdate: {}}\n",
    )
    .unwrap_err();
    assert_eq!(e, "invalid patch format of retainKeys");
}

#[test]
fn patch_directives_on_lists_and_maps() {
    // $patch: replace in a list: the patch's other elements are the list.
    let got = deploy(
        &containers("[{name: a}, {name: b}]"),
        &containers("[{$patch: replace}, {name: z}]"),
    );
    assert_eq!(names(&got), ["z"]);
    // $patch: delete by merge key; $patch: merge is refused.
    let got = deploy(
        &containers("[{name: a}, {name: b}]"),
        &containers("[{name: a, $patch: delete}]"),
    );
    assert_eq!(names(&got), ["b"]);
    let e = patch_as(
        "apps/v1",
        "Deployment",
        &containers("[{name: a}]"),
        &containers("[{$patch: merge}]"),
    )
    .unwrap_err();
    assert_eq!(e, "merging lists cannot yet be specified in the patch");
    // $patch: replace on a map takes the patch; delete leaves an empty map.
    let got = deploy(
        "spec: {selector: {matchLabels: {a: b}}}\n",
        "spec: {selector: {$patch: replace, matchLabels: {c: d}}}\n",
    );
    assert_eq!(got["spec"]["selector"], json!({"matchLabels": {"c": "d"}}));
    let got = deploy(
        "spec: {selector: {matchLabels: {a: b}}}\n",
        "spec: {selector: {$patch: delete}}\n",
    );
    assert_eq!(got["spec"]["selector"], json!({}));
    let got = deploy("spec: {replicas: 1}\n", "$patch: delete\n");
    assert_eq!(got, json!({}));
}

#[test]
fn nulls_delete_and_new_values_lose_their_nulls_and_directives() {
    let got = deploy(
        "spec: {replicas: 2, paused: true}\n",
        "spec:\n  replicas: null\n  template: {metadata: {labels: {a: b, c: null}}, spec: {x: {$patch: delete}}}\n",
    );
    assert_eq!(
        got["spec"],
        json!({"paused": true, "template": {"metadata": {"labels": {"a": "b"}}, "spec": {}}})
    );
}

#[test]
fn another_type_replaces() {
    let got = patch_as("v1", "ConfigMap", "data: {a: x}\n", "data: [1]\n").unwrap();
    assert_eq!(got["data"], json!([1]));
    let got = patch_as("v1", "ConfigMap", "data: null\n", "data: {a: x}\n").unwrap();
    assert_eq!(got["data"], json!({"a": "x"}));
}

#[test]
fn merge_keys_compare_as_json_numbers() {
    // Service ports merge on `port`; 80 and 80.0 are the same float64.
    let got = patch_as(
        "v1",
        "Service",
        "spec: {ports: [{name: http, port: 80}, {name: https, port: 443}]}\n",
        "spec: {ports: [{port: 443.0, targetPort: 8443}]}\n",
    )
    .unwrap();
    let ports = got["spec"]["ports"].as_array().unwrap();
    assert_eq!(ports.len(), 2);
    assert_eq!(ports[0], json!({"name": "http", "port": 80}));
    assert_eq!(ports[1]["name"], "https");
    assert_eq!(ports[1]["port"].as_f64(), Some(443.0));
    assert_eq!(ports[1]["targetPort"], 8443);
}

#[test]
fn errors_carry_apimachinerys_messages() {
    let e = patch_as(
        "apps/v1",
        "Deployment",
        &containers("[{name: a}]"),
        &containers("[{image: x}]"),
    )
    .unwrap_err();
    assert_eq!(
        e,
        r#"map: {"image":"x"} does not contain declared merge key: name"#
    );
    let e = patch_as(
        "apps/v1",
        "Deployment",
        &containers("[{name: a}]"),
        &containers("[x]"),
    )
    .unwrap_err();
    assert!(e.starts_with("list element types are not identical"), "{e}");
    let e = patch_as("v1", "ConfigMap", "{}\n", "[1]\n").unwrap_err();
    assert!(e.contains("cannot unmarshal array"), "{e}");
}

#[test]
fn go_deduplication_order() {
    let s = |v: &[&str]| v.iter().map(|x| Node::string(*x)).collect::<Vec<_>>();
    let out: Vec<String> = deduplicate_scalars(s(&["a", "a", "b", "c"]))
        .iter()
        .map(|n| n.as_scalar().unwrap().to_string())
        .collect();
    // Go moves the last element into the duplicate's place.
    assert_eq!(out, ["a", "c", "b"]);
}

#[test]
fn untouched_parts_keep_their_presentation() {
    let mut base = doc("# head\nspec:\n  replicas: 1 # one\n  paused: 'yes'\n");
    strategic_merge_patch(
        &mut base,
        &doc("spec: {replicas: 2}\n"),
        Schema::for_resource("apps/v1", "Deployment"),
    )
    .unwrap();
    let paused = base.get_path(&["spec", "paused"]).unwrap();
    assert_eq!(paused.style, tailor_yaml::Style::SingleQuoted);
}

// ---- irregular keyed lists, answered as the scan-based merge before the index answered ----

fn ports(v: &Json) -> &Json {
    &v["spec"]["template"]["spec"]["containers"][0]["ports"]
}

#[test]
fn ports_merge_on_container_port_alone_whatever_the_protocol() {
    // apimachinery's merge key for ports is containerPort (the Go tag), not
    // containerPort+protocol as kustomize's merge2 has it: a UDP port merges into TCP 53.
    let base =
        containers("[{name: a, ports: [{containerPort: 53, protocol: TCP}, {containerPort: 80}]}]");
    let patch = containers(
        "[{name: a, ports: [{containerPort: 53, protocol: UDP}, {containerPort: 8080}]}]",
    );
    assert_eq!(
        ports(&deploy(&base, &patch)),
        &json!([{"containerPort": 53, "protocol": "UDP"}, {"containerPort": 8080}, {"containerPort": 80}])
    );
}

#[test]
fn a_duplicate_key_in_the_original_takes_the_patch_on_its_first_item() {
    let base = containers("[{name: a, image: 1}, {name: b}, {name: a, image: 2}]");
    let patch = containers("[{name: a, image: 3}]");
    let got = deploy(&base, &patch);
    assert_eq!(
        got["spec"]["template"]["spec"]["containers"],
        json!([{"name": "a", "image": 3}, {"name": "a", "image": 2}, {"name": "b"}])
    );
}

#[test]
fn a_delete_element_removes_every_item_with_its_key() {
    let base = containers("[{name: a, image: 1}, {name: b}, {name: a, image: 2}, {name: c}]");
    let patch = containers("[{name: a, $patch: delete}]");
    assert_eq!(names(&deploy(&base, &patch)), ["b", "c"]);
}

#[test]
fn numbers_match_by_value_across_spellings() {
    let base =
        containers("[{name: a, ports: [{containerPort: 80, name: x}, {containerPort: 81}]}]");
    let patch = containers("[{name: a, ports: [{containerPort: 80.0, name: y}]}]");
    assert_eq!(
        ports(&deploy(&base, &patch)),
        &json!([{"containerPort": 80.0, "name": "y"}, {"containerPort": 81}])
    );
}

#[test]
fn an_original_item_without_the_merge_key_is_refused_when_ordering() {
    let base = containers("[{name: a}, {image: x}]");
    let err = patch_as("apps/v1", "Deployment", &base, &containers("[{name: b}]")).unwrap_err();
    assert_eq!(
        err,
        "map: {\"image\":\"x\"} does not contain declared merge key: name"
    );
}

#[test]
fn a_scalar_among_maps_is_refused_with_its_index() {
    let base = containers("[{name: a}, x, {name: b}]");
    let err = patch_as("apps/v1", "Deployment", &base, &containers("[{name: b}]")).unwrap_err();
    assert_eq!(err, "list element types are not identical: [{\"name\":\"a\"},\"x\",{\"name\":\"b\"}] [{\"name\":\"b\"}]");
}

#[test]
fn duplicate_scalars_go_as_go_removes_them() {
    // deduplicateScalars moves the last element into a duplicate's place.
    let base = "metadata:\n  finalizers: [a, b, a, c, b, d]\n";
    let got = patch_as(
        "apps/v1",
        "Deployment",
        base,
        "metadata:\n  finalizers: [e, a]\n",
    )
    .unwrap();
    assert_eq!(
        got["metadata"]["finalizers"],
        json!(["e", "a", "b", "c", "d"])
    );
}

#[test]
fn a_long_merged_list_is_merged_in_linear_time() {
    // Every item of a merged list was looked up by a scan: 16,000 containers took over a
    // minute (release build); keyed lookups take a fraction of a second.
    let mut items = String::new();
    for i in 0..16_000 {
        items += &format!("{{name: c{i}, image: x}}, ");
    }
    let base = containers(&format!("[{items}]"));
    let start = std::time::Instant::now();
    let got = deploy(&base, &containers("[{name: c8000, image: y}, {name: new}]"));
    let c = &got["spec"]["template"]["spec"]["containers"];
    assert_eq!(c[8000], json!({"name": "c8000", "image": "y"}));
    // A new item follows the patch item before it (mergeSortedSlice).
    assert_eq!(c[8001], json!({"name": "new"}));
    assert_eq!(c[16_000], json!({"name": "c15999", "image": "x"}));
    assert!(start.elapsed().as_secs() < 20, "{:?}", start.elapsed());
}
