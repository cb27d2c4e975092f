//! The destination cluster: what every stage needs to know about where manifests are going.
//!
//! [`ClusterSpec`] is the inline `spec.cluster` exactly as written; [`Cluster`] is the resolved
//! destination (after merging with inventory items, see `inventory`), whose `properties` are the
//! flat template data built with KubeStellar's precedence ([`crate::properties`]).

use serde::Serialize;
use serde_json::Value;

use crate::properties::collect as collect_properties;
use tailor_go::unicode::is_identifier as is_go_identifier;
use tailor_kube::json;
use tailor_kube::FieldError;
use tailor_kube::StringMap;

/// A Fleet ClusterGroup the cluster belongs to: its name and its own `metadata.labels`
/// (what `clusterGroupSelector` is tested against).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct ClusterGroup {
    /// `metadata.name` of the group.
    pub name: String,
    /// `metadata.labels` of the group.
    pub labels: StringMap,
}

/// A resolved destination cluster.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Cluster {
    /// Inventory name (ManagedCluster / Fleet Cluster / Destination `metadata.name`).
    pub name: String,
    /// Labels, used by every selector (Fleet clusterSelector, Kratix matchLabels).
    pub labels: StringMap,
    /// Annotations.
    pub annotations: StringMap,
    /// Fleet groups the cluster belongs to, sorted by name, names unique.
    pub groups: Vec<ClusterGroup>,
    /// Template properties, KubeStellar precedence already applied: `clusterName`, then
    /// identifier labels, identifier annotations, ConfigMap data / inline properties, binaryData.
    pub properties: StringMap,
    /// Kratix `spec.strictMatchLabels` of the Destination (false when unknown).
    pub strict_match_labels: bool,
    /// The cluster's Kubernetes version (`v1.29.3`), when the functionConfig gives it: a Helm
    /// chart rendered for the cluster sees it as `.Capabilities.KubeVersion`, as Fleet's agent
    /// renders with the version of the cluster it runs in.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kube_version: Option<String>,
    /// API versions the cluster serves beyond Helm's default set (`monitoring.coreos.com/v1`,
    /// `monitoring.coreos.com/v1/ServiceMonitor`): a chart sees them in
    /// `.Capabilities.APIVersions`, as on a cluster with those CRDs installed.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub api_versions: Vec<String>,
    /// The inventory object the cluster was resolved with, when it carries a namespace and
    /// template values: a Fleet `Cluster` object (whose `${ }` Helm values templating reads
    /// them as `.ClusterNamespace` and `.ClusterValues`). Not part of the cluster's printed form.
    #[serde(skip)]
    pub inventory: Option<InventoryObject>,
}

/// What a cluster's inventory object says besides its labels and annotations: its namespace
/// and template values (for Fleet, a `Cluster` object's `metadata.namespace` and
/// `spec.templateValues`, read by Fleet's Helm values templating).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct InventoryObject {
    /// `metadata.namespace` (Fleet: `.ClusterNamespace`).
    pub namespace: String,
    /// Template values (Fleet: `spec.templateValues`, `.ClusterValues`).
    pub template_values: serde_json::Map<String, Value>,
}

impl Cluster {
    /// A cluster that has only a name (its one property is `clusterName`).
    pub fn named(name: &str) -> Cluster {
        ClusterSpec::named(name).to_cluster()
    }

    /// Parses an inline `spec.cluster` and resolves it without any inventory.
    pub fn from_json(value: &Value, field_path: &str) -> Result<Cluster, FieldError> {
        ClusterSpec::from_json(value, field_path).map(|s| s.to_cluster())
    }

    /// The group with this name, if the cluster belongs to it.
    pub fn group(&self, name: &str) -> Option<&ClusterGroup> {
        self.groups.iter().find(|g| g.name == name)
    }
}

/// The inline `spec.cluster` as written: `{name, labels, annotations, groups: [{name, labels}],
/// properties, strictMatchLabels}`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ClusterSpec {
    /// Required, non-empty.
    pub name: String,
    /// Labels as written.
    pub labels: StringMap,
    /// Annotations as written.
    pub annotations: StringMap,
    /// Groups in the order written (names unique).
    pub groups: Vec<ClusterGroup>,
    /// Explicit properties: they play the role of the KubeStellar ConfigMap's `data`.
    pub properties: StringMap,
    /// Kratix strictMatchLabels, when given.
    pub strict_match_labels: Option<bool>,
    /// The cluster's Kubernetes version, when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kube_version: Option<String>,
    /// API versions it serves beyond Helm's defaults, as written.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub api_versions: Vec<String>,
}

