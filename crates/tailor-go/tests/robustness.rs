//! Hostile input: random template text must never panic, hang or overflow
//! the stack, and every limit must end execution with a clear error.

use std::collections::BTreeMap;

use tailor_go::{ErrorKind, ExecOptions, MissingKey, Template, Value};
// xorshift64* (not the plain xorshift64 of the other suites): deterministic, so a failure
// reproduces from its seed, and these seeds keep generating the cases they always did.
use tailor_testkit::Rng;

const FRAGMENTS: &[&str] = &[
    "{{",
    "}}",
    "{{-",
    "-}}",
    " ",
    "\n",
    "x",
    ".",
    ".a",
    ".b.c",
    "$",
    "$x",
    ":=",
    "=",
    "|",
    "(",
    ")",
    "if",
    "else",
    "end",
    "range",
    "with",
    "define",
    "template",
    "block",
    "break",
    "continue",
    "\"s\"",
    "`r`",
    "'c'",
    "1",
    "-2",
    "0x1F",
    "1.5",
    "1e3",
    "2i",
    "nil",
    "true",
    "and",
    "or",
    "not",
    "len",
    "index",
    "slice",
    "print",
    "printf",
    "println",
    "eq",
    "ne",
    "lt",
    "le",
    "gt",
    "ge",
    "html",
    "js",
    "urlquery",
    "call",
    "\"%d %s %v %5.2f %x %q\"",
    "/*",
    "*/",
    ",",
    "\"t\"",
    "\\",
    "é",
    "世",
    "%",
    "#",
    "{",
    "}",
    "0b1",
    "0o7",
    "1_0",
    "'\\n'",
    "\"\\x",
];

fn random_template(rng: &mut Rng) -> String {
    let n = 1 + rng.below(40);
    let mut s = String::new();
    for _ in 0..n {
        s.push_str(FRAGMENTS[rng.below(FRAGMENTS.len())]);
        if rng.below(3) == 0 {
            s.push(' ');
        }
    }
    s
}

/// Templates built from valid pieces, so execution is reached often.
fn random_valid(rng: &mut Rng, depth: usize) -> String {
    const OPS: &[&str] = &[
        ".a",
        ".b",
        ".l",
        ".m",
        ".m.k",
        "$",
        ".",
        "1",
        "\"s\"",
        "nil",
        "true",
        "(len .l)",
        "(index .l 0)",
        "(slice .l 1)",
        "(printf \"%v\" .a)",
        "(eq .a 1)",
        "(lt .a 2)",
        "(and .a .b)",
        "(or .b .a)",
        "(not .a)",
        "(print .l .m)",
        "(html .s)",
    ];
    let op = |rng: &mut Rng| OPS[rng.below(OPS.len())];
    if depth > 3 {
        return format!("{{{{{}}}}}", op(rng));
    }
    match rng.below(8) {
        0 => format!(
            "{{{{if {}}}}}{}{{{{else}}}}{}{{{{end}}}}",
            op(rng),
            random_valid(rng, depth + 1),
            random_valid(rng, depth + 1)
        ),
        1 => format!(
            "{{{{range $i, $e := {}}}}}{}{{{{if $e}}}}{{{{break}}}}{{{{end}}}}{{{{end}}}}",
            op(rng),
            random_valid(rng, depth + 1)
        ),
        2 => format!(
            "{{{{with {}}}}}{}{{{{end}}}}",
            op(rng),
            random_valid(rng, depth + 1)
        ),
        3 => format!(
            "{{{{printf \"%v %d %s\" {} {} {}}}}}",
            op(rng),
            op(rng),
            op(rng)
        ),
        4 => format!("{{{{$v := {}}}}}{{{{$v}}}}", op(rng)),
        5 => format!("{{{{{} | print {}}}}}", op(rng), op(rng)),
        6 => format!("{{{{index {} {}}}}}", op(rng), op(rng)),
        _ => format!("text{{{{{}}}}}", op(rng)),
    }
}

fn data() -> Value {
    let mut m = BTreeMap::new();
    m.insert("a".to_string(), Value::Int(1));
    m.insert("b".to_string(), Value::String("x".into()));
    m.insert("s".to_string(), Value::String("<&>".into()));
    m.insert(
        "l".to_string(),
        Value::List(vec![Value::Int(1), Value::Nil, Value::Float(2.5)]),
    );
    m.insert(
        "m".to_string(),
        Value::Map(BTreeMap::from([("k".to_string(), Value::Bool(true))])),
    );
    Value::Map(m)
}

