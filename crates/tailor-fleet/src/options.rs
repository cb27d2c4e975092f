//! Fleet's `BundleDeploymentOptions` as far as a customization entry carries them, and Fleet's
//! `options.Merge` (`internal/cmd/controller/options/calculate.go`, `docs/semantics/fleet.md`
//! §2a). A caller can let each entry carry more fields of its own ([`Extra`]), merged with the
//! entries' options.

use serde_json::{Map, Value};
use tailor_cluster::FieldError;

use crate::json::{self, join};
use crate::merge::{self, merge_by_key, merge_into};
use crate::Dialect;

/// Option fields Fleet merges or carries (`BundleDeploymentOptions`).
pub const FLEET_OPTION_FIELDS: &[&str] = &json::concat_names::<11, 8, 19>(MERGED, NOT_MERGED);

/// Fields of `BundleDeploymentOptions` that `Merge` takes from a customization.
const MERGED: [&str; 11] = [
    "namespace",
    "defaultNamespace",
    "serviceAccount",
    "yaml",
    "helm",
    "kustomize",
    "diff",
    "forceSyncGeneration",
    "keepResources",
    "correctDrift",
    "downstreamResources",
];

/// Fields of `BundleDeploymentOptions` that `Merge` never takes from a customization: the
/// base value is kept and a customization's value is ignored.
const NOT_MERGED: [&str; 8] = [
    "deleteNamespace",
    "ignore",
    "deleteCRDResources",
    "createNamespace",
    "overwrites",
    "allowedTargetNamespaceSelector",
    "namespaceLabels",
    "namespaceAnnotations",
];

const HELM_FIELDS: &[&str] = &[
    "chart",
    "repo",
    "releaseName",
    "version",
    "timeoutSeconds",
    "values",
    "valuesFrom",
    "templateValues",
    "force",
    "takeOwnership",
    "maxHistory",
    "valuesFiles",
    "waitForJobs",
    "atomic",
    "disablePreProcess",
    "disableDNS",
    "skipSchemaValidation",
    "disableDependencyUpdate",
];
const HELM_STRINGS: &[&str] = &["chart", "repo", "releaseName", "version"];
const HELM_STICKY: &[&str] = &[
    "force",
    "atomic",
    "takeOwnership",
    "disablePreProcess",
    "waitForJobs",
    "disableDNS",
];
/// Helm fields `Merge` keeps from the base only.
#[cfg_attr(not(test), allow(dead_code))]
const HELM_NOT_MERGED: &[&str] = &[
    "maxHistory",
    "skipSchemaValidation",
    "disableDependencyUpdate",
    "valuesFiles",
];

/// Fields a caller lets every entry (and the root) carry besides Fleet's own, read and merged
/// along with them. `()` carries none: a fleet.yaml has only Fleet's fields.
pub trait Extra: Clone + std::fmt::Debug + Default + PartialEq {
    /// The field names it reads (accepted in an entry besides Fleet's).
    fn fields() -> &'static [&'static str];
    /// Reads them from an entry's (already key-checked) map written at `path`.
    fn read(map: &Map<String, Value>, path: &str) -> Result<Self, Vec<FieldError>>;
    /// `self` with a later entry's fields merged over it.
    fn merge(&self, later: &Self) -> Self;
}

impl Extra for () {
    fn fields() -> &'static [&'static str] {
        &[]
    }

    fn read(_: &Map<String, Value>, _: &str) -> Result<(), Vec<FieldError>> {
        Ok(())
    }

    fn merge(&self, _: &()) {}
}

