//! `unchanged::round_trip_keeps` lets the substitution stage skip Flux's round trip. On random
//! data, built to hit what YAML 1.1 reads specially (booleans, numbers in every base, nulls,
//! timestamps, merge keys, indicators, long strings), every value it accepts must come back
//! from the real round trip (yaml.v2 print, re-read as YAML 1.1, float64 numbers) unchanged.

use serde_json::{Map, Number, Value as Json};
use tailor_flux::postbuild::merge::same_data;
use tailor_flux::postbuild::unchanged::round_trip_keeps;
use tailor_testkit::Rng;
use tailor_yaml::sigs::numbers::as_float64;
use tailor_yaml::sigs::v2print::to_yaml_v2;
use tailor_yaml::sigs::v2read::yaml11_to_json;

/// Strings YAML 1.1 (or yaml.v2's printer) treats specially, all printable ASCII.
const TRICKY: &[&str] = &[
    "",
    "y",
    "Y",
    "n",
    "N",
    "yes",
    "no",
    "on",
    "off",
    "On",
    "OFF",
    "true",
    "False",
    "~",
    "null",
    "Null",
    "NULL",
    "0",
    "-0",
    "+1",
    "0777",
    "0o17",
    "0x1F",
    "0b101",
    "1_000",
    "1e3",
    "1.5",
    "-.5",
    ".inf",
    "-.Inf",
    ".NaN",
    "2001-12-14",
    "2001-12-14t21:59:43.10-05:00",
    "12:30:45",
    "190:20:30",
    "<<",
    "=",
    "-",
    "--",
    "---",
    "...",
    "?",
    "?x",
    ":",
    ":x",
    "x:",
    "a:b",
    "-x",
    "#x",
    "x#y",
    "&a",
    "*a",
    "!x",
    "!!str",
    "|",
    ">",
    "%x",
    "@x",
    "`x",
    "'x",
    "\"x",
    "x'",
    "x\"",
    "[a]",
    "{a}",
    "a,b",
    "\\",
    "\\n",
    "a]",
    "9007199254740993",
    "123456789012345678901",
    "0.1e+3",
    "1e+21",
    "0x",
    "0b",
    "+",
    ".",
    "..",
    ".5.",
    "1:2",
    "1:2:3",
    "-1:30",
];

fn string(rng: &mut Rng) -> String {
    const OTHER: &[&str] = &[
        " a", "a ", "a  b", "a b", "a\tb", "a\nb", "café", "${x}", "$$",
    ];
    if rng.below(8) == 0 {
        return OTHER[rng.below(OTHER.len())].to_string();
    }
    match rng.below(4) {
        0 | 1 => TRICKY[rng.below(TRICKY.len())].to_string(),
        2 => {
            // Long words: well past the printer's 80 columns.
            let len = 60 + rng.below(120);
            (0..len)
                .map(|_| (b'!' + rng.below(94) as u8) as char)
                .collect()
        }
        _ => {
            let len = rng.below(12);
            (0..len)
                .map(|_| (b'!' + rng.below(94) as u8) as char)
                .collect()
        }
    }
}

fn number(rng: &mut Rng) -> Json {
    let edge = [
        0u64,
        1,
        7,
        1 << 31,
        (1 << 53) - 1,
        1 << 53,
        (1 << 53) + 1,
        u64::MAX,
    ];
    let v = edge[rng.below(edge.len())];
    if rng.below(2) == 0 {
        Json::Number(Number::from(v))
    } else {
        Json::Number(Number::from(-(v.min(i64::MAX as u64) as i64)))
    }
}

fn value(rng: &mut Rng, depth: usize) -> Json {
    match rng.below(if depth > 4 { 4 } else { 6 }) {
        0 => Json::Null,
        1 => Json::Bool(rng.below(2) == 0),
        2 => number(rng),
        3 => Json::String(string(rng)),
        4 => Json::Array((0..rng.below(4)).map(|_| value(rng, depth + 1)).collect()),
        _ => {
            let mut m = Map::new();
            for _ in 0..rng.below(5) {
                let k = string(rng);
                let v = value(rng, depth + 1);
                m.insert(k, v);
            }
            Json::Object(m)
        }
    }
}

