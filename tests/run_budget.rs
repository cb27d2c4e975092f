//! The run's budget of generated text and template evaluation steps, through the binary: a
//! run that exceeds it ends in an error result naming the limit and how to raise it, exit 1,
//! no panic and no abort; `spec.limits` and the environment variables set it.

mod common;

use common::run_tailor_env;

const HEADER: &str = "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n";

/// One ConfigMap of `values` copies of `template`, expanded for cluster virgo.
fn templates(template: &str, values: usize, limits: &str) -> String {
    let data: String = (0..values)
        .map(|i| format!("    k{i}: '{template}'\n"))
        .collect();
    format!("{HEADER}- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: c\n    annotations:\n      control.kubestellar.io/expand-templates: \"true\"\n  data:\n{data}functionConfig:\n  apiVersion: tailor.dev/v1alpha1\n  kind: Tailor\n  metadata:\n    name: t\n  spec:\n    cluster:\n      name: virgo\n{limits}")
}

fn assert_refused(run: &common::Run, field: &str, variable: &str) {
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    let want = format!("spec.limits.{field}");
    assert!(run.stdout.contains(&want), "{}", run.stdout);
    assert!(run.stdout.contains(variable), "{}", run.stdout);
    assert!(run
        .stdout
        .starts_with("apiVersion: config.kubernetes.io/v1"));
}

#[test]
fn generated_text_is_bounded_per_run_not_per_template() {
    // Each value is 100 KB, well under the 16 MiB per template; together they pass 1 MB.
    let input = templates("{{printf \"%0*d\" 100000 1}}", 20, "");
    let env = [("TAILOR_MAX_RUN_OUTPUT_BYTES", "1000000")];
    assert_refused(
        &run_tailor_env(&[], &env, &input),
        "maxRunOutputBytes",
        "TAILOR_MAX_RUN_OUTPUT_BYTES",
    );
    let limits = "    limits:\n      maxRunOutputBytes: 1000000\n";
    let input = templates("{{printf \"%0*d\" 100000 1}}", 20, limits);
    assert_refused(
        &run_tailor_env(&[], &[], &input),
        "maxRunOutputBytes",
        "TAILOR_MAX_RUN_OUTPUT_BYTES",
    );
    // Within the budget, the same run succeeds.
    let ok = run_tailor_env(
        &[],
        &[("TAILOR_MAX_RUN_OUTPUT_BYTES", "4000000")],
        &templates("{{printf \"%0*d\" 100000 1}}", 20, ""),
    );
    assert_eq!(ok.code, 0, "{}", ok.stderr);
}

#[test]
fn a_printf_width_beyond_the_budget_is_refused_before_it_is_built() {
    let input = templates("{{printf \"%0*d\" 999999 1}}", 1, "");
    let env = [("TAILOR_MAX_RUN_OUTPUT_BYTES", "1000")];
    assert_refused(
        &run_tailor_env(&[], &env, &input),
        "maxRunOutputBytes",
        "TAILOR_MAX_RUN_OUTPUT_BYTES",
    );
}

#[test]
fn evaluation_steps_are_bounded_per_run() {
    let input = templates("{{range $}}{{range $}}{{end}}{{end}}", 50, "");
    let env = [("TAILOR_MAX_RUN_STEPS", "20")];
    assert_refused(
        &run_tailor_env(&[], &env, &input),
        "maxRunEvaluationSteps",
        "TAILOR_MAX_RUN_STEPS",
    );
}

#[test]
fn substituted_values_spend_the_same_budget() {
    let big = "x".repeat(10_000);
    let items: String = (0..20)
        .map(|i| format!("- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: p{i}\n  data:\n    k: '${{big}}${{big}}'\n"))
        .collect();
    let input = format!("{HEADER}{items}functionConfig:\n  apiVersion: tailor.dev/v1alpha1\n  kind: Tailor\n  metadata:\n    name: t\n  spec:\n    limits:\n      maxRunOutputBytes: 100000\n    postBuild:\n      substitute:\n        big: {big}\n");
    assert_refused(
        &run_tailor_env(&[], &[], &input),
        "maxRunOutputBytes",
        "TAILOR_MAX_RUN_OUTPUT_BYTES",
    );
}

#[test]
fn invalid_budget_variables_are_refused() {
    let input = templates("{{.clusterName}}", 1, "");
    for var in ["TAILOR_MAX_RUN_OUTPUT_BYTES", "TAILOR_MAX_RUN_STEPS"] {
        for bad in ["abc", "0", "-1"] {
            let run = run_tailor_env(&[], &[(var, bad)], &input);
            assert_eq!(run.code, 1, "{var}={bad}");
            let want = format!("environment variable {var}={bad:?} is not a positive whole number");
            assert!(
                run.stdout.contains(&want) || run.stderr.contains(&want),
                "{}",
                run.stderr
            );
        }
    }
}

