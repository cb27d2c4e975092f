use super::*;
use serde_json::json;

use tailor_testkit::string_map as labels;

fn sel(v: Value) -> LabelSelector {
    from_json(&v, "sel").unwrap()
}

fn err(v: Value) -> String {
    from_json(&v, "clusterSelector").unwrap_err().to_string()
}

// ---- object form ----

#[test]
fn empty_selector_matches_everything() {
    let s = sel(json!({}));
    assert!(s.is_everything());
    assert!(s.matches(&labels(&[])));
    assert!(s.matches(&labels(&[("a", "b")])));
    let s = sel(json!({"matchLabels": null, "matchExpressions": null}));
    assert!(s.is_everything());
    let s = sel(json!({"matchLabels": {}, "matchExpressions": []}));
    assert!(s.is_everything());
}

#[test]
fn match_labels_are_a_subset_test() {
    let s = sel(json!({"matchLabels": {"env": "prod", "region": "eu"}}));
    assert!(s.matches(&labels(&[("env", "prod"), ("region", "eu"), ("x", "y")])));
    assert!(!s.matches(&labels(&[("env", "prod")])));
    assert!(!s.matches(&labels(&[("env", "dev"), ("region", "eu")])));
}

#[test]
fn match_label_with_empty_value_needs_the_key() {
    let s = sel(json!({"matchLabels": {"env": ""}}));
    assert!(s.matches(&labels(&[("env", "")])));
    assert!(!s.matches(&labels(&[])));
}

#[test]
fn operator_in() {
    let s = sel(
        json!({"matchExpressions": [{"key": "env", "operator": "In", "values": ["prod", "stage"]}]}),
    );
    assert!(s.matches(&labels(&[("env", "prod")])));
    assert!(s.matches(&labels(&[("env", "stage")])));
    assert!(!s.matches(&labels(&[("env", "dev")])));
    assert!(!s.matches(&labels(&[])));
}

#[test]
fn operator_not_in_is_true_when_missing() {
    let s =
        sel(json!({"matchExpressions": [{"key": "env", "operator": "NotIn", "values": ["prod"]}]}));
    assert!(!s.matches(&labels(&[("env", "prod")])));
    assert!(s.matches(&labels(&[("env", "dev")])));
    assert!(s.matches(&labels(&[])));
}

#[test]
fn operator_exists_and_does_not_exist() {
    let e = sel(json!({"matchExpressions": [{"key": "gpu", "operator": "Exists"}]}));
    let d = sel(
        json!({"matchExpressions": [{"key": "gpu", "operator": "DoesNotExist", "values": []}]}),
    );
    assert!(e.matches(&labels(&[("gpu", "")])));
    assert!(!e.matches(&labels(&[])));
    assert!(!d.matches(&labels(&[("gpu", "x")])));
    assert!(d.matches(&labels(&[])));
}

#[test]
fn labels_and_expressions_are_anded() {
    let s = sel(json!({
        "matchLabels": {"env": "prod"},
        "matchExpressions": [
            {"key": "region", "operator": "In", "values": ["eu"]},
            {"key": "legacy", "operator": "DoesNotExist"}
        ]
    }));
    assert!(s.matches(&labels(&[("env", "prod"), ("region", "eu")])));
    assert!(!s.matches(&labels(&[("env", "prod"), ("region", "us")])));
    assert!(!s.matches(&labels(&[
        ("env", "prod"),
        ("region", "eu"),
        ("legacy", "1")
    ])));
    assert!(!s.matches(&labels(&[("region", "eu")])));
}

#[test]
fn contradictory_requirements_match_nothing() {
    let s = sel(
        json!({"matchLabels": {"a": "1"}, "matchExpressions": [{"key": "a", "operator": "NotIn", "values": ["1"]}]}),
    );
    assert!(!s.matches(&labels(&[("a", "1")])));
    assert!(!s.matches(&labels(&[])));
}

#[test]
fn requirements_sorted_and_values_deduped() {
    let s = sel(json!({
        "matchLabels": {"z": "1"},
        "matchExpressions": [{"key": "a", "operator": "In", "values": ["y", "x", "y"]}]
    }));
    assert_eq!(s.to_string(), "a in (x,y),z=1");
    assert_eq!(s.requirements()[0].values(), ["x", "y"]);
    assert_eq!(s.requirements()[0].key(), "a");
    assert_eq!(s.requirements()[0].operator(), Operator::In);
}

