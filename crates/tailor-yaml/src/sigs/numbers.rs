//! How Go prints the float64 values Flux's round trip turns every number into.

use serde_json::{Number, Value as Json};

use crate::sigs::v2resolve::{resolve, Resolved};

/// Shortest round-trip digits and the decimal exponent of the first digit:
/// `1234.5` → (`"12345"`, 3).
fn shortest_digits(f: f64) -> (String, i32) {
    let s = format!("{:e}", f.abs());
    let (mantissa, exp) = s.split_once('e').unwrap_or((&s, "0"));
    let digits: String = mantissa.chars().filter(|c| c.is_ascii_digit()).collect();
    (digits, exp.parse().unwrap_or(0))
}

fn sign(f: f64) -> &'static str {
    if f.is_sign_negative() && f != 0.0 {
        "-"
    } else {
        ""
    }
}

/// `strconv.FormatFloat(f, 'f', -1, 64)`.
fn format_f(f: f64) -> String {
    if f == 0.0 {
        return "0".into();
    }
    let (digits, exp) = shortest_digits(f);
    let point = exp + 1; // digits before the decimal point
    let mut out = String::from(sign(f));
    if point <= 0 {
        out.push_str("0.");
        out.extend(std::iter::repeat_n('0', (-point) as usize));
        out.push_str(&digits);
    } else if point as usize >= digits.len() {
        out.push_str(&digits);
        out.extend(std::iter::repeat_n('0', point as usize - digits.len()));
    } else {
        out.push_str(&digits[..point as usize]);
        out.push('.');
        out.push_str(&digits[point as usize..]);
    }
    out
}

/// `strconv.FormatFloat(f, 'e', -1, 64)`: `1e+21`, `1.5e-07`.
fn format_e(f: f64) -> String {
    let (digits, exp) = if f == 0.0 {
        ("0".to_string(), 0)
    } else {
        shortest_digits(f)
    };
    let mut out = String::from(sign(f));
    out.push_str(&digits[..1]);
    if digits.len() > 1 {
        out.push('.');
        out.push_str(&digits[1..]);
    }
    out.push('e');
    out.push(if exp < 0 { '-' } else { '+' });
    let e = exp.unsigned_abs();
    if e < 10 {
        out.push('0');
    }
    out.push_str(&e.to_string());
    out
}

/// `encoding/json`'s float64 text.
pub fn go_json_float(f: f64) -> String {
    let abs = f.abs();
    if abs != 0.0 && !(1e-6..1e21).contains(&abs) {
        let mut s = format_e(f);
        // encoding/json cleans `e-09` to `e-9`.
        let n = s.len();
        if n >= 4 && &s[n - 4..n - 1] == "e-0" {
            s.remove(n - 2);
        }
        s
    } else {
        format_f(f)
    }
}

/// `strconv.FormatFloat(f, 'g', -1, 64)`, which yaml.v2 uses for floats.
pub fn go_format_g(f: f64) -> String {
    if f.is_nan() {
        return ".nan".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { ".inf" } else { "-.inf" }.into();
    }
    if f == 0.0 {
        return format!("{}0", sign(f));
    }
    let (_, exp) = shortest_digits(f);
    if !(-4..6).contains(&exp) {
        format_e(f)
    } else {
        format_f(f)
    }
}

/// What yaml.v2 prints for a number that reached it as JSON text from Go: integers stay
/// integers, floats print in `%g` style.
pub fn v2_number_text(n: &Number) -> String {
    if let Some(i) = n.as_i64() {
        return i.to_string();
    }
    if let Some(u) = n.as_u64() {
        return u.to_string();
    }
    let json = go_json_float(n.as_f64().unwrap_or(0.0));
    match resolve(&json) {
        Resolved::Int(v) => v.to_string(),
        Resolved::Float(f) => go_format_g(f),
        _ => json,
    }
}

/// `json.Unmarshal` into `map[string]any`: every number becomes a float64.
pub fn as_float64(mut v: Json) -> Json {
    make_float64(&mut v);
    v
}

/// In place: collections are not rebuilt (and their keys not hashed again).
fn make_float64(v: &mut Json) {
    match v {
        Json::Number(n) => {
            let f = n.as_f64().unwrap_or(0.0);
            *v = Number::from_f64(f).map_or(Json::Null, Json::Number);
        }
        Json::Array(items) => items.iter_mut().for_each(make_float64),
        Json::Object(map) => map.values_mut().for_each(make_float64),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_float_formats() {
        assert_eq!(go_json_float(1000.0), "1000");
        assert_eq!(go_json_float(1.5), "1.5");
        assert_eq!(go_json_float(1e21), "1e+21");
        assert_eq!(go_json_float(1e-7), "1e-7");
        assert_eq!(
            go_json_float(12345678901234567890.0),
            "12345678901234567000"
        );
        assert_eq!(go_json_float(9007199254740993.0), "9007199254740992");
        assert_eq!(go_json_float(0.000001), "0.000001");
        assert_eq!(go_format_g(1e6), "1e+06");
        assert_eq!(go_format_g(123456.0), "123456");
        assert_eq!(go_format_g(1e-7), "1e-07");
        assert_eq!(go_format_g(0.0001), "0.0001");
        assert_eq!(go_format_g(-2.5), "-2.5");
        assert_eq!(go_format_g(1e21), "1e+21");
    }

    #[test]
    fn numbers_as_yaml_v2_prints_them() {
        let n = |s: &str| serde_json::from_str::<Number>(s).unwrap();
        assert_eq!(v2_number_text(&n("123")), "123");
        assert_eq!(v2_number_text(&n("1.0")), "1");
        assert_eq!(v2_number_text(&n("1e21")), "1e+21");
        assert_eq!(v2_number_text(&n("0.5")), "0.5");
        assert_eq!(
            v2_number_text(&n("12345678901234567890")),
            "12345678901234567890"
        );
    }
}
