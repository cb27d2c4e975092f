//! What a fleet.yaml may hold: the fields of Fleet's `FleetYAML` Go type
//! (`pkg/apis/fleet.cattle.io/v1alpha1/fleetyaml.go` with `BundleSpec`, `BundleTarget`,
//! `BundleDeploymentOptions`, `HelmOptions`, ...), and what Fleet's reader checks
//! (`internal/bundlereader/validate_fleetyaml.go`).
//!
//! Fleet decodes fleet.yaml with `encoding/json`, which matches keys case-insensitively and
//! drops keys its types do not have. tailor does the same, but says so: an unknown key is a
//! warning naming it ([`prune`]). Keys tailor's own configuration has and Fleet's does not
//! (the Flux overlay fields a `Tailor` spec carries) are errors: the same fleet.yaml would
//! deploy without them in Fleet, so they belong in a `Tailor` spec.

use serde_json::{Map, Value};
use tailor_kube::json::{index, join, suggest};
use tailor_kube::Diagnostic;

/// The shape of a value Fleet decodes: which keys a map may hold.
#[derive(Clone, Copy)]
enum Shape {
    /// Data, or a structure tailor does not look into: kept as written.
    Any,
    /// A struct: these fields (a key that is none of them is dropped).
    Fields(&'static [(&'static str, Shape)]),
    /// A list of these.
    List(&'static Shape),
    /// A struct that may also carry the caller's own fields (the root and the targets):
    /// there, those are errors rather than unknown keys.
    Entry(&'static [(&'static str, Shape)]),
}

use Shape::{Any, Entry, Fields, List};

const SELECTOR: Shape = Fields(&[
    ("matchLabels", Any),
    (
        "matchExpressions",
        List(&Fields(&[("key", Any), ("operator", Any), ("values", Any)])),
    ),
]);

const KEY_REF: Shape = Fields(&[("name", Any), ("namespace", Any), ("key", Any)]);

const HELM: Shape = Fields(&[
    ("chart", Any),
    ("repo", Any),
    ("releaseName", Any),
    ("version", Any),
    ("timeoutSeconds", Any),
    ("values", Any),
    (
        "valuesFrom",
        List(&Fields(&[
            ("configMapKeyRef", KEY_REF),
            ("secretKeyRef", KEY_REF),
        ])),
    ),
    ("templateValues", Any),
    ("force", Any),
    ("takeOwnership", Any),
    ("maxHistory", Any),
    ("valuesFiles", Any),
    ("waitForJobs", Any),
    ("atomic", Any),
    ("disablePreProcess", Any),
    ("disableDNS", Any),
    ("skipSchemaValidation", Any),
    ("disableDependencyUpdate", Any),
]);

const DIFF: Shape = Fields(&[(
    "comparePatches",
    List(&Fields(&[
        ("apiVersion", Any),
        ("kind", Any),
        ("name", Any),
        ("namespace", Any),
        ("jsonPointers", Any),
        (
            "operations",
            List(&Fields(&[("op", Any), ("path", Any), ("value", Any)])),
        ),
    ])),
)]);

/// `BundleDeploymentOptions` (with `GitOpsBundleDeploymentOptions` inlined), followed by
/// the extra fields of the struct that inlines it.
macro_rules! options {
    ($($extra:expr),* $(,)?) => {
        &[
            ("defaultNamespace", Any),
            ("namespace", Any),
            ("helm", HELM),
            ("serviceAccount", Any),
            ("createNamespace", Any),
            ("forceSyncGeneration", Any),
            ("diff", DIFF),
            ("keepResources", Any),
            ("deleteNamespace", Any),
            ("ignore", Fields(&[("conditions", Any)])),
            (
                "correctDrift",
                Fields(&[("enabled", Any), ("force", Any), ("keepFailHistory", Any)]),
            ),
            ("namespaceLabels", Any),
            ("namespaceAnnotations", Any),
            ("deleteCRDResources", Any),
            ("downstreamResources", List(&Fields(&[("kind", Any), ("name", Any)]))),
            ("overwrites", Any),
            ("allowedTargetNamespaceSelector", SELECTOR),
            ("yaml", Fields(&[("overlays", Any)])),
            ("kustomize", Fields(&[("dir", Any)])),
            $($extra),*
        ]
    };
}

/// `BundleTarget`.
const TARGET: Shape = Entry(options!(
    ("name", Any),
    ("clusterName", Any),
    ("clusterSelector", SELECTOR),
    ("clusterGroup", Any),
    ("clusterGroupSelector", SELECTOR),
    ("doNotDeploy", Any),
));

