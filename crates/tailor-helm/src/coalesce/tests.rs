//! Helm's own `pkg/chartutil/coalesce_test.go` tables (ported to
//! `tests/data/coalesce.json`), then rules of `coalesce.go` the tables do not pin.

use super::*;
use crate::gofmt::format_v;
use crate::testdata::{load_cases, same_values};
use serde_json::json;

fn chart(v: &Value) -> Chart {
    Chart {
        name: v["name"].as_str().unwrap_or_default().to_string(),
        values: map(&v["values"]),
        dependencies: v["dependencies"]
            .as_array()
            .map(|d| d.iter().map(chart).collect())
            .unwrap_or_default(),
    }
}

fn map(v: &Value) -> Map<String, Value> {
    v.as_object().cloned().unwrap_or_default()
}

/// The value at a dotted path: `None` when a key is missing, `Some(None)`-like
/// distinctions are made by the callers through `Value::Null`.
fn lookup<'v>(root: &'v Map<String, Value>, path: &str) -> Option<&'v Value> {
    let mut parts = path.split('.');
    let mut cur = root.get(parts.next()?)?;
    for part in parts {
        cur = cur.as_object()?.get(part)?;
    }
    Some(cur)
}

/// What Go's text/template prints for `{{.path}}` on these values.
fn render(root: &Map<String, Value>, path: &str) -> String {
    match lookup(root, path) {
        None | Some(Value::Null) => "<no value>".into(),
        Some(v) => format_v(v),
    }
}

fn strs(case: &Value, key: &str) -> Vec<String> {
    case[key]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|s| s.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

/// Runs one ported case; returns how many assertions it made.
fn check(case: &Value) -> usize {
    let fn_name = case["fn"].as_str().unwrap_or_default();
    if fn_name == "concat_prefix" {
        let rows = case["cases"].as_array().cloned().unwrap_or_default();
        for row in &rows {
            let (a, b, want) = (row[0].as_str(), row[1].as_str(), row[2].as_str());
            assert_eq!(Some(concat_prefix(a.unwrap(), b.unwrap()).as_str()), want);
        }
        return rows.len();
    }
    let given = map(&case["values"]);
    let (values, warnings) = match fn_name {
        "coalesce_values" | "merge_values" | "coalesce" => {
            let c = chart(&case["chart"]);
            let out = if fn_name == "merge_values" {
                merge_values(&c, &given)
            } else {
                coalesce_values(&c, &given)
            }
            .unwrap_or_else(|e| panic!("{e} in {case}"));
            (out.values, out.warnings)
        }
        _ => {
            let mut dst = map(&case["dst"]);
            let src = case["src"].as_object().cloned();
            let mut warnings = Vec::new();
            if fn_name == "merge_tables" {
                merge_tables(&mut dst, src, &mut warnings).unwrap();
            } else {
                coalesce_tables(&mut dst, src, &mut warnings).unwrap();
            }
            (dst, warnings)
        }
    };
    let mut n = 0;
    for row in case["renders"].as_array().into_iter().flatten() {
        let path = row[0].as_str().unwrap();
        assert_eq!(
            render(&values, path),
            row[1],
            "{{{{.{path}}}}} in {}",
            case["test"]
        );
        n += 1;
    }
    for path in strs(case, "absent") {
        assert!(
            lookup(&values, &path).is_none(),
            "{path} present in {}",
            case["test"]
        );
        n += 1;
    }
    for path in strs(case, "present") {
        assert!(
            lookup(&values, &path).is_some(),
            "{path} absent in {}",
            case["test"]
        );
        n += 1;
    }
    for path in strs(case, "null") {
        assert_eq!(
            lookup(&values, &path),
            Some(&Value::Null),
            "{path} in {}",
            case["test"]
        );
        n += 1;
    }
    for row in case["equals"].as_array().into_iter().flatten() {
        let path = row[0].as_str().unwrap();
        let got = lookup(&values, path).unwrap_or(&Value::Null);
        assert!(
            same_values(got, &row[1]),
            "{path}: {got} in {}",
            case["test"]
        );
        n += 1;
    }
    for want in strs(case, "warnings_contain") {
        assert!(warnings.contains(&want), "{want} not in {warnings:?}");
        n += 1;
    }
    if case["inputs_unchanged"] == true {
        assert_eq!(given, map(&case["values"]));
        n += 1;
    }
    n
}

#[test]
fn helm_coalesce_test_tables() {
    let cases = load_cases(include_str!("../../tests/data/coalesce.json"));
    assert_eq!(cases.len(), 9, "ported cases");
    let assertions: usize = cases.iter().map(check).sum();
    assert_eq!(assertions, 131, "ported assertions");
}

fn sub(name: &str, values: Value) -> Chart {
    Chart {
        name: name.into(),
        values: map(&values),
        dependencies: Vec::new(),
    }
}

#[test]
fn lists_and_scalars_are_replaced_maps_merged() {
    let c = sub(
        "c",
        json!({"l": [1, 2, 3], "m": {"a": 1, "b": 2}, "s": "x"}),
    );
    let out = coalesce_values(&c, &map(&json!({"l": [9], "m": {"b": 3}, "s": 5}))).unwrap();
    assert_eq!(
        Value::Object(out.values),
        json!({"l": [9], "m": {"b": 3, "a": 1}, "s": 5})
    );
    assert!(out.warnings.is_empty());
}

#[test]
fn null_deletes_when_coalescing_and_stays_when_merging() {
    let c = sub("c", json!({"a": 1, "m": {"x": 1, "y": 2}}));
    let given = map(&json!({"a": null, "m": {"x": null}, "new": null}));
    let out = coalesce_values(&c, &given).unwrap();
    assert_eq!(
        Value::Object(out.values),
        json!({"m": {"y": 2}, "new": null})
    );
    let out = merge_values(&c, &given).unwrap();
    assert_eq!(
        Value::Object(out.values),
        json!({"a": null, "m": {"x": null, "y": 2}, "new": null})
    );
}

#[test]
fn subchart_key_holding_a_non_map_is_an_error() {
    let mut parent = sub("parent", json!({}));
    parent.dependencies.push(sub("child", json!({})));
    let e = coalesce_values(&parent, &map(&json!({"child": "oops"}))).unwrap_err();
    assert_eq!(e.0, "type mismatch on child: %!t(string=oops)");
}

#[test]
fn globals_reach_subcharts_parent_winning() {
    let mut parent = sub("parent", json!({"global": {"env": "prod", "t": {"a": 1}}}));
    parent.dependencies.push(sub(
        "child",
        json!({"global": {"env": "dev", "t": {"a": 2, "b": 2}}}),
    ));
    let out = coalesce_values(&parent, &Map::new()).unwrap();
    assert_eq!(
        out.values["child"]["global"],
        json!({"env": "prod", "t": {"a": 1, "b": 2}})
    );
    assert_eq!(out.values["global"], json!({"env": "prod", "t": {"a": 1}}));
}

#[test]
fn global_that_is_not_a_table_is_skipped_with_a_warning() {
    let mut parent = sub("parent", json!({}));
    parent.dependencies.push(sub("child", json!({})));
    let out = coalesce_values(&parent, &map(&json!({"global": 3}))).unwrap();
    assert_eq!(
        out.warnings,
        ["warning: skipping globals because source global is not a table."]
    );
}

/// Values printed with sorted keys, as the recorded Helm results print them.
fn sorted(v: &Value) -> String {
    match v {
        Value::Array(items) => {
            let parts: Vec<String> = items.iter().map(sorted).collect();
            format!("[{}]", parts.join(","))
        }
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            let parts: Vec<String> = keys
                .iter()
                .map(|k| format!("{}:{}", Value::from(k.as_str()), sorted(&m[k.as_str()])))
                .collect();
            format!("{{{}}}", parts.join(","))
        }
        other => other.to_string(),
    }
}

