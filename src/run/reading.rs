//! How the items of a ResourceList are read, decided by the plan of the functionConfig read
//! ahead of them (kpt and kustomize write it last).

use std::sync::Arc;

use tailor_yaml::ParseOptions;

use crate::config::{self, Ahead, Plan, Tailoring};
use crate::stages::strip::Strip;
use crate::stages::Stage;
use tailor_kio::read::{function_config_ahead, read_input_or_back, Input, Prepared, Trees, Unread};
use tailor_kio::resource::HeaderKeys;
use tailor_kio::write::{ListSyntax, Rendering};
use tailor_kio::{read_input, Resource};

use super::streaming::{stream_hook, stream_steps, Step};

/// How the items of a ResourceList are read (see [`Ahead::reading`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reading {
    /// Every item keeps its tree.
    Keep,
    /// Trees are dropped as items are read and built again for the objects a stage reads.
    Defer,
    /// The plan's first stage (the built-in strip) runs on each object as it is read.
    Strip,
    /// Every stage that changes objects one by one runs on each object as it is read, and an
    /// object they changed is held as its output text ([`stream_steps`]).
    Stream,
}

/// The functionConfig of `text`, read ahead of its items, with the plan it asks for.
pub fn read_ahead(text: &str) -> Option<Ahead> {
    let (fc, offset) = function_config_ahead(text)?;
    let span = (
        offset + fc.span.start as usize,
        offset + fc.span.end as usize,
    );
    let mut plan = config::parse(Some(&fc));
    if let Ok(plan) = &mut plan {
        // Its own item, if the host passes it as one, is never changed as it is read.
        plan.own_config = tailor_kio::host::OwnConfig::of(&fc);
    }
    Some(Ahead { plan, span })
}

impl Ahead {
    /// When the plan has no stage that reads every object, the items' trees are deferred: only
    /// the objects a stage looks into are parsed again, and a large list is held as its text.
    /// When every stage that reads every object treats them one by one, they all run as
    /// objects are read, and what they change is held as text ([`stream_steps`]). Else, when
    /// its first stage can run as objects are read (the built-in strip), it does, so what it
    /// removes (managedFields, status) never accumulates. The guess costs time when
    /// wrong, never a different output: deferred trees are rebuilt exactly, and items are
    /// read again as they were when the run's functionConfig turns out to be another.
    pub fn reading(&self) -> Reading {
        match &self.plan {
            Ok(plan) if !plan.reads_every_object() => Reading::Defer,
            Ok(plan) if stream_steps(plan).is_some() => Reading::Stream,
            Ok(plan) if plan.stage_at_read().is_some() => Reading::Strip,
            _ => Reading::Keep,
        }
    }
}

/// How the items of `text` are read: see [`Ahead::reading`].
pub fn item_reading(text: &str) -> Reading {
    read_ahead(text).map_or(Reading::Keep, |a| a.reading())
}

