//! Standalone mode drops the trees of the documents it reads when the configuration allows
//! (no stage reads every object; the stages that treat objects one by one, run as each file
//! is read, what they finish held as its output text, for a stream and --output-dir; or only
//! the built-in strip, run so): its answers are the same as when every tree is kept
//! (`TAILOR_KEEP_TREES=1`), in every output mode, on the fixtures, examples, hostile inputs
//! and the corpus.

mod common;

use std::path::{Path, PathBuf};

use common::{read_tree, repo_root, run_tailor_env, shared_dir, temp_dir};

const CONFIGS: [(&str, &str); 9] = [
    // The built-in strip, stripping as each file is read.
    (
        "strip",
        "apiVersion: tailor.dev/v1alpha1\nkind: Tailor\nmetadata: {name: s}\nspec:\n  templates: {enabled: false}\n",
    ),
    // Nothing reads every object.
    (
        "noop",
        "apiVersion: tailor.dev/v1alpha1\nkind: Tailor\nmetadata: {name: n}\nspec:\n  strip: {builtin: false}\n",
    ),
    // Templates read the objects that ask for them, with a destination to fill them.
    (
        "templates",
        "apiVersion: tailor.dev/v1alpha1\nkind: Tailor\nmetadata: {name: t}\nspec:\n  cluster: {name: dev, properties: {region: eu}}\n  templates: {enabled: true}\n",
    ),
    // The built-in strip, and templates without a destination: a run over objects that ask
    // for templates fails, and `-o resource-list` answers with the objects as read (read
    // again, once stripped as they were read).
    (
        "fails",
        "apiVersion: tailor.dev/v1alpha1\nkind: Tailor\nmetadata: {name: f}\nspec: {}\n",
    ),
    // Substitution with inline variables, then commonMetadata, without the strip.
    (
        "substitute",
        "apiVersion: tailor.dev/v1alpha1\nkind: Tailor\nmetadata: {name: v}\nspec:\n  strip: {builtin: false}\n  postBuild: {substitute: {region: eu}}\n  commonMetadata: {annotations: {owner: a}}\n",
    ),
    // The built-in strip, then commonMetadata.
    (
        "labels",
        "apiVersion: tailor.dev/v1alpha1\nkind: Tailor\nmetadata: {name: l}\nspec:\n  commonMetadata: {labels: {team: a}}\n",
    ),
    // Substitution with inline variables alone: objects without a variable are left as they
    // were, their files passed through.
    (
        "substitute-only",
        "apiVersion: tailor.dev/v1alpha1\nkind: Tailor\nmetadata: {name: o}\nspec:\n  strip: {builtin: false}\n  postBuild: {substitute: {region: eu, zone: a}}\n",
    ),
    // One destination, templates and commonMetadata: the objects the stages finish are held
    // as their output text among the objects (no file is passed through with a destination).
    (
        "destination",
        "apiVersion: tailor.dev/v1alpha1\nkind: Tailor\nmetadata: {name: d}\nspec:\n  cluster: {name: dev, properties: {region: eu}}\n  commonMetadata: {labels: {team: a}, annotations: {owner: b}}\n",
    ),
    // commonMetadata adds the annotation templates look for, after them: each object is read
    // again as it was and left to the run.
    (
        "adds-templates",
        "apiVersion: tailor.dev/v1alpha1\nkind: Tailor\nmetadata: {name: t}\nspec:\n  cluster: {name: dev, properties: {region: eu}}\n  commonMetadata: {annotations: {control.kubestellar.io/expand-templates: 'true'}}\n",
    ),
];

/// One run in each output mode: exit code, stdout, stderr, and the files of --output-dir.
fn outputs(config: &Path, input: &Path, work: &Path, keep: bool) -> Vec<String> {
    let env: &[(&str, &str)] = if keep {
        &[("TAILOR_KEEP_TREES", "1")]
    } else {
        &[]
    };
    let (config, input) = (config.to_str().unwrap(), input.to_str().unwrap());
    let mut out = Vec::new();
    for mode in [&[][..], &["-o", "resource-list"][..]] {
        let mut args = vec![config, input];
        args.extend_from_slice(mode);
        let run = run_tailor_env(&args, env, "");
        out.push(format!("{}\n{}\n{}", run.code, run.stdout, run.stderr));
    }
    let dir = work.join(if keep { "kept" } else { "deferred" });
    let _ = std::fs::remove_dir_all(&dir);
    let run = run_tailor_env(
        &[config, input, "--output-dir", dir.to_str().unwrap()],
        env,
        "",
    );
    let files = if dir.exists() {
        read_tree(&dir)
    } else {
        Default::default()
    };
    out.push(format!(
        "{}\n{}\n{}\n{files:?}",
        run.code, run.stdout, run.stderr
    ));
    out
}