/// The fields of `spec.cluster` (and of a `spec.clusters` entry).
pub const CLUSTER_FIELDS: &[&str] = &[
    "name",
    "labels",
    "annotations",
    "groups",
    "properties",
    "strictMatchLabels",
    "kubeVersion",
    "apiVersions",
];
const GROUP_FIELDS: &[&str] = &["name", "labels"];

impl ClusterSpec {
    /// A spec with only a name: "look it up in the inventory".
    pub fn named(name: &str) -> ClusterSpec {
        ClusterSpec {
            name: name.to_string(),
            ..ClusterSpec::default()
        }
    }

    /// Parses `spec.cluster`. Wrong types name the field path; unknown fields are rejected with
    /// the list of accepted ones; property names must be Go identifiers (KubeStellar would drop
    /// any other name, and a template could not refer to it as `{{.name}}`).
    pub fn from_json(value: &Value, field_path: &str) -> Result<ClusterSpec, FieldError> {
        let map = json::as_object(value, field_path)?;
        json::check_fields(map, field_path, CLUSTER_FIELDS)?;
        let name = match json::string(map.get("name"), &json::join(field_path, "name"))? {
            Some(n) if !n.is_empty() => n.to_string(),
            _ => {
                return Err(FieldError::new(
                    json::join(field_path, "name"),
                    "required: the cluster needs a name",
                ))
            }
        };
        let labels = json::string_map(
            json::field(map, "labels"),
            &json::join(field_path, "labels"),
        )?;
        let annotations = json::string_map(
            json::field(map, "annotations"),
            &json::join(field_path, "annotations"),
        )?;
        let props_path = json::join(field_path, "properties");
        let properties = json::string_map(json::field(map, "properties"), &props_path)?;
        if let Some(bad) = properties.keys().find(|k| !is_go_identifier(k)) {
            return Err(FieldError::new(
                json::join(&props_path, bad),
                "property names must be Go identifiers (letters, digits and '_', not starting with a digit, not a Go keyword), so templates can use {{.name}}",
            ));
        }
        let groups = parse_groups(map, field_path)?;
        let strict_match_labels = json::boolean(
            map.get("strictMatchLabels"),
            &json::join(field_path, "strictMatchLabels"),
        )?;
        let kube_version = kube_version(map, field_path)?;
        let api_versions = api_versions(map, field_path)?;
        Ok(ClusterSpec {
            name,
            labels,
            annotations,
            groups,
            properties,
            strict_match_labels,
            kube_version,
            api_versions,
        })
    }

    /// Resolves the spec on its own (no inventory): properties from `clusterName`, labels,
    /// annotations and `properties`, in KubeStellar's order.
    pub fn to_cluster(&self) -> Cluster {
        let mut groups = Vec::new();
        merge_groups(&mut groups, &self.groups);
        Cluster {
            name: self.name.clone(),
            properties: collect_properties(
                &self.name,
                &self.labels,
                &self.annotations,
                &[&self.properties],
            ),
            labels: self.labels.clone(),
            annotations: self.annotations.clone(),
            groups,
            strict_match_labels: self.strict_match_labels.unwrap_or(false),
            kube_version: self.kube_version.clone(),
            api_versions: self.api_versions.clone(),
            inventory: None,
        }
    }
}

/// `kubeVersion`: a version as Helm's `--kube-version` takes it (`v1.29.3`, `1.29`), checked
/// as [`tailor_kube::kube_version`] checks it.
fn kube_version(
    map: &serde_json::Map<String, Value>,
    field_path: &str,
) -> Result<Option<String>, FieldError> {
    let path = json::join(field_path, "kubeVersion");
    let Some(v) = json::string(map.get("kubeVersion"), &path)? else {
        return Ok(None);
    };
    tailor_kube::kube_version::parse(v).map_err(|e| {
        FieldError::new(
            path,
            format!("invalid kube version '{v}': {e} (give a version as `v1.29.3` or `1.29`)"),
        )
    })?;
    Ok(Some(v.to_string()))
}

