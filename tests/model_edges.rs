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
    assert!(run.stdout.contains("image: 'my-podinfo:1.8.0'"), "{}", run.stdout);
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
    assert!(run.stdout.contains("image: 'podinfo:1.10'"), "{}", run.stdout);
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
    let data = std::fs::read_to_string(
        repo_root().join("tests/fixtures/replacements-after-rename.yaml"),
    )
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
        assert_eq!(deployment_name_and_x(&run.stdout), expect, "{name}: {}", run.stdout);
        assert!(!run.stdout.contains("internal.config"), "{name}: {}", run.stdout);
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
            assert_eq!(deployment_name_and_x(&k.stdout), expect, "{name}: kubectl kustomize");
        }
    }
}
