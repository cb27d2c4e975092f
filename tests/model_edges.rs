//! The edges of each upstream's model (issue 27), each run through the `tailor` binary with
//! the upstream source it follows recorded beside it.
mod common;

use std::process::Command;

use common::upstream::yaml_to_json;
use common::{repo_root, run_command, run_tailor, temp_dir, tool};
use serde_json::Value as Json;

/// A ResourceList with `items` (YAML list entries) and a `functionConfig`.
fn resource_list(items: &str, function_config: &str) -> String {
    format!(
        "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n{items}functionConfig:\n{function_config}"
    )
}

const NGINX: &str = "- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: web, namespace: default}
  spec:
    template:
      spec:
        containers:
        - {name: web, image: podinfo}
";

fn flux_images(images: &str) -> String {
    format!(
        "  apiVersion: kustomize.toolkit.fluxcd.io/v1
  kind: Kustomization
  metadata: {{name: apps, namespace: flux-system}}
  spec:
    interval: 10m
    images:
{images}"
    )
}

/// The Flux docs' own example of repeated `images` entries (fluxcd/kustomize-controller
/// `docs/spec/v1/kustomizations.md`, "Images", commit 186fb3b29138ce82ff61ba1a9370b96a3dd598fe),
/// folded as fluxcd/pkg `kustomize/kustomize_generator.go` folds them (commit
/// e2cfd1a2d1815a81b3e77ef750e6528282ccccd6): the last entry's digest pins the image.
#[test]
fn flux_repeated_images_fold_into_one_entry() {
    let images = "    - {name: podinfo, newName: my-registry/podinfo, newTag: v1}
    - {name: podinfo, newTag: 1.8.0}
    - {name: podinfo, newName: my-podinfo}
    - {name: podinfo, digest: 'sha256:24a0c4b4a4c0eb97a1aabb8e29f18e917d05abfe1b7a7c07857230879ce7d3d3'}
";
    let run = run_tailor(&[], &resource_list(NGINX, &flux_images(images)));
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains(
            "image: 'my-podinfo@sha256:24a0c4b4a4c0eb97a1aabb8e29f18e917d05abfe1b7a7c07857230879ce7d3d3'"
        ),
        "{}",
        run.stdout
    );
    // without the digest, the later tag and the later name both hold
    let images = "    - {name: podinfo, newName: my-registry/podinfo, newTag: v1}
    - {name: podinfo, newTag: 1.8.0}
    - {name: podinfo, newName: my-podinfo}
";
    let run = run_tailor(&[], &resource_list(NGINX, &flux_images(images)));
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("image: 'my-podinfo:1.8.0'"),
        "{}",
        run.stdout
    );
}

/// Numbers where `images` wants strings: `kubectl kustomize` v5.5.0 refuses them ("json:
/// cannot unmarshal number into Go struct field Image.images.newTag of type string"), the Flux
/// CRD's schema types them as strings; tailor refuses them naming the field.
#[test]
fn numeric_image_fields_are_refused() {
    for (entry, field) in [
        ("{name: podinfo, newTag: 1.10}", "spec.images[0].newTag"),
        ("{name: podinfo, digest: 5}", "spec.images[0].digest"),
        ("{name: 5, newTag: x}", "spec.images[0].name"),
    ] {
        let fc = flux_images(&format!("    - {entry}\n"));
        let run = run_tailor(&[], &resource_list(NGINX, &fc));
        assert_eq!(run.code, 1, "{entry}: {}", run.stdout);
        assert!(
            run.stdout
                .contains("must be a string, got number (quote the value)")
                && run.stdout.contains(field),
            "{entry}: {}",
            run.stdout
        );
        assert!(!run.stdout.contains("image: 'podinfo:"), "{}", run.stdout);
    }
    let fc = flux_images("    - {name: podinfo, newTag: '1.10'}\n");
    let run = run_tailor(&[], &resource_list(NGINX, &fc));
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert!(
        run.stdout.contains("image: 'podinfo:1.10'"),
        "{}",
        run.stdout
    );
}

/// The objects of one rename-and-replace case (`tests/fixtures/replacements-after-rename.yaml`).
fn rename_case_items(case: &Json) -> String {
    format!(
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: src\ndata:\n  v: new\n---\n\
         apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {}\n  annotations:\n    x: old\n",
        case["deployment"].as_str().unwrap()
    )
}

/// The case's replacement as YAML flow text.
fn rename_case_replacement(case: &Json) -> String {
    let reject = case
        .get("reject")
        .map(|r| format!(", reject: {r}"))
        .unwrap_or_default();
    format!(
        "{{source: {}, targets: [{{select: {}{reject}, fieldPaths: [metadata.annotations.x]}}]}}",
        case["source"], case["select"]
    )
}