/// `apiVersions`: non-empty strings, as Helm's `--api-versions` takes them.
fn api_versions(
    map: &serde_json::Map<String, Value>,
    field_path: &str,
) -> Result<Vec<String>, FieldError> {
    let path = json::join(field_path, "apiVersions");
    let versions = json::string_list(map.get("apiVersions"), &path)?;
    if let Some(at) = versions.iter().position(String::is_empty) {
        return Err(FieldError::new(
            json::index(&path, at),
            "an API version must not be empty (write `group/version` or `group/version/Kind`)",
        ));
    }
    Ok(versions)
}

fn parse_groups(
    map: &serde_json::Map<String, Value>,
    field_path: &str,
) -> Result<Vec<ClusterGroup>, FieldError> {
    let groups_path = json::join(field_path, "groups");
    let mut groups: Vec<ClusterGroup> = Vec::new();
    for (i, g) in json::list(map.get("groups"), &json::join(field_path, "groups"))?
        .iter()
        .enumerate()
    {
        let at = json::index(&groups_path, i);
        let gmap = json::as_object(g, &at)?;
        json::check_fields(gmap, &at, GROUP_FIELDS)?;
        let name = match json::string(gmap.get("name"), &json::join(&at, "name"))? {
            Some(n) if !n.is_empty() => n.to_string(),
            _ => {
                return Err(FieldError::new(
                    json::join(&at, "name"),
                    "required: a group needs a name",
                ))
            }
        };
        if groups.iter().any(|g| g.name == name) {
            return Err(FieldError::new(
                json::join(&at, "name"),
                format!("duplicate group {name:?}"),
            ));
        }
        let labels = json::string_map(json::field(gmap, "labels"), &json::join(&at, "labels"))?;
        groups.push(ClusterGroup { name, labels });
    }
    Ok(groups)
}

