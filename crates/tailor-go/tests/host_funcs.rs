//! The host hooks Helm's engine needs: a template set built file by file, host functions
//! that build values and run other templates, and methods on host objects.

use std::collections::BTreeMap;
use tailor_go::template::{Funcs, Host, ParamType, METHOD_TYPE_KEY};
use tailor_go::{ExecOptions, Syntax, Template, Value};

struct Host1;

impl Funcs for Host1 {
    fn signature(&self, name: &str) -> Option<(&'static [ParamType], bool)> {
        match name {
            "pair" => Some((&[ParamType::Any, ParamType::Any], false)),
            "run" => Some((&[ParamType::String, ParamType::Any], false)),
            _ => None,
        }
    }

    fn call(&self, host: &mut dyn Host, name: &str, args: Vec<Value>) -> Result<Value, String> {
        match name {
            "pair" => Ok(Value::List(args)),
            "run" => {
                let Value::String(t) = &args[0] else {
                    return Err("name".into());
                };
                let out = host
                    .execute_template(t, args[1].clone())
                    .map_err(|e| e.message)?;
                Ok(Value::String(String::from_utf8(out).unwrap()))
            }
            _ => Err("unknown".into()),
        }
    }

    fn method_signature(&self, typ: &str, name: &str) -> Option<(&'static [ParamType], bool)> {
        (typ == "Greeter" && name == "Hello").then_some((&[ParamType::String][..], false))
    }

    fn call_method(
        &self,
        _host: &mut dyn Host,
        _typ: &str,
        _name: &str,
        _receiver: Value,
        args: Vec<Value>,
    ) -> Result<Value, String> {
        match &args[0] {
            Value::String(s) => Ok(Value::String(format!("hello {s}"))),
            _ => Err("want a string".into()),
        }
    }
}

fn syntax() -> Syntax {
    Syntax {
        host: vec!["pair".into(), "run".into()],
        ..Syntax::default()
    }
}

fn run(t: &Template, name: &str, data: &Value) -> Result<String, String> {
    let t = t.lookup(name).expect("template");
    let mut out = Vec::new();
    t.execute_with(data, &ExecOptions::default(), &Host1, &mut out)
        .map_err(|e| e.message)?;
    Ok(String::from_utf8(out).unwrap())
}

#[test]
fn host_functions_build_values_and_run_templates_of_the_set() {
    let mut set = Template::parse_with("root", "", &syntax()).unwrap();
    set.add("a.tpl", r#"{{ define "x" }}[{{ . }}]{{ end }}"#)
        .unwrap();
    set.add(
        "b.yaml",
        r#"{{ range pair 1 "two" }}{{ run "x" . }}{{ end }}"#,
    )
    .unwrap();
    assert_eq!(run(&set, "b.yaml", &Value::Nil).unwrap(), "[1][two]");
}

#[test]
fn errors_name_the_file_the_failing_node_came_from() {
    let mut set = Template::parse_with("root", "", &syntax()).unwrap();
    set.add("a.tpl", "{{ define \"x\" }}\n  {{ .a.b }}{{ end }}")
        .unwrap();
    set.add("b.yaml", r#"{{ template "x" 1 }}"#).unwrap();
    let err = run(&set, "b.yaml", &Value::Nil).unwrap_err();
    assert!(
        err.starts_with("template: a.tpl:2:7: executing \"x\""),
        "{err}"
    );
}

#[test]
fn a_tagged_map_has_the_hosts_methods() {
    let mut obj = BTreeMap::new();
    obj.insert(METHOD_TYPE_KEY.to_string(), Value::String("Greeter".into()));
    let data = Value::Map(BTreeMap::from([("g".to_string(), Value::Map(obj))]));
    let t = Template::parse_with("t", r#"{{ .g.Hello "you" }}"#, &syntax()).unwrap();
    assert_eq!(run(&t, "t", &data).unwrap(), "hello you");
}
