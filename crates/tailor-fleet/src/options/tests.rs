//! One test per row of `docs/semantics/fleet.md` §2a's merge table.

use serde_json::json;

use super::*;

fn opts(v: Value) -> Options {
    Options::from_map(v.as_object().unwrap(), "e", Dialect::Tailor).unwrap()
}

fn merged(base: Value, custom: Value) -> Options {
    opts(base).merge(&opts(custom))
}

fn helm(o: &Options) -> Value {
    Value::Object(o.helm.clone().unwrap_or_default())
}

#[test]
fn strings_custom_wins_when_non_empty() {
    for (k, get) in [
        (
            "namespace",
            (|o: &Options| o.namespace.clone()) as fn(&Options) -> Option<String>,
        ),
        ("defaultNamespace", |o| o.default_namespace.clone()),
        ("serviceAccount", |o| o.service_account.clone()),
    ] {
        let m = merged(json!({k: "base"}), json!({k: "custom"}));
        assert_eq!(get(&m).as_deref(), Some("custom"), "{k}");
        let m = merged(json!({k: "base"}), json!({k: ""}));
        assert_eq!(get(&m).as_deref(), Some("base"), "{k}: empty keeps base");
        let m = merged(json!({k: "base"}), json!({}));
        assert_eq!(get(&m).as_deref(), Some("base"), "{k}: absent keeps base");
        // The "-" reset branch is dead code in Fleet: "-" is copied literally.
        let m = merged(json!({k: "base"}), json!({k: "-"}));
        assert_eq!(get(&m).as_deref(), Some("-"), "{k}: '-' is literal");
    }
}

#[test]
fn chain_of_default_namespaces_last_wins() {
    let m = opts(json!({"defaultNamespace": "base-ns"}))
        .merge(&opts(json!({"defaultNamespace": "first-ns"})))
        .merge(&opts(json!({"defaultNamespace": "second-ns"})));
    assert_eq!(m.default_namespace.as_deref(), Some("second-ns"));
}

#[test]
fn helm_is_untouched_without_custom_helm_and_created_with_it() {
    let m = merged(json!({"helm": {"chart": "c"}}), json!({}));
    assert_eq!(helm(&m), json!({"chart": "c"}));
    let m = merged(json!({}), json!({"helm": {"releaseName": "r"}}));
    assert_eq!(helm(&m), json!({"releaseName": "r"}));
    assert!(merged(json!({}), json!({})).helm.is_none());
}

#[test]
fn helm_timeout_positive_wins_negative_resets_zero_keeps() {
    let b = json!({"helm": {"timeoutSeconds": 30}});
    assert_eq!(
        helm(&merged(b.clone(), json!({"helm": {"timeoutSeconds": 60}})))["timeoutSeconds"],
        60
    );
    assert_eq!(
        helm(&merged(b.clone(), json!({"helm": {"timeoutSeconds": -1}})))["timeoutSeconds"],
        0
    );
    assert_eq!(
        helm(&merged(b, json!({"helm": {"timeoutSeconds": 0}})))["timeoutSeconds"],
        30
    );
}

#[test]
fn helm_values_deep_merge_lists_replace_null_sets_null() {
    let m = merged(
        json!({"helm": {"values": {"a": {"x": 1, "y": 2}, "l": [1, 2], "gone": {"k": 1}}}}),
        json!({"helm": {"values": {"a": {"y": 3}, "l": [3], "gone": null}}}),
    );
    assert_eq!(
        helm(&m)["values"],
        json!({"a": {"x": 1, "y": 3}, "l": [3], "gone": null})
    );
    // Base without values takes custom's.
    let m = merged(json!({"helm": {}}), json!({"helm": {"values": {"a": 1}}}));
    assert_eq!(helm(&m)["values"], json!({"a": 1}));
}

