use super::*;
use tailor_testkit::yaml::docs;

fn file(path: &str, src: &str) -> BundleFile {
    BundleFile {
        path: path.to_string(),
        docs: docs(src),
    }
}

const DEPLOY: &str =
    "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec: {replicas: 1}\n";
const CR: &str = "apiVersion: example.com/v1\nkind: Thing\nmetadata: {name: t}\nspec: {a: 1}\n";

fn names(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

/// `(overlay, source, target, op)` with the op reduced to a word.
fn summary(steps: &[OverlayStep]) -> Vec<(String, String, String, String)> {
    steps
        .iter()
        .map(|s| {
            let op = match &s.op {
                OverlayOp::Replace(d) => format!("replace({})", d.len()),
                OverlayOp::Remove => "remove".to_string(),
                OverlayOp::Patch { kind, .. } => format!("patch({})", kind.as_str()),
            };
            (s.overlay.clone(), s.source.clone(), s.target.clone(), op)
        })
        .collect()
}

#[test]
fn overlay_paths() {
    assert_eq!(
        is_overlay_path("overlays/scale3/frontend-deployment_patch.yaml"),
        Some(("scale3".into(), "frontend-deployment_patch.yaml".into()))
    );
    assert_eq!(
        is_overlay_path("./overlays/a/sub/x.yaml"),
        Some(("a".into(), "sub/x.yaml".into()))
    );
    assert_eq!(is_overlay_path("overlays/x.yaml"), None);
    assert_eq!(is_overlay_path("x/overlays/a/b.yaml"), None);
    assert!(is_under_overlays("overlays/x.yaml"));
    assert!(!is_under_overlays("overlaysx/a.yaml"));
}

#[test]
fn patch_targets() {
    assert_eq!(
        patch_target("deployment_patch.yaml").as_deref(),
        Some("deployment.yaml")
    );
    assert_eq!(patch_target("x_patch.json").as_deref(), Some("x.json"));
    assert_eq!(
        patch_target("sub/svc_patch.yml").as_deref(),
        Some("sub/svc.yml")
    );
    // Only the first "_patch." is replaced.
    assert_eq!(
        patch_target("a_patch.b_patch.yaml").as_deref(),
        Some("a.b_patch.yaml")
    );
    // The directory part does not count.
    assert_eq!(patch_target("d_patch.x/svc.yaml"), None);
    assert_eq!(patch_target("deployment.yaml"), None);
}

#[test]
fn replacements_first_then_patches_each_sorted() {
    let base = vec![
        file("a.yaml", DEPLOY),
        file("b.yaml", DEPLOY),
        file("c.yaml", CR),
    ];
    let overlays = vec![
        file("overlays/o/b_patch.yaml", "spec: {replicas: 2}\n"),
        file("overlays/o/c.yaml", CR),
        file(
            "overlays/o/a_patch.yaml",
            "- {op: replace, path: /spec/replicas, value: 3}\n",
        ),
        file("overlays/o/a.yaml", ""),
        file("overlays/other/a.yaml", DEPLOY),
    ];
    let steps = plan_overlays(&base, &overlays, &names(&["o"])).unwrap_err();
    // a.yaml is removed first, so its patch has nothing to patch.
    assert_eq!(steps.file, "overlays/o/a_patch.yaml");
    assert!(steps.message.contains("no documents"), "{steps}");

    let overlays = vec![
        file("overlays/o/b_patch.yaml", "spec: {replicas: 2}\n"),
        file("overlays/o/c_patch.yaml", "spec: {a: 2}\n"),
        file("overlays/o/new.yaml", CR),
        file(
            "overlays/o/a_patch.yaml",
            "- {op: replace, path: /spec/replicas, value: 3}\n",
        ),
        file("overlays/o/c.yaml", DEPLOY),
    ];
    let steps = plan_overlays(&base, &overlays, &names(&["o"])).unwrap();
    let s = |a: &str, b: &str, c: &str, d: &str| {
        (a.to_string(), b.to_string(), c.to_string(), d.to_string())
    };
    assert_eq!(
        summary(&steps),
        vec![
            s("o", "overlays/o/c.yaml", "c.yaml", "replace(1)"),
            s("o", "overlays/o/new.yaml", "new.yaml", "replace(1)"),
            s("o", "overlays/o/a_patch.yaml", "a.yaml", "patch(JSON6902)"),
            s(
                "o",
                "overlays/o/b_patch.yaml",
                "b.yaml",
                "patch(strategic merge)"
            ),
            // c.yaml was replaced by a Deployment before its patch: strategic.
            s(
                "o",
                "overlays/o/c_patch.yaml",
                "c.yaml",
                "patch(strategic merge)"
            ),
        ]
    );
}

#[test]
fn overlays_apply_in_list_order_and_repeat() {
    let base = vec![file("c.yaml", CR)];
    let overlays = vec![
        file("overlays/x/c_patch.yaml", "spec: {a: 2}\n"),
        file("overlays/y/c.yaml", DEPLOY),
    ];
    let steps = plan_overlays(&base, &overlays, &names(&["x", "y", "x"])).unwrap();
    let ops: Vec<_> = summary(&steps).into_iter().map(|s| (s.0, s.3)).collect();
    assert_eq!(
        ops,
        vec![
            ("x".into(), "patch(JSON merge)".into()),
            ("y".into(), "replace(1)".into()),
            ("x".into(), "patch(strategic merge)".into()),
        ]
    );
}

#[test]
fn overlay_names_with_slashes_match_by_prefix() {
    let base = vec![file("x.yaml", CR), file("b/x.yaml", CR)];
    let overlays = vec![file("overlays/a/b/x_patch.yaml", "spec: {}\n")];
    let by_a = plan_overlays(&base, &overlays, &names(&["a"])).unwrap();
    assert_eq!(by_a[0].target, "b/x.yaml");
    let by_ab = plan_overlays(&base, &overlays, &names(&["a/b"])).unwrap();
    assert_eq!(by_ab[0].target, "x.yaml");
    assert!(plan_overlays(&base, &overlays, &names(&["b"]))
        .unwrap()
        .is_empty());
}

#[test]
fn patch_errors() {
    let base = vec![
        file("multi.yaml", &format!("{DEPLOY}---\n{CR}")),
        file("d.yaml", DEPLOY),
    ];
    let e = |overlay: BundleFile| {
        plan_overlays(&base, &[overlay], &names(&["o"]))
            .unwrap_err()
            .to_string()
    };
    assert_eq!(
        e(file("overlays/o/missing_patch.yaml", "a: 1\n")),
        "overlays/o/missing_patch.yaml: failed to find base file missing.yaml to patch"
    );
    assert!(e(file("overlays/o/multi_patch.yaml", "a: 1\n")).contains("it has 2 documents"));
    assert_eq!(
        e(file("overlays/o/d_patch.yaml", "")),
        "overlays/o/d_patch.yaml: the patch file is empty"
    );
    assert!(e(file("overlays/o/d_patch.yaml", "a: 1\n---\nb: 2\n")).contains("has 2 documents"));
}

#[test]
fn apply_runs_steps_and_decides_kind_on_the_current_document() {
    let mut files = vec![file("d.yaml", DEPLOY), file("gone.yaml", CR)];
    let overlays = vec![
        file("overlays/o/d_patch.yaml", "spec: {replicas: 3}\n"),
        file("overlays/o/gone.yaml", ""),
        file("overlays/o/added.yaml", CR),
    ];
    let steps = plan_overlays(&files, &overlays, &names(&["o"])).unwrap();
    let mut seen = Vec::new();
    apply_overlays(&mut files, &steps, &mut |kind, doc, patch| {
        seen.push(kind);
        // A toy engine: copy spec.replicas over.
        let v = patch
            .get_path(&["spec", "replicas"])
            .cloned()
            .ok_or("no replicas")?;
        doc.get_mut("spec").ok_or("no spec")?.set("replicas", v);
        Ok(())
    })
    .unwrap();
    assert_eq!(seen, [PatchKind::Strategic]);
    assert_eq!(
        files
            .iter()
            .map(|f| (f.path.as_str(), f.docs.len()))
            .collect::<Vec<_>>(),
        [("d.yaml", 1), ("gone.yaml", 0), ("added.yaml", 1)]
    );
    assert_eq!(
        files[0].docs[0]
            .get_path(&["spec", "replicas"])
            .and_then(Node::as_scalar),
        Some("3")
    );
}

#[test]
fn apply_reports_engine_errors_against_the_overlay_file() {
    let mut files = vec![file("d.yaml", DEPLOY)];
    let overlays = vec![file(
        "overlays/o/d_patch.yaml",
        "- {op: test, path: /x, value: 1}\n",
    )];
    let steps = plan_overlays(&files, &overlays, &names(&["o"])).unwrap();
    let e =
        apply_overlays(&mut files, &steps, &mut |_, _, _| Err("test failed".into())).unwrap_err();
    assert_eq!(
        e.to_string(),
        "overlays/o/d_patch.yaml: JSON6902 patch of d.yaml failed: test failed"
    );
}

#[test]
fn grouping_items_by_path_annotation() {
    let items = docs(
        "kind: A\nmetadata:\n  name: a\n  annotations: {config.kubernetes.io/path: 'x.yaml'}\n---\n\
         kind: B\nmetadata: {name: b}\n---\n\
         kind: C\nmetadata:\n  name: c\n  annotations: {internal.config.kubernetes.io/path: './x.yaml', config.kubernetes.io/path: 'y.yaml'}\n---\n\
         kind: D\nmetadata:\n  name: d\n  annotations: {config.kubernetes.io/path: overlays/o/x_patch.yaml}\n",
    );
    let files = group_by_path(items);
    assert_eq!(
        files
            .iter()
            .map(|f| (f.path.as_str(), f.docs.len()))
            .collect::<Vec<_>>(),
        [("x.yaml", 2), ("", 1), ("overlays/o/x_patch.yaml", 1)]
    );
    let (base, overlays) = split_overlay_files(files);
    assert_eq!(base.len(), 2);
    assert_eq!(overlays[0].path, "overlays/o/x_patch.yaml");
}
