//! Differential test against the real `kubectl kustomize` (kustomize v5.5.0): generated
//! resources and `patches:` entries (strategic merge with and without targets, JSON6902 in YAML
//! and JSON form), built by kubectl and by this crate, compared as data (or as errors).
//!
//! Skips, loudly, only when `kubectl` is not installed. `TAILOR_DIFF_CASES` overrides the
//! number of cases (default 200); `TAILOR_DIFF_SEED` the seed.

use serde_json::Value as Json;
use tailor_kustomize::patch::{apply_patches, PatchSpec, PatchTarget};
use tailor_testkit::differential::{difference, verbose, Cases, Outcome};
use tailor_testkit::json::numbers_as_f64;
use tailor_testkit::yaml::{docs, indent};
use tailor_testkit::Rng;
use tailor_yaml::{parse_stream, Node};

const NAMES: &[&str] = &["a", "b"];
const NAMESPACES: &[&str] = &["", "", "ns1"];
const CONTAINERS: &[&str] = &["app", "side", "web"];
const IMAGES: &[&str] = &["nginx:1.7", "busybox", "reg.io/app:v2"];

fn meta(rng: &mut Rng, name: &str, ns: &str) -> String {
    let mut s = format!("metadata:\n  name: {name}\n");
    if !ns.is_empty() {
        s += &format!("  namespace: {ns}\n");
    }
    s += &format!("  labels:\n    app: {}\n", rng.pick(&["x", "y"]));
    if rng.chance(50) {
        s += &format!("  annotations:\n    team: {}\n", rng.pick(&["a", "b"]));
    }
    s
}

fn container(rng: &mut Rng, name: &str, indent: &str) -> String {
    let mut s = format!(
        "{indent}- name: {name}\n{indent}  image: {}\n",
        rng.pick(IMAGES)
    );
    if rng.chance(60) {
        s += &format!("{indent}  args: [\"--port\", \"8080\"]\n");
    }
    if rng.chance(70) {
        s += &format!("{indent}  env:\n{indent}  - name: PORT\n{indent}    value: \"80\"\n{indent}  - name: HOST\n{indent}    value: h\n");
    }
    if rng.chance(70) {
        s += &format!("{indent}  ports:\n{indent}  - containerPort: 80\n");
        if rng.chance(40) {
            s += &format!("{indent}  - containerPort: 80\n{indent}    protocol: UDP\n");
        }
        if rng.chance(40) {
            s += &format!("{indent}  - containerPort: 9090\n{indent}    name: metrics\n");
        }
    }
    if rng.chance(40) {
        s += &format!(
            "{indent}  volumeMounts:\n{indent}  - name: data\n{indent}    mountPath: /data\n"
        );
    }
    s
}

fn workload(rng: &mut Rng, kind: &str, name: &str, ns: &str) -> String {
    let m = meta(rng, name, ns);
    let mut s = format!(
        "apiVersion: apps/v1\nkind: {kind}\n{m}spec:\n  replicas: {}\n  selector:\n    matchLabels:\n      app: x\n  template:\n    metadata:\n      labels:\n        app: x\n    spec:\n      containers:\n",
        1 + rng.below(3)
    );
    let n = 1 + rng.below(2);
    let first = rng.below(CONTAINERS.len());
    for i in 0..n {
        s += &container(rng, CONTAINERS[(first + i) % CONTAINERS.len()], "      ");
    }
    if rng.chance(50) {
        s += "      volumes:\n      - name: data\n        emptyDir: {}\n";
    }
    if rng.chance(30) {
        s += "      tolerations:\n      - key: k\n        operator: Exists\n";
    }
    if kind == "StatefulSet" && rng.chance(60) {
        s += "  volumeClaimTemplates:\n  - metadata:\n      name: data\n    spec:\n      accessModes: [ReadWriteOnce]\n";
    }
    s
}