/// Reads `text` the way `reading` says, with what the plan read ahead (if any) declares: the
/// annotations deferred objects keep, the stage that runs as objects are read, and which items
/// the run consumes (those are never changed as they are read).
pub fn read_items(text: String, reading: Reading, ahead: Option<&Ahead>) -> Result<Input, Unread> {
    let opts = parse_options();
    let plan = ahead.and_then(|a| a.plan.as_ref().ok());
    match reading {
        Reading::Keep => read_input_or_back(text, &opts, Trees::Keep),
        Reading::Defer => {
            let keys = plan.map(Plan::header_annotations).unwrap_or_default();
            read_input_or_back(text, &opts, Trees::Defer(Arc::from(keys)))
        }
        Reading::Stream => match plan.and_then(|p| Some((p, stream_steps(p)?))) {
            Some((plan, steps)) => {
                let keys: HeaderKeys = Arc::from(plan.header_annotations());
                let mut hook = stream_hook(plan, steps);
                let input = read_input_or_back(
                    text,
                    &opts,
                    Trees::Prepare {
                        hook: &mut hook,
                        defer: Some(keys),
                        render: Some(Rendering::Item(ListSyntax::Yaml)),
                    },
                )?;
                if !input
                    .items
                    .iter()
                    .any(|i| super::inputs::may_consume(Some(plan), i))
                {
                    return Ok(input);
                }
                // An input of the run arrived among the items (a CustomTransform, an
                // inventory object): it may change what the stages do to every object, so
                // they run in the run, on the items as they were read.
                let Input { items, source, .. } = input;
                drop(items);
                let again = Arc::unwrap_or_clone(source);
                let fallback = if plan.stage_at_read().is_some() {
                    Reading::Strip
                } else {
                    Reading::Keep
                };
                read_items(again, fallback, ahead)
            }
            // Asked to stream without a plan that allows it: as the strip reads.
            None => read_items(text, Reading::Strip, ahead),
        },
        Reading::Strip => {
            // Asked to strip as it reads without a plan that does: the built-in strip, as a
            // plan without a functionConfig has it (the run reads again if the real one differs).
            let builtin = Strip {
                builtin: true,
                transforms: Vec::new(),
            };
            let stage: &dyn Stage<Tailoring> =
                plan.and_then(Plan::stage_at_read).unwrap_or(&builtin);
            let mut hook = at_read_hook(plan, stage);
            // When no later stage reads every object, an object the strip left as it was
            // keeps only its header: a pipeline that strips nothing (clean manifests from git)
            // is held as its text, not as trees.
            let defer = plan
                .filter(|p| !p.reads_every_object_after_read())
                .map(|p| Arc::from(p.header_annotations()));
            read_input_or_back(
                text,
                &opts,
                Trees::Prepare {
                    hook: &mut hook,
                    defer,
                    render: None,
                },
            )
        }
    }
}

/// `stage`'s work on each object as it is read ([`Stage::each`]), except on the items the
/// run may consume (`plan` is the one read ahead, if any): those are read as they are.
pub fn at_read_hook<'a>(
    plan: Option<&'a Plan>,
    stage: &'a dyn Stage<Tailoring>,
) -> impl FnMut(&mut Resource) -> Prepared + 'a {
    // The strip, the only stage that runs so, reads no option.
    let tailoring = Tailoring::default();
    move |item: &mut Resource| {
        if super::inputs::may_consume(plan, item) {
            return Prepared::Untouched;
        }
        match stage.each().and_then(|each| each.apply(item, &tailoring)) {
            Some(applied) => {
                item.set_read_results(stage.name(), applied.results, applied.done);
                if item.is_dirty() {
                    Prepared::Changed
                } else {
                    Prepared::Checked
                }
            }
            None => Prepared::Untouched,
        }
    }
}

