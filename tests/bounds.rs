//! Issue 26, bounded cost on every input: hostile or large inputs end in an error result that
//! names the limit (exit 1, no panic, nothing on stdout) or finish in time linear in their size.

mod common;

use std::time::{Duration, Instant};

use common::run_tailor;

fn custom_transform_list(path: &str) -> String {
    let path = serde_json::to_string(path).unwrap();
    format!(
        "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- {{apiVersion: v1, kind: ConfigMap, metadata: {{name: c}}, data: {{a: b}}}}\n- apiVersion: control.kubestellar.io/v1alpha1\n  kind: CustomTransform\n  metadata: {{name: strip-a}}\n  spec:\n    apiGroup: \"\"\n    resource: configmaps\n    remove: [{path}]\nfunctionConfig:\n  apiVersion: tailor.dev/v1alpha1\n  kind: Tailor\n  spec: {{}}\n"
    )
}

fn assert_refused(input: &str, needles: &[&str]) {
    let started = Instant::now();
    let r = run_tailor(&[], input);
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(r.code, 1, "stderr: {}", r.stderr);
    assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
    let stdout_items = r.stdout.contains("kind: ConfigMap");
    for n in needles {
        assert!(
            r.stdout.contains(n) || r.stderr.contains(n),
            "{n:?} missing:\n{}\n{}",
            r.stdout,
            r.stderr
        );
    }
    assert!(
        !stdout_items || r.stdout.contains("severity: error"),
        "{}",
        r.stdout
    );
}

#[test]
fn a_jsonpath_over_the_size_limit_is_refused_naming_the_transform_field_and_limit() {
    // `$[?@.a||@.a...]` of 1.2 MB: the JSONPath parser held about 290 MB.
    let path = format!("$[?@.a{}]", "||@.a".repeat(240_000));
    assert_refused(
        &custom_transform_list(&path),
        &[
            "CustomTransform \"strip-a\": Error in items[1].spec.remove[0]",
            "spec.remove[0]",
            "JSONPath paths of at most 4096 bytes are accepted",
        ],
    );
}

#[test]
fn deeply_nested_filters_are_refused_in_linear_time() {
    // 1.2 MB of nested filters was counted in quadratic time before the refusal (5 s).
    let path = format!("$[{}", "?@[".repeat(400_000));
    assert_refused(
        &custom_transform_list(&path),
        &["spec.remove[0]", "JSONPath paths of at most 4096 bytes"],
    );
    let nested = format!("$[?{}@.a{}]", "@[?".repeat(40), "]".repeat(40));
    assert_refused(
        &custom_transform_list(&nested),
        &[
            "spec.remove[0]",
            "filter selectors are nested 41 deep; at most 2 are allowed",
        ],
    );
}

#[test]
fn deep_grouping_in_a_jsonpath_is_refused_before_the_parser_descends() {
    let path = format!("$[?{}@.a{}]", "(".repeat(2000), ")".repeat(2000));
    assert_refused(
        &custom_transform_list(&path),
        &[
            "spec.remove[0]",
            "brackets and parentheses are nested 2001 deep; at most 64 are allowed",
        ],
    );
}
