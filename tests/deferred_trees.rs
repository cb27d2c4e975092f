//! Items whose trees are deferred (dropped as they are read, parsed again when a stage reads
//! them) or stripped as they are read give the same answer as items that keep their trees,
//! whatever the stages do; and the reader picks each only when the functionConfig allows it.

mod common;

use tailor::item_reading;
use tailor_bench::{
    fan_out_config, full_pipeline_config, noop_config, replacement_pairs, resource_list,
    FULL_PIPELINE_STAGES,
};
use tailor_kio::reading::Reading;

#[test]
fn every_stage_alone_and_together() {
    for stage in FULL_PIPELINE_STAGES {
        let (items, config) = full_pipeline_config(9, &[*stage]);
        let (code, _) = common::same_answer_every_reading(
            &format!("{stage:?}"),
            &resource_list(&items, &config),
        );
        assert_eq!(code, 0, "{stage:?}");
    }
    let (items, config) = full_pipeline_config(12, FULL_PIPELINE_STAGES);
    let (code, out) =
        common::same_answer_every_reading("full pipeline", &resource_list(&items, &config));
    assert_eq!(code, 0);
    assert!(out.contains("cluster-000"), "the stages ran:\n{out}");
    let (items, config) = fan_out_config(6, 3, FULL_PIPELINE_STAGES);
    assert_eq!(
        common::same_answer_every_reading("fan-out", &resource_list(&items, &config)).0,
        0
    );
    let (items, replacements) = replacement_pairs(7);
    let config = format!("apiVersion: fn.kpt.dev/v1alpha1\nkind: ApplyReplacements\nmetadata:\n  name: pairs\nreplacements:\n{replacements}");
    assert_eq!(
        common::same_answer_every_reading("pairs", &resource_list(&items, &config)).0,
        0
    );
    let (items, config) = noop_config(4);
    let text = resource_list(&items, &config);
    let (code, out) = common::same_answer_every_reading("no-op", &text);
    assert_eq!(code, 0);
    assert!(out.starts_with(&text[..text.find("functionConfig:").unwrap()]));
}

/// Items the reader cannot defer (indented, anchored, `*List` objects, scalars) and flow ones
/// mixed with ones it can, comments around them, and inputs that fail.
#[test]
fn mixed_items_and_failures() {
    let items = [
        "# head of a\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a # line\n  data:\n    k: |+\n      keep\n\n  # closes a\n",
        "- {apiVersion: v1, kind: ConfigMap, metadata: {name: flow}}\n",
        "- &anchored\n  apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: anchored\n",
        "- apiVersion: v1\n  kind: ConfigMapList\n  items:\n  - apiVersion: v1\n    kind: ConfigMap\n    metadata:\n      name: listed\n",
        "- apiVersion: apps/v1\n  kind: Deployment\n  metadata:\n    name: web\n    annotations:\n      control.kubestellar.io/expand-templates: \"true\"\n      note: '{{ .region }}'\n  spec:\n    replicas: 1\n",
        "- apiVersion: v1\n  kind: Secret\n  metadata:\n    name: s\n    uid: 1234\n    managedFields: []\n  status: {}\n",
        // The built-in strip warns about these (annotations that are not strings, a Service
        // spec that is not a mapping): the warnings must come out the same however items are
        // read.
        "- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: warned\n    uid: u\n    annotations:\n      n: 1\n",
        "- apiVersion: v1\n  kind: Service\n  metadata:\n    name: svc\n  spec: 3\n",
    ];
    let configs = [
        "",
        "functionConfig:\n  apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: fc}\n  data: {clusterName: virgo, region: eu}\n",
        "functionConfig:\n  apiVersion: tailor.dev/v1alpha1\n  kind: Tailor\n  metadata: {name: t}\n  spec:\n    strip: {builtin: false}\n",
        "functionConfig:\n  apiVersion: tailor.dev/v1alpha1\n  kind: Tailor\n  metadata: {name: t}\n  spec:\n    cluster: {name: virgo, labels: {region: eu}}\n    strip: {builtin: false}\n    images: [{name: nginx, newTag: '2'}]\n",
        "functionConfig:\n  apiVersion: tailor.dev/v1alpha1\n  kind: Tailor\n  metadata: {name: t}\n  spec:\n    clusters: [{name: a}, {name: b}]\n",
    ];
    for config in configs {
        let mut text =
            String::from("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n");
        for item in items {
            text.push_str(item);
        }
        text.push_str(config);
        let (_, out) = common::same_answer_every_reading(config, &text);
        if config.is_empty() {
            assert!(out.contains("not a mapping; not cleaned"), "{out}");
        }
        // The same items, the functionConfig first.
        if !config.is_empty() {
            let first = format!(
                "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\n{config}items:\n{}",
                items.concat()
            );
            common::same_answer_every_reading(config, &first);
        }
    }
    // Failures: a template without a destination, bad YAML after good items, a bad config.
    let failing = [
        format!(
            "kind: ResourceList\nitems:\n{}functionConfig:\n  apiVersion: tailor.dev/v1alpha1\n  kind: Tailor\n  spec:\n    strip: {{builtin: false}}\n",
            items[4]
        ),
        "kind: ResourceList\nitems:\n- kind: A\n- kind: B\n  x: [\n".to_string(),
        format!(
            "kind: ResourceList\nitems:\n{}functionConfig:\n  apiVersion: tailor.dev/v1alpha1\n  kind: Tailor\n  spec:\n    strip: {{builtin: 3}}\n",
            items[0]
        ),
    ];
    for text in &failing {
        assert_eq!(common::same_answer_every_reading(text, text).0, 1, "{text}");
    }
}