#[test]
fn aliases_in_substituted_text_spend_the_same_budget() {
    // Each object's substituted text anchors a list of 999 and aliases it 110 times (just
    // under go-yaml's limit on aliasing): 110,000 nodes expanded an object, 20 objects.
    let items = vec!["x"; 999].join(", ");
    let refs = vec!["*a"; 110].join(", ");
    let objects: String = (0..20)
        .map(|i| format!("- apiVersion: example.com/v1\n  kind: Example\n  metadata:\n    name: e{i}\n  spec:\n    a: '${{anchor}}'\n    b: '${{refs}}'\n"))
        .collect();
    let input = |limits: &str| {
        format!("{HEADER}{objects}functionConfig:\n  apiVersion: tailor.dev/v1alpha1\n  kind: Tailor\n  metadata:\n    name: t\n  spec:\n{limits}    postBuild:\n      substitute:\n        anchor: '&a [{items}]'\n        refs: '[{refs}]'\n")
    };
    let run = run_tailor_env(
        &[],
        &[],
        &input("    limits: {maxRunEvaluationSteps: 1000000}\n"),
    );
    assert_refused(&run, "maxRunEvaluationSteps", "TAILOR_MAX_RUN_STEPS");
    let ok = run_tailor_env(
        &[],
        &[],
        &input("    limits: {maxRunEvaluationSteps: 5000000}\n"),
    );
    assert_eq!(ok.code, 0, "{}", ok.stdout);
}

/// `objects` ConfigMaps, each with one value of `template`, expanded for cluster virgo.
fn objects_with(template: &str, objects: usize, limits: &str) -> String {
    let items: String = (0..objects)
        .map(|i| format!("- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: c{i}\n    annotations:\n      control.kubestellar.io/expand-templates: \"true\"\n  data:\n    k: '{template}'\n"))
        .collect();
    format!("{HEADER}{items}functionConfig:\n  apiVersion: tailor.dev/v1alpha1\n  kind: Tailor\n  metadata:\n    name: t\n  spec:\n    cluster:\n      name: virgo\n{limits}")
}

#[test]
fn an_exhausted_budget_is_reported_once_within_a_destination() {
    // 40 objects of one destination, each stopped by the same budget: one error, about the
    // first of them, saying how many like it were left out.
    let input = objects_with("{{range $}}{{range $}}{{end}}{{end}}", 40, "");
    let run = run_tailor_env(&[], &[("TAILOR_MAX_RUN_STEPS", "20")], &input);
    assert_refused(&run, "maxRunEvaluationSteps", "TAILOR_MAX_RUN_STEPS");
    assert_eq!(
        run.stdout.matches("exceeds its budget").count(),
        1,
        "{}",
        run.stdout
    );
    assert_eq!(
        run.stderr.matches("exceeds its budget").count(),
        1,
        "{}",
        run.stderr
    );
    assert!(
        run.stdout.contains("more results like this one left out"),
        "{}",
        run.stdout
    );
    // postBuild's substitution in 20 objects: the same.
    let big = "x".repeat(10_000);
    let items: String = (0..20)
        .map(|i| format!("- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: p{i}\n  data:\n    k: '${{big}}${{big}}'\n"))
        .collect();
    let input = format!("{HEADER}{items}functionConfig:\n  apiVersion: tailor.dev/v1alpha1\n  kind: Tailor\n  metadata:\n    name: t\n  spec:\n    limits:\n      maxRunOutputBytes: 100000\n    postBuild:\n      substitute:\n        big: {big}\n");
    let run = run_tailor_env(&[], &[], &input);
    assert_refused(&run, "maxRunOutputBytes", "TAILOR_MAX_RUN_OUTPUT_BYTES");
    assert_eq!(
        run.stdout.matches("exceeds its budget").count(),
        1,
        "{}",
        run.stdout
    );
}

/// A ConfigMap whose template prints 100 KB `times` times into a variable (generated text,
/// not output) for each of `clusters` destinations.
fn printed_per_destination(times: usize, clusters: usize) -> String {
    let literal = "x".repeat(100_000);
    let template = format!(
        "{{{{$s := \"{literal}\"}}}}{{{{$x := print{}}}}}",
        " $s".repeat(times)
    );
    let clusters: String = (0..clusters)
        .map(|i| format!("      - {{name: c{i}}}\n"))
        .collect();
    format!("{HEADER}- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: c\n    annotations:\n      control.kubestellar.io/expand-templates: \"true\"\n  data:\n    k: '{template}'\nfunctionConfig:\n  apiVersion: tailor.dev/v1alpha1\n  kind: Tailor\n  metadata:\n    name: t\n  spec:\n    clusters:\n{clusters}")
}

#[test]
fn the_default_budget_grows_with_the_destinations() {
    // Past the 256 destinations the defaults cover, each adds 1 MiB: 300 destinations of
    // 1 MB each (300 MB) pass, although that is more than the 256 MiB of a smaller run.
    let run = run_tailor_env(&[], &[], &printed_per_destination(10, 300));
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout.matches("kind: ConfigMap").count(), 300);
    // 2 MB each stop at 300 MiB, in one error, with nothing written after it.
    let run = run_tailor_env(&[], &[], &printed_per_destination(20, 300));
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    assert!(
        run.stderr
            .contains("the run exceeds its budget of 314572800 bytes"),
        "{}",
        run.stderr
    );
    assert_eq!(
        run.stderr.matches("exceeds its budget").count(),
        1,
        "{}",
        run.stderr
    );
    // 256 destinations or fewer keep the 256 MiB: 200 of 2 MB each stop there.
    let run = run_tailor_env(&[], &[], &printed_per_destination(20, 200));
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("the run exceeds its budget of 268435456 bytes"),
        "{}",
        run.stderr
    );
}