#[test]
fn unsupported_operator_names_the_field() {
    assert_eq!(
        err(json!({"matchExpressions": [{"key": "a", "operator": "Foo", "values": ["x"]}]})),
        "clusterSelector.matchExpressions[0].operator: unsupported operator \"Foo\" (expected In, NotIn, Exists or DoesNotExist)"
    );
    // Operators are case-sensitive, and the string-form spellings are not accepted.
    assert!(
        err(json!({"matchExpressions": [{"key": "a", "operator": "in", "values": ["x"]}]}))
            .contains("unsupported operator \"in\"")
    );
    assert!(
        err(json!({"matchExpressions": [{"key": "a", "operator": "Gt", "values": ["1"]}]}))
            .contains("unsupported operator")
    );
    assert!(err(json!({"matchExpressions": [{"key": "a"}]})).contains("unsupported operator \"\""));
}

#[test]
fn in_and_not_in_need_values() {
    for op in ["In", "NotIn"] {
        let e = err(json!({"matchExpressions": [{"key": "ok"}, {"key": "a", "operator": op}]}));
        // The first expression fails on its operator before the second is read.
        assert!(
            e.starts_with("clusterSelector.matchExpressions[0].operator"),
            "{e}"
        );
        let e = err(json!({"matchExpressions": [{"key": "a", "operator": op, "values": []}]}));
        assert_eq!(
            e,
            "clusterSelector.matchExpressions[0].values: for 'in', 'notin' operators, values set can't be empty"
        );
    }
}

#[test]
fn exists_and_does_not_exist_take_no_values() {
    for op in ["Exists", "DoesNotExist"] {
        let e = err(json!({"matchExpressions": [{"key": "a", "operator": op, "values": ["x"]}]}));
        assert_eq!(
            e,
            "clusterSelector.matchExpressions[0].values: values set must be empty for exists and does not exist"
        );
    }
}

#[test]
fn invalid_keys_and_values_name_the_field() {
    let e = err(json!({"matchExpressions": [{"key": "a/b/c", "operator": "Exists"}]}));
    assert!(e.starts_with("clusterSelector.matchExpressions[0].key: invalid label key \"a/b/c\": a qualified name"), "{e}");
    let e = err(
        json!({"matchExpressions": [{"key": "a", "operator": "In", "values": ["ok", "not ok"]}]}),
    );
    assert!(
        e.starts_with(
            "clusterSelector.matchExpressions[0].values[1]: invalid label value \"not ok\""
        ),
        "{e}"
    );
    let e = err(json!({"matchLabels": {"-bad": "x"}}));
    assert!(
        e.starts_with("clusterSelector.matchLabels: invalid label key \"-bad\""),
        "{e}"
    );
    let e = err(json!({"matchLabels": {"env": "a b"}}));
    assert!(
        e.starts_with("clusterSelector.matchLabels.env: invalid label value \"a b\""),
        "{e}"
    );
    let e = err(json!({"matchExpressions": [{"operator": "Exists"}]}));
    assert!(
        e.starts_with("clusterSelector.matchExpressions[0].key: invalid label key \"\""),
        "{e}"
    );
}

#[test]
fn wrong_types_name_the_field() {
    assert_eq!(
        err(json!("env=prod")),
        "clusterSelector: expected a map, got string"
    );
    assert_eq!(
        err(json!({"matchLabels": {"n": 1}})),
        "clusterSelector.matchLabels.n: expected a string, got number (quote the value)"
    );
    assert_eq!(
        err(json!({"matchLabels": []})),
        "clusterSelector.matchLabels: expected a map, got list"
    );
    assert_eq!(
        err(json!({"matchExpressions": {}})),
        "clusterSelector.matchExpressions: expected a list, got map"
    );
    assert_eq!(
        err(json!({"matchExpressions": ["x"]})),
        "clusterSelector.matchExpressions[0]: expected a map, got string"
    );
    assert_eq!(
        err(json!({"matchExpressions": [{"key": "a", "operator": "In", "values": [true]}]})),
        "clusterSelector.matchExpressions[0].values[0]: expected a string, got boolean (quote the value)"
    );
    assert_eq!(
        err(json!({"matchExpressions": [{"key": 1, "operator": "Exists"}]})),
        "clusterSelector.matchExpressions[0].key: expected a string, got number (quote the value)"
    );
}