/// The options of one entry (or the bundle root), and the result of merging them.
///
/// Strings are `None` when absent, null or `""` (Go's zero value). Fields tailor does not act
/// on (`helm`, `kustomize`, `diff`, ...) are kept and merged by Fleet's rules so that the
/// integrator can warn about them ([`Options::fields_without_effect`]).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Options<E = ()> {
    /// Fleet `namespace` (Go `TargetNamespace`): forced on every object.
    pub namespace: Option<String>,
    /// Fleet `defaultNamespace`: set on namespaced objects that have none.
    pub default_namespace: Option<String>,
    pub service_account: Option<String>,
    /// `yaml.overlays`, in order (may repeat: Fleet applies a repeated name twice).
    pub yaml_overlays: Vec<String>,
    /// `helm` as written (keys validated), merged by Fleet's helm rules.
    pub helm: Option<Map<String, Value>>,
    /// `kustomize.dir`.
    pub kustomize_dir: Option<String>,
    /// Whether a `kustomize` map was given at all.
    pub kustomize_set: bool,
    /// `diff.comparePatches` entries.
    pub compare_patches: Vec<Value>,
    pub force_sync_generation: i64,
    pub keep_resources: bool,
    pub correct_drift: Option<Value>,
    pub downstream_resources: Vec<Value>,
    /// Fields `Merge` keeps from the base only (`deleteNamespace`, `ignore`, ...), as written.
    pub not_merged: Map<String, Value>,
    /// The caller's own fields.
    pub extra: E,
}

impl<E: Extra> Options<E> {
    /// Reads the option fields out of an already key-checked map (other keys are ignored).
    pub(crate) fn from_map(
        m: &Map<String, Value>,
        path: &str,
        dialect: Dialect,
    ) -> Result<Options<E>, Vec<FieldError>> {
        let fleet = fleet_fields(m, path, dialect).map_err(|e| vec![e])?;
        let extra = E::read(m, path)?;
        Ok(Options {
            namespace: fleet.namespace,
            default_namespace: fleet.default_namespace,
            service_account: fleet.service_account,
            yaml_overlays: fleet.yaml_overlays,
            helm: fleet.helm,
            kustomize_dir: fleet.kustomize_dir,
            kustomize_set: fleet.kustomize_set,
            compare_patches: fleet.compare_patches,
            force_sync_generation: fleet.force_sync_generation,
            keep_resources: fleet.keep_resources,
            correct_drift: fleet.correct_drift,
            downstream_resources: fleet.downstream_resources,
            not_merged: fleet.not_merged,
            extra,
        })
    }
    /// Fleet's `options.Merge(base, custom)` (`docs/semantics/fleet.md` §2a), with the caller's
    /// fields merged by their own rule.
    pub fn merge(&self, custom: &Options<E>) -> Options<E> {
        let s = |c: &Option<String>, b: &Option<String>| c.clone().or_else(|| b.clone());
        let helm = match (&self.helm, &custom.helm) {
            (base, None) => base.clone(),
            (base, Some(c)) => Some(merge_helm(base.as_ref().unwrap_or(&Map::new()), c)),
        };
        Options {
            namespace: s(&custom.namespace, &self.namespace),
            default_namespace: s(&custom.default_namespace, &self.default_namespace),
            service_account: s(&custom.service_account, &self.service_account),
            yaml_overlays: self
                .yaml_overlays
                .iter()
                .chain(&custom.yaml_overlays)
                .cloned()
                .collect(),
            helm,
            kustomize_dir: s(&custom.kustomize_dir, &self.kustomize_dir),
            kustomize_set: self.kustomize_set || custom.kustomize_set,
            compare_patches: merge_by_key(
                &self.compare_patches,
                &custom.compare_patches,
                merge::compare_patch_key,
            ),
            force_sync_generation: if custom.force_sync_generation > 0 {
                custom.force_sync_generation
            } else {
                self.force_sync_generation
            },
            keep_resources: self.keep_resources || custom.keep_resources,
            correct_drift: custom
                .correct_drift
                .clone()
                .or_else(|| self.correct_drift.clone()),
            downstream_resources: merge_by_key(
                &self.downstream_resources,
                &custom.downstream_resources,
                merge::downstream_key,
            ),
            not_merged: self.not_merged.clone(),
            extra: self.extra.merge(&custom.extra),
        }
    }