fn run(text: &str, data: &Value, opts: &ExecOptions) {
    if let Ok(t) = Template::parse("fuzz", text) {
        let mut out = Vec::new();
        let _ = t.execute_bytes(data, opts, &mut out);
        assert!(out.len() <= opts.max_output_bytes);
    }
}

#[test]
fn random_text_never_panics() {
    let data = data();
    let opts = ExecOptions {
        max_output_bytes: 1 << 16,
        max_range_iterations: 10_000,
        ..ExecOptions::default()
    };
    for seed in 1..=4000u64 {
        let mut rng = Rng::xorshift64_star(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
        let text = random_template(&mut rng);
        run(&text, &data, &opts);
        let text = random_valid(&mut rng, 0);
        for mk in [MissingKey::Default, MissingKey::Zero, MissingKey::Error] {
            let opts = ExecOptions {
                missing_key: mk,
                ..opts.clone()
            };
            run(&text, &data, &opts);
        }
    }
}

#[test]
fn random_bytes_never_panic() {
    const ALPHABET: &[u8] = b"{}-$.|()\"`'/* \n\\ax1:=,%";
    let data = data();
    let opts = ExecOptions::default();
    let mut rng = Rng::xorshift64_star(0xDEAD_BEEF);
    for _ in 0..3000 {
        let n = rng.below(30);
        let bytes: Vec<u8> = (0..n)
            .map(|_| ALPHABET[rng.below(ALPHABET.len())])
            .collect();
        let text = String::from_utf8_lossy(&bytes).into_owned();
        run(&text, &data, &opts);
    }
}

#[test]
fn deep_parse_nesting_is_an_error() {
    let text = "{{if 1}}".repeat(10_000) + &"{{end}}".repeat(10_000);
    let e = Template::parse("deep", &text).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Parse);
    assert!(e.message.contains("max expression depth exceeded"), "{e}");

    let text = format!("{{{{{}1{}}}}}", "(".repeat(10_000), ")".repeat(10_000));
    let e = Template::parse("deep", &text).unwrap_err();
    assert!(e.message.contains("max expression depth exceeded"), "{e}");
}

#[test]
fn moderate_nesting_works() {
    let text = "{{if 1}}".repeat(50) + "x" + &"{{end}}".repeat(50);
    let t = Template::parse("ok", &text).unwrap();
    let mut out = String::new();
    t.execute(&Value::Nil, &ExecOptions::default(), &mut out)
        .unwrap();
    assert_eq!(out, "x");
}

#[test]
fn infinite_template_recursion_hits_depth_limit() {
    let t = Template::parse(
        "r",
        r#"{{define "x"}}a{{template "x" .}}{{end}}{{template "x"}}"#,
    )
    .unwrap();
    let mut out = String::new();
    let e = t
        .execute(&Value::Nil, &ExecOptions::default(), &mut out)
        .unwrap_err();
    assert_eq!(e.kind, ErrorKind::Limit);
    assert!(
        e.message.contains("exceeded maximum template depth (100)"),
        "{e}"
    );
    assert_eq!(out, "a".repeat(100));
}

#[test]
fn deep_recursion_with_large_depth_runs_on_big_stack() {
    // With a generous limit the caller must supply the stack; 1000 levels
    // fit comfortably in 8 MiB even in debug builds.
    let handle = std::thread::Builder::new()
        .stack_size(8 << 20)
        .spawn(|| {
            let t = Template::parse(
                "r",
                r#"{{define "x"}}{{if .}}{{template "x" (slice . 1)}}{{end}}{{end}}{{template "x" .}}"#,
            )
            .unwrap();
            let data = Value::List(vec![Value::Int(1); 900]);
            let opts = ExecOptions {
                max_depth: 1000,
                ..ExecOptions::default()
            };
            let mut out = String::new();
            t.execute(&data, &opts, &mut out).unwrap();
        })
        .unwrap();
    handle.join().unwrap();
}

