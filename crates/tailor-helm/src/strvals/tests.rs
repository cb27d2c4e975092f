//! Helm's own `pkg/strvals/parser_test.go` tables (ported to `tests/data/strvals.json`),
//! then the error wordings and type rules of `parser.go` the tables do not pin.

use super::*;
use crate::testdata::{load_cases, same_values};
use serde_json::json;

fn obj(v: &Value) -> Map<String, Value> {
    v.as_object().cloned().unwrap_or_default()
}

fn run_case(case: &Value) -> Result<Value, Error> {
    let fn_name = case["fn"].as_str().unwrap_or_default();
    let input = case["input"].as_str().unwrap_or_default();
    let files = obj(&case["files"]);
    let mut reader = |name: &str| {
        files
            .get(name)
            .cloned()
            .ok_or_else(|| format!("no file {name}"))
    };
    let mut dest = obj(&case["dest"]);
    let inputs: Vec<&str> = case["inputs"]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    for line in &inputs {
        match fn_name {
            "parse_into" => parse_into(line, &mut dest)?,
            "parse_into_string" => parse_into_string(line, &mut dest)?,
            "parse_json" => parse_json(line, &mut dest)?,
            "parse_into_file" => parse_into_file(line, &mut dest, &mut reader)?,
            other => panic!("unknown fn {other}"),
        }
    }
    Ok(Value::Object(match fn_name {
        "parse" => parse(input)?,
        "parse_string" => parse_string(input)?,
        "parse_file" => parse_file(input, &mut reader)?,
        _ => dest,
    }))
}

fn run_set_index(case: &Value) -> Result<Value, Error> {
    let mut list = case["initial"].as_array().cloned().unwrap_or_default();
    let index = case["index"].as_i64().unwrap_or_default();
    let result = set_index(&mut list, index, case["value"].clone());
    // Helm's test also checks the list is unchanged when setIndex fails.
    assert!(same_values(&Value::Array(list), &case["expect"]), "{case}");
    result.map(|()| Value::Null)
}

#[test]
fn helm_parser_test_tables() {
    let cases = load_cases(include_str!("../../tests/data/strvals.json"));
    assert_eq!(cases.len(), 71, "ported cases");
    for case in &cases {
        let got = if case["fn"] == "set_index" {
            run_set_index(case)
        } else {
            run_case(case)
        };
        let wants_error = case["error"].as_bool().unwrap_or(false);
        match got {
            Err(e) => {
                assert!(wants_error, "unexpected error {e} for {case}");
                if let Some(msg) = case["error_message"].as_str() {
                    assert_eq!(e.0, msg, "{case}");
                }
            }
            Ok(_) if wants_error => panic!("expected an error for {case}"),
            Ok(v) if case["fn"] == "set_index" => assert_eq!(v, Value::Null),
            Ok(v) => assert!(same_values(&v, &case["expect"]), "{case}\ngot {v}"),
        }
    }
}

fn err(s: &str) -> String {
    parse(s).unwrap_err().0
}