/// The Deployment's name and annotation x in a rendered stream or ResourceList.
fn deployment_name_and_x(out: &str) -> (String, String) {
    let docs = tailor_yaml::parse_stream(out).unwrap();
    let objects: Vec<Json> = docs
        .iter()
        .filter(|d| !d.empty)
        .map(|d| d.root.to_json().unwrap())
        .flat_map(|j| match j.get("items") {
            Some(Json::Array(items)) => items.clone(),
            _ => vec![j],
        })
        .collect();
    let d = objects
        .iter()
        .find(|o| o["kind"] == "Deployment")
        .expect("a Deployment");
    let meta = &d["metadata"];
    let s = |v: &Json| v.as_str().unwrap_or_default().to_string();
    (s(&meta["name"]), s(&meta["annotations"]["x"]))
}

/// Replacements after a rename select, source and reject by earlier names as kustomize does,
/// and the earlier ids never reach the output.
#[test]
fn replacements_see_the_names_before_a_rename() {
    let data =
        std::fs::read_to_string(repo_root().join("tests/fixtures/replacements-after-rename.yaml"))
            .unwrap();
    let suite = yaml_to_json(&data).unwrap();
    let kubectl = tool("kubectl");
    for case in suite["cases"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let rename: Vec<String> = case["rename"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, v)| format!("{k}: {}", v.as_str().unwrap()))
            .collect();
        let expect = (
            case["expect"]["name"].as_str().unwrap().to_string(),
            case["expect"]["x"].as_str().unwrap().to_string(),
        );
        let items: String = rename_case_items(case)
            .split("---\n")
            .map(|doc| format!("- {}", doc.trim_end().replace('\n', "\n  ")) + "\n")
            .collect();
        let config = format!(
            "  apiVersion: tailor.dev/v1alpha1\n  kind: Tailor\n  metadata: {{name: t}}\n  spec:\n    {}\n    replacements:\n    - {}\n",
            rename.join("\n    "),
            rename_case_replacement(case)
        );
        let run = run_tailor(&[], &resource_list(&items, &config));
        assert_eq!(run.code, 0, "{name}: {}", run.stdout);
        assert_eq!(
            deployment_name_and_x(&run.stdout),
            expect,
            "{name}: {}",
            run.stdout
        );
        assert!(
            !run.stdout.contains("internal.config"),
            "{name}: {}",
            run.stdout
        );
        assert!(!run.stdout.contains("previous"), "{name}: {}", run.stdout);
        if let Some(kubectl) = &kubectl {
            let dir = temp_dir(name);
            std::fs::write(dir.join("res.yaml"), rename_case_items(case)).unwrap();
            std::fs::write(
                dir.join("kustomization.yaml"),
                format!(
                    "resources: [res.yaml]\n{}\nreplacements:\n- {}\n",
                    rename.join("\n"),
                    rename_case_replacement(case)
                ),
            )
            .unwrap();
            let k = run_command(Command::new(kubectl).arg("kustomize").arg(&dir), "");
            assert_eq!(k.code, 0, "{name}: {}", k.stderr);
            assert_eq!(
                deployment_name_and_x(&k.stdout),
                expect,
                "{name}: kubectl kustomize"
            );
        }
    }
}

