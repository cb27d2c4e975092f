//! The envsubst half of the resource-level cases in `flux-substitution-resources.json`.
//!
//! Each case gives the YAML text Flux hands to envsubst (`substituted_text_input`). The YAML
//! re-read is the main crate's job, so this checks what is decidable here: the cases Flux fails
//! during substitution fail with Flux's wrapped message, every other case substitutes cleanly,
//! and where the final YAML is byte-identical to the substituted text, so is this output.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;
use tailor_flux::envsubst::{Options, Vars};

#[test]
fn resource_cases() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/flux-substitution-resources.json");
    let cases: Vec<Value> =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("resource cases"))
            .expect("JSON");
    let (mut exact, mut substituted, mut failed) = (0, 0, 0);
    for (i, case) in cases.iter().enumerate() {
        let text = case["substituted_text_input"].as_str().expect("text");
        let data: BTreeMap<String, String> = case["vars"]
            .as_object()
            .expect("vars")
            .iter()
            .map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_string()))
            .collect();
        let mut vars = Vars::new();
        vars.set_inline(data);
        let opts = Options {
            strict: case["strict"].as_bool().unwrap_or(false),
            ..Options::default()
        };
        let got = vars.substitute_text(text, &opts);
        match case["error"].as_str() {
            Some(want) if want.starts_with("envsubst error: variable substitution failed") => {
                assert_eq!(
                    got.map_err(|e| e.to_string()),
                    Err(want.to_string()),
                    "case #{i}"
                );
                failed += 1;
            }
            _ => {
                let out = got.unwrap_or_else(|e| panic!("case #{i}: {e}"));
                substituted += 1;
                if case["final_yaml"].as_str() == Some(out.as_str()) {
                    exact += 1;
                }
            }
        }
    }
    println!(
        "{} resource cases: {substituted} substituted ({exact} byte-identical to Flux's final YAML), {failed} failed as in Flux",
        cases.len()
    );
    assert_eq!(substituted + failed, cases.len());
    assert!(exact > 0);
}

#[test]
fn long_default_folded_by_yaml_v2_still_works() {
    let mut vars = Vars::new();
    vars.set_inline([("other", "o")]);
    let text = "metadata:\n  annotations:\n    long: w ${VAR:=some\n      default value} tail\n";
    let out = vars.substitute_text(text, &Options::default()).unwrap();
    assert_eq!(
        out,
        "metadata:\n  annotations:\n    long: w some\n      default value tail\n"
    );
}

#[test]
fn dollar_dollar_collapses_in_substituted_resources() {
    let mut vars = Vars::new();
    vars.set_inline([("v", "V")]);
    let out = vars
        .substitute_text("script: echo $$ ${v}\n", &Options::default())
        .unwrap();
    assert_eq!(out, "script: echo $ V\n");
}