#[test]
fn unknown_fields_are_rejected() {
    assert_eq!(
        err(json!({"matchLabel": {"a": "b"}})),
        "clusterSelector.matchLabel: unknown field (did you mean \"matchLabels\"?); accepted fields: matchExpressions, matchLabels"
    );
    assert_eq!(
        err(json!({"matchExpressions": [{"key": "a", "operator": "Exists", "value": []}]})),
        "clusterSelector.matchExpressions[0].value: unknown field (did you mean \"values\"?); accepted fields: key, operator, values"
    );
}

#[test]
fn optional_null_means_no_criterion() {
    assert_eq!(optional_from_json(None, "s").unwrap(), None);
    assert_eq!(optional_from_json(Some(&json!(null)), "s").unwrap(), None);
    assert_eq!(
        optional_from_json(Some(&json!({})), "s").unwrap(),
        Some(LabelSelector::everything())
    );
    assert!(from_json(&json!(null), "s").is_err());
}

#[test]
fn from_match_labels_helper() {
    let s = LabelSelector::from_match_labels(&labels(&[("a", "1")]), "m").unwrap();
    assert!(s.matches(&labels(&[("a", "1")])));
    assert!(LabelSelector::from_match_labels(&labels(&[]), "m")
        .unwrap()
        .is_everything());
}

#[test]
fn requirement_new_validates_counts() {
    assert!(Requirement::new("a", Operator::Equals, vec![], "p").is_err());
    assert!(Requirement::new("a", Operator::Equals, vec!["1".into(), "2".into()], "p").is_err());
    assert!(Requirement::new("a", Operator::GreaterThan, vec!["x".into()], "p").is_err());
    assert!(Requirement::new("a", Operator::LessThan, vec![], "p").is_err());
    let r = Requirement::new("a", Operator::NotEquals, vec!["1".into()], "p").unwrap();
    assert!(r.matches(&labels(&[])));
    assert!(!r.matches(&labels(&[("a", "1")])));
    assert!(r.matches(&labels(&[("a", "2")])));
}

// ---- string form ----