/// A standalone run whose strip changes one document of a file keeps the text outside the
/// changed document byte for byte, the file's final `---` line included (istio's
/// `samples/bookinfo/platform/kube/*.yaml` end so; istio/istio).
#[test]
fn a_changed_file_keeps_its_final_marker() {
    let dir = temp_dir("final-marker");
    let input = dir.join("in");
    std::fs::create_dir_all(&input).unwrap();
    let text = "# Copyright\n---\napiVersion: v1\nkind: Service\nmetadata:\n  name: a\n  uid: 123\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\ndata:\n  x: y\n---\n";
    std::fs::write(input.join("f.yaml"), text).unwrap();
    let config = dir.join("t.yaml");
    std::fs::write(
        &config,
        "apiVersion: tailor.dev/v1alpha1\nkind: Tailor\nmetadata: {name: t}\nspec: {}\n",
    )
    .unwrap();
    let out = dir.join("out");
    let run = run_command(
        Command::new(common::tailor_bin())
            .arg(&config)
            .arg(&input)
            .arg("--output-dir")
            .arg(&out),
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let written = std::fs::read_to_string(out.join("f.yaml")).unwrap();
    assert_eq!(written, text.replace("  uid: 123\n", ""));
}

/// Kratix schedules a workload without `destinationSelectors` with no labels: a destination
/// with `strictMatchLabels: true` and labels does not get it (syntasso/kratix
/// `internal/controller/scheduler.go`, `getDestinationsForWorkloadGroup`, commit
/// ae170e22e974e45bb7cfda00986057e01b3ccfde); one without labels, or not strict, does.
#[test]
fn a_strict_destination_gets_no_workload_without_selectors() {
    let items = "- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: app}\n";
    let config = "  apiVersion: tailor.dev/v1alpha1
  kind: Tailor
  metadata: {name: t}
  spec:
    clusters:
    - {name: strict-labelled, labels: {env: prod}, strictMatchLabels: true}
    - {name: strict-bare, strictMatchLabels: true}
    - {name: loose, labels: {env: prod}}
";
    let run = run_tailor(&["-o", "stream"], &resource_list(items, config));
    let run = if run.code == 2 {
        run_tailor(&[], &resource_list(items, config))
    } else {
        run
    };
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(!run.stdout.contains("strict-labelled/"), "{}", run.stdout);
    assert!(run.stdout.contains("strict-bare/"), "{}", run.stdout);
    assert!(run.stdout.contains("loose/"), "{}", run.stdout);
}

/// A Kratix Destination's `spec.path` and `spec.filepath.mode` say where Kratix writes in its
/// state store (syntasso/kratix `api/v1alpha1/destination_types.go`, commit
/// ae170e22e974e45bb7cfda00986057e01b3ccfde); tailor does not lay files out so and says so,
/// naming each field.
#[test]
fn destination_path_and_filepath_mode_are_named_as_unused() {
    let items = "- apiVersion: platform.kratix.io/v1alpha1
  kind: Destination
  metadata: {name: worker, labels: {env: prod}}
  spec: {path: clusters/worker, filepath: {mode: aggregatedYAML}}
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: app}
";
    let config = "  apiVersion: tailor.dev/v1alpha1
  kind: Tailor
  metadata: {name: t}
  spec:
    clusters: [{name: worker}]
    destinationSelectors: [{matchLabels: {env: prod}}]
";
    let run = run_tailor(&[], &resource_list(items, config));
    assert!(
        run.stdout.contains("items[0].spec.path: not used")
            && run
                .stdout
                .contains("items[0].spec.filepath.mode: \"aggregatedYAML\" is not used"),
        "{}",
        run.stdout
    );
}

/// A Promise among the objects Kratix scheduling applies to is refused, naming it: Kratix
/// schedules its `spec.dependencies` by its `spec.destinationSelectors`, which tailor does not.
#[test]
fn a_promise_is_refused_where_kratix_schedules() {
    let items = "- apiVersion: platform.kratix.io/v1alpha1
  kind: Promise
  metadata: {name: postgres}
  spec:
    destinationSelectors: [{matchLabels: {env: prod}}]
    dependencies: [{apiVersion: v1, kind: Namespace, metadata: {name: pg}}]
";
    let config = "  apiVersion: tailor.dev/v1alpha1
  kind: Tailor
  metadata: {name: t}
  spec:
    cluster: {name: worker, labels: {env: prod}}
    destinationSelectors: [{matchLabels: {env: prod}}]
";
    let run = run_tailor(&[], &resource_list(items, config));
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(
        run.stdout.contains("Promise \"postgres\"") && run.stdout.contains("spec.dependencies"),
        "{}",
        run.stdout
    );
}

/// The workflow's `/kratix/metadata/destination-selectors.yaml` given as input: the error
/// points at `spec.destinationSelectors`.
#[test]
fn a_destination_selectors_file_points_at_the_field() {
    let dir = temp_dir("destination-selectors");
    std::fs::write(
        dir.join("destination-selectors.yaml"),
        "- matchLabels: {env: prod}\n  directory: db\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("t.yaml"),
        "apiVersion: tailor.dev/v1alpha1\nkind: Tailor\nmetadata: {name: t}\nspec: {}\n",
    )
    .unwrap();
    let run = run_command(
        Command::new(common::tailor_bin())
            .arg(dir.join("t.yaml"))
            .arg(dir.join("destination-selectors.yaml")),
        "",
    );
    assert_eq!(run.code, 1);
    assert!(
        run.stderr
            .contains("write its entries as spec.destinationSelectors"),
        "{}",
        run.stderr
    );
}

