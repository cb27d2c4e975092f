//! Rendering a 50-template chart: parsed once ([`tailor_helm::prepare`]), then rendered per
//! cluster with that cluster's values, as Fleet would per destination.
//! `cargo bench -p tailor-helm --bench render`.

use criterion::{criterion_group, criterion_main, Criterion};
use serde_json::{json, Map, Value};
use tailor_helm::chart::load_files;
use tailor_helm::Options;

const HELPERS: &str = r#"{{- define "app.fullname" -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- define "app.labels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}
"#;

/// A Deployment template of the shape charts commonly have: helpers, toYaml, range, if.
fn deployment(i: usize) -> String {
    format!(
        r#"apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{{{ include "app.fullname" . }}}}-{i}
  labels:
    {{{{- include "app.labels" . | nindent 4 }}}}
spec:
  replicas: {{{{ .Values.replicas }}}}
  template:
    spec:
      containers:
      - name: c{i}
        image: "{{{{ .Values.image.repository }}}}:{{{{ .Values.image.tag | default .Chart.AppVersion }}}}"
        env:
        {{{{- range $k, $v := .Values.env }}}}
        - name: {{{{ $k }}}}
          value: {{{{ $v | quote }}}}
        {{{{- end }}}}
        {{{{- if .Values.resources }}}}
        resources:
          {{{{- toYaml .Values.resources | nindent 10 }}}}
        {{{{- end }}}}
"#
    )
}

fn chart() -> tailor_helm::Chart {
    let mut files = vec![
        ("Chart.yaml".to_string(), b"apiVersion: v2\nname: app\nversion: 1.0.0\nappVersion: 2.0.0\n".to_vec()),
        (
            "values.yaml".to_string(),
            b"replicas: 2\nimage:\n  repository: nginx\n  tag: ''\nenv:\n  A: a\n  B: b\nresources:\n  limits:\n    cpu: 100m\n".to_vec(),
        ),
        ("templates/_helpers.tpl".to_string(), HELPERS.as_bytes().to_vec()),
    ];
    for i in 0..50 {
        files.push((
            format!("templates/deploy-{i:02}.yaml"),
            deployment(i).into_bytes(),
        ));
    }
    load_files("bench", files).expect("chart")
}

fn cluster_values(n: usize) -> Map<String, Value> {
    match json!({"replicas": n % 5 + 1, "env": {"CLUSTER": format!("cluster-{n}")}}) {
        Value::Object(m) => m,
        _ => Map::new(),
    }
}

fn bench(c: &mut Criterion) {
    let engine = tailor_helm::prepare(chart()).expect("prepare");
    let opts = Options::default();
    c.bench_function("helm prepare (parse 50 templates)", |b| {
        b.iter(|| tailor_helm::prepare(chart()).expect("prepare"))
    });
    c.bench_function("helm render 50 templates, one cluster", |b| {
        let values = cluster_values(1);
        b.iter(|| engine.render(&values, &opts).expect("render"))
    });
    let mut g = c.benchmark_group("helm render 50 templates");
    g.sample_size(10);
    g.bench_function("100 clusters", |b| {
        b.iter(|| {
            for n in 0..100 {
                engine.render(&cluster_values(n), &opts).expect("render");
            }
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
