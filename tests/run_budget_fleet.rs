//! A Fleet Helm bundle rendered for many clusters spends the run's one budget (see
//! tests/run_budget.rs): Fleet's `${ }` templating of the values, the YAML aliases its
//! `templateValues` expand to, and the chart's templates, for every cluster together. Each
//! cluster's work is within the per-template limits; the run that repeats it for every
//! cluster ends in one error result naming the limit and how to raise it, exit 1, no abort.
mod common;

use std::path::Path;

use common::{run_command, run_tailor_env, tailor_bin, write_tree};

const CHART_YAML: &str = "apiVersion: v2\nname: web\nversion: 1.2.0\n";

/// A chart template that prints how long `.Values.pad` is, so the output stays small.
const LENGTH_TEMPLATE: &str = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cfg\ndata:\n  n: {{ len .Values.pad | quote }}\n";

/// A config of `clusters` destinations with labels of their own (so that Fleet templates the
/// values of each), `limits` under its spec, and a bundle of `fleet_yaml` whose chart has
/// `template`.
fn bundle(
    tag: &str,
    clusters: usize,
    limits: &str,
    fleet_yaml: &str,
    template: &str,
) -> common::TempDir {
    let destinations: String = (0..clusters)
        .map(|i| format!("  - {{name: c{i:02}, labels: {{env: e{i}}}}}\n"))
        .collect();
    let config = format!("apiVersion: tailor.dev/v1alpha1\nkind: Tailor\nmetadata: {{name: t}}\nspec:\n{limits}  clusters:\n{destinations}");
    write_tree(
        tag,
        &[
            ("tailor.yaml", config.as_str()),
            ("bundle/fleet.yaml", fleet_yaml),
            ("bundle/chart/Chart.yaml", CHART_YAML),
            ("bundle/chart/values.yaml", "pad: ''\n"),
            ("bundle/chart/templates/cm.yaml", template),
        ],
    )
}

fn args(dir: &Path) -> [String; 2] {
    [
        dir.join("tailor.yaml").display().to_string(),
        dir.join("bundle").display().to_string(),
    ]
}

fn render(dir: &Path, env: &[(&str, &str)]) -> common::Run {
    let [config, bundle] = args(dir);
    run_tailor_env(&[&config, &bundle], env, "")
}

/// Exit 1, no panic or abort, and one error naming `field` and `variable`, which stopped
/// destinations after the first.
fn assert_refused_once(run: &common::Run, field: &str, variable: &str) {
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    assert!(!run.stderr.contains("memory allocation"), "{}", run.stderr);
    assert_eq!(
        run.stderr.matches("exceeds its budget").count(),
        1,
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains(&format!("spec.limits.{field}")),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains(variable), "{}", run.stderr);
}

/// Fleet's values: `x` and `width` bytes of padding made by `${ printf }`, `times` times.
fn padded_values(width: usize, times: usize) -> String {
    let pad = format!("${{ printf \"%0*d\" {width} 1 }}").repeat(times);
    format!("helm:\n  chart: chart\n  releaseName: web\n  values:\n    pad: 'x{pad}'\n")
}