fn inputs() -> Vec<PathBuf> {
    let root = repo_root();
    let mut out = vec![
        root.join("tests/fixtures/pkg"),
        root.join("tests/hostile/regressions"),
        root.join("tests/hostile/yaml-roundtrip"),
        root.join("tests/fixtures/templates"),
    ];
    for ex in std::fs::read_dir(root.join("examples")).unwrap().flatten() {
        let manifests = ex.path().join("manifests");
        if manifests.is_dir() {
            out.push(manifests);
        }
    }
    if let Some(shared) = shared_dir() {
        for d in ["corpus/roundtrip", "corpus/lists"] {
            if let Ok(entries) = std::fs::read_dir(shared.join(d)) {
                out.extend(entries.flatten().map(|e| e.path()).filter(|p| p.is_dir()));
            }
        }
    }
    out.retain(|p| p.exists());
    out.sort();
    out
}

#[test]
fn deferred_trees_answer_as_kept_ones() {
    let work = temp_dir("standalone-reading");
    let mut compared = 0;
    for (name, text) in CONFIGS {
        let config = work.join(format!("{name}.yaml"));
        std::fs::write(&config, text).unwrap();
        for input in inputs() {
            let kept = outputs(&config, &input, &work, true);
            let deferred = outputs(&config, &input, &work, false);
            for (k, d) in kept.iter().zip(&deferred) {
                assert_eq!(k, d, "{name} on {}", input.display());
            }
            compared += 1;
        }
        // Every file of a directory on its own too: each is an input of its own kind (one
        // object, a List, none, an error).
        for file in std::fs::read_dir(repo_root().join("tests/hostile/regressions"))
            .unwrap()
            .flatten()
        {
            let path = file.path();
            assert_eq!(
                outputs(&config, &path, &work, true),
                outputs(&config, &path, &work, false),
                "{name} on {}",
                path.display()
            );
        }
    }
    assert!(compared >= 4 * CONFIGS.len(), "compared {compared} inputs");
    let _ = std::fs::remove_dir_all(&work);
}

/// Stdin in standalone mode: a ResourceList (its items handed over as they are read) and a
/// plain stream.
#[test]
fn stdin_answers_as_with_kept_trees() {
    let work = temp_dir("standalone-stdin");
    let list = "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: a, uid: x}\n  data: {k: v}\n- {\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\", \"metadata\": {\"name\": \"b\"}}\n- apiVersion: v1\n  kind: Service\n  metadata:\n    name: s\n  spec:\n    clusterIP: 10.0.0.1\n";
    let stream = "# head\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\n  creationTimestamp: null\n";
    for (name, text) in CONFIGS {
        let config = work.join(format!("{name}.yaml"));
        std::fs::write(&config, text).unwrap();
        let config = config.to_str().unwrap();
        for input in [list, stream] {
            for mode in [&[][..], &["-o", "resource-list"][..]] {
                let mut args = vec![config, "-"];
                args.extend_from_slice(mode);
                let kept = run_tailor_env(&args, &[("TAILOR_KEEP_TREES", "1")], input);
                let deferred = run_tailor_env(&args, &[], input);
                assert_eq!(kept.code, deferred.code, "{name}");
                assert_eq!(kept.stdout, deferred.stdout, "{name}");
                assert_eq!(kept.stderr, deferred.stderr, "{name}");
            }
        }
    }
    let _ = std::fs::remove_dir_all(&work);
}