#[test]
fn range_iteration_limit() {
    let t = Template::parse("r", "{{range .}}{{range $}}x{{end}}{{end}}").unwrap();
    let data = Value::List(vec![Value::Int(1); 1000]);
    let opts = ExecOptions {
        max_range_iterations: 5000,
        ..ExecOptions::default()
    };
    let mut out = String::new();
    let e = t.execute(&data, &opts, &mut out).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Limit);
    assert!(
        e.message
            .contains("exceeded maximum range iterations (5000)"),
        "{e}"
    );
}

#[test]
fn output_limit_keeps_partial_output() {
    let t = Template::parse("o", "{{range .}}abcdefghij{{end}}").unwrap();
    let data = Value::List(vec![Value::Int(1); 100]);
    let opts = ExecOptions {
        max_output_bytes: 55,
        ..ExecOptions::default()
    };
    let mut out = String::new();
    let e = t.execute(&data, &opts, &mut out).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Limit);
    assert_eq!(out.len(), 55);
}

#[test]
fn generated_text_limit() {
    let t = Template::parse("g", r#"{{range .}}{{len (printf "%1000000d" 1)}}{{end}}"#).unwrap();
    let data = Value::List(vec![Value::Int(1); 1000]);
    let opts = ExecOptions {
        max_output_bytes: 4 << 20,
        ..ExecOptions::default()
    };
    let mut out = String::new();
    let e = t.execute(&data, &opts, &mut out).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Limit);
    assert!(e.message.contains("generated text exceeds"), "{e}");
}

#[test]
fn partial_output_on_error() {
    let t = Template::parse("p", "abc{{.x}}def{{.y}}ghi").unwrap();
    let data = Value::StringMap(BTreeMap::from([("x".to_string(), "X".to_string())]));
    let opts = ExecOptions {
        missing_key: MissingKey::Error,
        ..ExecOptions::default()
    };
    let mut out = String::new();
    let e = t.execute(&data, &opts, &mut out).unwrap_err();
    assert_eq!(out, "abcXdef");
    assert_eq!(
        e.to_string(),
        r#"template: p:1:14: executing "p" at <.y>: map has no entry for key "y""#
    );
}

#[test]
fn worst_case_nesting_fits_default_test_stack() {
    // Nested ifs inside recursive template calls, with deeply nested
    // parentheses at the bottom: the deepest execution the default limits
    // allow must fit in a 2 MiB test thread, even in a debug build.
    let parens = format!("{}1{}", "(print ".repeat(90), ")".repeat(90));
    let body = "{{if 1}}".repeat(9)
        + &format!("{{{{print {parens}}}}}")
        + r#"{{template "x" .}}"#
        + &"{{end}}".repeat(9);
    let text = format!(r#"{{{{define "x"}}}}{body}{{{{end}}}}{{{{template "x" .}}}}"#);
    let t = Template::parse("w", &text).unwrap();
    let mut out = String::new();
    let e = t
        .execute(&Value::Nil, &ExecOptions::default(), &mut out)
        .unwrap_err();
    assert!(
        e.message
            .contains("exceeded maximum execution nesting (400)"),
        "{e}"
    );

    let body = "{{if 1}}".repeat(98) + r#"{{template "x" .}}"# + &"{{end}}".repeat(98);
    let text = format!(r#"{{{{define "x"}}}}{body}{{{{end}}}}{{{{template "x" .}}}}"#);
    let t = Template::parse("w", &text).unwrap();
    let e = t
        .execute(&Value::Nil, &ExecOptions::default(), &mut out)
        .unwrap_err();
    assert_eq!(e.kind, ErrorKind::Limit);
}

/// Found by `scripts/fuzz.sh` in CI: a precision above 65535 made Rust's formatter panic.
#[test]
fn huge_float_precision_is_formatted_like_go() {
    use tailor_go::{ExecOptions, Template, Value};
    let t = Template::parse(
        "t",
        r#"{{printf "%.70000f" 3.25}}|{{printf "%.70000e" 3.25}}|{{printf "%.70000g" 3.25}}"#,
    )
    .unwrap();
    let mut out = String::new();
    t.execute(
        &Value::StringMap(Default::default()),
        &ExecOptions::default(),
        &mut out,
    )
    .unwrap();
    let parts: Vec<&str> = out.split('|').collect();
    assert_eq!(parts[0].len(), 2 + 70000);
    assert!(parts[0].starts_with("3.25000") && parts[0].ends_with('0'));
    assert!(parts[1].starts_with("3.25000") && parts[1].ends_with("e+00"));
    assert_eq!(parts[2], "3.25");
}
