//! The Flux overlay fields through the whole function, against the real `kubectl kustomize`
//! (kustomize v5.5.0): a Flux `Kustomization` functionConfig with targetNamespace, namePrefix,
//! nameSuffix, images and patches must give the same objects as a kustomization.yaml with
//! `namespace`, `namePrefix`, `nameSuffix`, `images` and `patches` over the same resources.
//! Generated cases (seeded); the crates carry the larger per-transformer differential suites.
mod common;

use std::collections::BTreeMap;

use common::{run_tailor, temp_dir};
use serde_json::Value;
use tailor_testkit::{kubectl, Rng};

const RESOURCES: &str = r#"apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels: {app: web}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      serviceAccountName: runner
      containers:
      - name: web
        image: nginx:1.25
        ports: [{containerPort: 80}]
        env:
        - {name: MODE, value: a}
        envFrom: [{configMapRef: {name: settings}}]
      - name: sidecar
        image: ghcr.io/acme/agent@sha256:0000000000000000000000000000000000000000000000000000000000000000
      volumes:
      - name: creds
        secret: {secretName: creds}
---
apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  selector: {app: web}
  ports: [{port: 80, targetPort: 80}]
---
apiVersion: v1
kind: ConfigMap
metadata: {name: settings}
data: {a: b}
---
apiVersion: v1
kind: Secret
metadata: {name: creds}
stringData: {token: x}
---
apiVersion: v1
kind: ServiceAccount
metadata: {name: runner}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: runner}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: runner}
subjects: [{kind: ServiceAccount, name: runner}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: runner}
rules: [{apiGroups: [""], resources: [configmaps], verbs: [get]}]
"#;

const PATCHES: &[&str] = &[
    "- patch: |\n    apiVersion: apps/v1\n    kind: Deployment\n    metadata: {name: web}\n    spec:\n      replicas: 3\n      template:\n        spec:\n          containers:\n          - name: web\n            env:\n            - {name: MODE, value: b}\n            - {name: EXTRA, value: c}\n",
    "- patch: |\n    - op: replace\n      path: /spec/replicas\n      value: 5\n  target: {kind: Deployment, name: web}\n",
    "- patch: |\n    apiVersion: v1\n    kind: Service\n    metadata: {name: ignored}\n    spec:\n      type: LoadBalancer\n  target: {kind: Service}\n",
    "- patch: |\n    apiVersion: apps/v1\n    kind: Deployment\n    metadata: {name: web}\n    spec:\n      template:\n        spec:\n          containers:\n          - name: sidecar\n            $patch: delete\n",
    "- patch: |\n    - op: add\n      path: /metadata/labels/tier\n      value: gold\n  target: {labelSelector: app=web}\n",
];

fn objects(text: &str) -> BTreeMap<String, Value> {
    let mut out = BTreeMap::new();
    for doc in tailor_yaml::parse_stream(text).unwrap() {
        if doc.empty {
            continue;
        }
        let v = doc.root.to_json().unwrap();
        let key = format!(
            "{}/{}/{}",
            v["kind"].as_str().unwrap_or(""),
            v["metadata"]["namespace"].as_str().unwrap_or(""),
            v["metadata"]["name"].as_str().unwrap_or("")
        );
        out.insert(key, v);
    }
    out
}