/// What runs on each object as standalone mode reads it.
pub enum AtRead<'p> {
    /// The plan's first stage (the built-in strip), the only one that reads every object.
    Stage(&'p dyn Stage<Tailoring>),
    /// Every stage of the plan ([`stream_steps`]): an object they finish is held as the text
    /// the output writes for it.
    Steps(Vec<Step<'p>>),
}

impl<'p> AtRead<'p> {
    /// The hook that does it on each object of `plan`'s run.
    pub fn hook(&self, plan: &'p Plan) -> Box<dyn FnMut(&mut Resource) -> Prepared + 'p> {
        match self {
            AtRead::Stage(stage) => Box::new(at_read_hook(Some(plan), *stage)),
            AtRead::Steps(steps) => Box::new(stream_hook(plan, steps.clone())),
        }
    }

    /// Whether objects finished as they are read are held as their output text.
    pub fn renders(&self) -> bool {
        matches!(self, AtRead::Steps(_))
    }

    /// Whether every stage that runs as objects are read ran on `item`, reported nothing, and
    /// has nothing more to do with it.
    fn done_with(&self, item: &Resource) -> bool {
        let done = |stage: &dyn Stage<Tailoring>| item.finished_at_read(stage.name());
        match self {
            AtRead::Stage(stage) => done(*stage),
            AtRead::Steps(steps) => steps.iter().all(|step| match *step {
                Step::Runs(stage) => done(stage),
                Step::Passes(_) => true,
            }),
        }
    }
}

/// How standalone mode reads its files under `plan`: with trees dropped when no stage reads
/// every object; with every stage run as objects are read when the plan allows it
/// ([`stream_steps`]) and the output can write an object held as its text (`renders`); or
/// with the stage that runs as objects are read when it is the only one that reads every
/// object. Trees are dropped for the objects what ran left as they were; `None` keeps every
/// tree. `TAILOR_KEEP_TREES=1` keeps them anyway, to compare answers.
pub fn standalone_deferral(plan: &Plan, renders: bool) -> Option<(HeaderKeys, Option<AtRead<'_>>)> {
    if keeps_trees() {
        return None;
    }
    let keys: HeaderKeys = Arc::from(plan.header_annotations());
    if !plan.reads_every_object() {
        return Some((keys, None));
    }
    if let Some(steps) = stream_steps(plan).filter(|_| renders) {
        return Some((keys, Some(AtRead::Steps(steps))));
    }
    match plan.stage_at_read() {
        Some(stage) if !plan.reads_every_object_after_read() => {
            Some((keys, Some(AtRead::Stage(stage))))
        }
        _ => None,
    }
}

/// `TAILOR_KEEP_TREES=1`: every item keeps its tree however the configuration would let it
/// be read, in standalone mode and for a ResourceList, so the answers of both ways of reading
/// can be compared through the binary.
pub fn keeps_trees() -> bool {
    std::env::var_os("TAILOR_KEEP_TREES").is_some_and(|v| v == "1")
}

/// Whether no stage of `plan` can touch an object read in standalone mode any more, whatever
/// the other objects (`None` when the plan does not allow telling): its tree was dropped as it
/// was read ([`standalone_deferral`], with `at_read` what ran then), as it was or held as its
/// output text, it keeps no annotation a stage or the output decides on, it is not one the
/// run may consume nor left alone, and every stage that ran as it was read reported nothing
/// and has nothing more to do with it. The plan names no destination: the fan-out limit
/// counts every object for one.
pub fn passes_by<'a>(
    plan: &'a Plan,
    at_read: Option<&'a AtRead<'a>>,
) -> Option<impl FnMut(&Resource) -> bool + 'a> {
    if !plan.clusters.is_empty() {
        return None;
    }
    Some(move |item: &Resource| {
        item.is_deferred()
            && (!item.is_dirty() || item.rendered().is_some())
            && item.header_annotations_empty()
            && !item.is_meta_or_local()
            && !super::inputs::may_consume(Some(plan), item)
            && match at_read {
                Some(at_read) => at_read.done_with(item),
                None => !item.ran_at_read(),
            }
    })
}

/// Whether a run of `plan` may use items read with `reading`: stripped-as-read items need the
/// very plan that stripped them (`same_config`: the run's functionConfig is the one read
/// ahead).
pub fn reading_holds(reading: Reading, same_config: bool, plan: &Plan) -> bool {
    match reading {
        Reading::Keep | Reading::Defer => true,
        Reading::Strip => same_config && plan.stage_at_read().is_some(),
        Reading::Stream => same_config && stream_steps(plan).is_some(),
    }
}

/// Parse limits for every input.
pub fn parse_options() -> ParseOptions {
    ParseOptions::default()
}

