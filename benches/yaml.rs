//! The YAML front end alone: parse and emit throughput on a cluster export and on the
//! real-world corpus (kube-prometheus has 1 MB dashboards in block scalars).
//! Run: `cargo bench --bench yaml`.

mod common;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use tailor_bench::{exported_objects, stream};
use tailor_yaml::{emit_document, parse_stream, EmitOptions};

fn emit_all(docs: &[tailor_yaml::Document]) -> usize {
    docs.iter()
        .map(|d| {
            emit_document(
                d,
                EmitOptions {
                    wide_sequences: d.wide_sequences,
                },
            )
            .len()
        })
        .sum()
}

fn inputs() -> Vec<(String, String)> {
    let mut out = vec![(
        "exported_3000".to_string(),
        stream(&exported_objects(3_000)),
    )];
    if let Some(dir) = common::corpus_dir() {
        out.extend(common::corpus_streams(&dir));
    }
    out
}

fn yaml(c: &mut Criterion) {
    let inputs = inputs();
    let mut g = c.benchmark_group("yaml_parse");
    g.sample_size(20);
    for (name, text) in &inputs {
        g.throughput(Throughput::Bytes(text.len() as u64));
        g.bench_with_input(BenchmarkId::from_parameter(name), text, |b, t| {
            b.iter(|| parse_stream(t).expect("parses").len())
        });
    }
    g.finish();
    let mut g = c.benchmark_group("yaml_emit");
    g.sample_size(20);
    for (name, text) in &inputs {
        let docs = parse_stream(text).expect("parses");
        g.throughput(Throughput::Bytes(text.len() as u64));
        g.bench_with_input(BenchmarkId::from_parameter(name), &docs, |b, d| {
            b.iter(|| emit_all(d))
        });
    }
    g.finish();
}

criterion_group!(benches, yaml);
criterion_main!(benches);
