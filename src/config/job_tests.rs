//! The reading policy and the run, with real plans: what `tailor_kio::reading` decides from a
//! plan's declarations, and a fan-out whose stage panics.

use tailor_kio::reading::{parse_options, read_items, Ahead, Reading};
use tailor_kio::write::{ListSyntax, Rendering};
use tailor_kio::{read_input, Resource};

use crate::config::{parse, Plan};

fn read_ahead(text: &str) -> Option<Ahead<Plan>> {
    tailor_kio::reading::read_ahead(text, parse)
}

fn item_reading(text: &str) -> Reading {
    read_ahead(text).map_or(Reading::Keep, |a| a.reading())
}

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
    tailor_kio::run::respond(text.to_string(), parse, reading, &mut out);
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
    let plan = read_ahead(&yaml).and_then(|a| a.job.ok()).expect("a plan");
    let at = |name: &str| {
        plan.stages
            .iter()
            .position(|s| s.declares().name == name)
            .unwrap()
    };
    assert!(items[1].read_results(at("strip")).is_some());
    assert!(items[1].read_results(at("substitution")).is_none());
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

mod fan_out {
    use tailor_kio::host::Guest;
    use tailor_kio::run::process;
    use tailor_kio::Resource;

    use crate::stages::{Context, Declaration, Scope, Stage, Tailoring};

    /// A stage with a bug: it panics for the destination named "boom".
    struct Buggy;

    impl Stage<Tailoring> for Buggy {
        fn declares(&self) -> Declaration {
            Declaration::new("buggy", Scope::PerDestination)
        }
        fn run(&self, _: &mut Vec<Resource>, ctx: &mut Context<'_>) {
            if ctx.cluster().is_some_and(|c| c.name == "boom") {
                panic!("a bug");
            }
        }
    }

    #[test]
    fn a_destination_that_panics_is_an_error_naming_it() {
        let text = "apiVersion: tailor.dev/v1alpha1\nkind: Tailor\nmetadata: {name: t}\nspec:\n  clusters: [{name: a}, {name: boom}, {name: c}]\n";
        let fc = tailor_yaml::parse_stream(text).unwrap().remove(0).root;
        let mut plan = crate::config::parse(Some(&fc)).unwrap_or_else(|r| panic!("{r:?}"));
        plan.stages.push(Box::new(Buggy));
        let list = "kind: ResourceList\nitems:\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: cm}}\n";
        let items = tailor_kio::read_input(list, &tailor_yaml::ParseOptions::default())
            .unwrap()
            .items;
        let outcome = process(items, &plan, &Guest::default());
        assert!(outcome.failed);
        assert!(outcome.items.is_empty());
        let errors: Vec<&str> = outcome
            .results
            .iter()
            .filter(|r| r.is_error())
            .map(|r| r.message.as_str())
            .collect();
        assert_eq!(
            errors,
            ["cluster \"boom\": tailoring it failed inside tailor (a bug): this is a bug in tailor, please report it with the input; nothing was written"]
        );
    }
}

/// Which destinations of a real plan share a rendering: those its target customizations treat
/// alike, unless a stage reads more of the cluster (templates after a stage that writes may
/// read any property).
mod renderings {
    use tailor_cluster::Inventory;
    use tailor_kio::renderings::same_rendering;
    use tailor_kio::run::Destinations;

    fn plan(extra: &str) -> crate::config::Plan {
        let text = format!(
            "apiVersion: tailor.dev/v1alpha1\nkind: Tailor\nmetadata: {{name: t}}\nspec:\n  clusters:\n  - {{name: a, labels: {{env: dev}}}}\n  - {{name: b, labels: {{env: prod}}}}\n  - {{name: c, labels: {{env: dev}}}}\n  - {{name: d, labels: {{env: test}}}}\n  - {{name: e, labels: {{env: test}}}}\n  targetCustomizations:\n  - {{name: prod, clusterSelector: {{matchLabels: {{env: prod}}}}, namespace: prod}}\n  - {{name: test, clusterSelector: {{matchLabels: {{env: test}}}}, doNotDeploy: true}}\n{extra}"
        );
        let fc = tailor_yaml::parse_stream(&text).unwrap().remove(0).root;
        crate::config::parse(Some(&fc)).unwrap_or_else(|r| panic!("{r:?}"))
    }

    #[test]
    fn destinations_the_customizations_treat_alike_share_a_rendering() {
        let plan = plan("  templates: {enabled: false}\n");
        let clusters = Destinations::new(&plan.clusters, Inventory::default());
        assert_eq!(same_rendering(&plan, &clusters, &[]), [0, 1, 0, 3, 3]);
        let plan = self::plan("  templates: {enabled: true}\n");
        let clusters = Destinations::new(&plan.clusters, Inventory::default());
        assert_eq!(same_rendering(&plan, &clusters, &[]), [0, 1, 2, 3, 4]);
    }
}
