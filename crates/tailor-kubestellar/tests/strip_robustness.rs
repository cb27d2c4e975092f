//! Nothing panics on odd input: wrong types everywhere, and many generated paths.

use tailor_kubestellar::strip::{
    apply_custom_transforms, parse_custom_transform, parse_remove_path, strip_builtin,
    CustomTransform, PathSyntax, ResourceMapper,
};
use tailor_yaml::parse_stream;

const ODD_OBJECTS: &str = "\
--- null
--- 42
--- [a, b]
--- {apiVersion: v1, kind: Service, metadata: 5, spec: 7, status: 1}
--- {apiVersion: v1, kind: Service, spec: {ports: 5, clusterIPs: {a: b}, clusterIP: [x]}}
--- {apiVersion: v1, kind: Service, spec: {ports: [1, null, [2], {nodePort: [x]}]}}
--- {apiVersion: batch/v1, kind: Job, metadata: {labels: 3, annotations: [1]}, spec: {template: [1]}}
--- {apiVersion: batch/v1, kind: Job, spec: {template: {metadata: 3}}}
--- {apiVersion: [v1], kind: {a: b}, metadata: {annotations: {? [complex] : key}}}
--- {apiVersion: v1, kind: ConfigMap, metadata: &m {name: a}, other: *m, <<: {x: 1}}
";

fn transforms() -> Vec<CustomTransform> {
    let mut out = Vec::new();
    let pieces = [
        "$",
        ".a",
        ".metadata",
        ".spec",
        ".ports",
        "[0]",
        "[-1]",
        "[*]",
        "[1:]",
        "[::-1]",
        "[::0]",
        "..",
        "..*",
        "[?@.x]",
        "[?@ == 1]",
        "[\"k\"]",
        "['k']",
        "[",
        "]",
        ".",
        "x",
        " ",
        "[-9223372036854775808]",
        "[9223372036854775807]",
        "[?length(@) > 1]",
        "[?match(@, '[')]",
        "[?search(@.name, 'a.*')]",
        ".other",
        ".x",
    ];
    let mut n = 0usize;
    for a in pieces {
        for b in pieces {
            for c in ["", ".name", "[0]", "[*]"] {
                let path = format!("${a}{b}{c}");
                if let Ok(p) = parse_remove_path(&path, PathSyntax::Extended) {
                    n += 1;
                    for (g, r) in [("", "services"), ("batch", "jobs"), ("", "configmaps")] {
                        out.push(CustomTransform {
                            name: format!("t{n}"),
                            api_group: g.into(),
                            resource: r.into(),
                            remove: vec![p.clone()],
                            at: "spec".into(),
                        });
                    }
                }
            }
        }
    }
    assert!(n > 300, "only {n} paths parsed");
    out
}

#[test]
fn odd_objects_do_not_panic() {
    let mapper = ResourceMapper::builtin();
    let ts = transforms();
    for doc in parse_stream(ODD_OBJECTS).unwrap() {
        let mut root = doc.root.clone();
        let _ = strip_builtin(&mut root);
        let _ = strip_builtin(&mut root);
        for t in &ts {
            let mut r = doc.root.clone();
            let _ = apply_custom_transforms(&mut r, std::slice::from_ref(t), &mapper);
        }
    }
}

#[test]
fn odd_custom_transform_specs_do_not_panic() {
    for src in [
        "null",
        "[]",
        "{spec: null, kind: CustomTransform}",
        "{apiGroup: [], resource: {}, remove: [[], {}, null]}",
        "{apiGroup: a, resource: b, remove: {a: b}}",
    ] {
        let n = parse_stream(src).unwrap().remove(0).root;
        assert!(parse_custom_transform(&n, "x").is_err(), "{src}");
    }
}
