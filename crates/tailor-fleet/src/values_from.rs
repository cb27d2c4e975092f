//! `helm.valuesFrom`: Helm values the Fleet agent reads from ConfigMaps and Secrets on the
//! downstream cluster, merged over the bundle's values (rancher/fleet at commit
//! 3b2c622ce176b11644abc7fb768f87c3ffb5a3ab, `internal/helmdeployer/install.go` `getValues`,
//! `valuesFromConfigMap`, `valuesFromSecret`, `mergeValues`):
//!
//! - the values start from the merged `helm.values` (its `valuesFiles` already folded in and
//!   `${ }` templating already done: the controller does both before the agent runs);
//! - each `valuesFrom` entry in order: its `configMapKeyRef` merged first, then its
//!   `secretKeyRef` ("merge secret last to be compatible with fleet <= 0.6.0");
//! - a reference's namespace is the release namespace when it is empty or when the object is
//!   one of the bundle's `downstreamResources`; its key defaults to `values.yaml`;
//! - the key's text is read as one YAML document into a map (`NewYAMLToJSONDecoder`: numbers
//!   become float64); an empty document adds nothing;
//! - a missing object is the agent's error (`configmaps "NAME" not found`), a missing key
//!   `key K is missing from configmap NS/NAME, can't use it in valuesFrom`.
//!
//! tailor has no cluster to read: the ConfigMaps and Secrets are inputs ([`Source`]).

use std::collections::BTreeMap;

use crate::options::Options;
use serde_json::{Map, Value};
use tailor_go::Budget;
use tailor_yaml::sigs::{numbers::as_float64, v2read::yaml11_to_json_within};

/// The key Fleet reads when a reference names none (`helmdeployer.DefaultKey`).
pub const DEFAULT_KEY: &str = "values.yaml";

/// The two kinds a `valuesFrom` entry refers to, with their field in the entry.
const REFS: [(&str, &str); 2] = [("configMapKeyRef", "ConfigMap"), ("secretKeyRef", "Secret")];

/// A ConfigMap or Secret the run was given, as the agent would read it from the cluster: its
/// data decoded (a Secret's `data` from base64, its `stringData` folded in as the API server
/// does).
#[derive(Debug, Clone, PartialEq)]
pub struct Source {
    pub kind: &'static str,
    /// `None`: the object names no namespace, and stands for the one the reference asks for.
    pub namespace: Option<String>,
    pub name: String,
    pub data: BTreeMap<String, String>,
}

impl Source {
    /// A `v1` ConfigMap or Secret as a source; `Ok(None)` for any other object.
    pub fn from_object(o: &Value) -> Result<Option<Source>, String> {
        let kind = match (o.get("apiVersion"), o.get("kind").and_then(Value::as_str)) {
            (Some(Value::String(v)), Some("ConfigMap")) if v == "v1" => "ConfigMap",
            (Some(Value::String(v)), Some("Secret")) if v == "v1" => "Secret",
            _ => return Ok(None),
        };
        let meta = |k: &str| o.pointer(&format!("/metadata/{k}")).and_then(Value::as_str);
        let name = meta("name").unwrap_or_default().to_string();
        let mut data = BTreeMap::new();
        for (key, value) in strings(o.get("data")) {
            let text = if kind == "Secret" {
                let bytes = tailor_go::base64::decode_std(value.as_bytes())
                    .map_err(|e| format!("Secret {name:?}: data.{key} is not base64: {e}"))?;
                String::from_utf8_lossy(&bytes).into_owned()
            } else {
                value.to_string()
            };
            data.insert(key.to_string(), text);
        }
        if kind == "Secret" {
            for (key, value) in strings(o.get("stringData")) {
                data.insert(key.to_string(), value.to_string());
            }
        }
        Ok(Some(Source {
            kind,
            namespace: meta("namespace").map(str::to_string),
            name,
            data,
        }))
    }
}

fn strings(v: Option<&Value>) -> impl Iterator<Item = (&String, &str)> {
    v.and_then(Value::as_object)
        .into_iter()
        .flatten()
        .filter_map(|(k, v)| v.as_str().map(|s| (k, s)))
}

/// A field of a `valuesFrom` entry, matched case-insensitively as Fleet's `encoding/json`
/// decoding matches it.
fn field<'a>(m: &'a Map<String, Value>, key: &str) -> Option<&'a Value> {
    m.get(key).or_else(|| {
        m.iter()
            .rev()
            .find(|(k, _)| k.eq_ignore_ascii_case(key))
            .map(|(_, v)| v)
    })
}

fn text<'a>(m: &'a Map<String, Value>, key: &str) -> &'a str {
    field(m, key).and_then(Value::as_str).unwrap_or_default()
}

/// The ConfigMaps and Secrets `helm` refers to, as (kind, name): what a run takes as inputs.
pub fn referenced(helm: Option<&Map<String, Value>>) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    for entry in entries(helm) {
        for (field_name, kind) in REFS {
            if let Some(r) = field(entry, field_name).and_then(Value::as_object) {
                out.push((kind, text(r, "name").to_string()));
            }
        }
    }
    out
}

