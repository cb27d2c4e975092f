//! Golden tests: objects as `kubectl get -o yaml` prints them, stripped, emitted, snapshotted.

use std::path::Path;

use tailor_kubestellar::strip::{
    apply_custom_transforms, parse_custom_transform, strip_builtin, Finding, ResourceMapper,
};
use tailor_yaml::{emit_document, parse_stream, EmitOptions};

const FILES: &[&str] = &[
    "deployment",
    "service-clusterip",
    "service-headless",
    "service-nodeport",
    "service-nodeport-preserved",
    "service-loadbalancer",
    "service-externalname",
    "job",
    "cronjob",
    "statefulset",
];

fn read(name: &str) -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(format!("{name}.yaml"));
    std::fs::read_to_string(p).unwrap()
}

fn strip_file(src: &str) -> (String, Vec<Finding>) {
    let mut docs = parse_stream(src).unwrap();
    let mut out = String::new();
    let mut findings = Vec::new();
    for d in docs.iter_mut() {
        findings.extend(strip_builtin(&mut d.root));
        out.push_str(&emit_document(d, EmitOptions::default()));
    }
    (out, findings)
}

#[test]
fn golden_builtin_strip() {
    for name in FILES {
        let (out, findings) = strip_file(&read(name));
        assert!(findings.is_empty(), "{name}: {findings:?}");
        insta::assert_snapshot!(format!("strip__{name}"), out);
    }
}

/// Every output line is an input line, in order (only removals happened), except maps that
/// were emptied and are now written `{}`.
#[test]
fn output_is_input_minus_removed_lines() {
    for name in FILES {
        let src = read(name);
        let (out, _) = strip_file(&src);
        let mut input = src.lines();
        for line in out.lines() {
            if line.ends_with(": {}") && !src.contains(line) {
                continue;
            }
            assert!(
                input.any(|l| l == line),
                "{name}: output line {line:?} is not the next input line"
            );
        }
    }
}

#[test]
fn stripping_twice_changes_nothing() {
    for name in FILES {
        let (once, _) = strip_file(&read(name));
        let (twice, _) = strip_file(&once);
        assert_eq!(once, twice, "{name}");
    }
}

#[test]
fn comments_order_and_styles_of_what_stays_are_kept() {
    let src = "\
# A Service with comments everywhere.
apiVersion: v1
kind: Service
metadata:
  name: \"web\"   # double-quoted name
  namespace: 'shop'
  uid: 0b8e2d4c # server-set
  annotations:
    kubectl.kubernetes.io/last-applied-configuration: '{}'
    note: |-
      literal
      text
  labels: {app: web, tier: 'front'}
spec:
  # Keep the selector first.
  selector:
    app: web
  clusterIP: 10.96.0.10 # will go
  ports:
  - name: http # the http port
    port: 0x50
    nodePort: 30080 # will go
    targetPort: \"8080\"
  type: NodePort
  sessionAffinity: None
# trailing comment
status:
  loadBalancer: {}
";
    let removed = [
        "  uid: 0b8e2d4c # server-set",
        "    kubectl.kubernetes.io/last-applied-configuration: '{}'",
        "  clusterIP: 10.96.0.10 # will go",
        "    nodePort: 30080 # will go",
        "  sessionAffinity: None",
        "status:",
        "  loadBalancer: {}",
    ];
    let expected: String = src
        .lines()
        .filter(|l| !removed.contains(l))
        .map(|l| format!("{l}\n"))
        .collect();
    let (out, findings) = strip_file(src);
    assert!(findings.is_empty());
    insta::assert_snapshot!("strip__commented_service", out);
    // Only the removed lines differ (the emitter normalises the spacing before a line
    // comment, and the foot comment before `status` stays with the document).
    let normalise = |s: &str| {
        s.lines()
            .map(|l| l.split(" #").next().unwrap_or("").trim_end().to_string())
            .filter(|l| !l.trim_start().starts_with('#'))
            .collect::<Vec<_>>()
    };
    assert_eq!(normalise(&out), normalise(&expected));
    for c in [
        "# A Service",
        "# double-quoted name",
        "# Keep the selector first.",
        "# the http port",
    ] {
        assert!(out.contains(c), "{c} lost:\n{out}");
    }
}

#[test]
fn golden_custom_transforms() {
    let ct = parse_stream(
        "\
apiVersion: control.kubestellar.io/v1alpha1
kind: CustomTransform
metadata:
  name: deployments-cleanup
spec:
  apiGroup: apps
  resource: deployments
  remove:
  - $.metadata.annotations[\"deployment.kubernetes.io/revision\"]
  - $.spec.template.metadata.creationTimestamp
  - $.spec.template.spec.containers[?@.name=='nginx'].ports[*].protocol
  - $.spec.template.spec.containers[*].terminationMessagePath
",
    )
    .unwrap()
    .remove(0)
    .root;
    let t = parse_custom_transform(&ct, "x").unwrap();
    let mut docs = parse_stream(&read("deployment")).unwrap();
    let d = &mut docs[0];
    let mut findings = strip_builtin(&mut d.root);
    findings.extend(apply_custom_transforms(
        &mut d.root,
        &[t],
        &ResourceMapper::builtin(),
    ));
    assert!(findings.is_empty(), "{findings:?}");
    insta::assert_snapshot!(
        "custom__deployment",
        emit_document(d, EmitOptions::default())
    );
}