    /// Names of the set fields that have no effect on tailor's output (Helm, kustomize, diff,
    /// drift correction, ...), so the caller can say so instead of ignoring them silently.
    pub fn fields_without_effect(&self) -> Vec<&'static str> {
        let mut out = Vec::new();
        // `kustomize` is not listed: a `kustomize.dir` that names a kustomization makes the
        // bundle one (refused per cluster), and one that names none does nothing in Fleet.
        let checks: [(&'static str, bool); 7] = [
            ("serviceAccount", self.service_account.is_some()),
            ("helm", self.helm.is_some()),
            ("diff", !self.compare_patches.is_empty()),
            ("forceSyncGeneration", self.force_sync_generation != 0),
            ("keepResources", self.keep_resources),
            ("correctDrift", self.correct_drift.is_some()),
            ("downstreamResources", !self.downstream_resources.is_empty()),
        ];
        out.extend(checks.iter().filter(|(_, set)| *set).map(|(n, _)| *n));
        for k in &NOT_MERGED {
            // deleteCRDResources is modelled: it decides whether CRDs get Helm's keep policy.
            if *k != "deleteCRDResources" && self.not_merged.contains_key(*k) {
                out.push(k);
            }
        }
        out
    }

    /// `deleteCRDResources` (the bundle's; customizations do not merge it): when false, Fleet's
    /// agent gives every CustomResourceDefinition `helm.sh/resource-policy: keep`.
    pub fn delete_crd_resources(&self) -> bool {
        self.not_merged
            .get("deleteCRDResources")
            .and_then(Value::as_bool)
            .unwrap_or(false)
    }

    /// Fleet's release namespace: `namespace`, else `defaultNamespace`, else `"default"`.
    pub fn release_namespace(&self) -> &str {
        self.namespace
            .as_deref()
            .or(self.default_namespace.as_deref())
            .unwrap_or("default")
    }
}

/// Fleet's own option fields of an entry's map.
fn fleet_fields(
    m: &Map<String, Value>,
    path: &str,
    dialect: Dialect,
) -> Result<Options, FieldError> {
    let f = |k: &str| m.get(k);
    let p = |k: &str| join(path, k);
    let yaml_overlays = match f("yaml") {
        None | Some(Value::Null) => Vec::new(),
        Some(v) => {
            let y = json::checked_object(v, &p("yaml"), &["overlays"], dialect)?;
            json::string_list(y.get("overlays"), &join(&p("yaml"), "overlays"))?
        }
    };
    let helm = match f("helm") {
        None | Some(Value::Null) => None,
        Some(v) => Some(parse_helm(v, &p("helm"), dialect)?),
    };
    let (kustomize_set, kustomize_dir) = match f("kustomize") {
        None | Some(Value::Null) => (false, None),
        Some(v) => {
            let k = json::checked_object(v, &p("kustomize"), &["dir"], dialect)?;
            (
                true,
                json::nonempty_string(k.get("dir"), &join(&p("kustomize"), "dir"))?,
            )
        }
    };
    let compare_patches = match f("diff") {
        None | Some(Value::Null) => Vec::new(),
        Some(v) => {
            let d = json::checked_object(v, &p("diff"), &["comparePatches"], dialect)?;
            json::list(d.get("comparePatches"), &join(&p("diff"), "comparePatches"))?.to_vec()
        }
    };
    let correct_drift = match f("correctDrift") {
        None | Some(Value::Null) => None,
        Some(v) => Some(Value::Object(
            json::as_object(v, &p("correctDrift"))?.clone(),
        )),
    };
    for key in ["namespaceLabels", "namespaceAnnotations"] {
        json::string_object(f(key), &p(key))?;
    }
    let not_merged = NOT_MERGED
        .iter()
        .filter_map(|k| {
            f(k).filter(|v| !v.is_null())
                .map(|v| (k.to_string(), v.clone()))
        })
        .collect();
    Ok(Options {
        namespace: json::nonempty_string(f("namespace"), &p("namespace"))?,
        default_namespace: json::nonempty_string(f("defaultNamespace"), &p("defaultNamespace"))?,
        service_account: json::nonempty_string(f("serviceAccount"), &p("serviceAccount"))?,
        yaml_overlays,
        helm,
        kustomize_dir,
        kustomize_set,
        compare_patches,
        force_sync_generation: json::integer(f("forceSyncGeneration"), &p("forceSyncGeneration"))?
            .unwrap_or(0),
        keep_resources: json::boolean(f("keepResources"), &p("keepResources"))?.unwrap_or(false),
        correct_drift,
        downstream_resources: json::list(f("downstreamResources"), &p("downstreamResources"))?
            .to_vec(),
        not_merged,
        extra: (),
    })
}