fn entries(helm: Option<&Map<String, Value>>) -> impl Iterator<Item = &Map<String, Value>> {
    helm.and_then(|h| field(h, "valuesFrom"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_object)
}

/// The namespace the agent installs the release into, and reads `valuesFrom` objects in by
/// default: `namespace`, else `defaultNamespace`, else `default` (the agent's default).
pub fn release_namespace<E>(options: &Options<E>) -> String {
    options
        .namespace
        .clone()
        .or_else(|| options.default_namespace.clone())
        .unwrap_or_else(|| "default".into())
}

/// Every value the agent gives Helm (`getValues`): `stored`, the bundle's values as Fleet
/// stores them for the cluster ([`crate::values::helm_values`]), with each
/// `options.helm.valuesFrom` entry merged over them, read from `sources`. The Helm stage and
/// `tailor fleet-values` both take their values from here. `None` when there are no values
/// and no `valuesFrom`.
pub fn agent_values<E>(
    options: &Options<E>,
    stored: Option<Map<String, Value>>,
    sources: &[Source],
    budget: &Budget,
) -> Result<Option<Map<String, Value>>, String> {
    let helm = options.helm.as_ref();
    if entries(helm).next().is_none() {
        return Ok(stored);
    }
    let mut values = stored.unwrap_or_default();
    let lookup = Lookup {
        release_namespace: &release_namespace(options),
        downstream: &options.downstream_resources,
        sources,
    };
    merge_values_from(&mut values, helm, &lookup, budget)?;
    Ok(Some(values))
}

/// Where the agent reads a reference's object: the release namespace, or the one named.
pub struct Lookup<'a> {
    pub release_namespace: &'a str,
    /// The bundle's `downstreamResources` (kind and name, kind in any case).
    pub downstream: &'a [Value],
    pub sources: &'a [Source],
}

/// `getValues` after the bundle's values: every `valuesFrom` entry merged into `values`. The
/// keys' text is read again for every destination: what its aliases expand to spends the
/// run's `budget`.
pub fn merge_values_from(
    values: &mut Map<String, Value>,
    helm: Option<&Map<String, Value>>,
    lookup: &Lookup<'_>,
    budget: &Budget,
) -> Result<(), String> {
    for (i, entry) in entries(helm).enumerate() {
        for (field_name, kind) in REFS {
            let Some(r) = field(entry, field_name).and_then(Value::as_object) else {
                continue;
            };
            let at = format!("helm.valuesFrom[{i}].{field_name}");
            if let Some(read) =
                read_ref(r, kind, lookup, budget).map_err(|e| format!("{at}: {e}"))?
            {
                merge_values(values, read);
            }
        }
    }
    Ok(())
}

/// One reference's values; `None` when its key holds an empty document.
fn read_ref(
    r: &Map<String, Value>,
    kind: &'static str,
    lookup: &Lookup<'_>,
    budget: &Budget,
) -> Result<Option<Map<String, Value>>, String> {
    let name = text(r, "name");
    let named = text(r, "namespace");
    let namespace = if named.is_empty() || is_downstream(lookup.downstream, kind, name) {
        lookup.release_namespace
    } else {
        named
    };
    let key = match text(r, "key") {
        "" => DEFAULT_KEY,
        k => k,
    };
    let lower = kind.to_lowercase();
    let found = find(lookup.sources, kind, namespace, name).ok_or_else(|| {
        format!(
            "{lower}s {name:?} not found in namespace {namespace:?}: the Fleet agent reads {kind} {namespace}/{name} from the cluster; give it to tailor as an input (a file or a ResourceList item)"
        )
    })?;
    let Some(text) = found.data.get(key) else {
        return Err(format!(
            "key {key} is missing from {lower} {namespace}/{name}, can't use it in valuesFrom"
        ));
    };
    match yaml11_to_json_within(text, budget) {
        Ok(Value::Null) => Ok(None),
        Ok(Value::Object(m)) => match as_float64(Value::Object(m)) {
            Value::Object(m) => Ok(Some(m)),
            _ => Ok(None),
        },
        Ok(other) => Err(format!(
            "{kind} {namespace}/{name} key {key}: the values are a {}, not a map",
            tailor_kube::json::type_name(&other)
        )),
        Err(e) => Err(format!("{kind} {namespace}/{name} key {key}: {e}")),
    }
}

/// The source of that identity: one in that namespace, else one naming no namespace.
fn find<'a>(sources: &'a [Source], kind: &str, namespace: &str, name: &str) -> Option<&'a Source> {
    let of = |s: &&Source| s.kind == kind && s.name == name;
    sources
        .iter()
        .filter(of)
        .find(|s| s.namespace.as_deref() == Some(namespace))
        .or_else(|| sources.iter().filter(of).find(|s| s.namespace.is_none()))
}

/// `isInDownstreamResources`: the kind compared in lower case.
fn is_downstream(downstream: &[Value], kind: &str, name: &str) -> bool {
    downstream
        .iter()
        .filter_map(Value::as_object)
        .any(|d| text(d, "name") == name && text(d, "kind").eq_ignore_ascii_case(kind))
}

/// Fleet's `mergeValues`: a map merges into a map key by key; anything else replaces.
pub fn merge_values(dest: &mut Map<String, Value>, src: Map<String, Value>) {
    for (k, v) in src {
        match (dest.get_mut(&k), v) {
            (Some(Value::Object(d)), Value::Object(s)) => merge_values(d, s),
            (_, v) => {
                dest.insert(k, v);
            }
        }
    }
}

#[cfg(test)]
mod tests;