/// The real-world corpus, each file's objects as the items of a ResourceList, under each kind
/// of configuration.
#[test]
fn corpus() {
    let Some(shared) = common::shared_dir() else {
        eprintln!("SKIP corpus: ../shared is not beside the repository");
        return;
    };
    let configs = [
        String::new(),
        "apiVersion: tailor.dev/v1alpha1\nkind: Tailor\nmetadata:\n  name: t\nspec:\n  strip:\n    builtin: false\n".to_string(),
        "apiVersion: tailor.dev/v1alpha1\nkind: Tailor\nmetadata:\n  name: t\nspec:\n  cluster:\n    name: virgo\n  commonMetadata:\n    labels:\n      tier: x\n".to_string(),
    ];
    let files = tailor_kio::files::package_files(&shared.join("corpus/roundtrip"))
        .expect("corpus directory reads");
    assert!(!files.is_empty(), "no corpus files");
    for (f, _) in files {
        let text = std::fs::read_to_string(&f).expect("read");
        let Ok(docs) = tailor_yaml::parse_stream(&text) else {
            continue;
        };
        let items: Vec<String> = docs
            .iter()
            .filter(|d| !d.empty)
            .map(|d| text[d.span.start as usize..d.span.end as usize].to_string())
            .map(|d| d.trim_start_matches("---\n").to_string())
            .collect();
        for config in &configs {
            let list = if config.is_empty() {
                let mut l = resource_list(&items, "x: y");
                l.truncate(l.find("functionConfig:").unwrap());
                l
            } else {
                resource_list(&items, config)
            };
            common::same_answer_every_reading(&f.display().to_string(), &list);
        }
    }
}

