//! `tailor helm template` spends the run's budget (see tests/run_budget.rs): the chart's
//! templates together, and the text Helm's `tpl`, `fromYaml` and `fromJson` read again each
//! time a loop calls them. Each template is within its own limits; the run is not. The error
//! names the limit and its environment variable, exit 1, nothing on stdout, no panic or abort.

mod common;

use common::{run_tailor_env, write_tree};

const CHART_YAML: &str = "apiVersion: v2\nname: c\nversion: 0.1.0\n";

/// `helm template` of a chart of `templates` ConfigMaps whose data are `body`, with `values`.
fn render(
    tag: &str,
    templates: usize,
    body: &str,
    values: &str,
    env: &[(&str, &str)],
) -> common::Run {
    let texts: Vec<(String, String)> = (0..templates)
        .map(|i| {
            let text =
                format!("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm{i}\ndata:\n{body}");
            (format!("templates/cm{i}.yaml"), text)
        })
        .collect();
    let mut files: Vec<(&str, &str)> = vec![("Chart.yaml", CHART_YAML), ("values.yaml", values)];
    files.extend(texts.iter().map(|(p, t)| (p.as_str(), t.as_str())));
    let dir = write_tree(tag, &files);
    let chart = dir.display().to_string();
    run_tailor_env(&["helm", "template", "r", &chart], env, "")
}

/// Refused with an error naming the limit's environment variable: `tailor helm template` has
/// no functionConfig, so its error does not point at `spec.limits`.
fn assert_refused(run: &common::Run, variable: &str) {
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stdout.is_empty(), "{}", run.stdout);
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    assert!(!run.stderr.contains("memory allocation"), "{}", run.stderr);
    assert!(run.stderr.starts_with("Error: "), "{}", run.stderr);
    assert!(!run.stderr.contains("spec.limits"), "{}", run.stderr);
    assert!(
        run.stderr.contains(&format!(
            "raise it with the environment variable {variable}"
        )),
        "{}",
        run.stderr
    );
}

#[test]
fn the_templates_of_a_chart_share_the_run_budget() {
    // 20 templates of 100 KB each, far under the 16 MiB a template may write; 2 MB together.
    let body = "  pad: {{ printf \"%0*d\" 100000 1 | quote }}\n";
    let env = [("TAILOR_MAX_RUN_OUTPUT_BYTES", "1000000")];
    let run = render("helm-budget-bytes", 20, body, "{}\n", &env);
    assert_refused(&run, "TAILOR_MAX_RUN_OUTPUT_BYTES");
    let env = [("TAILOR_MAX_RUN_OUTPUT_BYTES", "20000000")];
    let run = render("helm-budget-bytes-ok", 20, body, "{}\n", &env);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout.matches("kind: ConfigMap").count(), 20);
}

#[test]
fn templates_just_under_their_own_cap_stop_at_the_default_budget() {
    // 17 templates each build 16,000,000 bytes (under the 16 MiB cap of one template) and
    // write none of it: 272 MB of generated text passes the default 256 MiB; 16 do not.
    let body = "  n: {{ $_ := repeat 16000000 \"x\" }}x\n";
    let run = render("helm-budget-default", 17, body, "{}\n", &[]);
    assert_refused(&run, "TAILOR_MAX_RUN_OUTPUT_BYTES");
    let run = render("helm-budget-default-ok", 16, body, "{}\n", &[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout.matches("n: x").count(), 16);
}

#[test]
fn evaluation_steps_of_a_chart_are_bounded_per_run() {
    let body = "  n: {{ range until 1000 }}{{ end }}x\n";
    let env = [("TAILOR_MAX_RUN_STEPS", "5000")];
    let run = render("helm-budget-steps", 10, body, "{}\n", &env);
    assert_refused(&run, "TAILOR_MAX_RUN_STEPS");
    let run = render("helm-budget-steps-ok", 10, body, "{}\n", &[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
}

#[test]
fn tpl_spends_the_budget_on_the_text_it_parses() {
    // A 100 KB comment: `tpl` parses it and writes nothing, 200 times a template.
    let values = format!("big: '{{{{/* {} */}}}}'\n", "x".repeat(100_000));
    let body = "  n: {{ range until 200 }}{{ tpl $.Values.big $ }}{{ end }}x\n";
    let env = [("TAILOR_MAX_RUN_OUTPUT_BYTES", "5000000")];
    let run = render("helm-budget-tpl", 1, body, &values, &env);
    assert_refused(&run, "TAILOR_MAX_RUN_OUTPUT_BYTES");
    let env = [("TAILOR_MAX_RUN_OUTPUT_BYTES", "50000000")];
    let run = render("helm-budget-tpl-ok", 1, body, &values, &env);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("n: x"), "{}", run.stdout);
}

#[test]
fn from_json_spends_the_budget_on_the_text_it_reads() {
    let values = format!("json: '{{\"a\": \"{}\"}}'\n", "x".repeat(100_000));
    let body = "  n: {{ range until 200 }}{{ $_ := fromJson $.Values.json }}{{ end }}x\n";
    let env = [("TAILOR_MAX_RUN_OUTPUT_BYTES", "5000000")];
    let run = render("helm-budget-fromjson", 1, body, &values, &env);
    assert_refused(&run, "TAILOR_MAX_RUN_OUTPUT_BYTES");
}

#[test]
fn aliases_from_yaml_expands_spend_the_budget() {
    // 110 aliases of a list of 999 (just under go-yaml's limit on aliasing): 110,000 nodes
    // each time `fromYaml` reads it, 40 times.
    let items = vec!["x"; 999].join(", ");
    let refs = vec!["*a"; 110].join(", ");
    let values = format!("bomb: \"a: &a [{items}]\\nb: [{refs}]\"\n");
    let body = "  n: {{ range until 40 }}{{ $_ := fromYaml $.Values.bomb }}{{ end }}x\n";
    let env = [("TAILOR_MAX_RUN_STEPS", "1000000")];
    let run = render("helm-budget-fromyaml", 1, body, &values, &env);
    assert_refused(&run, "TAILOR_MAX_RUN_STEPS");
    let run = render("helm-budget-fromyaml-ok", 1, body, &values, &[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
}

#[test]
fn an_invalid_budget_variable_is_refused() {
    let env = [("TAILOR_MAX_RUN_STEPS", "abc")];
    let run = render("helm-budget-invalid", 1, "  a: b\n", "{}\n", &env);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stdout.is_empty(), "{}", run.stdout);
    assert!(
        run.stderr
            .contains("TAILOR_MAX_RUN_STEPS=\"abc\" is not a positive whole number"),
        "{}",
        run.stderr
    );
}