fn resource(rng: &mut Rng, kind: &str, name: &str, ns: &str) -> String {
    match kind {
        "ConfigMap" => {
            let m = meta(rng, name, ns);
            format!(
                "apiVersion: v1\nkind: ConfigMap\n{m}data:\n  host: h.example\n  port: \"8080\"\n"
            )
        }
        "Service" => {
            let m = meta(rng, name, ns);
            let mut s = format!("apiVersion: v1\nkind: Service\n{m}spec:\n  selector:\n    app: x\n  ports:\n  - name: http\n    port: 80\n    targetPort: 8080\n");
            if rng.chance(50) {
                s += "  - name: dns\n    port: 53\n    protocol: UDP\n";
            }
            s
        }
        k => workload(rng, k, name, ns),
    }
}

/// A strategic-merge patch body (below `spec:` etc.) for a kind.
fn smp_body(rng: &mut Rng, kind: &str) -> String {
    let mut s = String::new();
    let mut meta = String::new();
    if rng.chance(40) {
        meta += &format!(
            "  labels:\n    {}\n",
            rng.pick(&["extra: \"1\"", "app: null", "app: z", "n: 5"])
        );
    }
    if rng.chance(20) {
        meta += &format!(
            "  annotations:\n    {}\n",
            rng.pick(&["team: null", "note: hi", "team: c"])
        );
    }
    if !meta.is_empty() {
        s += "metadata:\n";
        s += &meta.replace("metadata:\n", "");
    }
    match kind {
        "ConfigMap" => {
            s += "data:\n";
            s += &format!(
                "  {}\n",
                rng.pick(&["host: other", "port: null", "new: v", "port: \"9\""])
            );
            if rng.chance(20) {
                s += "  $patch: replace\n  only: this\n";
            }
        }
        "Service" => {
            s += "spec:\n";
            if rng.chance(40) {
                s += &format!("  type: {}\n", rng.pick(&["NodePort", "ClusterIP"]));
            }
            if rng.chance(30) {
                s += &format!(
                    "  selector:\n    {}\n",
                    rng.pick(&["app: y", "app: null", "$patch: replace\n    tier: web"])
                );
            }
            if rng.chance(70) {
                s += "  ports:\n";
                for _ in 0..1 + rng.below(2) {
                    s += rng.pick(&[
                        "  - port: 80\n    targetPort: 9000\n",
                        "  - name: https\n    port: 443\n",
                        "  - port: 53\n    protocol: UDP\n    name: dns2\n",
                        "  - port: 80\n    $patch: delete\n",
                        "  - port: 53\n    protocol: TCP\n",
                        "  - name: nokey\n",
                    ]);
                }
            }
        }
        _ => {
            s += "spec:\n";
            if rng.chance(30) {
                s += &format!("  replicas: {}\n", rng.pick(&["5", "null", "\"3\""]));
            }
            if rng.chance(15) {
                s += "  selector:\n    matchLabels:\n      tier: t\n";
            }
            s += "  template:\n";
            if rng.chance(20) {
                s += &format!(
                    "    metadata:\n      labels:\n        {}\n",
                    rng.pick(&["app: null", "v: \"2\"", "$patch: replace\n        only: x"])
                );
            }
            s += "    spec:\n";
            if rng.chance(10) {
                s += "      $setElementOrder/containers:\n      - name: side\n      - name: app\n";
            }
            if rng.chance(25) {
                s += &format!(
                    "      volumes:\n      - name: {}\n",
                    rng.pick(&[
                        "data\n        $patch: delete",
                        "cfg\n        configMap:\n          name: c",
                        "data\n        emptyDir:\n          medium: Memory"
                    ])
                );
            }
            if rng.chance(15) {
                s += "      tolerations:\n      - key: other\n        operator: Exists\n";
            }
            if rng.chance(10) {
                s += "      nodeSelector: null\n";
            }
            s += "      containers:\n";
            for _ in 0..1 + rng.below(2) {
                let name = rng.pick(&["app", "side", "web", "new"]);
                if rng.chance(8) {
                    s += "      - $patch: replace\n";
                    continue;
                }
                if rng.chance(5) {
                    s += "      - image: nokey\n";
                    continue;
                }
                s += &format!("      - name: {name}\n");
                match rng.below(10) {
                    0 => s += "        $patch: delete\n",
                    1 => s += "        $patch: replace\n        image: replaced\n",
                    _ => {}
                }
                if rng.chance(50) {
                    s += &format!(
                        "        image: {}\n",
                        rng.pick(&["patched:1", "null", "\"quoted\""])
                    );
                }
                if rng.chance(25) {
                    s += &format!("        args: {}\n", rng.pick(&["[\"--x\"]", "null", "[]"]));
                }
                if rng.chance(40) {
                    s += "        env:\n";
                    for _ in 0..1 + rng.below(2) {
                        s += rng
                            .pick(&[
                                "        - name: PORT\n          value: \"9090\"\n",
                                "        - name: NEW\n          value: n\n",
                                "        - name: HOST\n          $patch: delete\n",
                                "        - name: HOST\n          value: null\n          valueFrom:\n            fieldRef:\n              fieldPath: status.podIP\n",
                            ])
;
                    }
                }
                if rng.chance(35) {
                    s += "        ports:\n";
                    s += rng.pick(&[
                        "        - containerPort: 80\n          name: http\n",
                        "        - containerPort: 80\n          protocol: UDP\n          name: u\n",
                        "        - containerPort: 8443\n",
                        "        - containerPort: 9090\n          $patch: delete\n",
                    ]);
                }
                if rng.chance(25) {
                    s += "        resources:\n          limits:\n            cpu: 100m\n";
                }
            }
        }
    }
    if rng.chance(3) {
        s += "$patch: delete\n";
    }
    s
}

