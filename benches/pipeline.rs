//! End-to-end benchmarks of tailor on generated cluster exports and the real-world corpus.
//! Run: `cargo bench --bench pipeline` (all groups) or `scripts/bench.sh` (both suites).
//! `TAILOR_BENCH_MAX_N=10000` caps the scaling groups; `TAILOR_CORPUS` points at the corpus.

mod common;

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use tailor_bench::{
    fan_out_config, fleet_helm_bundle, full_pipeline_config, noop_config, replacement_pairs,
    resource_list, small_dir, small_list, Shape, FULL_PIPELINE_STAGES,
};

use common::{corpus_dir, corpus_streams, max_n, run_function, sizes};

/// The full `Tailor` pipeline (FULL_PIPELINE_STAGES) over N exported objects.
fn full_pipeline(c: &mut Criterion) {
    let mut g = c.benchmark_group("full_pipeline");
    g.sample_size(10).warm_up_time(Duration::from_secs(1));
    for n in sizes() {
        let (items, cfg) = full_pipeline_config(n, FULL_PIPELINE_STAGES);
        let text = resource_list(&items, &cfg);
        g.throughput(Throughput::Bytes(text.len() as u64));
        g.bench_with_input(BenchmarkId::from_parameter(n), &text, |b, t| {
            b.iter(|| run_function(t))
        });
    }
    g.finish();
}

/// Two replacements copying ConfigMap data into every Deployment of N pairs.
fn replacements(c: &mut Criterion) {
    let mut g = c.benchmark_group("replacements_pairs");
    g.sample_size(10);
    for n in [2_000, 6_000] {
        let (items, repl) = replacement_pairs(n);
        let cfg = format!("apiVersion: fn.kpt.dev/v1alpha1\nkind: ApplyReplacements\nmetadata:\n  name: pairs\nreplacements:\n{repl}");
        let text = resource_list(&items, &cfg);
        g.bench_with_input(BenchmarkId::from_parameter(n), &text, |b, t| {
            b.iter(|| run_function(t))
        });
    }
    g.finish();
}

/// kustomize's strategic merge (the `patches` of a `Tailor`) on a Deployment whose container
/// has N `ports`, one in three with a `protocol` (merge keys `containerPort` and `protocol`, so
/// the list is not regular), patched on `replicas` only (issue 26: growth at most 9x from
/// 1,000 to 8,000).
fn strategic_merge_irregular(c: &mut Criterion) {
    let mut g = c.benchmark_group("strategic_merge_irregular_ports");
    g.sample_size(10);
    let cfg = "apiVersion: tailor.dev/v1alpha1\nkind: Tailor\nmetadata: {name: t}\nspec:\n  patches:\n  - patch: |\n      apiVersion: apps/v1\n      kind: Deployment\n      metadata: {name: web}\n      spec: {replicas: 3}\n";
    for n in [1_000, 8_000] {
        let mut d = String::from("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 1\n  template:\n    spec:\n      containers:\n      - name: web\n        image: nginx\n        ports:\n");
        for i in 0..n {
            d += &format!("        - containerPort: {i}\n");
            if i % 3 == 0 {
                d += "          protocol: TCP\n";
            }
        }
        let text = resource_list(&[d], cfg);
        g.bench_with_input(BenchmarkId::from_parameter(n), &text, |b, t| {
            b.iter(|| run_function(t))
        });
    }
    g.finish();
}

/// A pass that changes nothing over 10,000 exported Deployments (about 60 MB).
fn noop(c: &mut Criterion) {
    let mut g = c.benchmark_group("noop_deployments");
    g.sample_size(10);
    let n = 10_000.min(*sizes().last().unwrap_or(&10_000));
    let (items, cfg) = noop_config(n);
    let text = resource_list(&items, &cfg);
    g.throughput(Throughput::Bytes(text.len() as u64));
    g.bench_with_input(BenchmarkId::from_parameter(n), &text, |b, t| {
        b.iter(|| run_function(t))
    });
    g.finish();
}

/// 1,000 exported objects tailored for 100 clusters (spec.clusters).
fn fan_out(c: &mut Criterion) {
    let mut g = c.benchmark_group("fan_out");
    g.sample_size(10);
    let (items, cfg) = fan_out_config(1_000, 100, FULL_PIPELINE_STAGES);
    let text = resource_list(&items, &cfg);
    g.bench_with_input(BenchmarkId::from_parameter("1000x100"), &text, |b, t| {
        b.iter(|| run_function(t))
    });
    g.finish();
}

