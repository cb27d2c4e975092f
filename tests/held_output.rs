//! A fan-out's output, streamed or held. Stream output is written to stdout as each
//! destination is finished: the same bytes as the stream written whole (under `--strict` the
//! stream is held), and a destination that fails ends the run with its error and exit 1 after
//! the destinations before it. Output held whole (a ResourceList, `-o resource-list`) is
//! counted as destinations finish: past `maxHeldOutputBytes` the run ends in an error result
//! naming the limit, never an abort. An exhausted run budget is reported once, not once per
//! destination.

mod common;

use std::path::Path;

use common::{run_command, run_tailor_env, tailor_bin, temp_dir};

const CONFIGMAP: &str = r#"apiVersion: v1
kind: ConfigMap
metadata:
  name: web # kept comment
  annotations:
    control.kubestellar.io/expand-templates: "true"
data:
  zone: '{{ .zone }}'
  name: '{{ .clusterName }}'
"#;

/// A package (a ConfigMap and a Kptfile) and a CONFIG fanning it out to `n` clusters; the one
/// at `without_zone` lacks the property the template reads (its destination fails).
fn package(tag: &str, n: usize, without_zone: Option<usize>, limits: &str) -> common::TempDir {
    let dir = temp_dir(tag);
    let mut cfg = format!("apiVersion: tailor.dev/v1alpha1\nkind: Tailor\nmetadata:\n  name: fan-out\nspec:\n{limits}  clusters:\n");
    for i in 0..n {
        cfg.push_str(&format!("  - name: c{i:03}\n"));
        if without_zone != Some(i) {
            cfg.push_str(&format!("    properties: {{zone: z{}}}\n", i % 3));
        }
    }
    std::fs::write(dir.join("cfg.yaml"), cfg).unwrap();
    std::fs::create_dir_all(dir.join("pkg/app")).unwrap();
    std::fs::write(dir.join("pkg/app/cm.yaml"), CONFIGMAP).unwrap();
    std::fs::write(
        dir.join("pkg/Kptfile"),
        "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: pkg\n",
    )
    .unwrap();
    dir
}

fn render(dir: &Path, env: &[(&str, &str)], extra: &[&str]) -> common::Run {
    let mut cmd = std::process::Command::new(tailor_bin());
    cmd.current_dir(dir)
        .envs(env.iter().copied())
        .args(["cfg.yaml", "pkg"])
        .args(extra);
    run_command(&mut cmd, "")
}