#[test]
fn error_wordings_follow_parser_go() {
    assert_eq!(err("a"), r#"key "a" has no value"#);
    assert_eq!(err("a,b=1"), r#"key "a" has no value (cannot end with ,)"#);
    assert_eq!(err("a.b"), r#"key "b" has no value"#);
    assert_eq!(err("a..b=1"), r#"key map "a" has no value"#);
    assert_eq!(err("a={x,y"), "list must terminate with '}'");
    assert_eq!(err("a[-1]=x"), "negative -1 index not allowed");
    assert_eq!(
        err("a[65537]=x"),
        "index of 65537 is greater than maximum supported index of 65536"
    );
    assert_eq!(
        err("a[x]=1"),
        r#"error parsing index: strconv.Atoi: parsing "x": invalid syntax"#
    );
    assert_eq!(
        err("a[99999999999999999999]=1"),
        r#"error parsing index: strconv.Atoi: parsing "99999999999999999999": value out of range"#
    );
    assert_eq!(err("a[1"), "error parsing index: EOF");
    assert_eq!(
        err("a[0]bc=1"),
        "unexpected data at end of array index: ['b' 'c']"
    );
    assert_eq!(
        err("a=1,a.b=2"),
        "unable to parse key: interface conversion: interface {} is int64, not map[string]interface {}"
    );
    assert_eq!(
        err("a=x,a[0]=2"),
        "unable to parse key: interface conversion: interface {} is string, not []interface {}"
    );
    assert_eq!(
        err("a[0]=x,a[0][0]=2"),
        "unable to parse key: interface conversion: interface {} is string, not []interface {}"
    );
}

#[test]
fn set_types_its_values_and_set_string_does_not() {
    let got = parse("a=TRUE,b=False,c=NULL,d=-12,e=+7,f=1.5,g=0x1f,h=007,i=falſe").unwrap();
    let want = json!({"a": true, "b": false, "c": null, "d": -12, "e": 7,
        "f": "1.5", "g": "0x1f", "h": "007", "i": false});
    assert_eq!(Value::Object(got), want);
    assert!(parse("d=5").unwrap()["d"].is_i64());
    let got = parse_string("a=true,b=5,c=null").unwrap();
    assert_eq!(
        Value::Object(got),
        json!({"a": "true", "b": "5", "c": "null"})
    );
}

#[test]
fn set_json_numbers_are_go_float64() {
    let mut dest = Map::new();
    parse_json("a=3,b=[1,{\"c\":2}],e= ", &mut dest).unwrap();
    assert!(dest["a"].is_f64());
    assert!(dest["b"][1]["c"].is_f64());
    assert_eq!(dest["e"], Value::Null);
}

#[test]
fn edge_lines_helm_accepts() {
    // An empty key sets nothing; a trailing dot or index with nothing after is no error.
    assert_eq!(Value::Object(parse("[0]=x").unwrap()), json!({}));
    assert_eq!(Value::Object(parse("name1.").unwrap()), json!({}));
    assert_eq!(Value::Object(parse("l[0].").unwrap()), json!({"l": []}));
    assert_eq!(
        Value::Object(parse("a={x,y}b=1").unwrap()),
        json!({"a": ["x", "y"], "b": 1})
    );
}

#[test]
fn file_reader_errors_are_returned() {
    let mut reader = |_: &str| Err("open missing: no such file or directory".to_string());
    let e = parse_file("a=missing", &mut reader).unwrap_err();
    assert_eq!(e.0, "open missing: no such file or directory");
}

/// Values printed with their Go types, as the recorded Helm results print them.
fn typed(v: &Value) -> String {
    match v {
        Value::Number(n) if n.is_f64() => format!("f{}", crate::gofmt::format_v(v)),
        Value::Number(n) => format!("i{n}"),
        Value::String(_) | Value::Null | Value::Bool(_) => v.to_string(),
        Value::Array(items) => {
            let parts: Vec<String> = items.iter().map(typed).collect();
            format!("[{}]", parts.join(","))
        }
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            let parts: Vec<String> = keys
                .iter()
                .map(|k| format!("{}:{}", Value::from(k.as_str()), typed(&m[k.as_str()])))
                .collect();
            format!("{{{}}}", parts.join(","))
        }
    }
}

/// Go's encoding/json syntax errors, which serde_json words differently.
fn is_go_json_syntax_error(helm: &str) -> bool {
    [
        "ERR invalid character",
        "ERR unexpected EOF",
        "ERR unexpected end",
    ]
    .iter()
    .any(|p| helm.starts_with(p))
}

#[test]
fn same_results_as_helms_parser_on_recorded_lines() {
    let cases = load_cases(include_str!("../../tests/data/strvals_helm_results.json"));
    assert_eq!(cases.len(), 2000);
    let mut wording_only = 0;
    for case in &cases {
        let input = case["input"].as_str().unwrap_or_default();
        let mut dest = Map::new();
        let result = match case["mode"].as_str() {
            Some("set") => parse_into(input, &mut dest),
            Some("string") => parse_into_string(input, &mut dest),
            _ => parse_json(input, &mut dest),
        };
        let got = match result {
            Err(e) => format!("ERR {e}"),
            Ok(()) => format!("OK {}", typed(&Value::Object(dest))),
        };
        let helm = case["helm"].as_str().unwrap_or_default();
        if case["mode"] == "json" && is_go_json_syntax_error(helm) {
            assert!(
                got.starts_with("ERR "),
                "{input:?}: Helm refuses, got {got}"
            );
            wording_only += 1;
        } else {
            assert_eq!(got, helm, "{} {input:?}", case["mode"]);
        }
    }
    assert!(
        wording_only < 200,
        "{wording_only} lines differ in JSON error words"
    );
}
