//! tailor-go: lexing, parsing and executing any template text against cluster-like
//! data never panics, and the ExecOptions limits hold (output never exceeds its cap).
#![no_main]

use std::collections::BTreeMap;

use libfuzzer_sys::fuzz_target;
use tailor_go::{ExecOptions, MissingKey, Template, Value};

fuzz_target!(|data: &[u8]| {
    let Some((flags, text)) = tailor_fuzz::flags_and_text(data) else {
        return;
    };
    let Ok(t) = Template::parse("fuzz", text) else {
        return;
    };
    let props: BTreeMap<String, String> = [("clusterName", "virgo"), ("env", "prod"), ("n", "3")]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let data = if flags & 1 == 0 {
        Value::StringMap(props)
    } else {
        Value::Map(BTreeMap::from([
            ("s".to_string(), Value::from("x")),
            ("i".to_string(), Value::Int(-7)),
            ("f".to_string(), Value::Float(2.5)),
            ("b".to_string(), Value::Bool(true)),
            ("nil".to_string(), Value::Nil),
            (
                "l".to_string(),
                Value::List(vec![Value::Int(1), Value::from("two"), Value::Nil]),
            ),
            ("m".to_string(), Value::StringMap(props)),
        ]))
    };
    let missing_key = match (flags >> 1) & 3 {
        0 => MissingKey::Default,
        1 => MissingKey::Zero,
        _ => MissingKey::Error,
    };
    let opts = ExecOptions {
        missing_key,
        max_output_bytes: 1 << 16,
        max_range_iterations: 10_000,
        max_depth: 50,
        ..ExecOptions::default()
    };
    let mut out = Vec::new();
    let _ = t.execute_bytes(&data, &opts, &mut out);
    assert!(
        out.len() <= opts.max_output_bytes,
        "output of {} bytes",
        out.len()
    );
});
