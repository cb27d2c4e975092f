use super::*;
use serde_json::json;

fn source(o: Value) -> Source {
    Source::from_object(&o)
        .unwrap()
        .expect("a ConfigMap or Secret")
}

fn cm(ns: Option<&str>, name: &str, key: &str, text: &str) -> Source {
    let mut meta = json!({"name": name});
    if let Some(ns) = ns {
        meta["namespace"] = json!(ns);
    }
    source(json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": meta, "data": {key: text}}))
}

fn helm(v: Value) -> Map<String, Value> {
    v.as_object().unwrap().clone()
}

fn merged(values: Value, helm_map: Value, sources: &[Source]) -> Result<Value, String> {
    let mut values = values.as_object().unwrap().clone();
    let lookup = Lookup {
        release_namespace: "rel",
        downstream: &[],
        sources,
    };
    merge_values_from(
        &mut values,
        Some(&helm(helm_map)),
        &lookup,
        &Budget::unlimited(),
    )?;
    Ok(Value::Object(values))
}

#[test]
fn a_secret_is_decoded_and_string_data_wins() {
    let s = source(json!({
        "apiVersion": "v1", "kind": "Secret", "metadata": {"name": "s", "namespace": "n"},
        "data": {"a": "eDogMQo=", "b": "eDogMgo="}, "stringData": {"b": "x: 3\n"},
    }));
    assert_eq!(s.data["a"], "x: 1\n");
    assert_eq!(s.data["b"], "x: 3\n");
    let bad = json!({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "s"}, "data": {"a": "!!"}});
    assert!(Source::from_object(&bad).unwrap_err().contains("data.a"));
    let other = json!({"apiVersion": "apps/v1", "kind": "ConfigMap", "metadata": {"name": "s"}});
    assert_eq!(Source::from_object(&other).unwrap(), None);
}

/// `getValues`: the config map is merged first, the secret last, maps key by key, and a value
/// that is no map replaces the one before it. The text is YAML 1.1 as sigs.k8s.io/yaml reads
/// it: `y` is true.
#[test]
fn config_map_then_secret_over_the_values() {
    let secret = source(json!({
        "apiVersion": "v1", "kind": "Secret", "metadata": {"name": "sec", "namespace": "rel"},
        "stringData": {"values.yaml": "name: from secret\noptions: {english: {name: s}, onlysecret: 1}\n"},
    }));
    let sources = [
        cm(
            Some("default"),
            "cm",
            "values.yaml",
            "name: from cm\nconfig: c\noptions: {onlyconfigmap: y}\n",
        ),
        secret,
    ];
    let got = merged(
        json!({"name": "fleet", "options": {"english": {"name": "f"}}}),
        json!({"valuesFrom": [{
            "secretKeyRef": {"name": "sec"},
            "configMapKeyRef": {"name": "cm", "namespace": "default", "key": "values.yaml"},
        }]}),
        &sources,
    )
    .unwrap();
    assert_eq!(
        got,
        json!({"name": "from secret", "config": "c",
               "options": {"english": {"name": "s"}, "onlyconfigmap": true, "onlysecret": 1.0}})
    );
}

#[test]
fn namespaces_keys_and_empty_documents() {
    // No namespace: the release namespace; an object naming none stands for any.
    let sources = [
        cm(Some("rel"), "a", "values.yaml", "x: 1\n"),
        cm(None, "b", "k", ""),
    ];
    let got = merged(
        json!({}),
        json!({"valuesFrom": [
            {"configMapKeyRef": {"name": "a"}},
            {"configMapKeyRef": {"name": "b", "namespace": "z", "key": "k"}},
        ]}),
        &sources,
    )
    .unwrap();
    assert_eq!(got, json!({"x": 1.0}));
    // A downstream resource is read from the release namespace whatever the reference says.
    let mut values = Map::new();
    let downstream = [json!({"kind": "configmap", "name": "a"})];
    let lookup = Lookup {
        release_namespace: "rel",
        downstream: &downstream,
        sources: &sources,
    };
    let h =
        helm(json!({"valuesFrom": [{"configMapKeyRef": {"name": "a", "namespace": "elsewhere"}}]}));
    merge_values_from(&mut values, Some(&h), &lookup, &Budget::unlimited()).unwrap();
    assert_eq!(Value::Object(values), json!({"x": 1.0}));
}

#[test]
fn what_the_agent_fails_on() {
    let sources = [
        cm(Some("rel"), "a", "other", "x: 1\n"),
        cm(Some("rel"), "l", "values.yaml", "- 1\n"),
    ];
    let err = |h: Value| merged(json!({}), h, &sources).unwrap_err();
    let missing = err(json!({"valuesFrom": [{"configMapKeyRef": {"name": "nope"}}]}));
    assert!(
        missing.starts_with("helm.valuesFrom[0].configMapKeyRef: configmaps \"nope\" not found"),
        "{missing}"
    );
    let missing =
        err(json!({"valuesFrom": [{}, {"secretKeyRef": {"name": "a", "namespace": "rel"}}]}));
    assert!(
        missing.starts_with("helm.valuesFrom[1].secretKeyRef: secrets \"a\" not found"),
        "{missing}"
    );
    assert!(
        err(json!({"valuesFrom": [{"configMapKeyRef": {"name": "a"}}]})).contains(
            "key values.yaml is missing from configmap rel/a, can't use it in valuesFrom"
        )
    );
    assert!(err(json!({"valuesFrom": [{"configMapKeyRef": {"name": "l"}}]})).contains("not a map"));
}

#[test]
fn referenced_lists_both_kinds() {
    let h = helm(
        json!({"valuesFrom": [{"secretKeyRef": {"name": "s"}, "configMapKeyRef": {"name": "c"}}]}),
    );
    assert_eq!(
        referenced(Some(&h)),
        [("ConfigMap", "c".to_string()), ("Secret", "s".to_string())]
    );
    assert!(referenced(None).is_empty());
}
