//! Inventory items: the objects that describe destination clusters, read from the input list.
//!
//! Recognised kinds ([`is_inventory`]):
//! - OCM `cluster.open-cluster-management.io/v1 ManagedCluster` (KubeStellar's inventory object);
//! - Fleet `fleet.cattle.io/v1alpha1 Cluster` and `ClusterGroup`;
//! - Kratix `platform.kratix.io/v1alpha1 Destination` (labels and `spec.strictMatchLabels`);
//! - `v1 ConfigMap` in namespace `customization-properties`, named after the cluster
//!   (KubeStellar's per-cluster properties).
//!
//! Rules tailor decides (upstream has one inventory kind per system, tailor reads them all):
//! - Objects of different kinds with the same `metadata.name` describe the same cluster; their
//!   labels and annotations are merged in item order, a later item winning per key.
//!   Two objects of the same kind and name (e.g. Fleet Clusters in two namespaces) are an error,
//!   because a cluster name would not say which one is meant.
//! - Fleet group membership (`query.go ClusterGroupsForCluster`): only ClusterGroups in the Fleet
//!   Cluster's namespace count; a group contains the cluster iff its `spec.selector` is non-null
//!   and matches the cluster's labels. Clusters known only from other kinds have no Fleet
//!   namespace and so belong to no inventory group.
//! - Properties follow `docs/semantics/kubestellar.md` §3.5, see [`crate::properties`].
//! - An inline `spec.cluster` with the same name is merged as if its fields had been written into
//!   the inventory objects, so inline wins level by level ([`Inventory::resolve_spec`]).

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use crate::model::{merge_groups, Cluster, ClusterGroup, ClusterSpec, InventoryObject};
use crate::properties::collect as collect_properties;
use tailor_go::unicode::is_identifier as is_go_identifier;
use tailor_kube::json;
use tailor_kube::labels::{self as selector, LabelSelector};
use tailor_kube::FieldError;
use tailor_kube::StringMap;

/// Namespace KubeStellar reads per-cluster property ConfigMaps from.
pub const PROPERTIES_NAMESPACE: &str = "customization-properties";

const OCM_API: &str = "cluster.open-cluster-management.io/v1";
const FLEET_API: &str = "fleet.cattle.io/v1alpha1";
const KRATIX_API: &str = "platform.kratix.io/v1alpha1";

/// Which inventory kind an item is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum InventoryKind {
    /// OCM ManagedCluster.
    ManagedCluster,
    /// Fleet Cluster.
    FleetCluster,
    /// Fleet ClusterGroup.
    FleetClusterGroup,
    /// Kratix Destination.
    Destination,
    /// KubeStellar `customization-properties/<cluster>` ConfigMap.
    PropertiesConfigMap,
}

impl InventoryKind {
    fn describe(self) -> &'static str {
        match self {
            InventoryKind::ManagedCluster => "ManagedCluster",
            InventoryKind::FleetCluster => "Cluster.fleet.cattle.io",
            InventoryKind::FleetClusterGroup => "ClusterGroup.fleet.cattle.io",
            InventoryKind::Destination => "Destination",
            InventoryKind::PropertiesConfigMap => "ConfigMap",
        }
    }
}

fn str_at<'a>(v: &'a Value, keys: &[&str]) -> Option<&'a str> {
    let mut cur = v;
    for k in keys {
        cur = cur.get(k)?;
    }
    cur.as_str()
}

/// The inventory kind of `item`, if it is one.
pub fn inventory_kind(item: &Value) -> Option<InventoryKind> {
    inventory_kind_of(
        str_at(item, &["apiVersion"])?,
        str_at(item, &["kind"])?,
        str_at(item, &["metadata", "namespace"]),
    )
}

/// The inventory kind of an object with this apiVersion, kind and namespace, if it is one:
/// the one table of inventory kinds, which callers that hold only an object's identity ask.
pub fn inventory_kind_of(
    api_version: &str,
    kind: &str,
    namespace: Option<&str>,
) -> Option<InventoryKind> {
    match (api_version, kind) {
        (OCM_API, "ManagedCluster") => Some(InventoryKind::ManagedCluster),
        (FLEET_API, "Cluster") => Some(InventoryKind::FleetCluster),
        (FLEET_API, "ClusterGroup") => Some(InventoryKind::FleetClusterGroup),
        (KRATIX_API, "Destination") => Some(InventoryKind::Destination),
        ("v1", "ConfigMap") if namespace == Some(PROPERTIES_NAMESPACE) => {
            Some(InventoryKind::PropertiesConfigMap)
        }
        _ => None,
    }
}

/// True when `item` describes a destination (and so is an input, never emitted).
pub fn is_inventory(item: &Value) -> bool {
    inventory_kind(item).is_some()
}