#[test]
fn helm_values_chain_of_calculate_test_go() {
    let m = opts(
        json!({"defaultNamespace": "base-ns", "helm": {"releaseName": "base-release",
        "values": {"source": "base", "edge": "false", "extra": "false"}}}),
    )
    .merge(&opts(
        json!({"helm": {"values": {"source": "edge", "edge": "true"}}}),
    ))
    .merge(&opts(
        json!({"helm": {"values": {"source": "extra", "extra": "true"}}}),
    ));
    assert_eq!(m.default_namespace.as_deref(), Some("base-ns"));
    assert_eq!(helm(&m)["releaseName"], "base-release");
    assert_eq!(
        helm(&m)["values"],
        json!({"source": "extra", "edge": "true", "extra": "true"})
    );
}

#[test]
fn helm_template_values_shallow_overwrite() {
    let m = merged(
        json!({"helm": {"templateValues": {"a": "1", "b": "2"}}}),
        json!({"helm": {"templateValues": {"b": "3", "c": "4"}}}),
    );
    assert_eq!(
        helm(&m)["templateValues"],
        json!({"a": "1", "b": "3", "c": "4"})
    );
}

#[test]
fn helm_values_from_by_key() {
    let cm = |n: &str, k: &str| json!({"configMapKeyRef": {"name": n, "key": k}});
    let m = merged(
        json!({"helm": {"valuesFrom": [cm("base-cm", "k"), cm("shared", "k")]}}),
        json!({"helm": {"valuesFrom": [{"secretKeyRef": {"name": "custom-sec"}}, cm("shared", "k")]}}),
    );
    assert_eq!(helm(&m)["valuesFrom"].as_array().unwrap().len(), 3);
    // Same configmap, different key: two entries.
    let m = merged(
        json!({"helm": {"valuesFrom": [cm("c", "key1")]}}),
        json!({"helm": {"valuesFrom": [cm("c", "key2")]}}),
    );
    assert_eq!(
        helm(&m)["valuesFrom"],
        json!([cm("c", "key1"), cm("c", "key2")])
    );
    // A chain accumulates in order.
    let m = opts(json!({}))
        .merge(&opts(json!({"helm": {"valuesFrom": [cm("cm-edge", "")]}})))
        .merge(&opts(json!({"helm": {"valuesFrom": [cm("cm-extra", "")]}})));
    assert_eq!(
        helm(&m)["valuesFrom"],
        json!([cm("cm-edge", ""), cm("cm-extra", "")])
    );
}

#[test]
fn helm_chart_strings_custom_wins_when_non_empty() {
    for k in ["repo", "chart", "version", "releaseName"] {
        let m = merged(json!({"helm": {k: "b"}}), json!({"helm": {k: "c"}}));
        assert_eq!(helm(&m)[k], "c");
        let m = merged(json!({"helm": {k: "b"}}), json!({"helm": {k: ""}}));
        assert_eq!(helm(&m)[k], "b");
    }
}

#[test]
fn helm_booleans_are_sticky() {
    for k in HELM_STICKY {
        let m = merged(json!({"helm": {*k: true}}), json!({"helm": {*k: false}}));
        assert_eq!(helm(&m)[*k], true, "{k}: true then false stays true");
        let m = merged(json!({"helm": {*k: false}}), json!({"helm": {*k: true}}));
        assert_eq!(helm(&m)[*k], true, "{k}");
    }
}

#[test]
fn helm_fields_not_merged_keep_the_base() {
    for k in HELM_NOT_MERGED {
        let (b, c) = match *k {
            "maxHistory" => (json!(5), json!(9)),
            "valuesFiles" => (json!(["a.yaml"]), json!(["b.yaml"])),
            _ => (json!(false), json!(true)),
        };
        let m = merged(json!({"helm": {*k: b.clone()}}), json!({"helm": {*k: c}}));
        assert_eq!(helm(&m)[*k], b, "{k}");
    }
}

#[test]
fn kustomize_dir_custom_wins_when_non_empty() {
    let m = merged(
        json!({"kustomize": {"dir": "a"}}),
        json!({"kustomize": {"dir": "b"}}),
    );
    assert_eq!(m.kustomize_dir.as_deref(), Some("b"));
    let m = merged(json!({"kustomize": {"dir": "a"}}), json!({"kustomize": {}}));
    assert_eq!(m.kustomize_dir.as_deref(), Some("a"));
}