#[test]
fn a_streamed_fan_out_is_the_stream_written_whole() {
    let dir = package("held-stream-same", 40, None, "");
    let held = render(&dir, &[("TAILOR_THREADS", "2")], &["--strict"]);
    assert_eq!(held.code, 0, "{}", held.stderr);
    assert_eq!(held.stdout.matches("kind: ConfigMap").count(), 40);
    assert!(held.stdout.contains("# tailor.dev/cluster: c039\n"));
    for threads in ["1", "2", "7"] {
        let streamed = render(&dir, &[("TAILOR_THREADS", threads)], &[]);
        assert_eq!(streamed.code, 0, "{}", streamed.stderr);
        assert_eq!(streamed.stdout, held.stdout, "TAILOR_THREADS={threads}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_destination_that_fails_ends_the_stream_with_exit_1() {
    for threads in ["1", "3"] {
        let dir = package(&format!("held-stream-fail-{threads}"), 30, Some(17), "");
        let run = render(&dir, &[("TAILOR_THREADS", threads)], &[]);
        assert_eq!(run.code, 1, "{}", run.stderr);
        assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
        assert!(
            run.stderr.contains("cluster \"c017\"") && run.stderr.contains("\"zone\""),
            "{}",
            run.stderr
        );
        // The destinations before it are written whole, none after it.
        assert_eq!(run.stdout.matches("kind: ConfigMap").count(), 17);
        assert!(run.stdout.contains("# tailor.dev/cluster: c016\n"));
        assert!(run.stdout.ends_with("name: 'c016'\n"), "{}", run.stdout);
        assert!(!run.stdout.contains("c017"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

fn assert_held_limit(run: &common::Run, limit: &str) {
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    let want = format!("exceeds its limit of {limit} bytes after");
    assert!(run.stdout.contains(&want), "{}", run.stdout);
    assert!(run.stdout.contains("spec.limits.maxHeldOutputBytes"));
    assert!(run.stdout.contains("TAILOR_MAX_HELD_OUTPUT_BYTES"));
    // The answer of a failed run: the objects as read, no copy.
    assert!(
        !run.stdout.contains("tailor.dev/cluster: c0"),
        "{}",
        run.stdout
    );
}

#[test]
fn held_output_past_its_limit_is_an_error_naming_it() {
    let dir = package("held-limit", 40, None, "");
    let env = [("TAILOR_MAX_HELD_OUTPUT_BYTES", "3000")];
    assert_held_limit(&render(&dir, &env, &["-o", "resource-list"]), "3000");
    // Under the limit the same run holds every copy.
    let env = [("TAILOR_MAX_HELD_OUTPUT_BYTES", "100000")];
    let all = render(&dir, &env, &["-o", "resource-list"]);
    assert_eq!(all.code, 0, "{}", all.stderr);
    assert_eq!(all.stdout.matches("kind: ConfigMap").count(), 40);
    // spec.limits sets it too.
    let limited = package(
        "held-limit-spec",
        40,
        None,
        "  limits: {maxHeldOutputBytes: 2500}\n",
    );
    assert_held_limit(&render(&limited, &[], &["-o", "resource-list"]), "2500");
    for bad in ["abc", "0", "-1"] {
        let run = render(
            &dir,
            &[("TAILOR_MAX_HELD_OUTPUT_BYTES", bad)],
            &["-o", "resource-list"],
        );
        assert_eq!(run.code, 1, "{bad}: {}", run.stderr);
        let want = format!("TAILOR_MAX_HELD_OUTPUT_BYTES={bad:?} is not a positive whole number");
        assert!(run.stdout.contains(&want), "{}", run.stdout);
    }
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_dir_all(&limited).unwrap();
}

/// The KRM function answers with a ResourceList, held whole; under `ulimit -v` the default
/// limit is what the address space leaves, so a large fan-out ends in the error result rather
/// than an abort of the allocator.
#[test]
fn a_large_fan_out_under_a_memory_cap_ends_in_the_error_result() {
    let clusters: String = (0..3000)
        .map(|i| format!("    - name: c{i:04}\n"))
        .collect();
    let objects: String = (0..40)
        .map(|i| format!("- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: cm{i}\n  data:\n    text: '{}'\n", "x".repeat(2000)))
        .collect();
    let input = format!("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n{objects}functionConfig:\n  apiVersion: tailor.dev/v1alpha1\n  kind: Tailor\n  metadata:\n    name: t\n  spec:\n    clusters:\n{clusters}");
    // 3,000 × 40 × 2 KB: 240 MB of output, 530 MB held as text, under a 500 MB address space.
    let mut cmd = std::process::Command::new("sh");
    cmd.args(["-c", "ulimit -v 500000 && exec \"$0\"", tailor_bin()]);
    let run = run_command(&mut cmd, &input);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(!run.stderr.contains("memory allocation"), "{}", run.stderr);
    assert!(
        run.stdout.contains("spec.limits.maxHeldOutputBytes"),
        "{}",
        &run.stdout[run.stdout.len().saturating_sub(2000)..]
    );
    // Without the cap, a limit set lower ends the same way.
    let run = run_tailor_env(&[], &[("TAILOR_MAX_HELD_OUTPUT_BYTES", "5000000")], &input);
    assert!(
        run.stdout
            .contains("exceeds its limit of 5000000 bytes after"),
        "{}",
        run.stderr
    );
}

#[test]
fn an_exhausted_budget_is_reported_once_for_the_fan_out() {
    let values: String = (0..20)
        .map(|i| format!("    k{i}: '{{{{printf \"%0*d\" 100000 1}}}}'\n"))
        .collect();
    let clusters: String = (0..50).map(|i| format!("    - name: c{i:02}\n")).collect();
    let input = format!("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: c\n    annotations:\n      control.kubestellar.io/expand-templates: \"true\"\n  data:\n{values}functionConfig:\n  apiVersion: tailor.dev/v1alpha1\n  kind: Tailor\n  metadata:\n    name: t\n  spec:\n    clusters:\n{clusters}");
    for threads in ["1", "2"] {
        let env = [
            ("TAILOR_MAX_RUN_OUTPUT_BYTES", "5000000"),
            ("TAILOR_THREADS", threads),
        ];
        let run = run_tailor_env(&[], &env, &input);
        assert_eq!(run.code, 1, "{}", run.stderr);
        assert_eq!(
            run.stdout.matches("exceeds its budget").count(),
            1,
            "{}",
            run.stdout
        );
        assert!(run.stdout.contains("spec.limits.maxRunOutputBytes"));
        assert!(run.stdout.contains("destinations: \"c"), "{}", run.stdout);
        assert!(
            run.stdout.contains("more results like this one left out"),
            "{}",
            run.stdout
        );
        assert_eq!(
            run.stderr.matches("exceeds its budget").count(),
            1,
            "{}",
            run.stderr
        );
    }
}