/// What the inventory knows about one cluster name.
#[derive(Debug, Clone, Default)]
struct Entry {
    labels: StringMap,
    annotations: StringMap,
    /// Namespace of the Fleet Cluster object, when there is one.
    fleet_namespace: Option<String>,
    /// `spec.templateValues` of the Fleet Cluster object.
    template_values: Map<String, Value>,
    strict_match_labels: Option<bool>,
    /// ConfigMap `data`, then decoded `binaryData` (the two top levels of
    /// `docs/semantics/kubestellar.md` §3.5).
    data: StringMap,
    binary_data: StringMap,
    /// Kinds seen, to reject two objects of one kind with the same name.
    kinds: Vec<(InventoryKind, String)>,
}

#[derive(Debug, Clone)]
struct FleetGroup {
    namespace: String,
    name: String,
    labels: StringMap,
    /// `None` = nil selector = no members.
    selector: Option<LabelSelector>,
}

/// Destinations described by inventory items.
#[derive(Debug, Clone, Default)]
pub struct Inventory {
    clusters: BTreeMap<String, Entry>,
    groups: Vec<FleetGroup>,
    warnings: Vec<String>,
}

/// Where an item sits, for error messages: `items[3]` plus what it is.
struct ItemCtx {
    path: String,
    what: String,
}

impl ItemCtx {
    fn err(&self, e: FieldError) -> FieldError {
        FieldError::new(e.field, format!("{} [{}]", e.message, self.what))
    }
}

impl Inventory {
    /// Reads every inventory item in `items` (other items are ignored). Errors name the item
    /// (`items[i]`) and field; malformed inventory is an error rather than a silently different
    /// cluster.
    pub fn from_items(items: &[Value]) -> Result<Inventory, FieldError> {
        let mut inv = Inventory::default();
        for (i, item) in items.iter().enumerate() {
            inv.add_item(item, &json::index("items", i))?;
        }
        Ok(inv)
    }

    /// Reads one item if it is an inventory item (any other item is ignored). `place` is where
    /// the item sits in the input (`items[3]`, `items[0].items[2]`) and prefixes the field paths
    /// of errors; with `""` they are relative to the item (`metadata.name`).
    pub fn add_item(&mut self, item: &Value, place: &str) -> Result<(), FieldError> {
        match inventory_kind(item) {
            Some(kind) => self.add(kind, item, place),
            None => Ok(()),
        }
    }

    fn add(&mut self, kind: InventoryKind, item: &Value, path: &str) -> Result<(), FieldError> {
        let map = json::as_object(item, path)?;
        let meta_path = json::join(path, "metadata");
        let meta = match json::field(map, "metadata") {
            Some(m) => json::as_object(m, &meta_path)?,
            None => {
                return Err(FieldError::new(
                    &meta_path,
                    "required: inventory items need metadata.name",
                ))
            }
        };
        let name = match json::string(meta.get("name"), &json::join(&meta_path, "name"))? {
            Some(n) if !n.is_empty() => n.to_string(),
            _ => {
                return Err(FieldError::new(
                    json::join(&meta_path, "name"),
                    format!("required: a {} needs a name", kind.describe()),
                ))
            }
        };
        let namespace = json::string(meta.get("namespace"), &json::join(&meta_path, "namespace"))?
            .unwrap_or("")
            .to_string();
        let ctx = ItemCtx {
            path: path.to_string(),
            what: if namespace.is_empty() {
                format!("{} {name}", kind.describe())
            } else {
                format!("{} {namespace}/{name}", kind.describe())
            },
        };
        let labels = json::string_map(
            json::field(meta, "labels"),
            &json::join(&meta_path, "labels"),
        )
        .map_err(|e| ctx.err(e))?;
        let annotations = json::string_map(
            json::field(meta, "annotations"),
            &json::join(&meta_path, "annotations"),
        )
        .map_err(|e| ctx.err(e))?;

        if kind == InventoryKind::FleetClusterGroup {
            return self.add_group(map, &ctx, namespace, name, labels);
        }
        let entry = self.clusters.entry(name.clone()).or_default();
        if let Some((_, other)) = entry.kinds.iter().find(|(k, _)| *k == kind) {
            return Err(FieldError::new(
                json::join(&meta_path, "name"),
                format!(
                    "a second {} named {name:?} (the first is {other}); a cluster name must identify one object of each kind",
                    kind.describe()
                ),
            ));
        }
        entry.kinds.push((kind, ctx.what.clone()));
        match kind {
            InventoryKind::PropertiesConfigMap => {
                let (data, binary, warnings) = read_properties_configmap(map, &ctx)?;
                entry.data = data;
                entry.binary_data = binary;
                self.warnings.extend(warnings);
            }
            _ => {
                entry.labels.extend(labels);
                entry.annotations.extend(annotations);
                if kind == InventoryKind::FleetCluster {
                    entry.fleet_namespace = Some(namespace);
                    entry.template_values = template_values(map, path).map_err(|e| ctx.err(e))?;
                }
                if kind == InventoryKind::Destination {
                    let spec_path = json::join(path, "spec");
                    if let Some(spec) = json::field(map, "spec") {
                        let spec = json::as_object(spec, &spec_path).map_err(|e| ctx.err(e))?;
                        if let Some(strict) = json::boolean(
                            spec.get("strictMatchLabels"),
                            &json::join(&spec_path, "strictMatchLabels"),
                        )
                        .map_err(|e| ctx.err(e))?
                        {
                            entry.strict_match_labels = Some(strict);
                        }
                        self.warnings
                            .extend(unused_destination_fields(spec, &spec_path, &ctx));
                    }
                }
            }
        }
        Ok(())
    }

