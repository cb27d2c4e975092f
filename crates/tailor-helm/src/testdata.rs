//! Loading the ported Helm test tables under `tests/data/` and comparing values the
//! way Helm's tests do (through `yaml.Marshal`: key order ignored, whole numbers
//! equal whether Go `int` or `float64`).

use serde_json::Value;

/// The `cases` array of a ported table; every table records its source beside them.
pub fn load_cases(text: &str) -> Vec<Value> {
    let doc: Value = serde_json::from_str(text).expect("ported table is JSON");
    assert_eq!(doc["source"]["repository"], "helm/helm");
    assert!(doc["source"]["commit"]
        .as_str()
        .is_some_and(|c| c.len() == 40));
    doc["cases"].as_array().cloned().unwrap_or_default()
}

/// Equal as Helm's tests see values.
pub fn same_values(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same_values(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| same_values(v, w)))
        }
        _ => a == b,
    }
}