/// `helm.valuesFrom` is read by Fleet's agent from the downstream cluster (rancher/fleet
/// `fleet.yaml` reference); `fleet-values` reads it from the ConfigMaps and Secrets among its
/// FILEs, and without the one named fails, naming the field and the object (it used to leave
/// `valuesFrom` out with a warning).
#[test]
fn fleet_values_merges_values_from_its_files_and_names_a_missing_one() {
    let dir = temp_dir("values-from");
    std::fs::create_dir_all(dir.join("bundle")).unwrap();
    std::fs::write(
        dir.join("tailor.yaml"),
        "apiVersion: tailor.dev/v1alpha1\nkind: Tailor\nmetadata: {name: t}\nspec:\n  cluster: {name: dev}\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("bundle/fleet.yaml"),
        "helm:\n  values: {a: 1}\n  valuesFrom:\n  - configMapKeyRef: {name: cm, key: values.yaml}\n",
    )
    .unwrap();
    let (config, bundle) = (dir.join("tailor.yaml"), dir.join("bundle"));
    let run = run_tailor(
        &[
            "fleet-values",
            config.to_str().unwrap(),
            bundle.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stdout.is_empty(), "{}", run.stdout);
    assert!(
        run.stderr.contains(
            "helm.valuesFrom[0].configMapKeyRef: configmaps \"cm\" not found in namespace \"default\""
        ),
        "{}",
        run.stderr
    );
    std::fs::write(
        dir.join("cm.yaml"),
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm}\ndata:\n  values.yaml: 'b: 2'\n",
    )
    .unwrap();
    let cm = dir.join("cm.yaml");
    let run = run_tailor(
        &[
            "fleet-values",
            config.to_str().unwrap(),
            bundle.to_str().unwrap(),
            cm.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout, "# cluster dev\na: 1\nb: 2\n");
}

/// `helm:` and `correctDrift:` in a `Tailor` spec's target customizations warn, naming the
/// field, as the same fields in fleet.yaml do.
#[test]
fn helm_and_correct_drift_in_a_tailor_spec_warn() {
    let items = "- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: app}\n";
    let config = "  apiVersion: tailor.dev/v1alpha1
  kind: Tailor
  metadata: {name: t}
  spec:
    cluster: {name: c1, labels: {env: prod}}
    targetCustomizations:
    - name: prod
      clusterSelector: {matchLabels: {env: prod}}
      helm: {values: {a: 1}}
      correctDrift: {enabled: true}
";
    let run = run_tailor(&[], &resource_list(items, config));
    assert_eq!(run.code, 0, "{}", run.stdout);
    for field in [
        "spec.targetCustomizations[0].helm.values",
        "spec.targetCustomizations[0].correctDrift",
    ] {
        assert!(
            run.stdout.contains(&format!("path: {field}")),
            "{field}: {}",
            run.stdout
        );
    }
}

/// Error messages that name the fix for snippets of the upstream docs that fail as written,
/// and a strict substitution's way out.
#[test]
fn errors_name_the_fix() {
    let cm = "- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: app}\n  data: {a: b, x: '${missing}'}\n";
    let tailor = |spec: &str| {
        format!("  apiVersion: tailor.dev/v1alpha1\n  kind: Tailor\n  metadata: {{name: t}}\n  spec:\n{spec}")
    };
    // a CustomTransform without apiVersion (as KubeStellar's docs show one)
    let ct = "- kind: CustomTransform\n  metadata: {name: x}\n  spec: {apiGroup: '', resource: configmaps, remove: ['$.data']}\n";
    let run = run_tailor(&[], &resource_list(ct, &tailor("    {}\n")));
    assert_eq!(run.code, 1);
    assert!(
        run.stdout
            .contains("apiVersion: control.kubestellar.io/v1alpha1"),
        "{}",
        run.stdout
    );
    // strict substitution (the default) names `postBuild.strict: false`
    let run = run_tailor(
        &[],
        &resource_list(cm, &tailor("    postBuild: {substitute: {a: b}}\n")),
    );
    assert_eq!(run.code, 1);
    assert!(
        run.stdout.contains("spec.postBuild.strict: false"),
        "{}",
        run.stdout
    );
    // fleet-values --help
    let run = run_tailor(&["fleet-values", "--help"], "");
    assert_eq!(run.code, 0);
    assert!(run.stdout.contains("helm.valuesFrom"), "{}", run.stdout);
}

/// `spec.ignore` of a Flux Kustomization is not applied to the files tailor reads; the run
/// says so, naming the field (fluxcd/kustomize-controller `docs/spec/v1/kustomizations.md`,
/// "Ignore", 186fb3b29138ce82ff61ba1a9370b96a3dd598fe).
#[test]
fn flux_spec_ignore_is_named_as_not_applied() {
    let items = "- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: app}\n";
    let config = "  apiVersion: kustomize.toolkit.fluxcd.io/v1
  kind: Kustomization
  metadata: {name: apps, namespace: flux-system}
  spec:
    interval: 10m
    ignore: |
      /tests/
";
    let run = run_tailor(&[], &resource_list(items, config));
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert!(
        run.stdout.contains("spec.ignore: not applied"),
        "{}",
        run.stdout
    );
}

/// A directory read for a Flux `Kustomization` is read as Flux reads its source:
/// source-controller's default exclusions and `.sourceignore` files (fluxcd/pkg
/// `sourceignore/sourceignore.go` at 23cf50f6, gitignore dialect from
/// `sourceignore/gitignore/pattern.go` at f78daaa7), and only the `.yaml`/`.yml` files the
/// generated kustomization lists (fluxcd/pkg `kustomize/kustomize_generator.go`,
/// `generateKustomization`: `filepath.Ext` is `.yaml` or `.yml`). A `Tailor` reads the same
/// directory as `kpt fn source` does.
#[test]
fn a_flux_directory_is_read_as_flux_reads_its_source() {
    let dir = temp_dir("flux-source");
    let pkg = dir.join("apps");
    let cm = |name: &str| format!("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {name}\n");
    for (file, text) in [
        ("deploy.yaml", cm("kept")),
        ("other.yml", cm("kept-too")),
        (
            "extra.json",
            "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"json\"}}\n"
                .into(),
        ),
        ("drafts/draft.yaml", cm("draft")),
        ("team/keep.secret.yaml", cm("re-included")),
        ("team/drop.secret.yaml", cm("secret")),
        (".github/workflows/ci.yaml", "on: push\njobs: {}\n".into()),
        (".sops.yaml", "creation_rules: []\n".into()),
        (
            ".sourceignore",
            "# not deployed\ndrafts/\n*.secret.yaml\n".into(),
        ),
        ("team/.sourceignore", "!keep.secret.yaml\n".into()),
    ] {
        let path = pkg.join(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    let flux = dir.join("flux.yaml");
    std::fs::write(
        &flux,
        "apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata: {name: apps, namespace: flux-system}\nspec:\n  interval: 10m\n  namePrefix: p-\n",
    )
    .unwrap();
    let run = run_tailor(&[flux.to_str().unwrap(), pkg.to_str().unwrap()], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let names: Vec<&str> = run
        .stdout
        .lines()
        .filter_map(|l| l.strip_prefix("  name: "))
        .collect();
    assert_eq!(names, ["p-kept", "p-kept-too", "p-re-included"]);
    // A Tailor reads every file kpt fn source reads: the CI file is no object, an error.
    let tailor = dir.join("tailor.yaml");
    std::fs::write(
        &tailor,
        "apiVersion: tailor.dev/v1alpha1\nkind: Tailor\nmetadata: {name: t}\nspec:\n  namePrefix: p-\n",
    )
    .unwrap();
    std::fs::remove_dir_all(pkg.join(".github")).unwrap();
    std::fs::remove_file(pkg.join(".sops.yaml")).unwrap();
    let run = run_tailor(&[tailor.to_str().unwrap(), pkg.to_str().unwrap()], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    for name in ["p-json", "p-draft", "p-secret"] {
        assert!(run.stdout.contains(name), "{name} in {}", run.stdout);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A `.sourceignore` is read under the rules of the package's other files: one that is a
/// symlink out of the directory is an error naming it, as a manifest symlinked out is.
#[cfg(unix)]
#[test]
fn a_sourceignore_leading_out_of_the_directory_is_refused() {
    let dir = temp_dir("flux-sourceignore-out");
    let pkg = dir.join("apps");
    std::fs::create_dir_all(&pkg).unwrap();
    std::fs::write(
        pkg.join("cm.yaml"),
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n",
    )
    .unwrap();
    std::fs::write(dir.join("outside"), "*.yaml\n").unwrap();
    std::os::unix::fs::symlink(dir.join("outside"), pkg.join(".sourceignore")).unwrap();
    let flux = dir.join("flux.yaml");
    std::fs::write(
        &flux,
        "apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata: {name: apps, namespace: flux-system}\nspec:\n  interval: 10m\n",
    )
    .unwrap();
    let run = run_tailor(&[flux.to_str().unwrap(), pkg.to_str().unwrap()], "");
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(run.stdout.is_empty(), "{}", run.stdout);
    assert!(
        run.stderr.contains(".sourceignore") && run.stderr.contains("outside"),
        "{}",
        run.stderr
    );
    let _ = std::fs::remove_dir_all(&dir);
}
