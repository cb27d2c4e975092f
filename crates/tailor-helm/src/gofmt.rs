//! Go's `fmt` verbs `%v` and `%t` on values as Helm holds them, for messages worded
//! exactly as Helm prints them.

use serde_json::{Number, Value};

/// Go's `%v`: maps as `map[k:v ...]` with sorted keys, lists as `[a b]`, nil as
/// `<nil>`, `float64` in `%g`'s shortest form.
pub fn format_v(v: &Value) -> String {
    match v {
        Value::Null => "<nil>".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => number(n),
        Value::String(s) => s.clone(),
        _ => container(v, format_v, |k| k.to_string()),
    }
}

/// Go's `%t`: a bool as itself, anything else as the `%!t(type=value)` Go prints for
/// a wrong verb (element by element inside lists and maps).
pub fn format_t(v: &Value) -> String {
    match v {
        Value::Null => "%!t(<nil>)".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) if n.is_f64() => format!("%!t(float64={})", number(n)),
        Value::Number(n) => format!("%!t(int64={})", number(n)),
        Value::String(s) => format!("%!t(string={s})"),
        _ => container(v, format_t, |k| format!("%!t(string={k})")),
    }
}

/// A list as `[a b]` and a map as `map[k:v ...]` with sorted keys, as every Go verb prints
/// them, each element and key printed by the verb's own functions; other values are not
/// containers and print as nothing here.
fn container(v: &Value, element: fn(&Value) -> String, key: fn(&str) -> String) -> String {
    match v {
        Value::Array(items) => {
            let parts: Vec<String> = items.iter().map(element).collect();
            format!("[{}]", parts.join(" "))
        }
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            let parts: Vec<String> = keys
                .iter()
                .map(|k| format!("{}:{}", key(k), element(&m[k.as_str()])))
                .collect();
            format!("map[{}]", parts.join(" "))
        }
        _ => String::new(),
    }
}

fn number(n: &Number) -> String {
    match (n.as_i64(), n.as_u64(), n.as_f64()) {
        (Some(i), _, _) if !n.is_f64() => i.to_string(),
        (_, Some(u), _) if !n.is_f64() => u.to_string(),
        (_, _, Some(f)) => {
            let mut out = Vec::new();
            tailor_go::strconv::append_float(&mut out, f, b'g', -1);
            String::from_utf8(out).unwrap_or_default()
        }
        _ => n.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn verbs_print_as_go_prints() {
        assert_eq!(
            format_v(&json!({"b": 1, "a": [true, null]})),
            "map[a:[true <nil>] b:1]"
        );
        assert_eq!(format_v(&json!(1_000_000.0)), "1e+06");
        assert_eq!(format_v(&json!(2.5)), "2.5");
        assert_eq!(format_t(&json!("x")), "%!t(string=x)");
        assert_eq!(format_t(&json!(3)), "%!t(int64=3)");
        assert_eq!(format_t(&json!(false)), "false");
    }
}
