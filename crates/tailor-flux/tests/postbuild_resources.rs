//! Flux's recorded resource-level cases (`flux-substitution-resources.json`, produced by running
//! kustomize-controller's code): the text handed to envsubst must be byte-identical to Flux's,
//! and the final data (or the error) must be the same.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;
use tailor_flux::envsubst::{Options, Vars};
use tailor_flux::postbuild::substitute_resource;
use tailor_yaml::sigs::{v2print::to_yaml_v2, v2read::yaml11_to_json};

#[test]
fn every_recorded_case_matches_flux() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/flux-substitution-resources.json");
    let cases: Vec<Value> = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut failures = Vec::new();
    for (i, case) in cases.iter().enumerate() {
        let resource = case["resource"].as_str().unwrap();
        let mut node = tailor_yaml::parse_stream(resource).unwrap().remove(0).root;
        let before = node.to_json().unwrap();
        let printed = to_yaml_v2(&before);
        if printed != case["substituted_text_input"].as_str().unwrap() {
            failures.push(format!("#{i}: printed text differs:\n{printed}"));
            continue;
        }
        let vars_map: BTreeMap<String, String> = case["vars"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, v)| (k.clone(), v.as_str().unwrap().to_string()))
            .collect();
        let mut vars = Vars::new();
        vars.set_inline(vars_map);
        let opts = Options {
            strict: case["strict"].as_bool().unwrap(),
            ..Options::default()
        };
        let result = substitute_resource(&node, &vars, &opts);
        match (case["error"].as_str(), result) {
            (Some(want), Err(got)) if got == want => {}
            (Some(want), other) => {
                failures.push(format!("#{i}: want error {want:?}, got {other:?}"))
            }
            (None, Err(e)) => failures.push(format!("#{i}: unexpected error {e}")),
            (None, Ok(change)) => {
                if let Some(change) = change {
                    change.apply(&mut node);
                }
                let got = node.to_json().unwrap();
                let want = yaml11_to_json(case["final_yaml"].as_str().unwrap()).unwrap();
                if !same(&got, &want) {
                    failures.push(format!("#{i}: data differs: got {got} want {want}"));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases differ:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
    println!(
        "{} Flux resource cases: printed text and final data identical",
        cases.len()
    );
}

/// Numbers compare by value (the final YAML was printed from float64s).
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}