#[test]
fn data_said_to_survive_the_round_trip_does() {
    let mut rng = Rng::xorshift64(0x9e37_79b9_7f4a_7c15);
    let (mut accepted, mut total) = (0, 0);
    for _ in 0..20_000 {
        let mut resource = Map::new();
        for _ in 0..1 + rng.below(5) {
            let k = string(&mut rng);
            let v = value(&mut rng, 0);
            resource.insert(k, v);
        }
        let data = Json::Object(resource);
        total += 1;
        if !round_trip_keeps(&data) {
            continue;
        }
        accepted += 1;
        let text = to_yaml_v2(&data);
        let back = yaml11_to_json(&text)
            .unwrap_or_else(|e| panic!("accepted data fails to re-read: {e}\n{text}"));
        let back = as_float64(back);
        assert!(
            same_data(&data, &back),
            "accepted data changed in the round trip:\n{data}\n{text}\n{back}"
        );
    }
    // The generator must exercise the accepting side, not only the rejecting one.
    assert!(accepted > total / 10, "{accepted} of {total} accepted");
}

/// Scalars as an author may write them: plain, quoted, tagged, in every YAML 1.2 and 1.1 form.
const WRITTEN: &[&str] = &[
    "a",
    "web",
    "'a'",
    "\"a\"",
    "yes",
    "no",
    "on",
    "true",
    "True",
    "false",
    "~",
    "null",
    "''",
    "0",
    "7",
    "-7",
    "+7",
    "007",
    "0777",
    "0o17",
    "0x1F",
    "1_000",
    "123456789012345",
    "1234567890123456",
    "9007199254740993",
    "-0",
    "1.5",
    "1e3",
    ".inf",
    "2001-12-14",
    "!!str 12",
    "!!int '12'",
    "!!binary aGk=",
    "!custom x",
    "'two words'",
    "\"$x\"",
    "${x}",
    "<<",
    "'<<'",
    "a:b",
    "café",
    "\"tab\\there\"",
    "|\n  block\n",
    ">-\n  folded\n",
];

fn scalar(rng: &mut Rng) -> &'static str {
    WRITTEN[rng.below(WRITTEN.len())]
}

fn yaml_value(rng: &mut Rng, indent: usize, out: &mut String) {
    let pad = " ".repeat(indent);
    match rng.below(if indent > 6 { 1 } else { 4 }) {
        0 | 1 => {
            let s = scalar(rng);
            if s.contains('\n') {
                out.push(' ');
                out.push_str(&s.replace("\n  ", &format!("\n{pad}  ")));
            } else {
                out.push(' ');
                out.push_str(s);
                out.push('\n');
            }
        }
        2 => {
            out.push('\n');
            for _ in 0..1 + rng.below(3) {
                out.push_str(&format!("{pad}-"));
                yaml_value(rng, indent + 2, out);
            }
        }
        _ => {
            out.push('\n');
            for i in 0..1 + rng.below(3) {
                // Keys differ so no mapping repeats one.
                let key = match rng.below(3) {
                    0 => format!("k{i}"),
                    1 => format!("'{}{i}'", ["yes", "12", "a b", "x"][rng.below(4)]),
                    _ => ["<<", "on", "7", "key"][rng.below(4)].to_string() + &"_".repeat(i),
                };
                out.push_str(&format!("{pad}{key}:"));
                yaml_value(rng, indent + 2, out);
            }
        }
    }
}

#[test]
fn trees_said_to_survive_convert_to_data_that_does() {
    let mut rng = Rng::xorshift64(0x2545_f491_4f6c_dd1d);
    let (mut accepted, mut total) = (0, 0);
    for _ in 0..20_000 {
        let mut text = String::new();
        for i in 0..1 + rng.below(4) {
            text.push_str(&format!("f{i}:"));
            yaml_value(&mut rng, 2, &mut text);
        }
        let Ok(docs) = tailor_yaml::parse_stream(&text) else {
            continue;
        };
        let Some(doc) = docs.first() else { continue };
        total += 1;
        if !tailor_flux::postbuild::unchanged::tree_keeps(&doc.root) {
            continue;
        }
        accepted += 1;
        let data = doc.root.to_json().expect("an accepted tree converts");
        assert!(
            round_trip_keeps(&data),
            "the tree test accepted what the data test refuses:\n{text}\n{data}"
        );
    }
    assert!(total > 10_000, "{total} documents parsed");
    assert!(accepted > total / 20, "{accepted} of {total} accepted");
}