    fn add_group(
        &mut self,
        map: &Map<String, Value>,
        ctx: &ItemCtx,
        namespace: String,
        name: String,
        labels: StringMap,
    ) -> Result<(), FieldError> {
        if self
            .groups
            .iter()
            .any(|g| g.namespace == namespace && g.name == name)
        {
            return Err(FieldError::new(
                json::join(&ctx.path, "metadata.name"),
                format!("duplicate {}", ctx.what),
            ));
        }
        let spec_path = json::join(&ctx.path, "spec");
        let selector = match json::field(map, "spec") {
            Some(spec) => {
                let spec = json::as_object(spec, &spec_path).map_err(|e| ctx.err(e))?;
                // Fleet fails on an invalid group selector, so do we.
                selector::optional_from_json(
                    json::field(spec, "selector"),
                    &json::join(&spec_path, "selector"),
                )
                .map_err(|e| ctx.err(e))?
            }
            None => None,
        };
        self.groups.push(FleetGroup {
            namespace,
            name,
            labels,
            selector,
        });
        Ok(())
    }

    /// Non-fatal findings (skipped ConfigMap keys, binaryData that is not UTF-8), for results.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// Every cluster name the inventory knows (from any kind, ConfigMaps included), sorted.
    pub fn cluster_names(&self) -> Vec<&str> {
        self.clusters.keys().map(String::as_str).collect()
    }

    /// True when some inventory item names this cluster.
    pub fn contains(&self, name: &str) -> bool {
        self.clusters.contains_key(name)
    }

    /// True when there are no inventory items at all.
    pub fn is_empty(&self) -> bool {
        self.clusters.is_empty() && self.groups.is_empty()
    }

    /// The cluster `name` as the inventory describes it, or `None` when no item names it.
    pub fn resolve(&self, name: &str) -> Option<Cluster> {
        self.clusters
            .contains_key(name)
            .then(|| self.resolve_spec(&ClusterSpec::named(name)))
    }

    /// Merges an inline `spec.cluster` with the inventory entry of the same name, as if the
    /// inline fields had been written into the inventory objects (inline wins at each level):
    /// - labels / annotations: inventory first, inline keys overwrite;
    /// - properties: ConfigMap `data`, then `binaryData`, then inline `properties` (so inline
    ///   properties win over the ConfigMap, and a ConfigMap key still beats an inline *label*,
    ///   exactly as it beats an inventory label in KubeStellar);
    /// - groups: Fleet groups whose selector matches the *merged* labels, then inline groups
    ///   (a same-named inline group replaces the inventory one);
    /// - strictMatchLabels: inline when given, else the Destination's;
    /// - kubeVersion, apiVersions: inline only (no inventory kind says them).
    ///
    /// Without an inventory entry this is [`ClusterSpec::to_cluster`].
    pub fn resolve_spec(&self, spec: &ClusterSpec) -> Cluster {
        let Some(entry) = self.clusters.get(&spec.name) else {
            return spec.to_cluster();
        };
        let mut labels = entry.labels.clone();
        labels.extend(spec.labels.iter().map(|(k, v)| (k.clone(), v.clone())));
        let mut annotations = entry.annotations.clone();
        annotations.extend(spec.annotations.iter().map(|(k, v)| (k.clone(), v.clone())));

        let mut groups = Vec::new();
        if let Some(ns) = &entry.fleet_namespace {
            let members: Vec<ClusterGroup> = self
                .groups
                .iter()
                .filter(|g| {
                    &g.namespace == ns && g.selector.as_ref().is_some_and(|s| s.matches(&labels))
                })
                .map(|g| ClusterGroup {
                    name: g.name.clone(),
                    labels: g.labels.clone(),
                })
                .collect();
            merge_groups(&mut groups, &members);
        }
        merge_groups(&mut groups, &spec.groups);

        let properties = collect_properties(
            &spec.name,
            &labels,
            &annotations,
            &[&entry.data, &entry.binary_data, &spec.properties],
        );
        Cluster {
            name: spec.name.clone(),
            labels,
            annotations,
            groups,
            properties,
            strict_match_labels: spec
                .strict_match_labels
                .or(entry.strict_match_labels)
                .unwrap_or(false),
            kube_version: spec.kube_version.clone(),
            api_versions: spec.api_versions.clone(),
            inventory: entry.fleet_namespace.as_ref().map(|ns| InventoryObject {
                namespace: ns.clone(),
                template_values: entry.template_values.clone(),
            }),
        }
    }
}