/// The release-independent binary as kpt runs it: process start-up plus a 1-object list.
fn startup(c: &mut Criterion) {
    let exe = env!("CARGO_BIN_EXE_tailor");
    let (items, cfg) = full_pipeline_config(1, FULL_PIPELINE_STAGES);
    let text = resource_list(&items, &cfg);
    c.bench_function("startup_one_object", |b| {
        b.iter(|| {
            let mut child = Command::new(exe)
                .stdin(Stdio::piped())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("tailor starts");
            if let Some(mut stdin) = child.stdin.take() {
                stdin.write_all(text.as_bytes()).expect("write stdin");
            }
            assert!(child.wait().expect("tailor exits").success());
        })
    });
}

/// The real-world projects (kube-prometheus, podinfo, ...) as one stream each, through the
/// default strip pass. Skipped with a message when the corpus is absent.
fn corpus(c: &mut Criterion) {
    let Some(dir) = corpus_dir() else {
        return;
    };
    let mut g = c.benchmark_group("corpus_strip");
    g.sample_size(10);
    for (name, text) in corpus_streams(&dir) {
        g.throughput(Throughput::Bytes(text.len() as u64));
        g.bench_with_input(BenchmarkId::from_parameter(&name), &text, |b, t| {
            b.iter(|| run_function(t))
        });
    }
    g.finish();
}

/// Object counts of the small-object groups: 4,000 and 32,000 (issue 19's growth step), capped
/// by `TAILOR_BENCH_MAX_N`.
fn small_sizes() -> Vec<usize> {
    let cap = max_n();
    [4_000, 32_000].into_iter().filter(|&n| n <= cap).collect()
}

/// The pass that changes nothing over ordinary small manifests (a Deployment and a Service per
/// app, ~430 bytes each) in every shape a ResourceList comes in: block items, flow items, one
/// line of JSON, indented JSON, and the objects as the API server serves them written by PyYAML. `scripts/bench-shapes.sh` measures the same with peak memory
/// and kpt beside it.
fn small_objects(c: &mut Criterion) {
    let mut g = c.benchmark_group("small_objects");
    g.sample_size(10);
    for (name, shape) in [
        ("block", Shape::Block),
        ("flow", Shape::Flow),
        ("json_line", Shape::JsonLine),
        ("json_pretty", Shape::JsonPretty),
        ("pyyaml", Shape::PyYaml),
    ] {
        for n in small_sizes() {
            let text = small_list(shape, n);
            g.throughput(Throughput::Bytes(text.len() as u64));
            g.bench_with_input(BenchmarkId::new(name, n), &text, |b, t| {
                b.iter(|| run_function(t))
            });
        }
    }
    g.finish();
}

/// Standalone mode over a directory of the same objects (two per file), written as a stream:
/// the binary, as a user runs it (files are read from disk on every run).
fn standalone_dir(c: &mut Criterion) {
    let exe = env!("CARGO_BIN_EXE_tailor");
    let mut g = c.benchmark_group("standalone_dir");
    g.sample_size(10);
    for n in small_sizes() {
        let dir = std::env::temp_dir().join(format!("tailor-bench-dir-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        small_dir(n, &dir, false).expect("write the package");
        let (config, manifests) = (dir.join("tailor.yaml"), dir.join("manifests"));
        g.bench_function(BenchmarkId::from_parameter(n), |b| {
            b.iter(|| run_quiet(exe, &config, &manifests))
        });
        let _ = std::fs::remove_dir_all(&dir);
    }
    g.finish();
}

/// One standalone run of `exe` on `config` and `input`, its output discarded; it must succeed.
fn run_quiet(exe: &str, config: &std::path::Path, input: &std::path::Path) {
    let status = Command::new(exe)
        .arg(config)
        .arg(input)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("tailor runs");
    assert!(status.success());
}

/// A Fleet Helm bundle (issue 28): a 50-template chart rendered per cluster through the binary,
/// at two cluster counts (`scripts/bench-shapes.sh` takes it to 1,000).
fn fleet_helm(c: &mut Criterion) {
    let exe = env!("CARGO_BIN_EXE_tailor");
    let mut g = c.benchmark_group("fleet_helm_50_templates");
    g.sample_size(10);
    for clusters in [10, 100] {
        let dir = std::env::temp_dir().join(format!(
            "tailor-bench-fleet-helm-{}-{clusters}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        fleet_helm_bundle(50, clusters, &dir).expect("write the bundle");
        let (config, bundle) = (dir.join("tailor.yaml"), dir.join("bundle"));
        g.throughput(Throughput::Elements(clusters as u64));
        g.bench_function(BenchmarkId::from_parameter(clusters), |b| {
            b.iter(|| run_quiet(exe, &config, &bundle))
        });
        let _ = std::fs::remove_dir_all(&dir);
    }
    g.finish();
}

criterion_group!(
    benches,
    fleet_helm,
    startup,
    replacements,
    strategic_merge_irregular,
    noop,
    small_objects,
    standalone_dir,
    full_pipeline,
    fan_out,
    corpus
);
criterion_main!(benches);