/// Reads the original items again, for the "nothing half tailored" output of a failed run.
pub fn original_items(text: &str) -> Vec<Resource> {
    read_input(text, &parse_options())
        .map(|i| i.items)
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plan read ahead is the one that runs: the functionConfig the run reads sits where
    /// the read-ahead found it.
    #[test]
    fn the_functionconfig_read_ahead_is_the_one_read() {
        for text in [
            "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: a}\nfunctionConfig:\n  apiVersion: v1\n  kind: ConfigMap\n  data: {clusterName: x}\n",
            "kind: ResourceList\nfunctionConfig:\n  apiVersion: tailor.dev/v1alpha1\n  kind: Tailor\n  spec:\n    strip: {builtin: false}\n# a comment\nitems:\n- apiVersion: v1\n  kind: A\n  metadata: {name: a}\n",
            "kind: ResourceList\nitems: []\nfunctionConfig: {apiVersion: v1, kind: ConfigMap}\n",
            // JSON, on one line and pretty, a brace and a quote inside strings.
            r#"{"kind":"ResourceList","items":[{"apiVersion":"v1","kind":"A","metadata":{"name":"a"}}],"functionConfig":{"apiVersion":"tailor.dev/v1alpha1","kind":"Tailor","metadata":{"name":"}\"{"},"spec":{"strip":{"builtin":false}}}}"#,
            "{\n  \"kind\": \"ResourceList\",\n  \"items\": [],\n  \"functionConfig\" : {\n    \"apiVersion\": \"v1\",\n    \"kind\": \"ConfigMap\"\n  }\n}\n",
        ] {
            let ahead = read_ahead(text).expect("read ahead");
            let input = read_input(text, &parse_options()).unwrap();
            assert!(ahead.is_for(input.function_config.as_ref()), "{text}");
        }
        // Not the functionConfig: a quoted scalar holding the key.
        let text = "kind: ResourceList\nitems:\n- apiVersion: v1\n  kind: A\n  metadata: {name: a}\n  x: \"a\nfunctionConfig: {\"\n";
        let input = read_input(text, &parse_options()).unwrap();
        assert!(read_ahead(text).is_none_or(|a| !a.is_for(input.function_config.as_ref())));
        // Nor in JSON (a JSON string cannot hold the key, a single-quoted flow scalar can), nor
        // an item's own key.
        for text in [
            r#"{"kind":"ResourceList","functionConfig":{"apiVersion":"v1","kind":"ConfigMap"},"items":[{"apiVersion":"v1","kind":"A","metadata":{"name":"a","annotations":{"x":'"functionConfig": {}'}}}]}"#,
            r#"{"kind":"ResourceList","functionConfig":{"apiVersion":"v1","kind":"ConfigMap"},"items":[{"apiVersion":"v1","kind":"A","metadata":{"name":"a"},"functionConfig":{"kind":"B"}}]}"#,
        ] {
            let input = read_input(text, &parse_options()).unwrap();
            assert!(read_ahead(text).is_some_and(|a| !a.is_for(input.function_config.as_ref())));
        }
        assert!(read_ahead(r#"{"kind":"ResourceList","functionConfig":{"kind":"#).is_none());
    }

    /// A JSON list is read as a YAML one is: its items' trees dropped when no stage reads
    /// every object, stripped as they are read under the built-in strip.
    #[test]
    fn json_lists_defer_and_strip_as_they_are_read() {
        let fc = |spec: &str| {
            format!(
                r#","functionConfig":{{"apiVersion":"tailor.dev/v1alpha1","kind":"Tailor","spec":{spec}}}}}"#
            )
        };
        // Pretty: on one line, the items within the first 4 KB keep their trees (the root
        // could still be a key).
        let items = "{\"kind\":\"ResourceList\",\"items\":[\n{\"apiVersion\":\"v1\",\"kind\":\"A\",\"metadata\":{\"name\":\"a\"},\"status\":{\"x\":1}},\n{\"apiVersion\":\"v1\",\"kind\":\"B\",\"metadata\":{\"name\":\"b\"}}]";
        let off = format!("{items}{}", fc(r#"{"strip":{"builtin":false}}"#));
        assert_eq!(item_reading(&off), Reading::Defer);
        let ahead = read_ahead(&off);
        let input = read_items(off.clone(), Reading::Defer, ahead.as_ref()).unwrap();
        assert!(input.json);
        assert!(input.items.iter().all(Resource::is_deferred));
        let on = format!("{items}{}", fc("{}"));
        assert_eq!(item_reading(&on), Reading::Stream);
        let ahead = read_ahead(&on);
        let input = read_items(on.clone(), Reading::Strip, ahead.as_ref()).unwrap();
        assert!(input.items[0].is_dirty() && !input.items[0].is_deferred());
        assert!(input.items[1].is_deferred());
        // Streamed, the stripped object is held as the JSON it is written as.
        let input = read_items(on.clone(), Reading::Stream, ahead.as_ref()).unwrap();
        assert_eq!(
            input.items[0].rendered(),
            Some((
                Rendering::Item(ListSyntax::Json),
                r#"{"apiVersion":"v1","kind":"A","metadata":{"name":"a"}}"#
            ))
        );
        assert!(input.items[1].is_deferred());
    }

    /// The items of `text` read as `reading`, and the answer of a run over them.
    fn read_and_answer(text: &str, reading: Reading) -> (Vec<Resource>, String) {
        let ahead = read_ahead(text);
        let items = read_items(text.to_string(), reading, ahead.as_ref())
            .unwrap()
            .items;
        let mut out = Vec::new();
        crate::run::resource_list::respond(text.to_string(), reading, &mut out);
        (items, String::from_utf8(out).unwrap())
    }

    /// Under commonMetadata and substitution with inline variables, after the built-in strip,
    /// each object is finished as it is read: held as its output text (YAML or JSON), or as
    /// its header when nothing changed it; the answer is the one every tree gives. An object
    /// the stages leave to the run (one that asks for templates, which come between) goes no
    /// further than the strip, and one that comes out asking for them is read again as it was.
    #[test]
    fn stages_run_as_objects_are_read_and_finished_objects_are_text() {
        let spec = "  spec:\n    postBuild: {substitute: {region: eu}}\n    commonMetadata:\n      labels: {team: a}\n";
        let yaml = format!("kind: ResourceList\nitems:\n# head\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n  data: {{r: '${{region}}'}}\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: t\n    annotations: {{control.kubestellar.io/expand-templates: 'true'}}\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: s\n    labels: {{team: a}}\n    annotations: {{kustomize.toolkit.fluxcd.io/substitute: disabled}}\nfunctionConfig:\n  apiVersion: tailor.dev/v1alpha1\n  kind: Tailor\n  metadata: {{name: t}}\n{spec}");
        assert_eq!(item_reading(&yaml), Reading::Stream);
        let (items, streamed) = read_and_answer(&yaml, Reading::Stream);
        assert!(items[0].rendered().is_some_and(
            |(r, t)| r == Rendering::Item(ListSyntax::Yaml) && t.starts_with("- # head\n")
        ));
        assert!(items[1].rendered().is_none() && items[1].is_deferred());
        assert!(items[1].read_results("strip").is_some());
        assert!(items[1].read_results("substitution").is_none());
        assert!(items[2].rendered().is_none() && items[2].is_deferred());
        assert_eq!(read_and_answer(&yaml, Reading::Keep).1, streamed);
        assert!(
            streamed.contains("r: 'eu'") || streamed.contains("r: eu"),
            "{streamed}"
        );
        let json = r#"{"kind":"ResourceList","items":[
{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"},"data":{"r":"${region}"}}],
"functionConfig":{"apiVersion":"tailor.dev/v1alpha1","kind":"Tailor","spec":{"commonMetadata":{"labels":{"team":"a"}}}}}"#;
        let (items, streamed) = read_and_answer(json, Reading::Stream);
        assert!(items[0].rendered().is_some_and(|(_, t)| t.starts_with('{')));
        assert_eq!(read_and_answer(json, Reading::Keep).1, streamed);
        // commonMetadata adds the annotation templates look for: templates run before it, on
        // the object as it was then, so the object is read again and left to the run.
        let adds = yaml.replace(
            "      labels: {team: a}\n",
            "      annotations: {control.kubestellar.io/expand-templates: 'true'}\n",
        );
        let (items, streamed) = read_and_answer(&adds, Reading::Stream);
        assert!(items.iter().all(|i| i.rendered().is_none()));
        assert!(!items[0].ran_at_read());
        assert_eq!(read_and_answer(&adds, Reading::Keep).1, streamed);
    }
}