fn p(s: &str) -> LabelSelector {
    LabelSelector::parse(s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn perr(s: &str) -> String {
    LabelSelector::parse_at(s, "selector")
        .unwrap_err()
        .to_string()
}

#[test]
fn parse_empty_is_everything() {
    assert!(p("").is_everything());
    assert!(p("   ").is_everything());
}

#[test]
fn parse_each_operator() {
    let l = labels(&[("env", "prod"), ("n", "5"), ("gpu", "")]);
    for (s, want) in [
        ("env=prod", true),
        ("env==prod", true),
        ("env!=prod", false),
        ("env!=dev", true),
        ("missing!=x", true),
        ("env in (dev, prod)", true),
        ("env in (dev)", false),
        ("env notin (dev)", true),
        ("env notin (prod)", false),
        ("missing notin (prod)", true),
        ("gpu", true),
        ("missing", false),
        ("!missing", true),
        ("!gpu", false),
        ("n>4", true),
        ("n>5", false),
        ("n<6", true),
        ("env>1", false),
        ("missing<9", false),
        ("env=prod,gpu,!missing,n>1", true),
        ("env=prod,missing", false),
    ] {
        assert_eq!(p(s).matches(&l), want, "{s}");
    }
}

#[test]
fn parse_round_trips_to_canonical_string() {
    assert_eq!(
        p("b=1, a in (y,x),!c,d,e!=2,f==3,g notin (z),h>1,i<2").to_string(),
        "a in (x,y),b=1,!c,d,e!=2,f==3,g notin (z),h>1,i<2"
    );
}

#[test]
fn parse_quirks_of_labels_parse() {
    // `a=` means a="".
    assert!(p("a=").matches(&labels(&[("a", "")])));
    assert!(p("a=,b").matches(&labels(&[("a", ""), ("b", "x")])));
    // `()` is the set {""}.
    assert_eq!(p("a in ()").requirements()[0].values(), [""]);
    assert_eq!(p("a in (,x)").requirements()[0].values(), ["", "x"]);
    assert_eq!(p("a in (x,)").requirements()[0].values(), ["", "x"]);
    assert_eq!(p("a in (x,,y)").requirements()[0].values(), ["", "x", "y"]);
    // `in`/`notin` are keywords only in operator position.
    assert!(p("in=notin").matches(&labels(&[("in", "notin")])));
    assert!(p("x in (in,notin)").matches(&labels(&[("x", "notin")])));
    // Whitespace is free.
    assert!(p("  a  =  b  ,  c  ").matches(&labels(&[("a", "b"), ("c", "")])));
    assert!(p("a in(b)").matches(&labels(&[("a", "b")])));
    // Prefixed keys.
    assert!(p("app.kubernetes.io/name=web").matches(&labels(&[("app.kubernetes.io/name", "web")])));
}

#[test]
fn parse_errors() {
    assert_eq!(
        perr("a=b,"),
        "selector: found '', expected: identifier after ','"
    );
    assert_eq!(
        perr(",a"),
        "selector: found ',', expected: !, identifier, or 'end of string'"
    );
    assert_eq!(
        perr("a b"),
        "selector: unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt"
    );
    assert_eq!(
        perr("a in x"),
        "selector: unable to parse requirement: found 'x' expected: '('"
    );
    assert_eq!(
        perr("a in (x"),
        "selector: unable to parse requirement: found '', expected: ',' or ')'"
    );
    assert_eq!(
        perr("a in (x y)"),
        "selector: unable to parse requirement: found 'y', expected: ',' or ')'"
    );
    assert_eq!(
        perr("a in (="),
        "selector: unable to parse requirement: found '=', expected: ',', ')' or identifier"
    );
    assert_eq!(
        perr("a=(b)"),
        "selector: unable to parse requirement: found '(', expected: identifier"
    );
    assert_eq!(
        perr("!"),
        "selector: unable to parse requirement: found '', expected: identifier"
    );
    assert_eq!(
        perr("!a=b"),
        "selector: found '=', expected: ',' or 'end of string'"
    );
    assert_eq!(
        perr("a=b c"),
        "selector: found 'c', expected: ',' or 'end of string'"
    );
    assert!(perr("a/b/c=d")
        .starts_with("selector: unable to parse requirement: invalid label key \"a/b/c\""));
    assert!(perr("a=b/c")
        .starts_with("selector: unable to parse requirement: invalid label value \"b/c\""));
    assert!(perr("a>x").contains("the value must be an integer"));
    // "-1" is an integer, but not a valid label value: apimachinery rejects it too.
    assert!(perr("a>-1").contains("invalid label value \"-1\""));
    assert!(perr("a in (x, in (y))").contains("expected"));
}

#[test]
fn parse_never_panics_on_odd_input() {
    for s in [
        "(", ")", "((", "!!a", "a!!", "a,,b", "=", "==", "a in ((", "a notin", "a in", "é=ü", "\0",
        "a=\0b", "a>", "<",
    ] {
        let _ = LabelSelector::parse(s);
    }
}

/// No selector string may panic; what parses prints back to itself.
#[test]
fn random_selector_strings_never_panic() {
    const PIECES: &[&str] = &[
        "a", "b", "in", "notin", "=", "==", "!=", "!", "(", ")", ",", ">", "<", " ", "1", "-1",
        "é", "x/y", "\0", "\t",
    ];
    let mut rng = tailor_testkit::Rng::xorshift64(42);
    for _ in 0..20_000 {
        let s: String = (0..rng.next_u64() % 8).map(|_| rng.pick(PIECES)).collect();
        if let Ok(sel) = LabelSelector::parse(&s) {
            // The canonical form parses back to the same selector.
            let again = LabelSelector::parse(&sel.to_string());
            assert_eq!(again.as_ref(), Ok(&sel), "{s:?} -> {sel}");
        }
    }
}