fn target_line(rng: &mut Rng, kind: &str, name: &str) -> String {
    let mut parts = Vec::new();
    if rng.chance(80) {
        parts.push(format!(
            "kind: {}",
            rng.pick(&[kind, kind, "Deployment|StatefulSet", ".*Set", "Deploy"])
        ));
    }
    if rng.chance(40) {
        parts.push(format!(
            "name: {}",
            rng.pick(&[name, "a|b", ".*", "(", "c"])
        ));
    }
    if rng.chance(15) {
        parts.push(format!(
            "namespace: {}",
            rng.pick(&["default", "ns1", "ns.*"])
        ));
    }
    if rng.chance(10) {
        parts.push(format!("group: {}", rng.pick(&["apps", "", "app"])));
    }
    if rng.chance(10) {
        parts.push(format!("version: {}", rng.pick(&["v1", "v1beta1"])));
    }
    if rng.chance(15) {
        parts.push(format!(
            "labelSelector: \"{}\"",
            rng.pick(&["app=x", "app in (x,y)", "app!=y", "!app", "app notin (("])
        ));
    }
    if rng.chance(10) {
        parts.push(format!(
            "annotationSelector: \"{}\"",
            rng.pick(&["team=a", "team"])
        ));
    }
    format!("{{{}}}", parts.join(", "))
}