/// `GitTarget` (`overrideTargets` entries).
const GIT_TARGET: Shape = Fields(&[
    ("name", Any),
    ("clusterName", Any),
    ("clusterSelector", SELECTOR),
    ("clusterGroup", Any),
    ("clusterGroupSelector", SELECTOR),
]);

/// `FleetYAML`: `name`, `labels`, `BundleSpec` inlined, `targetCustomizations`, `imageScans`,
/// `overrideTargets`.
const FLEET_YAML: Shape = Entry(options!(
    ("name", Any),
    ("labels", Any),
    ("paused", Any),
    ("rolloutStrategy", Any),
    ("resources", Any),
    ("targetCustomizationMode", Any),
    ("targets", List(&TARGET)),
    ("targetRestrictions", Any),
    (
        "dependsOn",
        List(&Fields(&[
            ("name", Any),
            ("selector", SELECTOR),
            ("acceptedStates", Any),
        ]))
    ),
    ("contentsId", Any),
    ("helmOpOptions", Any),
    ("valuesHash", Any),
    ("targetCustomizations", List(&TARGET)),
    ("imageScans", Any),
    ("overrideTargets", List(&GIT_TARGET)),
));

/// A fleet.yaml field in a dotted path (`targetCustomizations[0].helm.values`), or the file.
pub(crate) fn at(path: &str) -> String {
    if path.is_empty() {
        "fleet.yaml".to_string()
    } else {
        format!("fleet.yaml {path}")
    }
}

/// fleet.yaml as Fleet's decoder sees it: keys in their canonical spelling (matched
/// case-insensitively, a later spelling winning), unknown keys dropped with a warning each.
/// `foreign` names fields the caller's own configuration has at the root and in targets:
/// those are errors.
pub(crate) fn prune(
    doc: &Value,
    foreign: &[&str],
) -> Result<(Value, Vec<Diagnostic>), Vec<Diagnostic>> {
    let mut notes = Vec::new();
    let pruned = prune_at(doc, FLEET_YAML, "", foreign, &mut notes);
    let (errors, warnings): (Vec<_>, Vec<_>) = notes.into_iter().partition(Diagnostic::is_error);
    if errors.is_empty() {
        Ok((pruned, warnings))
    } else {
        Err(errors)
    }
}

fn prune_at(
    v: &Value,
    shape: Shape,
    path: &str,
    foreign: &[&str],
    notes: &mut Vec<Diagnostic>,
) -> Value {
    let (fields, entry) = match shape {
        Any => return v.clone(),
        List(elem) => {
            return match v {
                Value::Array(items) => Value::Array(
                    items
                        .iter()
                        .enumerate()
                        .map(|(i, e)| prune_at(e, *elem, &index(path, i), foreign, notes))
                        .collect(),
                ),
                other => other.clone(),
            }
        }
        Fields(f) => (f, false),
        Entry(f) => (f, true),
    };
    let Value::Object(map) = v else {
        // The reader reports the wrong type.
        return v.clone();
    };
    let names: Vec<&str> = fields.iter().map(|(n, _)| *n).collect();
    let mut out = Map::new();
    for (key, value) in map {
        let field = fields
            .iter()
            .find(|(n, _)| *n == key)
            .or_else(|| fields.iter().find(|(n, _)| n.eq_ignore_ascii_case(key)));
        let here = join(path, key);
        match field {
            Some((name, sub)) => {
                let v = prune_at(value, *sub, &join(path, name), foreign, notes);
                out.insert(name.to_string(), v);
            }
            None if entry && foreign.iter().any(|f| f.eq_ignore_ascii_case(key)) => {
                notes.push(Diagnostic::new(
                    at(&here),
                    format!(
                        "Fleet has no field {key:?}: its fleet.yaml reader drops it, so Fleet deploys this bundle without it. A Flux overlay field like this belongs in a Tailor spec (spec.{key}, or in an entry of spec.targetCustomizations), not in fleet.yaml"
                    ),
                ));
            }
            None => {
                let hint = suggest(key, &names)
                    .map(|s| format!(" (did you mean {s:?}?)"))
                    .unwrap_or_default();
                notes.push(
                    Diagnostic::warning(format!(
                        "unknown field{hint}; Fleet ignores it, and so does tailor"
                    ))
                    .at(at(&here)),
                );
            }
        }
    }
    Value::Object(out)
}