/// Trees are deferred when the functionConfig, wherever it sits, reads no object; kept when a
/// stage reads every object, and when there is no functionConfig to tell.
#[test]
fn the_reader_defers_only_when_no_stage_reads_every_object() {
    let tailor = |spec: &str| {
        format!("kind: ResourceList\nitems:\n- kind: A\nfunctionConfig:\n  apiVersion: tailor.dev/v1alpha1\n  kind: Tailor\n  metadata: {{name: t}}\n  spec:\n{spec}")
    };
    let (items, config) = noop_config(2);
    assert_eq!(
        item_reading(&resource_list(&items, &config)),
        Reading::Defer
    );
    assert_eq!(
        item_reading(&tailor("    strip: {builtin: false}\n")),
        Reading::Defer
    );
    // Templates read only the objects annotated for them; one destination adds no path prefix.
    assert_eq!(
        item_reading(&tailor(
            "    strip: {builtin: false}\n    cluster: {name: virgo}\n"
        )),
        Reading::Defer
    );
    // A stage with nothing to do is not in the plan: no replacements read no object.
    assert_eq!(
        item_reading(&tailor(
            "    strip: {builtin: false}\n    replacements: []\n"
        )),
        Reading::Defer
    );
    let first = "kind: ResourceList\nfunctionConfig:\n  apiVersion: tailor.dev/v1alpha1\n  kind: Tailor\n  spec:\n    strip: {builtin: false}\n# a comment\nitems:\n- kind: A\n";
    assert_eq!(item_reading(first), Reading::Defer);
    for strips in [
        "    cluster: {name: virgo}\n    images: [{name: a, newTag: b}]\n",
        "    clusters: [{name: a}, {name: b}]\n    replacements: []\n",
        // Overlay files among the items are consumed, and the reader leaves consumed items as
        // they are: the strip may still run as objects are read.
        "    yaml: {overlays: [x]}\n",
    ] {
        assert_eq!(item_reading(&tailor(strips)), Reading::Strip, "{strips}");
    }
    // Every stage treats objects one by one with options all destinations share, or reads
    // only annotated objects: they all run as objects are read.
    for streams in [
        "    cluster: {name: virgo}\n",
        "    commonMetadata: {labels: {a: b}}\n",
        "    cluster: {name: virgo}\n    commonMetadata: {labels: {a: b}}\n",
        "    strip: {builtin: false}\n    postBuild: {substitute: {a: b}}\n",
        "    postBuild: {substitute: {a: b}}\n    commonMetadata: {annotations: {a: b}}\n",
    ] {
        assert_eq!(item_reading(&tailor(streams)), Reading::Stream, "{streams}");
    }
    for reads in [
        "    destinationSelectors: [{matchLabels: {a: b}}]\n",
        "    strip: {builtin: false}\n    clusters: [{name: a}, {name: b}]\n",
        "    strip: {builtin: false}\n    images: [{name: a, newTag: b}]\n",
        // Variables from a source among the items, or a destination's properties.
        "    strip: {builtin: false}\n    postBuild: {substituteFrom: [{kind: ConfigMap, name: v}]}\n",
        "    strip: {builtin: false}\n    cluster: {name: virgo}\n    postBuild: {substitute: {a: b}}\n",
        "    strip: {builtin: 7}\n",
    ] {
        assert_eq!(item_reading(&tailor(reads)), Reading::Keep, "{reads}");
    }
    assert_eq!(
        item_reading("kind: ResourceList\nitems:\n- kind: A\n"),
        Reading::Keep
    );
    // kpt's ConfigMap config strips, and expands templates on the objects that ask.
    assert_eq!(
        item_reading("kind: ResourceList\nitems: []\nfunctionConfig:\n  apiVersion: v1\n  kind: ConfigMap\n  data: {clusterName: a}\n"),
        Reading::Stream
    );
    // A line that only looks like the key (inside a quoted scalar) leads to no guess at all.
    assert_eq!(
        item_reading("kind: ResourceList\nitems:\n- kind: A\n  x: \"a\nfunctionConfig: {\"\n"),
        Reading::Keep
    );
}

/// Untouched objects keep their bytes through the binary too (the policy picks deferral here).
#[test]
fn the_binary_copies_deferred_items_verbatim() {
    let (items, config) = noop_config(3);
    let text = resource_list(&items, &config);
    let run = common::run_tailor(&[], &text);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let head = &text[..text.find("functionConfig:").unwrap()];
    assert!(run.stdout.starts_with(head), "{}", run.stdout);
}

/// `items` and `config` (YAML texts) as a JSON ResourceList, on one line or indented.
fn json_list(items: &[String], config: &str, pretty: bool) -> String {
    let json = |text: &str| {
        let docs = tailor_yaml::parse_stream(text).expect("YAML");
        docs[0].root.to_json().expect("JSON")
    };
    let list = serde_json::json!({
        "apiVersion": "config.kubernetes.io/v1",
        "kind": "ResourceList",
        "items": items.iter().map(|i| json(i)).collect::<Vec<_>>(),
        "functionConfig": json(config),
    });
    let mut text = if pretty {
        serde_json::to_string_pretty(&list)
    } else {
        serde_json::to_string(&list)
    }
    .expect("JSON text");
    text.push('\n');
    text
}