fn json_ops(rng: &mut Rng, kind: &str) -> String {
    let paths: &[&str] = match kind {
        "ConfigMap" => &[
            "/data/host",
            "/data/new",
            "/data",
            "/metadata/labels/app",
            "/data/missing",
        ],
        "Service" => &[
            "/spec/ports/0/port",
            "/spec/ports/-",
            "/spec/ports/1",
            "/spec/selector/app",
            "/spec/type",
            "/spec/ports/-1",
        ],
        _ => &[
            "/spec/replicas",
            "/spec/template/spec/containers/0/image",
            "/spec/template/spec/containers/-",
            "/spec/template/spec/containers/0/args",
            "/spec/template/spec/containers/1",
            "/spec/template/spec/containers/0/env/0/value",
            "/metadata/labels/new",
            "/metadata/annotations/x~1y",
            "/spec/missing/deep",
            "/spec/template/spec/containers/5/image",
        ],
    };
    let mut ops = Vec::new();
    for _ in 0..1 + rng.below(3) {
        let op = rng.pick(&["add", "add", "replace", "remove", "move", "copy", "test"]);
        let path = rng.pick(paths);
        let value = rng.pick(&[
            "\"v\"",
            "3",
            "{\"name\": \"added\", \"image\": \"i\"}",
            "[\"a\"]",
            "null",
            "true",
        ]);
        let from = rng.pick(paths);
        ops.push(match op {
            "remove" => format!("{{\"op\": \"remove\", \"path\": \"{path}\"}}"),
            "move" | "copy" => {
                format!("{{\"op\": \"{op}\", \"from\": \"{from}\", \"path\": \"{path}\"}}")
            }
            _ => format!("{{\"op\": \"{op}\", \"path\": \"{path}\", \"value\": {value}}}"),
        });
    }
    if rng.chance(50) {
        format!("[{}]", ops.join(", "))
    } else {
        // YAML form: one flow mapping per item
        ops.iter().map(|o| format!("- {o}\n")).collect()
    }
}

struct Case {
    resources: String,
    kustomization: String,
    specs: Vec<(String, Option<String>)>,
}

fn generate(rng: &mut Rng) -> Case {
    let mut ids: Vec<(&str, &str, &str)> = Vec::new();
    let mut docs = Vec::new();
    for _ in 0..1 + rng.below(4) {
        let kind = rng.pick(&[
            "Deployment",
            "Deployment",
            "StatefulSet",
            "Service",
            "ConfigMap",
        ]);
        let name = rng.pick(NAMES);
        let ns = rng.pick(NAMESPACES);
        if ids
            .iter()
            .any(|&(k, n, s)| k == kind && n == name && s == ns)
        {
            continue;
        }
        ids.push((kind, name, ns));
        docs.push(resource(rng, kind, name, ns));
    }
    let mut specs = Vec::new();
    let mut k =
        String::from("resources:\n- resources.yaml\nsortOptions:\n  order: fifo\npatches:\n");
    for _ in 0..1 + rng.below(3) {
        let &(kind, name, ns) = &ids[rng.below(ids.len())];
        let (text, target) = if rng.chance(30) {
            (json_ops(rng, kind), Some(target_line(rng, kind, name)))
        } else {
            let api = if matches!(kind, "Service" | "ConfigMap") {
                "v1"
            } else {
                "apps/v1"
            };
            let with_target = rng.chance(40);
            let pname = if with_target && rng.chance(50) {
                "ignored"
            } else if rng.chance(5) {
                "zzz"
            } else {
                name
            };
            let mut head = format!("apiVersion: {api}\nkind: {kind}\nmetadata:\n  name: {pname}\n");
            if !ns.is_empty() && rng.chance(90) {
                head += &format!("  namespace: {ns}\n");
            }
            let body = smp_body(rng, kind);
            // merge the patch's metadata into the head's
            let text = match body.strip_prefix("metadata:\n") {
                Some(rest) => {
                    let (m, others): (Vec<&str>, Vec<&str>) = {
                        let mut m = Vec::new();
                        let mut o = Vec::new();
                        let mut in_meta = true;
                        for l in rest.lines() {
                            if in_meta && !l.starts_with(' ') {
                                in_meta = false;
                            }
                            if in_meta {
                                m.push(l)
                            } else {
                                o.push(l)
                            }
                        }
                        (m, o)
                    };
                    format!("{head}{}\n{}\n", m.join("\n"), others.join("\n"))
                }
                None => format!("{head}{body}"),
            };
            let target = with_target.then(|| target_line(rng, kind, name));
            (text, target)
        };
        k += &format!("- patch: |-\n{}", indent(text.trim_end(), "    "));
        if let Some(t) = &target {
            k += &format!("  target: {t}\n");
        }
        specs.push((text, target));
    }
    Case {
        resources: docs.join("---\n"),
        kustomization: k,
        specs,
    }
}