/// A Fleet Cluster's `spec.templateValues`: a map (Fleet's `GenericMap`), or nothing.
fn template_values(map: &Map<String, Value>, path: &str) -> Result<Map<String, Value>, FieldError> {
    let spec_path = json::join(path, "spec");
    let Some(spec) = json::field(map, "spec") else {
        return Ok(Map::new());
    };
    let spec = json::as_object(spec, &spec_path)?;
    match spec.get("templateValues") {
        None | Some(Value::Null) => Ok(Map::new()),
        Some(Value::Object(m)) => Ok(m.clone()),
        Some(_) => Err(FieldError::new(
            json::join(&spec_path, "templateValues"),
            "must be a map (Fleet's templateValues)",
        )),
    }
}

type ConfigMapProps = (StringMap, StringMap, Vec<String>);

/// Warnings for the fields of a Kratix Destination's spec that say where Kratix writes its
/// files in the state store (`path`, `filepath.mode`): `--output-dir` lays files out by
/// cluster name and input path instead (`docs/semantics/kratix.md` §1).
fn unused_destination_fields(spec: &Map<String, Value>, at: &str, ctx: &ItemCtx) -> Vec<String> {
    let mut out = Vec::new();
    if spec.get("path").is_some_and(|v| !v.is_null()) {
        out.push(format!(
            "{}: not used: tailor writes a destination's files under its name (--output-dir DIR/<cluster>/), not under the Destination's state-store path [{}]",
            json::join(at, "path"),
            ctx.what
        ));
    }
    let mode = spec
        .get("filepath")
        .and_then(|f| f.get("mode"))
        .and_then(Value::as_str);
    if let Some(mode) = mode {
        out.push(format!(
            "{}: {mode:?} is not used: --output-dir keeps each object in its input file under DIR/<cluster>/, not in Kratix's state-store layout [{}]",
            json::join(at, "filepath.mode"),
            ctx.what
        ));
    }
    out
}

/// `data` and decoded `binaryData` of a properties ConfigMap, plus warnings for keys KubeStellar
/// would skip (not Go identifiers) and for bytes that are not UTF-8 (replaced by U+FFFD, since a
/// Rust string must be UTF-8 where Go's `string(bytes)` need not be).
fn read_properties_configmap(
    map: &Map<String, Value>,
    ctx: &ItemCtx,
) -> Result<ConfigMapProps, FieldError> {
    let data_path = json::join(&ctx.path, "data");
    let data = json::string_map(json::field(map, "data"), &data_path).map_err(|e| ctx.err(e))?;
    let bin_path = json::join(&ctx.path, "binaryData");
    let encoded =
        json::string_map(json::field(map, "binaryData"), &bin_path).map_err(|e| ctx.err(e))?;
    let mut warnings = Vec::new();
    let mut binary = StringMap::new();
    for (k, v) in encoded {
        let at = json::join(&bin_path, &k);
        let bytes = tailor_go::base64::decode_std(v.as_bytes())
            .map_err(|e| ctx.err(FieldError::new(&at, e.to_string())))?;
        let text = match String::from_utf8(bytes) {
            Ok(s) => s,
            Err(e) => {
                warnings.push(format!(
                    "{at}: value is not UTF-8; invalid bytes were replaced by U+FFFD [{}]",
                    ctx.what
                ));
                String::from_utf8_lossy(e.as_bytes()).into_owned()
            }
        };
        binary.insert(k, text);
    }
    let keys = data.keys().map(|k| (&data_path, k));
    for (path, k) in keys.chain(binary.keys().map(|k| (&bin_path, k))) {
        if !is_go_identifier(k) {
            warnings.push(format!(
                "{}: key {k:?} is not a Go identifier, so it is not a property (KubeStellar skips it) [{}]",
                json::join(path, k),
                ctx.what
            ));
        }
    }
    Ok((data, binary, warnings))
}

#[cfg(test)]
mod tests;
