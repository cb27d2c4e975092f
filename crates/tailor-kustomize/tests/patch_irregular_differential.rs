//! Differential test against the real `kubectl kustomize` (kustomize v5.5.0) on associative
//! lists that are not regular, the lists kyaml's element algorithm treats in order-dependent
//! ways and this crate answers from indexes (`src/patch/merge2/indexed.rs`): `ports` (merge keys
//! `containerPort` and `protocol`), `env` (`name`) and `finalizers` (a list of primitives) whose
//! elements miss a key, have an empty, null or collection key, share key values, are null or
//! empty maps, or carry `$patch` directives; patches on Deployments whose containers may lack
//! the list (the destination then takes the patch's list) or repeat a name.
//!
//! Skips, loudly, only when `kubectl` is not installed. `TAILOR_DIFF_CASES` overrides the
//! number of cases (default 200); `TAILOR_DIFF_SEED` the seed.

use serde_json::Value as Json;
use tailor_kustomize::patch::{apply_patches, PatchSpec};
use tailor_testkit::differential::{difference, Cases, Outcome};
use tailor_testkit::json::numbers_as_f64;
use tailor_testkit::yaml::{docs, indent};
use tailor_testkit::Rng;

/// A key field of an element: a value, or missing, empty, null, or a collection.
fn key_field(rng: &mut Rng, key: &str, values: &[&str]) -> String {
    match rng.below(12) {
        0 | 1 => String::new(),
        2 => format!("{key}: \"\"\n"),
        3 => format!("{key}: null\n"),
        4 => format!("{key}: {{}}\n"),
        _ => format!("{key}: {}\n", rng.pick(values)),
    }
}

/// One element of a keyed list (keys and a payload), or an irregular one.
fn element(rng: &mut Rng, keys: &[(&str, &[&str])], payload: &str, patch: bool) -> String {
    match rng.below(if patch { 16 } else { 14 }) {
        0 => return "- null\n".into(),
        1 => return "- {}\n".into(),
        _ => {}
    }
    let mut lines: String = keys.iter().map(|(k, v)| key_field(rng, k, v)).collect();
    lines += &match rng.below(if patch { 6 } else { 3 }) {
        0 => String::new(),
        3 => "$patch: delete\n".into(),
        4 => "$patch: replace\n".into(),
        _ => format!("{payload}: v{}\n", rng.below(4)),
    };
    if lines.is_empty() {
        return "- {}\n".into();
    }
    let mut out = String::new();
    for (i, line) in lines.lines().enumerate() {
        out += &format!("{}{line}\n", if i == 0 { "- " } else { "  " });
    }
    out
}

fn list(
    rng: &mut Rng,
    field: &str,
    keys: &[(&str, &[&str])],
    payload: &str,
    patch: bool,
) -> String {
    if rng.chance(20) {
        return String::new();
    }
    let items: String = (0..1 + rng.below(5))
        .map(|_| element(rng, keys, payload, patch))
        .collect();
    format!("{field}:\n{}", indent(items.trim_end(), "  "))
}

const PORTS: &[(&str, &[&str])] = &[
    ("containerPort", &["80", "81", "9090"]),
    ("protocol", &["TCP", "UDP"]),
];
const ENV: &[(&str, &[&str])] = &[("name", &["a", "b", "c"])];

fn deployment(rng: &mut Rng, patch: bool) -> String {
    let mut containers = String::new();
    for _ in 0..1 + rng.below(2) {
        let mut c = format!("name: {}\n", rng.pick(&["web", "web", "side"]));
        if !patch {
            c += "image: nginx\n";
        }
        c += &list(rng, "ports", PORTS, "name", patch);
        c += &list(rng, "env", ENV, "value", patch);
        containers += &format!("- {}\n", indent(c.trim_end(), "  ").trim_start());
    }
    let finalizers: Vec<&str> = (0..rng.below(5))
        .map(|_| rng.pick(&["x", "y", "x", "''", "z"]))
        .collect();
    let finalizers = if finalizers.is_empty() {
        String::new()
    } else {
        format!("  finalizers: [{}]\n", finalizers.join(", "))
    };
    let selector = if patch {
        ""
    } else {
        "  selector:\n    matchLabels:\n      app: x\n"
    };
    format!(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: w\n{finalizers}spec:\n{selector}  template:\n    spec:\n      containers:\n{}",
        indent(containers.trim_end(), "      ")
    )
}

fn to_data(nodes: &[tailor_yaml::Node]) -> Vec<Json> {
    let data = nodes.iter().map(|n| numbers_as_f64(n.to_json().unwrap()));
    data.map(|mut v| {
        // kustomize drops an empty `metadata.annotations` at the end of every build.
        if let Some(Json::Object(m)) = v.pointer_mut("/metadata") {
            if m.get("annotations")
                .is_some_and(|a| a.as_object().is_some_and(|o| o.is_empty()))
            {
                m.remove("annotations");
            }
        }
        v
    })
    .collect()
}

fn ours(resource: &str, patches: &[String]) -> Outcome<Vec<Json>> {
    let mut docs = docs(resource);
    let specs: Result<Vec<PatchSpec>, _> = patches
        .iter()
        .map(|p| PatchSpec::from_text(p, None))
        .collect();
    let result = specs.and_then(|specs| apply_patches(&mut docs, &specs));
    match result {
        Ok(_) => Outcome::Data(to_data(&docs)),
        Err(e) => Outcome::Error(e.to_string()),
    }
}

#[test]
fn irregular_lists_merge_as_kubectl_kustomize_merges_them() {
    let Some(mut cases) = Cases::start(
        "irregular_lists_merge_as_kubectl_kustomize_merges_them",
        "irregular",
        0x51DE_CA12_0BAD_F00D,
    ) else {
        return;
    };
    let (mut same_data, mut same_error) = (0, 0);
    for i in 0..cases.count {
        let resource = deployment(&mut cases.rng, false);
        let patches: Vec<String> = (0..1 + cases.rng.below(2))
            .map(|_| deployment(&mut cases.rng, true))
            .collect();
        let mut k = String::from("resources:\n- resources.yaml\npatches:\n");
        for p in &patches {
            k += &format!("- patch: |-\n{}", indent(p.trim_end(), "    "));
        }
        let (dir, build) = cases.build(
            i,
            &[("resources.yaml", &resource), ("kustomization.yaml", &k)],
        );
        let theirs = Outcome::of_kubectl(build, |out| to_data(&docs(out)));
        let mine = ours(&resource, &patches);
        let verdict = match (&theirs, &mine) {
            (Outcome::Data(a), Outcome::Data(b)) if a == b => {
                same_data += 1;
                None
            }
            (Outcome::Error(_), Outcome::Error(_)) => {
                same_error += 1;
                None
            }
            _ => Some(format!(
                "{}\n--- kustomization:\n{k}\n--- resources:\n{resource}",
                difference(&theirs, &mine)
            )),
        };
        cases.verdict(i, &dir, verdict);
    }
    let summary = format!(
        "irregular lists: {} cases: {same_data} same data, {same_error} both failed, {} mismatches",
        cases.count,
        cases.mismatches()
    );
    assert!(
        same_data * 2 > cases.count,
        "too few cases merged: {summary}"
    );
    cases.finish(&summary);
}
