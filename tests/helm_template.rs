//! `tailor helm template` against Helm v3's own `helm template` goldens: the table of
//! `cmd/helm/template_test.go` (source commit and paths in
//! `crates/tailor-helm/tests/data/helm/template_cases.json`), every case through the binary.
//! A case with a `known` reason is a listed difference (docs/differences.md): it must still
//! differ, so the list stays true when the difference is fixed.
mod common;

use common::{repo_root, run_command};
use serde_json::Value;
use std::process::Command;

#[test]
fn helm_template_goldens() {
    let dir = repo_root().join("crates/tailor-helm/tests/data/helm");
    let cases: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("template_cases.json")).unwrap())
            .unwrap();
    let (mut passed, mut failures) = (0, Vec::new());
    for case in cases["cases"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let args: Vec<&str> = case["args"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a.as_str().unwrap())
            .collect();
        let want = std::fs::read_to_string(dir.join(case["golden"].as_str().unwrap())).unwrap();
        let want_error = case["want_error"].as_bool().unwrap_or(false);
        let run = run_command(
            Command::new(common::tailor_bin())
                .arg("helm")
                .args(&args)
                .current_dir(&dir),
            "",
        );
        let got = if want_error { &run.stderr } else { &run.stdout };
        let same = (run.code != 0) == want_error && *got == want;
        if want_error {
            assert!(
                run.stdout.is_empty(),
                "{name}: nothing on stdout after an error"
            );
        }
        match (same, case.get("known")) {
            (true, None) => passed += 1,
            (false, Some(_)) => {}
            (true, Some(_)) => failures.push(format!(
                "{name}: passes now, drop it from the known differences"
            )),
            (false, None) => failures.push(format!(
                "{name}: exit {}\n{got}\n--- want\n{want}",
                run.code
            )),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    eprintln!("helm template goldens: {passed} identical");
}

/// Writes a chart of `files` under a fresh directory; returns the directory's guard and the
/// chart's path.
fn chart(tag: &str, files: &[(&str, &str)]) -> (common::TempDir, std::path::PathBuf) {
    let tmp = common::temp_dir(tag);
    let dir = tmp.join("c");
    common::write_files(&dir, files);
    (tmp, dir)
}

const CM: &str = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ include \"c.name\" . }}\ndata:\n  a: {{ .Values.a | quote }}\n  b: {{ required \"b is required\" .Values.b }}\n";

#[test]
fn required_fails_with_helms_wording_and_nothing_on_stdout() {
    let (_tmp, dir) = chart(
        "helm-required",
        &[
            ("Chart.yaml", "apiVersion: v2\nname: c\nversion: 0.1.0\n"),
            ("values.yaml", "a: 1\n"),
            (
                "templates/_helpers.tpl",
                "{{- define \"c.name\" -}}{{ .Chart.Name }}-{{ .Release.Name }}{{- end -}}\n",
            ),
            ("templates/cm.yaml", CM),
        ],
    );
    let path = dir.to_str().unwrap();
    let run = common::run_tailor(&["helm", "template", "r", path], "");
    assert_eq!(run.code, 1);
    assert_eq!(run.stdout, "");
    // Helm's `helm template` adds its --debug hint to every error of the release's rendering
    // (cmd/helm/template.go), and with --debug prints the (here empty) manifest first.
    assert_eq!(
        run.stderr,
        "Error: execution error at (c/templates/cm.yaml:7:8): b is required\n\nUse --debug flag to render out invalid YAML\n"
    );
    let run = common::run_tailor(&["helm", "template", "r", path, "--debug"], "");
    assert_eq!((run.code, run.stdout.as_str()), (1, ""));
    assert_eq!(
        run.stderr,
        "\nError: execution error at (c/templates/cm.yaml:7:8): b is required\n"
    );
    let run = common::run_tailor(&["helm", "template", "r", path, "--set", "b=x"], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "---\n# Source: c/templates/cm.yaml\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c-r\ndata:\n  a: \"1\"\n  b: x\n"
    );
}

/// A chart's `kubeVersion` is checked against `--kube-version` (else Helm's default,
/// v1.20.0) before anything renders, as Helm's `renderResources` checks it; the version is
/// named as Helm prints it (`1.22` is `v1.22.0`), prereleases by Masterminds' rules.
#[test]
fn a_chart_whose_kube_version_does_not_admit_the_cluster_is_refused() {
    let (_tmp, dir) = chart(
        "helm-kube-version",
        &[
            (
                "Chart.yaml",
                "apiVersion: v2\nname: c\nversion: 0.1.0\nkubeVersion: '>=1.21.0-0'\n",
            ),
            (
                "templates/cm.yaml",
                "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n",
            ),
        ],
    );
    let path = dir.to_str().unwrap();
    let run = common::run_tailor(&["helm", "template", "r", path], "");
    assert_eq!((run.code, run.stdout.as_str()), (1, ""));
    assert_eq!(
        run.stderr,
        "Error: chart requires kubeVersion: >=1.21.0-0 which is incompatible with Kubernetes v1.20.0\n\nUse --debug flag to render out invalid YAML\n"
    );
    for admitted in ["1.22", "v1.21.0", "1.30.2-gke.1"] {
        let run = common::run_tailor(
            &["helm", "template", "r", path, "--kube-version", admitted],
            "",
        );
        assert_eq!(run.code, 0, "{admitted}: {}", run.stderr);
        assert!(run.stdout.contains("kind: ConfigMap"), "{}", run.stdout);
    }
    let run = common::run_tailor(
        &["helm", "template", "r", path, "--kube-version", "1.20.15"],
        "",
    );
    assert_eq!(run.code, 1);
    assert!(
        run.stderr
            .contains("incompatible with Kubernetes v1.20.15\n"),
        "{}",
        run.stderr
    );
}

#[test]
fn skip_schema_validation_renders_values_the_schema_refuses() {
    let dir = repo_root()
        .join("crates/tailor-helm/tests/data/helm/testcharts/chart-with-schema-and-subchart");
    let path = dir.to_str().unwrap();
    let args = [
        "helm",
        "template",
        "schema",
        path,
        "--set",
        "lastname=doe",
        "--set",
        "subchart-with-schema.age=-25",
    ];
    let refused = common::run_tailor(&args, "");
    assert_eq!(refused.code, 1);
    let mut skipping = args.to_vec();
    skipping.push("--skip-schema-validation");
    let run = common::run_tailor(&skipping, "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.starts_with("---\n# Source: "), "{}", run.stdout);
}

#[test]
fn dicts_are_shared_as_go_shares_maps() {
    // sprig's set/unset/merge change the map they are given (Go maps are references):
    // the `$_ := set $d ...` idiom, `.Values` changed for the templates rendered after (Helm
    // renders deeper paths first, then names in reverse order: sub, z, b, a), and a
    // subchart's `.Values` being its parent's table.
    let (_tmp, dir) = chart(
        "helm-shared-dicts",
        &[
            ("Chart.yaml", "apiVersion: v2\nname: c\nversion: 0.1.0\n"),
            ("values.yaml", "a: {x: one}\nsub: {w: two}\n"),
            (
                "templates/a.yaml",
                "{{- $d := dict \"k\" \"v\" }}{{ $_ := set $d \"n\" \"1\" }}{{ $_ := unset $d \"k\" }}\
                 {{- $m := dict \"keep\" \"dst\" \"off\" false }}{{ $_ := merge $m (dict \"keep\" \"src\" \"off\" true \"new\" \"2\") }}\
                 d: {{ toJson $d }}\nm: {{ toJson $m }}\n",
            ),
            (
                "templates/b.yaml",
                "b: {{ toJson .Values.a }}\ncopy: {{ $c := deepCopy .Values.a }}{{ $_ := set $c \"z\" 0 }}{{ hasKey .Values.a \"z\" }}\n",
            ),
            ("charts/sub/Chart.yaml", "apiVersion: v2\nname: sub\nversion: 0.1.0\n"),
            (
                "charts/sub/templates/s.yaml",
                "{{ $_ := set .Values \"fromSub\" true }}s: {{ .Values.w }}\n",
            ),
            (
                "templates/z.yaml",
                "{{ $_ := set .Values.a \"fromZ\" \"yes\" }}z: {{ toJson .Values.sub }}\n",
            ),
        ],
    );
    let run = common::run_tailor(&["helm", "template", dir.to_str().unwrap()], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    for want in [
        "d: {\"n\":\"1\"}\nm: {\"keep\":\"dst\",\"new\":\"2\",\"off\":true}\n",
        "b: {\"fromZ\":\"yes\",\"x\":\"one\"}\ncopy: false\n",
        "z: {\"fromSub\":true,\"global\":{},\"w\":\"two\"}\n",
        "s: two\n",
    ] {
        assert!(run.stdout.contains(want), "{want:?} in\n{}", run.stdout);
    }
    // A map that would hold itself is refused, not printed forever.
    let (_tmp, dir) = chart(
        "helm-dict-cycle",
        &[
            ("Chart.yaml", "apiVersion: v2\nname: c\nversion: 0.1.0\n"),
            (
                "templates/a.yaml",
                "{{ $d := dict }}{{ $_ := set $d \"me\" (list $d) }}a: 1\n",
            ),
        ],
    );
    let run = common::run_tailor(&["helm", "template", dir.to_str().unwrap()], "");
    assert_eq!(run.code, 1);
    assert!(run.stderr.contains("error calling set"), "{}", run.stderr);
}

#[test]
fn the_top_level_object_is_one_map_per_chart_as_in_helm() {
    // Helm's recAllTpls: one map per chart shared by its templates (only `.Template` set
    // anew before each), one `.Release` map for every chart, `.Subcharts` holding the
    // subcharts' maps. Render order: the subchart's template, then z, b, a.
    let (_tmp, dir) = chart(
        "helm-shared-top",
        &[
            ("Chart.yaml", "apiVersion: v2\nname: c\nversion: 0.1.0\n"),
            ("values.yaml", "sub: {w: two}\n"),
            ("charts/sub/Chart.yaml", "apiVersion: v2\nname: sub\nversion: 0.1.0\n"),
            (
                "charts/sub/templates/t.yaml",
                "{{ $_ := set $ \"fromSub\" 1 }}{{ $_ := set .Release \"fromSub\" \"s\" }}t: {{ .Template.Name }}\n",
            ),
            (
                "templates/z.yaml",
                "{{ $_ := set $ \"fromZ\" \"yes\" }}z: {{ .Subcharts.sub.Values.w }} {{ .Subcharts.sub.Chart.Name }} {{ .Subcharts.sub.fromSub }}\n",
            ),
            (
                "templates/b.yaml",
                "b: {{ hasKey $ \"fromSub\" }} {{ .Release.fromSub }} {{ include \"c.z\" . }}\n",
            ),
            ("templates/_h.tpl", "{{ define \"c.z\" }}{{ $.fromZ }}{{ end }}"),
            ("templates/a.yaml", "a: {{ $.fromZ }} {{ .Template.Name }}\n"),
        ],
    );
    let run = common::run_tailor(&["helm", "template", dir.to_str().unwrap()], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "---\n# Source: c/charts/sub/templates/t.yaml\nt: c/charts/sub/templates/t.yaml\n\
         ---\n# Source: c/templates/a.yaml\na: yes c/templates/a.yaml\n\
         ---\n# Source: c/templates/b.yaml\nb: false s yes\n\
         ---\n# Source: c/templates/z.yaml\nz: two sub 1\n"
    );
}

#[test]
fn debug_prints_the_rendered_files_and_the_hooks_before_the_bad_document() {
    // pkg/action/action.go renderResources: the non-blank rendered files (NOTES.txt left
    // out) as one blob, then the hooks sorted before the document that is not YAML.
    let (_tmp, dir) = chart(
        "helm-debug",
        &[
            ("Chart.yaml", "apiVersion: v2\nname: c\nversion: 0.1.0\n"),
            ("templates/NOTES.txt", "notes\n"),
            ("templates/blank.yaml", "{{/* nothing */}}\n"),
            (
                "templates/a-hook.yaml",
                "kind: Job\nmetadata:\n  name: h\n  annotations: {helm.sh/hook: pre-install}\n",
            ),
            (
                "templates/b.yaml",
                "kind: ConfigMap\nmetadata: {name: b}\n---\nkey: [\n",
            ),
            ("templates/c.yaml", "kind: ConfigMap\nmetadata: {name: c}\n"),
        ],
    );
    let path = dir.to_str().unwrap();
    let run = common::run_tailor(&["helm", "template", path, "--debug"], "");
    assert_eq!((run.code, run.stdout.as_str()), (1, ""), "{}", run.stderr);
    let blob = "---\n# Source: c/templates/a-hook.yaml\nkind: Job\nmetadata:\n  name: h\n  annotations: {helm.sh/hook: pre-install}\n\n\
                ---\n# Source: c/templates/b.yaml\nkind: ConfigMap\nmetadata: {name: b}\n---\nkey: [\n\n\
                ---\n# Source: c/templates/c.yaml\nkind: ConfigMap\nmetadata: {name: c}\n";
    let hook = "---\n# Source: c/templates/a-hook.yaml\nkind: Job\nmetadata:\n  name: h\n  annotations: {helm.sh/hook: pre-install}\n";
    let want = format!("{blob}{hook}Error: YAML parse error on c/templates/b.yaml: ");
    assert!(run.stderr.starts_with(&want), "{}", run.stderr);
    // --no-hooks leaves the hook out; --show-only keeps the documents of the named templates.
    let run = common::run_tailor(&["helm", "template", path, "--debug", "--no-hooks"], "");
    assert!(
        run.stderr.starts_with(&format!("{blob}Error: ")),
        "{}",
        run.stderr
    );
    let run = common::run_tailor(
        &[
            "helm",
            "template",
            path,
            "--debug",
            "-s",
            "templates/c.yaml",
        ],
        "",
    );
    assert!(
        run.stderr.starts_with("---\n# Source: c/templates/c.yaml\nkind: ConfigMap\nmetadata: {name: c}\nError: YAML parse error"),
        "{}",
        run.stderr
    );
}

#[test]
fn files_methods_read_the_charts_files() {
    // pkg/engine/files.go: Get, Lines, Glob, AsConfig, AsSecrets.
    let (_tmp, dir) = chart(
        "helm-files",
        &[
            ("Chart.yaml", "apiVersion: v2\nname: c\nversion: 0.1.0\n"),
            ("config/a.txt", "hello\nworld\n"),
            ("config/b.txt", "x"),
            ("other.txt", "o"),
            (
                "templates/cm.yaml",
                "get: {{ .Files.Get \"other.txt\" }}\nlines: {{ .Files.Lines \"config/a.txt\" | toJson }}\n\
                 config:\n{{ (.Files.Glob \"config/*\").AsConfig | indent 2 }}\n\
                 secrets:\n{{ (.Files.Glob \"config/*\").AsSecrets | indent 2 }}\n",
            ),
        ],
    );
    let run = common::run_tailor(&["helm", "template", dir.to_str().unwrap()], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "---\n# Source: c/templates/cm.yaml\nget: o\nlines: [\"hello\",\"world\"]\n\
         config:\n  a.txt: |\n    hello\n    world\n  b.txt: x\n\
         secrets:\n  a.txt: aGVsbG8Kd29ybGQK\n  b.txt: eA==\n"
    );
}

#[test]
fn functions_charts_use_render_and_clock_or_random_ones_are_refused() {
    let template = r#"semver: {{ semverCompare ">=1.19-0" .Capabilities.KubeVersion.GitVersion }} {{ semverCompare "^2" "1.9.0" }}
match: {{ regexMatch "^v[0-9]+$" "v12" }} {{ regexFind "[0-9]+" "abc123def45" }} {{ regexFindAll "[0-9]" "a1b2c3" 2 | toJson }}
replace: {{ regexReplaceAll "a(x*)b" "-ab-axxb-" "${1}W" }} {{ regexReplaceAllLiteral "a(x*)b" "-ab-" "${1}" }} {{ regexSplit "z+" "pizza" -1 | toJson }} {{ regexQuoteMeta "1.5+x" }}
sha: {{ sha256sum "abc" }} {{ sha1sum "abc" }} {{ adler32sum "Wikipedia" }}
dig: {{ dig "a" "b" "none" .Values }} {{ dig "a" "x" "none" .Values }} {{ pluck "k" (dict "k" 1) (dict "j" 2) (dict "k" 3) | toJson }}
split: {{ (split "." "a.b.c")._1 }} {{ splitn "." 2 "a.b.c" | toJson }} {{ substr 1 3 "hello" }} {{ sortAlpha (list "b" "a" "c") | toJson }}
toml: {{ toToml (dict "name" "x" "mast" (dict "sail" "white")) | quote }}
must: {{ mustFirst (list 1 2) }} {{ tuple 1 2 | len }} {{ all 1 "a" true }} {{ any 0 "" false }}
"#;
    let (_tmp, dir) = chart(
        "helm-more-funcs",
        &[
            ("Chart.yaml", "apiVersion: v2\nname: c\nversion: 0.1.0\n"),
            ("values.yaml", "a: {b: found}\n"),
            ("templates/f.yaml", template),
        ],
    );
    let run = common::run_tailor(&["helm", "template", dir.to_str().unwrap()], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let want = r#"semver: true false
match: true 123 ["1","2"]
replace: -W-xxW- -${1}- ["pi","a"] 1\.5\+x
sha: ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad a9993e364706816aba3e25717850c26c9cd0d89d 300286872
dig: found none [1,3]
split: b {"_0":"a","_1":"b.c"} el ["a","b","c"]
toml: "name = \"x\"\n\n[mast]\n  sail = \"white\"\n"
must: 1 2 true false
"#;
    assert!(run.stdout.ends_with(want), "{}", run.stdout);
    for (func, why) in [
        ("now", "reads the clock"),
        ("randAlphaNum 8", "random data"),
    ] {
        let (_tmp, dir) = chart(
            "helm-refused-func",
            &[
                ("Chart.yaml", "apiVersion: v2\nname: c\nversion: 0.1.0\n"),
                ("templates/f.yaml", &format!("x: {{{{ {func} }}}}\n")),
            ],
        );
        let run = common::run_tailor(&["helm", "template", dir.to_str().unwrap()], "");
        assert_eq!(run.code, 1);
        assert!(run.stderr.contains(why), "{}", run.stderr);
    }
}