fn parse_helm(v: &Value, path: &str, dialect: Dialect) -> Result<Map<String, Value>, FieldError> {
    let m = json::checked_object(v, path, HELM_FIELDS, dialect)?;
    let p = |k: &str| join(path, k);
    for k in HELM_STRINGS {
        json::nonempty_string(m.get(*k), &p(k))?;
    }
    for k in HELM_STICKY
        .iter()
        .chain(&["skipSchemaValidation", "disableDependencyUpdate"])
    {
        json::boolean(m.get(*k), &p(k))?;
    }
    for k in ["timeoutSeconds", "maxHistory"] {
        json::integer(m.get(k), &p(k))?;
    }
    json::object(m.get("values"), &p("values"))?;
    json::string_object(m.get("templateValues"), &p("templateValues"))?;
    json::list(m.get("valuesFrom"), &p("valuesFrom"))?;
    json::string_list(m.get("valuesFiles"), &p("valuesFiles"))?;
    Ok(m)
}

fn non_empty_str(m: &Map<String, Value>, k: &str) -> bool {
    m.get(k)
        .and_then(Value::as_str)
        .is_some_and(|s| !s.is_empty())
}

fn truthy(m: &Map<String, Value>, k: &str) -> bool {
    m.get(k).and_then(Value::as_bool).unwrap_or(false)
}

fn non_null_map<'a>(m: &'a Map<String, Value>, k: &str) -> Option<&'a Map<String, Value>> {
    m.get(k).and_then(Value::as_object)
}

/// The `helm` rows of `docs/semantics/fleet.md` §2a. `base` is already a (possibly empty)
/// helm map.
fn merge_helm(base: &Map<String, Value>, custom: &Map<String, Value>) -> Map<String, Value> {
    let mut out = base.clone();
    match custom.get("timeoutSeconds").and_then(Value::as_i64) {
        Some(t) if t > 0 => {
            out.insert("timeoutSeconds".into(), Value::from(t));
        }
        Some(t) if t < 0 => {
            out.insert("timeoutSeconds".into(), Value::from(0));
        }
        _ => {}
    }
    match (non_null_map(base, "values"), non_null_map(custom, "values")) {
        (None, Some(c)) => {
            out.insert("values".into(), Value::Object(c.clone()));
        }
        (Some(_), Some(c)) => {
            // `out` holds base's values already: merged where they are, not copied again.
            if let Some(Value::Object(values)) = out.get_mut("values") {
                merge_into(values, c);
            }
        }
        _ => {}
    }
    if let Some(c) = non_null_map(custom, "templateValues") {
        let mut t = non_null_map(base, "templateValues")
            .cloned()
            .unwrap_or_default();
        t.extend(c.iter().map(|(k, v)| (k.clone(), v.clone())));
        out.insert("templateValues".into(), Value::Object(t));
    }
    let list = |m: &Map<String, Value>, k: &str| {
        m.get(k)
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
    };
    let custom_from = list(custom, "valuesFrom");
    if !custom_from.is_empty() {
        let merged = merge_by_key(
            &list(base, "valuesFrom"),
            &custom_from,
            merge::values_from_key,
        );
        out.insert("valuesFrom".into(), Value::Array(merged));
    }
    for k in HELM_STRINGS {
        if non_empty_str(custom, k) {
            out.insert(k.to_string(), custom[*k].clone());
        }
    }
    for k in HELM_STICKY {
        if truthy(base, k) || truthy(custom, k) {
            out.insert(k.to_string(), Value::Bool(true));
        }
    }
    // HELM_NOT_MERGED fields: the base value stays as it is.
    out
}

#[cfg(test)]
mod tests;