#[test]
fn diff_compare_patches_by_key_custom_replaces_whole_entry() {
    let p = |kind: &str, name: &str, op: &str| {
        json!({"apiVersion": "v1", "kind": kind, "namespace": "ns", "name": name,
               "operations": [{"op": op, "path": "/x"}]})
    };
    let m = merged(
        json!({"diff": {"comparePatches": [p("Secret", "shared", "remove"), p("Secret", "sec", "remove")]}}),
        json!({"diff": {"comparePatches": [p("Secret", "shared", "replace"), p("ConfigMap", "cm", "remove")]}}),
    );
    assert_eq!(
        m.compare_patches,
        vec![
            p("Secret", "shared", "replace"),
            p("Secret", "sec", "remove"),
            p("ConfigMap", "cm", "remove")
        ]
    );
}

#[test]
fn yaml_overlays_plain_append_without_dedupe() {
    let m = merged(
        json!({"yaml": {"overlays": ["a", "b"]}}),
        json!({"yaml": {"overlays": ["b", "c"]}}),
    );
    assert_eq!(m.yaml_overlays, ["a", "b", "b", "c"]);
}

#[test]
fn force_sync_generation_positive_wins() {
    assert_eq!(
        merged(
            json!({"forceSyncGeneration": 2}),
            json!({"forceSyncGeneration": 5})
        )
        .force_sync_generation,
        5
    );
    assert_eq!(
        merged(
            json!({"forceSyncGeneration": 2}),
            json!({"forceSyncGeneration": 0})
        )
        .force_sync_generation,
        2
    );
    assert_eq!(
        merged(
            json!({"forceSyncGeneration": 2}),
            json!({"forceSyncGeneration": -1})
        )
        .force_sync_generation,
        2
    );
}

#[test]
fn keep_resources_is_or() {
    assert!(
        merged(
            json!({"keepResources": true}),
            json!({"keepResources": false})
        )
        .keep_resources
    );
    assert!(merged(json!({}), json!({"keepResources": true})).keep_resources);
    assert!(!merged(json!({}), json!({})).keep_resources);
}

#[test]
fn correct_drift_custom_replaces_when_set() {
    let m = merged(
        json!({"correctDrift": {"enabled": true, "force": true}}),
        json!({"correctDrift": {"enabled": false}}),
    );
    assert_eq!(m.correct_drift, Some(json!({"enabled": false})));
    let m = merged(json!({"correctDrift": {"enabled": true}}), json!({}));
    assert_eq!(m.correct_drift, Some(json!({"enabled": true})));
}

#[test]
fn downstream_resources_by_kind_case_insensitive_and_name() {
    let m = merged(
        json!({"downstreamResources": [{"kind": "Secret", "name": "sec"}, {"kind": "Secret", "name": "base-secret"}]}),
        json!({"downstreamResources": [{"kind": "secret", "name": "sec"}, {"kind": "ConfigMap", "name": "target-cm"}]}),
    );
    assert_eq!(
        m.downstream_resources,
        vec![
            json!({"kind": "secret", "name": "sec"}),
            json!({"kind": "Secret", "name": "base-secret"}),
            json!({"kind": "ConfigMap", "name": "target-cm"})
        ]
    );
}

#[test]
fn not_merged_fields_keep_the_base_and_ignore_custom() {
    for k in &NOT_MERGED {
        let v = match *k {
            "namespaceLabels" | "namespaceAnnotations" => json!({"a": "b"}),
            "ignore" => json!({"conditions": []}),
            "allowedTargetNamespaceSelector" => json!({}),
            "overwrites" => json!([]),
            _ => json!(true),
        };
        let m = merged(json!({}), json!({*k: v.clone()}));
        assert!(
            !m.not_merged.contains_key(*k),
            "{k}: a customization's value is ignored"
        );
        let m = merged(json!({*k: v.clone()}), json!({}));
        assert_eq!(m.not_merged.get(*k), Some(&v), "{k}: base kept");
    }
}
