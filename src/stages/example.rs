//! What each stage's example test (the `example` module beside the stage) runs it with: the
//! objects of a YAML stream, the stage built as a value, the objects written out, as
//! kustomize's `example_test.go` beside each filter does.

use serde_json::{json, Value};
use tailor_cluster::Cluster;
use tailor_flux::overlay::Overlay;
use tailor_kio::{read_input, write::write_stream};

use super::{Context, Destination, Log, Stage, Tailoring, TargetFields};

/// What a stage runs with besides the objects.
#[derive(Default)]
pub struct Setup {
    pub cluster: Option<Cluster>,
    pub tailoring: Tailoring,
}

/// Runs `stage` on the objects of `input` (a YAML stream): the objects as it leaves them,
/// written as a stream (untouched ones verbatim), and its results as kpt prints them.
pub fn run_stage(
    stage: &dyn Stage<Tailoring>,
    input: &str,
    setup: &Setup,
) -> (String, Vec<String>) {
    let mut items = read_input(input, &tailor_kio::reading::parse_options())
        .expect("the example input reads")
        .items;
    let mut results = Vec::new();
    let mut state = stage.fork(&[], &mut results);
    let mut ctx = Context {
        destination: setup.cluster.as_ref().map(|cluster| Destination {
            cluster,
            more: false,
        }),
        options: &setup.tailoring,
        inputs: &[],
        log: Log::new(&mut results, None),
        state: state.as_mut(),
    };
    stage.run(&mut items, &mut ctx);
    let results = results.iter().map(|r| r.summary_line()).collect();
    (write_stream(&items), results)
}

/// The destination `virgo`, as an inline `spec.cluster`.
pub fn virgo(labels: Value, properties: Value) -> Option<Cluster> {
    let spec = json!({"name": "virgo", "labels": labels, "properties": properties});
    Some(Cluster::from_json(&spec, "spec.cluster").unwrap())
}

/// The Flux overlay fields and replacements of a `Tailor` spec written as `fields`.
pub fn tailoring(fields: Value) -> Tailoring {
    let overlay = Overlay::read(fields.as_object().unwrap(), "spec").unwrap();
    Tailoring {
        extra: TargetFields(overlay),
        ..Tailoring::default()
    }
}
