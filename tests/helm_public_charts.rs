//! Widely used public charts, vendored with the manifests their repositories publish
//! (`crates/tailor-helm/tests/data/public/NAME/SOURCE.md` records the repository, commit,
//! paths and the command upstream ran). Each is rendered by `tailor helm template` through
//! upstream's own pipeline and compared byte for byte with the published file.
mod common;

use common::{copy_dir, kustomize_v4, repo_root, run_command, run_ok, temp_dir};
use std::path::Path;
use std::process::Command;

/// The provider targets: every directory under `provider/` holding a `values.yaml`.
fn targets(provider: &Path) -> Vec<String> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<String>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                walk(root, &path, out);
            } else if path.file_name().is_some_and(|n| n == "values.yaml") {
                let rel = path.parent().unwrap().strip_prefix(root).unwrap();
                out.push(rel.to_string_lossy().into_owned());
            }
        }
    }
    let mut out = Vec::new();
    walk(provider, provider, &mut out);
    out
}

/// `hack/generate-deploy-scripts.sh`'s two `sed '/.../d'` steps.
fn drop_helm_lines(manifest: &str) -> String {
    manifest
        .split_inclusive('\n')
        .filter(|l| !l.contains("app.kubernetes.io/managed-by: Helm") && !l.contains("helm.sh"))
        .collect()
}

#[test]
fn ingress_nginx_deploy_manifests_match_the_published_ones() {
    let Some(kustomize) = kustomize_v4() else {
        return;
    };
    let data = repo_root().join("crates/tailor-helm/tests/data/public/ingress-nginx");
    let work = temp_dir("ingress-nginx");
    copy_dir(&data.join("manifest-templates"), &work);
    let chart = data.join("chart");
    let names = targets(&work.join("provider"));
    assert_eq!(names.len(), 9, "the nine provider targets: {names:?}");
    let mut differ = Vec::new();
    for name in &names {
        let target = work.join("provider").join(name);
        let run = run_command(
            Command::new(common::tailor_bin())
                .args(["helm", "template", "ingress-nginx"])
                .arg(&chart)
                .args(["--values", "values.yaml", "--namespace", "ingress-nginx"])
                .args(["--kube-version", "1.22"])
                .current_dir(&target),
            "",
        );
        assert_eq!(run.code, 0, "{name}: {}", run.stderr);
        let manifest = drop_helm_lines(&run.stdout);
        std::fs::write(work.join("common/manifest.yaml"), manifest).unwrap();
        let built = run_ok(
            Command::new(&kustomize)
                .args(["--load-restrictor=LoadRestrictionsNone", "build", "."])
                .current_dir(&target),
        );
        let want = std::fs::read_to_string(
            data.join("published/provider")
                .join(name)
                .join("deploy.yaml"),
        )
        .unwrap();
        if built != want {
            differ.push(name.clone());
        }
    }
    let _ = std::fs::remove_dir_all(&work);
    assert!(
        differ.is_empty(),
        "differ from the published deploy.yaml: {differ:?}"
    );
    eprintln!(
        "ingress-nginx: {} of {} identical",
        names.len(),
        names.len()
    );
}

#[test]
fn the_sed_steps_drop_only_helm_lines() {
    let text = "a: 1\n    app.kubernetes.io/managed-by: Helm\n    helm.sh/chart: x\nb: 2\n";
    assert_eq!(drop_helm_lines(text), "a: 1\nb: 2\n");
}
