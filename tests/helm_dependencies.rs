//! Helm's dependency processing (`tags`, `condition`, `alias`, `import-values`) against the
//! tables of helm/helm's `pkg/chartutil/dependencies_test.go`, transcribed with their charts
//! in `crates/tailor-helm/tests/data/helm/deps/` (source commit there). Every case runs
//! through `tailor helm template`: which charts render shows which dependencies are enabled;
//! a probe template added to a copy of the chart prints the values the root chart sees.
mod common;

use common::{repo_root, run_tailor};
use serde_json::{json, Map, Value};
use std::path::{Path, PathBuf};

fn deps_dir() -> PathBuf {
    repo_root().join("crates/tailor-helm/tests/data/helm/deps")
}

fn cases() -> Vec<Value> {
    let doc: Value =
        serde_json::from_str(&std::fs::read_to_string(deps_dir().join("cases.json")).unwrap())
            .unwrap();
    assert_eq!(
        doc["source"]["commit"],
        "813176c51bb5c181dbbd7901298ddcc104cd3417"
    );
    doc["cases"].as_array().unwrap().clone()
}

/// A copy of the case's chart with a template printing the root's `.Values` as JSON: the
/// directory's guard and the chart's path.
fn probed_chart(case: &Value) -> (common::TempDir, PathBuf) {
    let name = case["name"].as_str().unwrap().replace(' ', "-");
    let dir = common::temp_dir(&format!("helm-deps-{}", &name[..name.len().min(20)]));
    let chart = dir.join("chart");
    common::copy_dir(&deps_dir().join(case["chart"].as_str().unwrap()), &chart);
    if case["strip_templates"] == true {
        remove_templates(&chart);
    }
    std::fs::create_dir_all(chart.join("templates")).unwrap();
    std::fs::write(
        chart.join("templates/zz-probe.yaml"),
        "{{ toJson .Values }}\n",
    )
    .unwrap();
    (dir, chart)
}

/// Every `templates/` directory under `dir` removed.
fn remove_templates(dir: &Path) {
    for e in std::fs::read_dir(dir).unwrap() {
        let path = e.unwrap().path();
        if path.is_dir() && path.ends_with("templates") {
            std::fs::remove_dir_all(&path).unwrap();
        } else if path.is_dir() {
            remove_templates(&path);
        }
    }
}