#[test]
fn same_results_as_helms_coalesce_on_recorded_charts() {
    let cases = load_cases(include_str!("../../tests/data/coalesce_helm_results.json"));
    assert_eq!(cases.len(), 400);
    for case in &cases {
        let c = chart(&case["chart"]);
        let given = map(&case["values"]);
        let result = if case["merge"] == true {
            merge_values(&c, &given)
        } else {
            coalesce_values(&c, &given)
        };
        let got = match result {
            Err(e) => format!("ERR {e}"),
            Ok(mut out) => {
                out.warnings.sort();
                let values = sorted(&Value::Object(out.values));
                format!("OK {values} W {}", out.warnings.join("|"))
            }
        };
        assert_eq!(got, case["helm"].as_str().unwrap_or_default(), "{case}");
    }
}

#[test]
fn deep_global_tables_are_shared_as_in_helm() {
    // Helm copies `global.t` for the subchart but shares `global.t.deep`, so the
    // subchart's default `global.t.deep.y` shows in the parent's globals too.
    let mut parent = sub("parent", json!({}));
    parent.dependencies.push(sub(
        "child",
        json!({"global": {"t": {"deep": {"y": 2}, "z": 3}}}),
    ));
    let given = map(&json!({"global": {"t": {"deep": {"x": 1}}}}));
    let out = coalesce_values(&parent, &given).unwrap();
    assert_eq!(
        out.values["global"],
        json!({"t": {"deep": {"x": 1, "y": 2}}})
    );
    assert_eq!(
        out.values["child"]["global"],
        json!({"t": {"deep": {"x": 1, "y": 2}, "z": 3}})
    );
}
