//! Helm's `pkg/engine/funcs_test.go` `TestFuncs` table (source in tests/data/helm/funcs_cases.json):
//! each template executed with Helm's function map. A case with a `known` reason is a listed
//! difference (docs/differences.md) and must still differ.

use serde_json::Value as Json;
use tailor_helm::engine::render_text;
use tailor_helm::funcs::from_json_value;

#[test]
fn helm_funcs_table() {
    let text = include_str!("data/helm/funcs_cases.json");
    let cases: Json = serde_json::from_str(text).unwrap();
    let (mut passed, mut failures) = (0, Vec::new());
    for case in cases["cases"].as_array().unwrap() {
        let tpl = case["tpl"].as_str().unwrap();
        let want = case["expect"].as_str().unwrap();
        let got = render_text("test", tpl, &from_json_value(&case["vars"]));
        let same = got.as_deref().ok() == Some(want);
        match (same, case.get("known")) {
            (true, None) => passed += 1,
            (false, Some(_)) => {}
            (true, Some(_)) => failures.push(format!(
                "{tpl}: passes now, drop it from the known differences"
            )),
            (false, None) => failures.push(format!("{tpl}: got {got:?}, want {want:?}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(passed >= 22, "only {passed} identical");
}