/// Adds `extra` groups to `groups` (a same-named group is replaced), keeping them sorted by name.
pub(crate) fn merge_groups(groups: &mut Vec<ClusterGroup>, extra: &[ClusterGroup]) {
    for g in extra {
        match groups.iter_mut().find(|have| have.name == g.name) {
            Some(have) => *have = g.clone(),
            None => groups.push(g.clone()),
        }
    }
    groups.sort_by(|a, b| a.name.cmp(&b.name));
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    use tailor_testkit::string_map as m;

    #[test]
    fn parses_the_full_shape() {
        let c = Cluster::from_json(
            &json!({
                "name": "virgo",
                "labels": {"env": "prod", "region": "eu"},
                "annotations": {"owner": "team-a"},
                "groups": [{"name": "prod", "labels": {"tier": "gold"}}, {"name": "eu"}],
                "properties": {"clusterHash": "1001-dead-beef"},
                "strictMatchLabels": true
            }),
            "spec.cluster",
        )
        .unwrap();
        assert_eq!(c.name, "virgo");
        assert_eq!(c.labels, m(&[("env", "prod"), ("region", "eu")]));
        assert_eq!(c.annotations, m(&[("owner", "team-a")]));
        // Sorted by name.
        assert_eq!(
            c.groups.iter().map(|g| g.name.as_str()).collect::<Vec<_>>(),
            ["eu", "prod"]
        );
        assert_eq!(c.group("prod").unwrap().labels, m(&[("tier", "gold")]));
        assert!(c.group("nope").is_none());
        assert!(c.strict_match_labels);
        assert_eq!(
            c.properties,
            m(&[
                ("clusterHash", "1001-dead-beef"),
                ("clusterName", "virgo"),
                ("env", "prod"),
                ("owner", "team-a"),
                ("region", "eu")
            ])
        );
    }

    #[test]
    fn a_name_alone_is_enough() {
        let c = Cluster::from_json(&json!({"name": "virgo"}), "spec.cluster").unwrap();
        assert_eq!(c, Cluster::named("virgo"));
        assert_eq!(c.properties, m(&[("clusterName", "virgo")]));
        assert!(c.groups.is_empty());
        assert!(!c.strict_match_labels);
        // Nulls are absent fields.
        let c =
            Cluster::from_json(&json!({"name": "v", "labels": null, "groups": null}), "c").unwrap();
        assert!(c.labels.is_empty());
    }

    #[test]
    fn errors_name_the_field() {
        let e = |v: Value| {
            ClusterSpec::from_json(&v, "spec.cluster")
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            e(json!("virgo")),
            "spec.cluster: expected a map, got string"
        );
        assert_eq!(
            e(json!({})),
            "spec.cluster.name: required: the cluster needs a name"
        );
        assert_eq!(
            e(json!({"name": ""})),
            "spec.cluster.name: required: the cluster needs a name"
        );
        assert_eq!(
            e(json!({"name": 7})),
            "spec.cluster.name: expected a string, got number (quote the value)"
        );
        assert_eq!(
            e(json!({"name": "v", "label": {}})),
            "spec.cluster.label: unknown field (did you mean \"labels\"?); accepted fields: annotations, apiVersions, groups, kubeVersion, labels, name, properties, strictMatchLabels"
        );
        assert_eq!(
            e(json!({"name": "v", "kubeVersion": "1"})),
            "spec.cluster.kubeVersion: invalid kube version '1': Invalid Semantic Version (give a version as `v1.29.3` or `1.29`)"
        );
        assert_eq!(
            e(json!({"name": "v", "apiVersions": ["monitoring.coreos.com/v1", ""]})),
            "spec.cluster.apiVersions[1]: an API version must not be empty (write `group/version` or `group/version/Kind`)"
        );
        assert_eq!(
            e(json!({"name": "v", "kubeVersion": 1.29})),
            "spec.cluster.kubeVersion: expected a string, got number (quote the value)"
        );
        assert_eq!(
            e(json!({"name": "v", "labels": {"tier": 1}})),
            "spec.cluster.labels.tier: expected a string, got number (quote the value)"
        );
        assert_eq!(
            e(json!({"name": "v", "annotations": ["a"]})),
            "spec.cluster.annotations: expected a map, got list"
        );
        assert_eq!(
            e(json!({"name": "v", "groups": {}})),
            "spec.cluster.groups: expected a list, got map"
        );
        assert_eq!(
            e(json!({"name": "v", "groups": ["prod"]})),
            "spec.cluster.groups[0]: expected a map, got string"
        );
        assert_eq!(
            e(json!({"name": "v", "groups": [{"labels": {}}]})),
            "spec.cluster.groups[0].name: required: a group needs a name"
        );
        assert_eq!(
            e(json!({"name": "v", "groups": [{"name": "a", "selector": {}}]})),
            "spec.cluster.groups[0].selector: unknown field; accepted fields: labels, name"
        );
        assert_eq!(
            e(json!({"name": "v", "groups": [{"name": "a"}, {"name": "a"}]})),
            "spec.cluster.groups[1].name: duplicate group \"a\""
        );
        assert_eq!(
            e(json!({"name": "v", "groups": [{"name": "a", "labels": {"x": true}}]})),
            "spec.cluster.groups[0].labels.x: expected a string, got boolean (quote the value)"
        );
        assert_eq!(
            e(json!({"name": "v", "strictMatchLabels": "yes"})),
            "spec.cluster.strictMatchLabels: expected a boolean, got string"
        );
        assert!(
            e(json!({"name": "v", "properties": {"location-group": "x"}})).starts_with(
                "spec.cluster.properties.location-group: property names must be Go identifiers"
            )
        );
        assert!(e(json!({"name": "v", "properties": {"type": "x"}}))
            .starts_with("spec.cluster.properties.type:"));
    }

    #[test]
    fn inline_properties_sit_at_the_configmap_level() {
        let c = Cluster::from_json(
            &json!({"name": "v", "labels": {"env": "label"}, "annotations": {"env": "annotation"}, "properties": {"env": "prop", "clusterName": "alias"}}),
            "c",
        )
        .unwrap();
        assert_eq!(c.properties["env"], "prop");
        assert_eq!(c.properties["clusterName"], "alias");
        assert_eq!(c.name, "v");
    }

    #[test]
    fn merge_groups_replaces_by_name_and_sorts() {
        let mut g = vec![ClusterGroup {
            name: "b".into(),
            labels: m(&[("x", "1")]),
        }];
        merge_groups(
            &mut g,
            &[
                ClusterGroup {
                    name: "b".into(),
                    labels: m(&[("x", "2")]),
                },
                ClusterGroup {
                    name: "a".into(),
                    labels: m(&[]),
                },
            ],
        );
        assert_eq!(g.len(), 2);
        assert_eq!(g[0].name, "a");
        assert_eq!(g[1].labels["x"], "2");
    }

    #[test]
    fn serializes_deterministically() {
        let c =
            Cluster::from_json(&json!({"name": "v", "labels": {"b": "1", "a": "2"}}), "c").unwrap();
        let s = serde_json::to_string(&c).unwrap();
        assert!(
            s.starts_with(r#"{"name":"v","labels":{"a":"2","b":"1"}"#),
            "{s}"
        );
        assert!(s.contains(r#""strictMatchLabels":false"#));
    }
}