#[test]
fn fleet_values_templating_spends_the_run_budget() {
    // 100 KB of values a cluster (and as much again for the printf), 40 clusters: 8 MB. The
    // chart writes some 100 bytes a cluster: the values are what spends the budget (whichever
    // template crosses the limit reports it).
    let fleet = padded_values(100_000, 1);
    let dir = bundle("budget-values", 40, "", &fleet, LENGTH_TEMPLATE);
    let run = render(&dir, &[("TAILOR_MAX_RUN_OUTPUT_BYTES", "2000000")]);
    assert_refused_once(&run, "maxRunOutputBytes", "TAILOR_MAX_RUN_OUTPUT_BYTES");
    assert!(run.stderr.contains("the budget stopped"), "{}", run.stderr);
    // spec.limits sets the same budget.
    let limits = "  limits: {maxRunOutputBytes: 2000000}\n";
    let spec = bundle("budget-values-spec", 40, limits, &fleet, LENGTH_TEMPLATE);
    let run = render(&spec, &[]);
    assert_refused_once(&run, "maxRunOutputBytes", "TAILOR_MAX_RUN_OUTPUT_BYTES");
    // Raised, the same run renders every cluster.
    let run = render(&dir, &[("TAILOR_MAX_RUN_OUTPUT_BYTES", "20000000")]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let limits = "  limits: {maxRunOutputBytes: 20000000}\n";
    let dir = bundle("budget-values-raised", 40, limits, &fleet, LENGTH_TEMPLATE);
    let run = render(&dir, &[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout.matches("n: \"100001\"").count(), 40);
}

#[test]
fn aliases_in_fleet_values_spend_the_run_budget() {
    // A templateValues entry Fleet reads as YAML for every cluster: 110 aliases to a list of
    // 999, just under go-yaml's limit on aliasing, expand to 110,000 nodes a cluster.
    let items = vec!["x"; 999].join(", ");
    let refs = vec!["*a"; 110].join(", ");
    let bomb = format!("a: &a [{items}]\\nb: [{refs}]");
    let fleet = format!("helm:\n  chart: chart\n  releaseName: web\n  values: {{pad: x}}\n  templateValues:\n    bomb: \"{bomb}\"\n");
    let dir = bundle("budget-aliases", 12, "", &fleet, LENGTH_TEMPLATE);
    let run = render(&dir, &[("TAILOR_MAX_RUN_STEPS", "1000000")]);
    assert_refused_once(&run, "maxRunEvaluationSteps", "TAILOR_MAX_RUN_STEPS");
    // The error names the budget, not the text that spent it.
    assert!(!run.stderr.contains("x, x, x"), "{}", run.stderr);
    let run = render(&dir, &[("TAILOR_MAX_RUN_STEPS", "3000000")]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout.matches("n: \"1\"").count(), 12);
}

#[test]
fn a_chart_rendered_for_every_cluster_spends_the_run_budget() {
    let fleet = "helm:\n  chart: chart\n  releaseName: web\n  values: {pad: x}\n";
    let template = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cfg\ndata:\n  pad: {{ printf \"%0*d\" 100000 1 | quote }}\n";
    let dir = bundle("budget-chart", 40, "", fleet, template);
    let run = render(&dir, &[("TAILOR_MAX_RUN_OUTPUT_BYTES", "2000000")]);
    assert_refused_once(&run, "maxRunOutputBytes", "TAILOR_MAX_RUN_OUTPUT_BYTES");
    assert!(run.stderr.contains("the chart of"), "{}", run.stderr);
    let run = render(&dir, &[("TAILOR_MAX_RUN_OUTPUT_BYTES", "40000000")]);
    assert_eq!(run.code, 0, "{}", run.stderr);
}

#[test]
fn fleet_values_command_spends_the_run_budget() {
    let fleet = padded_values(100_000, 1);
    let dir = bundle("budget-fleet-values", 40, "", &fleet, LENGTH_TEMPLATE);
    let [config, bundle] = args(&dir);
    let argv = ["fleet-values", config.as_str(), bundle.as_str()];
    let env = [("TAILOR_MAX_RUN_OUTPUT_BYTES", "2000000")];
    let run = run_tailor_env(&argv, &env, "");
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(run.stdout, "", "nothing printed after an error");
    assert_eq!(run.stderr.matches("exceeds its budget").count(), 1);
    assert!(run.stderr.contains("TAILOR_MAX_RUN_OUTPUT_BYTES"));
    let run = run_tailor_env(&argv, &[("TAILOR_MAX_RUN_OUTPUT_BYTES", "20000000")], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
}

/// Values just under Fleet's per-template limit (16 printfs of 999,999 bytes: 16 MB of a
/// 16 MiB limit) for every cluster: the default budget (256 MiB) stops the run after a few
/// clusters, in an error result, under a cap on the address space.
#[test]
fn values_just_under_the_template_limit_end_in_the_budget_error_under_a_memory_cap() {
    let fleet = padded_values(999_999, 16);
    let dir = bundle("budget-cap", 12, "", &fleet, LENGTH_TEMPLATE);
    let [config, bundle] = args(&dir);
    let mut cmd = std::process::Command::new("sh");
    cmd.args([
        "-c",
        "ulimit -v 1500000 && exec \"$0\" \"$@\"",
        tailor_bin(),
    ])
    .args([&config, &bundle]);
    let run = run_command(&mut cmd, "");
    assert_refused_once(&run, "maxRunOutputBytes", "TAILOR_MAX_RUN_OUTPUT_BYTES");
    assert!(
        run.stderr.contains("budget of 268435456 bytes"),
        "{}",
        run.stderr
    );
}