/// Files passed through as their text (no stage can touch their objects) among files read as
/// objects: the order of a stream, each file of --output-dir, and every reason a file is read
/// as objects after all (a final line without a line break, a comment between documents, an
/// annotation a stage or the output decides on, a Kptfile, a List, a CRD under the strip, a
/// CustomTransform or inventory object among the items, an object placed in a passed file).
#[test]
fn files_passed_through_among_files_read() {
    let object = |kind: &str, name: &str| {
        format!("apiVersion: v1\nkind: {kind}\nmetadata:\n  name: {name}\ndata:\n  k: v\n")
    };
    let plain: Vec<(String, String)> = (0..6)
        .map(|i| {
            (
                format!("p{i}.yaml"),
                format!(
                    "{}---\n{}",
                    object("ConfigMap", &format!("a{i}")),
                    object("Secret", &format!("b{i}"))
                ),
            )
        })
        .collect();
    let specials: Vec<(&str, String)> = vec![
        ("c-no-newline.yaml", object("ConfigMap", "nl").trim_end().to_string()),
        ("d-comments.yaml", format!("# lead\n{}# between\n---\n# head\n{}...\n", object("ConfigMap", "c1"), object("ConfigMap", "c2"))),
        ("e-annotated.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: local\n  annotations:\n    config.kubernetes.io/local-config: \"true\"\n".to_string()),
        ("f-json.json", "{\n  \"apiVersion\": \"v1\",\n  \"kind\": \"ConfigMap\",\n  \"metadata\": {\"name\": \"j\"}\n}\n".to_string()),
        ("g-list.yaml", format!("apiVersion: v1\nkind: ConfigMapList\nitems:\n- {}", object("ConfigMap", "listed").replace('\n', "\n  ").trim_end())),
        ("h-crd.yaml", "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: widgets.example.com\nspec:\n  group: example.com\n  names: {kind: Widget, plural: widgets}\n".to_string()),
        ("i-status.yaml", format!("{}status: {{}}\n", object("ConfigMap", "st"))),
        ("Kptfile", "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: pkg\n".to_string()),
    ];
    let extras: [(&str, &str); 3] = [
        // A CustomTransform among the items: it may apply to every object.
        ("z-transform.yaml", "apiVersion: control.kubestellar.io/v1alpha1\nkind: CustomTransform\nmetadata:\n  name: drop-k\nspec:\n  apiGroup: \"\"\n  resource: configmaps\n  remove: [\"$.data.k\"]\n"),
        // An inventory object among the items.
        ("z-inventory.yaml", "apiVersion: cluster.open-cluster-management.io/v1\nkind: ManagedCluster\nmetadata:\n  name: c1\n  labels: {env: prod}\n"),
        // An object placed in a file that is otherwise passed through.
        ("z-placed.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: placed\n  annotations:\n    config.kubernetes.io/path: p3.yaml\n"),
    ];
    let work = temp_dir("pass-through");
    let mut compared = 0;
    for extra in [None, Some(0), Some(1), Some(2)] {
        let dir = work.join(format!("pkg-{extra:?}"));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        for (name, text) in &plain {
            std::fs::write(dir.join(name), text).unwrap();
        }
        for (name, text) in &specials {
            std::fs::write(dir.join(name), text).unwrap();
        }
        if let Some(i) = extra {
            std::fs::write(dir.join(extras[i].0), extras[i].1).unwrap();
        }
        for (name, text) in CONFIGS {
            let config = work.join(format!("{name}.yaml"));
            std::fs::write(&config, text).unwrap();
            let kept = outputs(&config, &dir, &work, true);
            let deferred = outputs(&config, &dir, &work, false);
            for (k, d) in kept.iter().zip(&deferred) {
                assert_eq!(k, d, "{name} with {extra:?}");
            }
            compared += 1;
        }
    }
    assert_eq!(compared, 4 * CONFIGS.len());
    // A directory and stdin together, an object on stdin placed in a file of the directory:
    // stdin is read once, so the files are read as objects from the start.
    let dir = work.join("pkg-None");
    let placed = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: from-stdin\n  annotations:\n    config.kubernetes.io/path: p1.yaml\n";
    for (name, text) in CONFIGS {
        let config = work.join(format!("{name}.yaml"));
        std::fs::write(&config, text).unwrap();
        let out = work.join("out");
        let runs: Vec<String> = [true, false]
            .iter()
            .map(|&keep| {
                let _ = std::fs::remove_dir_all(&out);
                let env: &[(&str, &str)] = if keep {
                    &[("TAILOR_KEEP_TREES", "1")]
                } else {
                    &[]
                };
                let (c, d, o) = (
                    config.to_str().unwrap(),
                    dir.to_str().unwrap(),
                    out.to_str().unwrap(),
                );
                let stream = run_tailor_env(&[c, d, "-"], env, placed);
                let files = run_tailor_env(&[c, d, "-", "--output-dir", o], env, placed);
                let tree = if out.exists() {
                    read_tree(&out)
                } else {
                    Default::default()
                };
                format!(
                    "{} {} {} {} {} {tree:?}",
                    stream.code, stream.stdout, stream.stderr, files.code, files.stderr
                )
            })
            .collect();
        assert_eq!(runs[0], runs[1], "{name} with stdin");
    }
    let _ = std::fs::remove_dir_all(&work);
}

