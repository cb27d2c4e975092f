//! Every limit at its boundary: exactly at the limit passes, one past it gives the documented
//! error (an `ErrorKind::Limit` for execution limits, Go's parse error for parse depth).

use tailor_go::{ErrorKind, ExecOptions, Template, Value, MAX_PARSE_DEPTH};

fn run(src: &str, data: &Value, opts: &ExecOptions) -> (Result<(), tailor_go::Error>, String) {
    let t = Template::parse("t", src).expect("parses");
    let mut out = String::new();
    let r = t.execute(data, opts, &mut out);
    (r, out)
}

fn list(n: usize) -> Value {
    Value::List(vec![Value::Int(1); n])
}

#[test]
fn parse_depth_boundary() {
    for open in ["{{if 1}}", "{{with 1}}", "{{range .}}"] {
        let nested = |k: usize| open.repeat(k) + &"{{end}}".repeat(k);
        assert!(
            Template::parse("t", &nested(MAX_PARSE_DEPTH)).is_ok(),
            "{open} x {MAX_PARSE_DEPTH}"
        );
        let e = Template::parse("t", &nested(MAX_PARSE_DEPTH + 1)).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Parse);
        assert_eq!(e.message, "template: t:1: max expression depth exceeded");
    }
    let parens = |k: usize| format!("{{{{{}1{}}}}}", "(".repeat(k), ")".repeat(k));
    assert!(Template::parse("t", &parens(MAX_PARSE_DEPTH)).is_ok());
    let e = Template::parse("t", &parens(MAX_PARSE_DEPTH + 1)).unwrap_err();
    assert_eq!(e.message, "template: t:1: max expression depth exceeded");
}

/// `calls` nested `{{template}}` calls: t0 calls t1 ... the last writes "x".
fn chain(calls: usize) -> String {
    let mut src = String::new();
    for i in 0..calls - 1 {
        src.push_str(&format!(
            "{{{{define \"t{i}\"}}}}{{{{template \"t{}\"}}}}{{{{end}}}}",
            i + 1
        ));
    }
    src.push_str(&format!(
        "{{{{define \"t{}\"}}}}x{{{{end}}}}{{{{template \"t0\"}}}}",
        calls - 1
    ));
    src
}

#[test]
fn template_depth_boundary() {
    let opts = ExecOptions {
        max_depth: 20,
        ..ExecOptions::default()
    };
    let (r, out) = run(&chain(20), &Value::Nil, &opts);
    assert!(r.is_ok(), "{r:?}");
    assert_eq!(out, "x");
    let (r, _) = run(&chain(21), &Value::Nil, &opts);
    let e = r.unwrap_err();
    assert_eq!(e.kind, ErrorKind::Limit);
    assert!(
        e.message.ends_with("exceeded maximum template depth (20)"),
        "{e}"
    );
    // The default (100) holds on the default 2 MiB test thread in a debug build.
    let (r, _) = run(&chain(100), &Value::Nil, &ExecOptions::default());
    assert!(r.is_ok(), "{r:?}");
    let (r, _) = run(&chain(101), &Value::Nil, &ExecOptions::default());
    assert!(r
        .unwrap_err()
        .message
        .ends_with("exceeded maximum template depth (100)"));
}

#[test]
fn execution_nesting_boundary() {
    // if/with/range/template nesting is capped at 4 x max_depth.
    let opts = ExecOptions {
        max_depth: 10,
        ..ExecOptions::default()
    };
    let nested = |k: usize| "{{if 1}}".repeat(k) + "y" + &"{{end}}".repeat(k);
    let (r, out) = run(&nested(40), &Value::Nil, &opts);
    assert!(r.is_ok(), "{r:?}");
    assert_eq!(out, "y");
    let (r, _) = run(&nested(41), &Value::Nil, &opts);
    let e = r.unwrap_err();
    assert_eq!(e.kind, ErrorKind::Limit);
    assert!(
        e.message
            .ends_with("exceeded maximum execution nesting (40)"),
        "{e}"
    );
}

#[test]
fn output_bytes_boundary() {
    let opts = ExecOptions {
        max_output_bytes: 50,
        ..ExecOptions::default()
    };
    let (r, out) = run("{{range .}}abcde{{end}}", &list(10), &opts);
    assert!(r.is_ok(), "{r:?}");
    assert_eq!(out.len(), 50);
    let (r, out) = run("{{range .}}abcde{{end}}z", &list(10), &opts);
    let e = r.unwrap_err();
    assert_eq!(e.kind, ErrorKind::Limit);
    assert!(
        e.message.ends_with("output exceeds the limit of 50 bytes"),
        "{e}"
    );
    assert_eq!(out.len(), 50, "the output is cut at the limit");
}

#[test]
fn generated_text_boundary() {
    // Text built by printf counts even when it is not written.
    let opts = ExecOptions {
        max_output_bytes: 30,
        ..ExecOptions::default()
    };
    let (r, out) = run(
        r#"{{range .}}{{len (printf "%10d" 1)}}{{end}}"#,
        &list(3),
        &opts,
    );
    assert!(r.is_ok(), "{r:?}");
    assert_eq!(out, "101010");
    let (r, _) = run(
        r#"{{range .}}{{len (printf "%10d" 1)}}{{end}}"#,
        &list(4),
        &opts,
    );
    let e = r.unwrap_err();
    assert_eq!(e.kind, ErrorKind::Limit);
    assert!(
        e.message
            .ends_with("generated text exceeds the limit of 30 bytes"),
        "{e}"
    );
}

#[test]
fn range_iterations_boundary() {
    let opts = ExecOptions {
        max_range_iterations: 100,
        ..ExecOptions::default()
    };
    let (r, _) = run("{{range .}}.{{end}}", &list(100), &opts);
    assert!(r.is_ok(), "{r:?}");
    let (r, out) = run("{{range .}}.{{end}}", &list(101), &opts);
    let e = r.unwrap_err();
    assert_eq!(e.kind, ErrorKind::Limit);
    assert!(
        e.message
            .ends_with("exceeded maximum range iterations (100)"),
        "{e}"
    );
    assert_eq!(
        out.len(),
        100,
        "the iterations before the limit wrote their output"
    );
    // Nested ranges count together, outer iterations included.
    let (r, _) = run("{{range .}}{{range $}}{{end}}{{end}}", &list(9), &opts);
    assert!(r.is_ok(), "9 + 81 = 90 iterations: {r:?}");
    let (r, _) = run("{{range .}}{{range $}}{{end}}{{end}}", &list(10), &opts);
    assert!(r.is_err(), "10 + 100 = 110 iterations");
}

#[test]
fn an_execution_that_fails_on_a_limit_still_charges_the_run_budget() {
    // 100 iterations write 100 bytes, less than the chunk an execution settles at; the range
    // limit then stops it. The run's budget is charged what it spent all the same.
    let budget = tailor_go::Budget::new(10_000, 1_000_000);
    let opts = ExecOptions {
        max_range_iterations: 100,
        budget: budget.clone(),
        ..ExecOptions::default()
    };
    let (r, out) = run("{{range .}}.{{end}}", &list(101), &opts);
    assert_eq!(r.unwrap_err().kind, ErrorKind::Limit);
    assert_eq!(out.len(), 100);
    assert_eq!(budget.remaining_output(), 10_000 - 100);
}
