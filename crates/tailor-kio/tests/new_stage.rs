//! A stage the pipeline has never heard of streams as soon as it says it can: a job of one
//! per-object stage, written here outside the crate, is run on each object as it is read (its
//! output held as text) with no change to the pipeline, and gives the same answer as a run
//! that keeps every tree. This is what adding a streaming stage to tailor costs: the stage,
//! and the line of the plan that lists it.

use tailor_cluster::Cluster;
use tailor_kio::job::{Check, Settings};
use tailor_kio::pipeline::{Applied, Apply, Context, Declaration, Scope, Stage};
use tailor_kio::reading::{item_reading, read_ahead, read_items, Reading};
use tailor_kio::run::{respond, Destinations};
use tailor_kio::{Job, KrmResult, Resource};
use tailor_yaml::Node;

/// Marks every object it tailors.
struct Mark;

const KEY: &str = "example.com/marked";

impl Stage<()> for Mark {
    fn declares(&self) -> Declaration {
        Declaration::new("mark", Scope::SharedEach)
    }
    fn run(&self, items: &mut Vec<Resource>, ctx: &mut Context<'_, ()>) {
        for item in items.iter_mut().filter(|i| !i.is_left_alone()) {
            match ctx.log.take_read(item) {
                Some(results) => ctx.log.results.extend(results),
                None => {
                    let _ = self.apply(item, ctx.options);
                }
            }
        }
    }
    fn each(&self) -> Option<&dyn Apply<()>> {
        Some(self)
    }
}

impl Apply<()> for Mark {
    fn apply(&self, item: &mut Resource, _: &()) -> Option<Applied> {
        item.set_annotation(KEY, "yes");
        Some(Applied {
            results: Vec::new(),
            done: true,
        })
    }
}

/// A job of the one stage, whatever the functionConfig.
struct MarkAll(Vec<Box<dyn Stage<()>>>);

fn parse(_: Option<&Node>) -> Result<MarkAll, Vec<KrmResult>> {
    Ok(MarkAll(vec![Box::new(Mark)]))
}

impl Job for MarkAll {
    type Options = ();
    fn stages(&self) -> &[Box<dyn Stage<()>>] {
        &self.0
    }
    fn settings(&self) -> Settings<'_> {
        Settings {
            clusters: &[],
            fan_out: false,
            max_fan_out_items: usize::MAX,
            max_held_output_bytes: None,
            notes: &[],
            strict: false,
            empty_shard: None,
            explain: false,
        }
    }
    fn shared_options(&self) {}
    fn options_vary(&self) -> bool {
        false
    }
    fn options_for(&self, _: Option<&Cluster>, _: &mut Vec<KrmResult>) -> Option<()> {
        Some(())
    }
    fn check_destinations(&self, _: &Destinations<'_>, _: &mut Vec<KrmResult>) {}
    fn explain_choice(&self, _: &Cluster, _: &mut String) -> bool {
        true
    }
    fn in_place_refusal(&self, _: Check<'_>) -> Option<KrmResult> {
        None
    }
}

const LIST: &str = "kind: ResourceList\nitems:\n# kept\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n  data: {k: v}\n- apiVersion: v1\n  kind: Secret\n  metadata: {name: b}\nfunctionConfig:\n  apiVersion: example.com/v1\n  kind: Mark\n";

fn answer(reading: Reading) -> (i32, String) {
    let mut out = Vec::new();
    let code = respond(LIST.to_string(), parse, reading, &mut out).code;
    (code, String::from_utf8(out).expect("UTF-8"))
}

#[test]
fn a_per_object_stage_runs_as_objects_are_read() {
    assert_eq!(item_reading(LIST, parse), Reading::Stream);
    let ahead = read_ahead(LIST, parse);
    let input = read_items(LIST.to_string(), Reading::Stream, ahead.as_ref()).expect("read");
    // Each object was marked as it was read and is held as the text the output writes.
    for item in &input.items {
        let (_, text) = item.rendered().expect("held as its output text");
        assert!(text.contains("example.com/marked: 'yes'"), "{text}");
    }
    let streamed = answer(Reading::Stream);
    assert_eq!(streamed, answer(Reading::Keep));
    assert_eq!(streamed.0, 0);
    assert!(streamed.1.contains("# kept\n"), "{}", streamed.1);
    assert_eq!(streamed.1.matches("example.com/marked: 'yes'").count(), 2);
}