/// A JSON ResourceList, on one line (past its first 4 KB, where the root can no longer be a
/// key, items are handed over) and indented: deferred and stripped as read, every stage alone
/// and together, the answer is the one every tree gives, and the reader picks deferral or the
/// strip as it does for YAML.
#[test]
fn json_lists_every_stage() {
    for pretty in [false, true] {
        for stage in FULL_PIPELINE_STAGES {
            let (items, config) = full_pipeline_config(9, &[*stage]);
            let text = json_list(&items, &config, pretty);
            let (code, out) = common::same_answer_every_reading(&format!("{stage:?}"), &text);
            assert_eq!(code, 0, "{stage:?}");
            assert!(out.starts_with('{'), "{out}");
        }
        let (items, config) = full_pipeline_config(12, FULL_PIPELINE_STAGES);
        let text = json_list(&items, &config, pretty);
        assert_eq!(item_reading(&text), Reading::Strip);
        assert_eq!(common::same_answer_every_reading("full", &text).0, 0);
        let (items, config) = noop_config(6);
        let text = json_list(&items, &config, pretty);
        assert_eq!(item_reading(&text), Reading::Defer);
        let (code, out) = common::same_answer_every_reading("no-op", &text);
        assert_eq!(code, 0);
        if !pretty {
            // Copied verbatim: the items' text is the input's.
            let items_end = text.find(r#"],"functionConfig""#).unwrap();
            assert!(out.contains(&text[text.find(r#""items""#).unwrap()..items_end]));
        }
    }
}

/// Through the binary, `TAILOR_KEEP_TREES=1` against the reading the configuration picks: the
/// same bytes, exit code and messages for YAML and JSON lists (one line, indented) under
/// configurations that read every object one by one (commonMetadata, substitution with
/// inline variables, patches, each after the built-in strip or without it), that read none,
/// and that fail.
#[test]
fn the_binary_answers_as_with_every_tree() {
    let tailor = |spec: &str| {
        format!(
            "apiVersion: tailor.dev/v1alpha1\nkind: Tailor\nmetadata:\n  name: t\nspec:\n{spec}"
        )
    };
    let configs = [
        tailor("  strip: {builtin: false}\n"),
        tailor("  templates: {enabled: false}\n"),
        tailor("  commonMetadata:\n    labels: {team: a}\n    annotations: {owner: b}\n"),
        tailor("  strip: {builtin: false}\n  commonMetadata:\n    labels: {team: a}\n"),
        tailor("  postBuild:\n    substitute: {region: eu}\n  commonMetadata:\n    labels: {team: a}\n"),
        tailor("  strip: {builtin: false}\n  patches:\n  - target: {kind: Deployment}\n    patch: |\n      - {op: add, path: /spec/replicas, value: 3}\n  - target: {kind: NoSuchKind}\n    patch: |\n      - {op: add, path: /x, value: 1}\n"),
        // A warning made an error: the run fails and answers with the items as they were.
        tailor("  strict: true\n  patches:\n  - target: {kind: Deploymnt}\n    patch: |\n      - {op: add, path: /x, value: 1}\n"),
    ];
    let (items, _) = full_pipeline_config(14, &[]);
    let mut compared = 0;
    for config in &configs {
        for text in [
            resource_list(&items, config),
            json_list(&items, config, false),
            json_list(&items, config, true),
        ] {
            let kept = common::run_tailor_env(&[], &[("TAILOR_KEEP_TREES", "1")], &text);
            let read = common::run_tailor(&[], &text);
            assert_eq!(
                (kept.code, &kept.stdout, &kept.stderr),
                (read.code, &read.stdout, &read.stderr),
                "{config}\n{}",
                &text[..text.len().min(200)]
            );
            assert!(kept.code <= 1, "{}", kept.stderr);
            compared += 1;
        }
    }
    assert_eq!(compared, 3 * configs.len());
}