/// `BundleState` values (`StateRank`), in rank order, as Fleet lists them in its message.
const BUNDLE_STATES: &[&str] = &[
    "Ready",
    "NotReady",
    "Pending",
    "OutOfSync",
    "Modified",
    "WaitApplied",
    "ErrApplied",
];

/// `validateFleetYAML`: every `dependsOn` entry names a bundle or a selector, and its
/// `acceptedStates` are bundle states. Fleet's reader fails the bundle otherwise.
pub(crate) fn validate(doc: &Map<String, Value>) -> Result<(), Diagnostic> {
    let Some(Value::Array(deps)) = doc.get("dependsOn") else {
        return Ok(());
    };
    for (i, dep) in deps.iter().enumerate() {
        let here = index("dependsOn", i);
        let Value::Object(dep) = dep else {
            return Err(Diagnostic::new(
                at(&here),
                "expected a map with name or selector",
            ));
        };
        let name = dep.get("name").and_then(Value::as_str).unwrap_or("");
        let selector = dep.get("selector").is_some_and(|s| !s.is_null());
        if name.is_empty() && !selector {
            return Err(Diagnostic::new(
                at(&here),
                "must specify either 'name' or 'selector'",
            ));
        }
        let states = match dep.get("acceptedStates") {
            None | Some(Value::Null) => &[][..],
            Some(Value::Array(s)) => s.as_slice(),
            Some(_) => {
                return Err(Diagnostic::new(
                    at(&join(&here, "acceptedStates")),
                    "expected a list of bundle states",
                ))
            }
        };
        for (j, state) in states.iter().enumerate() {
            let s = state.as_str().unwrap_or("");
            if !BUNDLE_STATES.contains(&s) || !state.is_string() {
                return Err(Diagnostic::new(
                    at(&index(&join(&here, "acceptedStates"), j)),
                    format!(
                        "invalid state {}, valid values are: [{}]",
                        state,
                        BUNDLE_STATES.join(" ")
                    ),
                ));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn unknown_keys_are_dropped_with_a_warning_and_keys_take_their_spelling() {
        let (v, notes) = prune(
            &json!({"NameSpace": "a", "bogus": 1, "helm": {"valeus": {}, "Values": {"x": 1}},
                    "targetCustomizations": [{"name": "t", "clustrSelector": {}}]}),
            &["namePrefix"],
        )
        .unwrap();
        assert_eq!(
            v,
            json!({"namespace": "a", "helm": {"values": {"x": 1}},
                   "targetCustomizations": [{"name": "t"}]})
        );
        let texts: Vec<String> = notes.iter().map(|n| n.to_string()).collect();
        assert_eq!(
            texts,
            [
                "fleet.yaml bogus: unknown field; Fleet ignores it, and so does tailor",
                "fleet.yaml helm.valeus: unknown field (did you mean \"values\"?); Fleet ignores it, and so does tailor",
                "fleet.yaml targetCustomizations[0].clustrSelector: unknown field (did you mean \"clusterSelector\"?); Fleet ignores it, and so does tailor",
            ]
        );
        assert!(notes.iter().all(|n| !n.is_error()));
    }

    #[test]
    fn the_callers_own_fields_are_errors_at_the_root_and_in_targets() {
        let e = prune(
            &json!({"namePrefix": "p-", "targets": [{"NamePrefix": "x"}], "helm": {"namePrefix": 1}}),
            &["namePrefix"],
        )
        .unwrap_err();
        let fields: Vec<&str> = e.iter().map(|d| d.field.as_str()).collect();
        assert_eq!(
            fields,
            ["fleet.yaml namePrefix", "fleet.yaml targets[0].NamePrefix"]
        );
        assert!(e[0].message.contains("Tailor spec"), "{}", e[0].message);
    }

    #[test]
    fn depends_on_is_checked_as_fleet_does() {
        let check = |v: Value| validate(v.as_object().unwrap()).map_err(|e| e.to_string());
        assert!(check(json!({"dependsOn": [{"name": "a"}, {"selector": {}}]})).is_ok());
        assert_eq!(
            check(json!({"dependsOn": [{"acceptedStates": ["Ready"]}]})).unwrap_err(),
            "fleet.yaml dependsOn[0]: must specify either 'name' or 'selector'"
        );
        assert_eq!(
            check(json!({"dependsOn": [{"name": "a", "acceptedStates": ["Ready", "Foo"]}]}))
                .unwrap_err(),
            "fleet.yaml dependsOn[0].acceptedStates[1]: invalid state \"Foo\", valid values are: [Ready NotReady Pending OutOfSync Modified WaitApplied ErrApplied]"
        );
    }
}