/// Renders `chart` with the case's values (as a values file); stdout, or the failure.
fn render(chart: &Path, case: &Value) -> String {
    let values = chart.with_file_name("values.json");
    std::fs::write(&values, case["values"].to_string()).unwrap();
    let run = run_tailor(
        &[
            "helm",
            "template",
            chart.to_str().unwrap(),
            "-f",
            values.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}: {}", case["name"], run.stderr);
    run.stdout
}

/// The root's values the probe printed.
fn probed_values(out: &str) -> Map<String, Value> {
    let mut lines = out.lines();
    while let Some(line) = lines.next() {
        if line.starts_with("# Source: ") && line.ends_with("/templates/zz-probe.yaml") {
            let json = lines.next().unwrap();
            return serde_json::from_str(json).unwrap();
        }
    }
    panic!("no probe output in\n{out}");
}

/// Helm's `ChartPath`s of the charts whose templates rendered, plus the root.
fn rendered_charts(out: &str, root: &str) -> Vec<String> {
    let mut charts: Vec<String> = out
        .lines()
        .filter_map(|l| l.strip_prefix("# Source: "))
        .filter_map(|p| p.split_once("/templates/").map(|(c, _)| c))
        .map(|c| c.replace("/charts/", "."))
        .collect();
    charts.push(root.to_string());
    charts.sort();
    charts.dedup();
    charts
}

/// A value at a dotted path, as the Go test prints it (`strconv.FormatFloat(f, 'f', -1, 64)`).
fn path_text(values: &Map<String, Value>, path: &str) -> Option<String> {
    let mut v = values.get(path.split('.').next()?)?;
    for key in path.split('.').skip(1) {
        v = v.get(key)?;
    }
    Some(match v {
        Value::String(s) => s.clone(),
        Value::Number(n) => format!("{}", n.as_f64()?),
        other => other.to_string(),
    })
}

fn check_paths(case: &Value, values: &Map<String, Value>, key: &str) -> Vec<String> {
    let mut wrong = Vec::new();
    for (path, want) in case[key].as_object().into_iter().flatten() {
        let got = path_text(values, path);
        if got.as_deref() != want.as_str() {
            wrong.push(format!("{}: {path} = {got:?}, want {want}", case["name"]));
        }
    }
    wrong
}

#[test]
fn dependency_enabled_table_through_the_binary() {
    let mut ran = 0;
    for case in cases()
        .iter()
        .filter(|c| c["test"] == "TestDependencyEnabled")
    {
        let chart = deps_dir().join(case["chart"].as_str().unwrap());
        let out = render(&chart, case);
        let want: Vec<String> = case["charts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap().to_string())
            .collect();
        assert_eq!(
            rendered_charts(&out, "parentchart"),
            want,
            "{}",
            case["name"]
        );
        ran += 1;
    }
    assert_eq!(ran, 11);
}

#[test]
fn import_values_tables_through_the_binary() {
    let mut wrong = Vec::new();
    let mut ran = 0;
    for case in cases().iter().filter(|c| c.get("paths").is_some()) {
        let values = probed_values(&render(&probed_chart(case).1, case));
        wrong.extend(check_paths(case, &values, "paths"));
        if case["chart"] == "subpop" {
            // helm template merges: the chart's own null stays a null.
            assert_eq!(values.get("ensurenull"), Some(&Value::Null));
        }
        ran += 1;
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert_eq!(ran, 2);
}

#[test]
fn aliases_and_unlisted_subcharts_through_the_binary() {
    let mut ran = 0;
    for case in cases().iter().filter(|c| c.get("dependencies").is_some()) {
        let values = probed_values(&render(&probed_chart(case).1, case));
        for dep in case["dependencies"].as_array().unwrap() {
            let dep = dep.as_str().unwrap();
            assert!(
                values.get(dep).is_some_and(Value::is_object),
                "{}: no values for dependency {dep}: {values:?}",
                case["name"]
            );
        }
        let wrong = check_paths(case, &values, "subchart_paths");
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
        ran += 1;
    }
    assert_eq!(ran, 4);
}

#[test]
fn dependencies_switched_off_or_replaced_leave_no_values() {
    // The original of an aliased chart, and a subchart a tag switches off, are no
    // dependencies any more: their defaults do not show in the parent's values.
    let alias = json!({"name": "alias", "chart": "dependent-chart-alias", "values": {}});
    let values = probed_values(&render(&probed_chart(&alias).1, &alias));
    assert!(!values.contains_key("mariner"), "{values:?}");
    let prod = json!({"name": "envs", "chart": "import-values-from-enabled-subchart/parent-chart", "values": {}});
    let out = render(&probed_chart(&prod).1, &prod);
    let values = probed_values(&out);
    assert!(!values.contains_key("dev"), "{values:?}");
    // The parent's own values win over what it imports from prod's exports. (The probe
    // prints with `toJson`, which writes the float64 0 as Go does: `0`.)
    assert_eq!(values["resources"]["autoscaler"]["minReplicas"], json!(0));
    assert!(out.contains("  minReplicas: 0\n"), "{out}");
}

#[test]
fn requirements_yaml_lists_the_dependencies_of_a_v1_chart() {
    let tmp = common::temp_dir("helm-requirements");
    let dir = tmp.join("c");
    let files = [
        ("Chart.yaml", "apiVersion: v1\nname: c\nversion: 0.1.0\n"),
        (
            "requirements.yaml",
            "dependencies:\n- name: sub\n  version: ~0.2.0\n  alias: other\n  condition: other.on\n",
        ),
        ("values.yaml", "other:\n  on: true\n"),
        ("templates/req.yaml", "{{ .Files.Get \"requirements.yaml\" | len }}: x\n"),
        ("charts/sub/Chart.yaml", "apiVersion: v1\nname: sub\nversion: 0.2.5\n"),
        (
            "charts/sub/templates/cm.yaml",
            "kind: ConfigMap\nname: {{ .Chart.Name }}\n",
        ),
    ];
    common::write_files(&dir, &files);
    let path = dir.to_str().unwrap();
    let run = run_tailor(&["helm", "template", path], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout
            .contains("# Source: c/charts/other/templates/cm.yaml\nkind: ConfigMap\nname: other\n"),
        "{}",
        run.stdout
    );
    // apiVersion v1 keeps requirements.yaml among the chart's files.
    assert!(run.stdout.contains("\n81: x\n"), "{}", run.stdout);
    let run = run_tailor(&["helm", "template", path, "--set", "other.on=false"], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(!run.stdout.contains("cm.yaml"), "{}", run.stdout);
}

#[test]
fn a_listed_dependency_missing_from_charts_is_helms_error() {
    let tmp = common::temp_dir("helm-missing-dep");
    let dir = tmp.join("c");
    std::fs::create_dir_all(dir.join("templates")).unwrap();
    std::fs::write(
        dir.join("Chart.yaml"),
        "apiVersion: v2\nname: c\nversion: 0.1.0\ndependencies:\n- name: gone\n  version: 1.0.0\n",
    )
    .unwrap();
    let run = run_tailor(&["helm", "template", dir.to_str().unwrap()], "");
    assert_eq!(run.code, 1);
    assert_eq!(run.stdout, "");
    assert_eq!(
        run.stderr,
        "Error: An error occurred while checking for chart dependencies. You may need to run `helm dependency build` to fetch missing dependencies: found in Chart.yaml, but missing in charts/ directory: gone\n"
    );
}