/// A package the stages change object by object as its files are read: YAML and JSON files
/// (pretty and on one line), comments above, between and after documents, `---` lines with
/// comments, a block scalar ending a file without a line break, objects some stage leaves
/// alone (substitution disabled, local config, asking for templates, a List's items, a CRD,
/// status under the strip), files whose objects all change beside files where some do; and
/// the same package with an unset variable, which strict substitution refuses. Every output
/// mode answers as with every tree kept.
#[test]
fn streamed_packages_answer_as_kept_ones() {
    let cm = |name: &str, data: &str| {
        format!("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {name}\ndata:\n{data}")
    };
    let files: Vec<(&str, String)> = vec![
        (
            "a-two.yaml",
            format!(
                "# lead\n{}---\n# second\n{}# after\n",
                cm("a1", "  r: ${region}\n"),
                cm("a2", "  k: v # kept\n")
            ),
        ),
        (
            "b-pretty.json",
            "{\n  \"apiVersion\": \"v1\",\n  \"kind\": \"ConfigMap\",\n  \"metadata\": {\"name\": \"j\"},\n  \"data\": {\"r\": \"${region}\"}\n}\n".to_string(),
        ),
        (
            "b-line.json",
            r#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"jl"},"data":{"k":"v"}}"#.to_string(),
        ),
        (
            "c-alone.yaml",
            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: off\n  annotations:\n    kustomize.toolkit.fluxcd.io/substitute: disabled\ndata:\n  r: ${region}\n".to_string(),
        ),
        (
            "d-local.yaml",
            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: local\n  annotations:\n    config.kubernetes.io/local-config: \"true\"\ndata:\n  r: ${region}\n".to_string(),
        ),
        (
            "f-block.yaml",
            cm("block", "  r: ${region}\n  script: |\n    echo ${zone:=a}\n    done").to_string(),
        ),
        (
            "g-list.yaml",
            format!(
                "apiVersion: v1\nkind: ConfigMapList\nitems:\n- {}",
                cm("listed", "  r: ${region}\n").replace('\n', "\n  ").trim_end()
            ),
        ),
        (
            "h-crd.yaml",
            "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: widgets.example.com\nspec:\n  group: example.com\n  names: {kind: Widget, plural: widgets}\n".to_string(),
        ),
        (
            "i-markers.yaml",
            format!(
                "--- # one\n{}...\n--- # two\n{}",
                cm("m1", "  r: x\n"),
                cm("m2", "  r: ${zone:=b}\n")
            ),
        ),
        ("k-status.yaml", format!("{}status: {{phase: x}}\n", cm("st", "  k: v\n"))),
        ("l-plain.yaml", cm("plain", "  k: v\n")),
    ];
    // Each added to the package on its own: an object asking for templates (a run without a
    // destination fails on it), one with a variable no configuration sets.
    let template = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: tpl\n  annotations:\n    control.kubestellar.io/expand-templates: \"true\"\ndata:\n  r: '{{.region}}'\n";
    let extras = [
        None,
        Some(("e-template.yaml", template.to_string())),
        Some(("sub/z-unset.yaml", cm("unset", "  r: ${nowhere}\n"))),
    ];
    let work = temp_dir("streamed-packages");
    let mut compared = 0;
    for (i, extra) in extras.iter().enumerate() {
        let dir = work.join(format!("pkg-{i}"));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        for (name, text) in files.iter().chain(extra) {
            std::fs::write(dir.join(name), text).unwrap();
        }
        for (name, text) in CONFIGS {
            let config = work.join(format!("{name}.yaml"));
            std::fs::write(&config, text).unwrap();
            let kept = outputs(&config, &dir, &work, true);
            let streamed = outputs(&config, &dir, &work, false);
            for (k, s) in kept.iter().zip(&streamed) {
                assert_eq!(k, s, "{name} with {extra:?}");
            }
            compared += 1;
        }
    }
    assert_eq!(compared, extras.len() * CONFIGS.len());
    // What the package is for: substitution and commonMetadata change it, a changed object
    // of a JSON file is written back as JSON, and strict substitution refuses the unset
    // variable.
    let config = work.join("substitute.yaml");
    let c = config.to_str().unwrap();
    let pkg = |i: usize| work.join(format!("pkg-{i}")).to_str().unwrap().to_string();
    let run = run_tailor_env(&[c, &pkg(0)], &[], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("r: eu\n") && run.stdout.contains("echo a\n"));
    assert!(run.stdout.contains("owner: a"), "{}", run.stdout);
    let out = work.join("json-out");
    let _ = std::fs::remove_dir_all(&out);
    let run = run_tailor_env(
        &[c, &pkg(0), "--output-dir", out.to_str().unwrap()],
        &[],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let json = std::fs::read_to_string(out.join("b-pretty.json")).unwrap();
    assert!(json.contains("\"r\": \"eu\""), "{json}");
    let run = run_tailor_env(&[c, &pkg(2)], &[], "");
    assert_eq!(run.code, 1);
    assert!(run.stderr.contains("nowhere"), "{}", run.stderr);
    let _ = std::fs::remove_dir_all(&work);
}