#[test]
fn flux_overlay_fields_match_kubectl_kustomize() {
    if !kubectl::require("flux_overlay_fields_match_kubectl_kustomize") {
        return;
    }
    let mut rng = Rng::xorshift64(0x7a11_0e55);
    let mut mismatches = Vec::new();
    let cases = 24;
    let mut compared = 0;
    for case in 0..cases {
        let namespace = rng.pick(&["", "shop", "team-a"]);
        let prefix = rng.pick(&["", "eu-", "p-"]);
        let suffix = rng.pick(&["", "-v2"]);
        let image = rng.pick(&["", "nginx", "ghcr.io/acme/agent"]);
        let new_tag = rng.pick(&["1.27", "2.0"]);
        let patches: Vec<&str> = PATCHES.iter().copied().filter(|_| rng.coin()).collect();
        let mut fields = String::new();
        if !namespace.is_empty() {
            fields.push_str(&format!("namespace: {namespace}\n"));
        }
        if !prefix.is_empty() {
            fields.push_str(&format!("namePrefix: {prefix}\n"));
        }
        if !suffix.is_empty() {
            fields.push_str(&format!("nameSuffix: {suffix}\n"));
        }
        if !image.is_empty() {
            fields.push_str(&format!(
                "images:\n- name: {image}\n  newTag: \"{new_tag}\"\n"
            ));
        }
        if !patches.is_empty() {
            fields.push_str("patches:\n");
            for p in &patches {
                fields.push_str(p);
            }
        }
        let dir = temp_dir(&format!("overlay-diff-{case}"));
        std::fs::write(dir.join("resources.yaml"), RESOURCES).unwrap();
        std::fs::write(
            dir.join("kustomization.yaml"),
            format!("resources: [resources.yaml]\n{fields}"),
        )
        .unwrap();
        let out = kubectl::kustomize(&dir);
        let want = &out.stdout;
        // The same settings as a Flux Kustomization (`namespace:` is Flux's targetNamespace).
        let spec: String = fields
            .replace("namespace:", "targetNamespace:")
            .lines()
            .map(|l| format!("    {l}\n"))
            .collect();
        let mut items = String::new();
        for doc in RESOURCES.split("---\n") {
            items.push_str("- ");
            items.push_str(doc.replace('\n', "\n  ").trim_end());
            items.push('\n');
        }
        let input = format!(
            "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n{items}functionConfig:\n  apiVersion: kustomize.toolkit.fluxcd.io/v1\n  kind: Kustomization\n  metadata: {{name: apps, namespace: flux-system}}\n  spec:\n{spec}"
        );
        let r = run_tailor(&[], &input);
        let kustomize_ok = out.success();
        let tailor_ok = r.code == 0;
        if kustomize_ok != tailor_ok {
            mismatches.push(format!(
                "case {case}: kustomize ok={kustomize_ok} tailor ok={tailor_ok}\n{fields}\nkustomize: {}\ntailor: {}",
                out.stderr,
                r.stdout
            ));
            continue;
        }
        if !kustomize_ok {
            continue;
        }
        let got = objects(&r.stdout)
            .into_values()
            .next()
            .and_then(|l| l.get("items").cloned())
            .unwrap_or_default();
        // Flux's owner labels name the Kustomization on every object; kustomize has none.
        let got_text: String = got
            .as_array()
            .unwrap()
            .iter()
            .map(|v| {
                format!(
                    "---\n{}\n",
                    serde_json::to_string(&without_owner_labels(v)).unwrap()
                )
            })
            .collect();
        let got = objects(&got_text);
        let want = objects(want);
        compared += 1;
        if got != want {
            mismatches.push(format!(
                "case {case}:\n{fields}\nwant: {}\ngot:  {}",
                serde_json::to_string(&want).unwrap(),
                serde_json::to_string(&got).unwrap()
            ));
        }
        std::fs::remove_dir_all(&dir).ok();
    }
    assert!(
        mismatches.is_empty(),
        "{} of {cases} cases differ:\n{}",
        mismatches.len(),
        mismatches.join("\n\n")
    );
    // Most cases must produce objects on both sides, or the comparison proves little.
    assert!(
        compared >= cases * 3 / 4,
        "only {compared} of {cases} cases produced output"
    );
    println!("{compared} of {cases} overlay cases identical to kubectl kustomize");
}

/// `object` without Flux's owner labels, which must be there and name the Kustomization.
fn without_owner_labels(object: &serde_json::Value) -> serde_json::Value {
    let mut o = object.clone();
    let labels = o
        .pointer_mut("/metadata/labels")
        .and_then(serde_json::Value::as_object_mut)
        .expect("owner labels");
    assert_eq!(
        labels.remove("kustomize.toolkit.fluxcd.io/name"),
        Some("apps".into())
    );
    assert_eq!(
        labels.remove("kustomize.toolkit.fluxcd.io/namespace"),
        Some("flux-system".into())
    );
    if labels.is_empty() {
        o["metadata"].as_object_mut().unwrap().remove("labels");
    }
    o
}