/// kustomize drops an empty `metadata.annotations` at the end of every build (its internal
/// annotations were the last entries); that is the build's doing, not the patch's.
fn drop_empty_annotations(mut v: Json) -> Json {
    if let Some(Json::Object(m)) = v.pointer_mut("/metadata") {
        if m.get("annotations")
            .is_some_and(|a| a.as_object().is_some_and(|o| o.is_empty()))
        {
            m.remove("annotations");
        }
    }
    v
}

fn to_data(nodes: &[Node]) -> Vec<Json> {
    nodes
        .iter()
        .map(|n| drop_empty_annotations(numbers_as_f64(n.to_json().unwrap())))
        .collect()
}

fn ours(case: &Case) -> Outcome<Vec<Json>> {
    let mut docs = docs(&case.resources);
    let mut specs = Vec::new();
    for (text, target) in &case.specs {
        let target = match target {
            Some(t) => match PatchTarget::from_node(&parse_stream(t).unwrap().remove(0).root) {
                Ok(t) => Some(t),
                Err(e) => return Outcome::Error(e.to_string()),
            },
            None => None,
        };
        match PatchSpec::from_text(text, target) {
            Ok(s) => specs.push(s),
            Err(e) => return Outcome::Error(e.to_string()),
        }
    }
    match apply_patches(&mut docs, &specs) {
        Ok(_) => Outcome::Data(to_data(&docs)),
        Err(e) => Outcome::Error(e.to_string()),
    }
}

#[test]
fn differential_against_kubectl_kustomize() {
    let Some(mut cases) = Cases::start(
        "differential_against_kubectl_kustomize",
        "patch",
        0x9A7C_4E11_D00D_5EED,
    ) else {
        return;
    };
    let (mut same_data, mut same_error, mut same_message, mut build_only) = (0, 0, 0, 0);
    for i in 0..cases.count {
        let case = generate(&mut cases.rng);
        let (dir, build) = cases.build(
            i,
            &[
                ("resources.yaml", &case.resources),
                ("kustomization.yaml", &case.kustomization),
            ],
        );
        let theirs = Outcome::of_kubectl(build, |out| to_data(&docs(out)));
        let mine = ours(&case);
        let verdict = match (&theirs, &mine) {
            (Outcome::Data(a), Outcome::Data(b)) if a == b => {
                same_data += 1;
                None
            }
            (Outcome::Error(a), Outcome::Error(b)) => {
                same_error += 1;
                let core = b.split(" (patching ").next().unwrap_or(b);
                if a.contains(core) || a.contains(&core.replace('"', "\\\"")) {
                    same_message += 1;
                }
                if verbose() {
                    println!("error case {i}:\n kubectl: {}\n ours:    {b}", a.trim());
                }
                None
            }
            // kustomize looped where ours failed: both refuse the case.
            (Outcome::Hang, Outcome::Error(_)) => {
                same_error += 1;
                None
            }
            (Outcome::Error(a), Outcome::Data(_)) if a.contains("updating name reference") => {
                // kustomize's later nameReference stage choked on the patched result (e.g. a
                // container replaced by a scalar); the patch itself applied
                build_only += 1;
                None
            }
            _ => Some(difference(&theirs, &mine)),
        };
        let verdict = verdict.map(|v| {
            format!(
                "{v}\n--- kustomization:\n{}\n--- resources:\n{}",
                case.kustomization, case.resources
            )
        });
        cases.verdict(i, &dir, verdict);
    }
    let summary = format!(
        "differential: {} cases: {same_data} same data, {same_error} both failed ({same_message} with kustomize's message), {build_only} failed later in kustomize's nameReference stage, {} mismatches",
        cases.count,
        cases.mismatches()
    );
    cases.finish(&summary);
}
