//! The edges of each upstream's model (issue 27), each run through the `tailor` binary with
//! the upstream source it follows recorded beside it.
mod common;

use common::run_tailor;

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
