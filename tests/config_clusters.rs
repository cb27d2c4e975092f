//! A CONFIG file's `spec.clusters` is read one entry at a time as the text is parsed, each
//! entry's tree dropped once it is a destination. A bad third entry must still be reported
//! with the message, field and line (and the YAML error with the line) that reading the whole
//! tree gives: the expectations below are what tailor printed when it held the whole list.

mod common;

use common::{run_tailor, write_tree};

const OBJECT: &str = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\ndata:\n  a: b\n";

/// A Tailor whose first two clusters are fine, followed by `third` (and anything after it).
fn config(third: &str) -> String {
    format!(
        "apiVersion: tailor.dev/v1alpha1\nkind: Tailor\nmetadata:\n  name: t\nspec:\n  clusters:\n  - name: a\n    labels: {{env: dev}}\n  - name: b\n{third}"
    )
}

/// stderr and exit code of `tailor cfg.yaml obj.yaml` (extra arguments after).
fn run(cfg: &str, extra: &[&str]) -> (String, i32) {
    let dir = write_tree(
        "config-clusters",
        &[("cfg.yaml", cfg), ("obj.yaml", OBJECT)],
    );
    let (c, o) = (dir.join("cfg.yaml"), dir.join("obj.yaml"));
    let mut args = vec![c.to_str().unwrap(), o.to_str().unwrap()];
    args.extend_from_slice(extra);
    let run = run_tailor(&args, "");
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    let stderr = run.stderr.replace(&format!("{}", c.display()), "cfg.yaml");
    (stderr, run.code)
}

#[test]
fn an_error_in_the_third_cluster_keeps_its_message_and_line() {
    let cases = [
        (
            "  - name: c\n    labels: 5\n",
            "[error] cfg.yaml:11 spec.clusters[2].labels: expected a map, got number\n",
        ),
        (
            "  - name: c\n    bogus: 1\n",
            "[error] cfg.yaml:11 spec.clusters[2].bogus: unknown field; accepted fields: annotations, apiVersions, groups, kubeVersion, labels, name, properties, strictMatchLabels\n",
        ),
        (
            "  - name: a\n",
            "[error] cfg.yaml:10 spec.clusters[2].name: cluster \"a\" is listed twice\n",
        ),
        (
            "  - name: c\n    labels:\n      env: [x\n",
            "[error] cfg.yaml: yaml: line 11: did not find expected ',' or ']'\n",
        ),
        (
            "  - name: c\n    labels: {}\n    name: d\n",
            "[error] cfg.yaml: yaml: line 12: mapping key \"name\" already defined at line 10\n",
        ),
        (
            "  - name: c\n    labels: *nope\n",
            "[error] cfg.yaml: yaml: line 11: unknown anchor 'nope' referenced\n",
        ),
        // The spec's own errors come first, as they do for the whole tree.
        (
            "  - name: c\n    labels: 5\n  namePrefx: p-\n",
            "[error] cfg.yaml:12 spec.namePrefx: unknown field \"namePrefx\" in Tailor spec (did you mean \"namePrefix\"?); accepted fields: cluster, clusters, strip, customTransforms, destinationSelectors, targetCustomizationMode, targetCustomizations, targetNamespace, namePrefix, nameSuffix, commonMetadata, patches, images, replacements, postBuild, templates, limits, namespace, defaultNamespace, yaml, overlays, strict\n[error] cfg.yaml:11 spec.clusters[2].labels: expected a map, got number\n",
        ),
    ];
    for (third, want) in cases {
        for extra in [&[][..], &["-o", "resource-list"]] {
            let (stderr, code) = run(&config(third), extra);
            assert_eq!((stderr.as_str(), code), (want, 1), "{third:?} {extra:?}");
        }
    }
}

#[test]
fn an_entry_that_cannot_be_json_fails_the_whole_config() {
    let key = format!(
        "[{}]",
        vec![format!("\"{}\"", "x".repeat(100)); 700].join(",")
    );
    let third =
        format!("  - name: c\n    labels:\n      ? {key}\n      : v\n  - name: d\n    labels: 5\n");
    let (stderr, code) = run(&config(&third), &[]);
    assert_eq!(
        (stderr.as_str(), code),
        (
            "[error] functionConfig: yaml: a collection used as a mapping key converts to more than 65536 bytes\n",
            1
        )
    );
}

#[test]
fn aliases_between_entries_and_a_late_kind_read_the_whole_tree() {
    let aliased = "apiVersion: tailor.dev/v1alpha1\nkind: Tailor\nmetadata:\n  name: t\nspec:\n  clusters:\n  - name: a\n    labels: &l {env: dev}\n  - name: b\n    labels: *l\n  - name: c\n    labels: 7\n";
    assert_eq!(
        run(aliased, &[]),
        (
            "[error] cfg.yaml:12 spec.clusters[2].labels: expected a map, got number\n".into(),
            1
        )
    );
    let kind_last = "apiVersion: tailor.dev/v1alpha1\nspec:\n  clusters:\n  - name: a\n  - name: b\n  - name: c\n    labels: 5\nkind: Tailor\n";
    assert_eq!(
        run(kind_last, &[]),
        (
            "[error] cfg.yaml:7 spec.clusters[2].labels: expected a map, got number\n".into(),
            1
        )
    );
    // With the alias resolved, every destination is there.
    let fine = aliased.replace("labels: 7", "labels: *l");
    let dir = write_tree(
        "config-clusters-ok",
        &[("cfg.yaml", &fine), ("obj.yaml", OBJECT)],
    );
    let (c, o) = (dir.join("cfg.yaml"), dir.join("obj.yaml"));
    let run = run_tailor(&[c.to_str().unwrap(), o.to_str().unwrap()], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout.matches("kind: ConfigMap").count(), 3);
}
