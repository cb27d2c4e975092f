//! Reading the Fleet part of a configuration: the `Tailor` spec's `targetCustomizationMode`,
//! `targetCustomizations` and bundle-level options, or a Fleet bundle's `fleet.yaml`.

use serde_json::{Map, Value};
use tailor_cluster::FieldError;
use tailor_kube::Diagnostic;

use crate::matching::TargetCriteria;

use crate::fleetyaml;
use crate::json::{self, index, join};
use crate::options::{Extra, Options, FLEET_OPTION_FIELDS};
use crate::style::Layout;
use crate::Dialect;

/// `targetCustomizationMode`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mode {
    /// The first matching customization decides (Fleet's default).
    #[default]
    FirstMatch,
    /// Every matching customization is merged in list order.
    AllMatches,
}

impl Mode {
    /// Fleet's CRD enum: `FirstMatch` or `AllMatches`; absent, null and `""` are FirstMatch.
    /// Anything else is an error (Fleet's CRD validation rejects it too).
    pub fn from_json(v: Option<&Value>, path: &str) -> Result<Mode, FieldError> {
        match json::nonempty_string(v, path)?.as_deref() {
            None | Some("FirstMatch") => Ok(Mode::FirstMatch),
            Some("AllMatches") => Ok(Mode::AllMatches),
            Some(other) => Err(FieldError::new(
                path,
                format!("unsupported value {other:?}; accepted values: FirstMatch, AllMatches"),
            )),
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Mode::FirstMatch => "FirstMatch",
            Mode::AllMatches => "AllMatches",
        }
    }
}

/// The criteria fields of an entry.
pub const CRITERIA_FIELDS: &[&str] = &[
    "clusterName",
    "clusterSelector",
    "clusterGroup",
    "clusterGroupSelector",
];

/// One `targetCustomizations` entry.
#[derive(Debug, Clone, PartialEq)]
pub struct Customization<E = ()> {
    /// `name`, or `target%03d` by position when unnamed (as Fleet names them).
    pub name: String,
    /// Where the entry was written (`spec.targetCustomizations[2]`), for messages.
    pub field_path: String,
    pub criteria: TargetCriteria,
    pub do_not_deploy: bool,
    /// The entry's options (Fleet's and the caller's own fields).
    pub options: Options<E>,
}

/// Everything Fleet-shaped in one configuration.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct FleetConfig<E = ()> {
    pub mode: Mode,
    /// Bundle-level options (root `namespace`, `defaultNamespace`, `yaml.overlays`, and the
    /// caller's own fields at the root), the base every customization is merged onto.
    pub root: Options<E>,
    /// Customizations in list order (fleet.yaml: legacy `targets:` first, then
    /// `targetCustomizations:`).
    pub customizations: Vec<Customization<E>>,
    /// fleet.yaml `overrideTargets`: when set, they are the bundle's targets and target
    /// restrictions (`bundlereader/read.go`), so a cluster none of them selects gets nothing.
    /// An empty list leaves the bundle without restrictions: its entries are plain targets.
    pub override_targets: Option<Vec<TargetCriteria>>,
    /// The bundle directory the configuration came with (standalone mode), which decides per
    /// cluster whether Fleet renders it as raw YAML, a Helm chart or a kustomization.
    pub layout: Option<Layout>,
    /// What reading fleet.yaml found worth saying: unknown fields Fleet ignores, and fields
    /// that change what Fleet deploys but that tailor does not model (warnings).
    pub notes: Vec<Diagnostic>,
}

/// Fields of an entry: `name`, `doNotDeploy`, the criteria, Fleet's options, the caller's.
fn entry_fields<E: Extra>() -> Vec<&'static str> {
    let mut v = vec!["name", "doNotDeploy"];
    v.extend_from_slice(CRITERIA_FIELDS);
    v.extend_from_slice(FLEET_OPTION_FIELDS);
    v.extend_from_slice(E::fields());
    v
}

/// Parses one customization entry. `position` is its index in the combined list (for the
/// `target%03d` default name).
pub fn parse_customization<E: Extra>(
    entry: &Value,
    path: &str,
    position: usize,
    dialect: Dialect,
) -> Result<Customization<E>, Vec<FieldError>> {
    let (m, criteria, name, do_not_deploy) =
        entry_head::<E>(entry, path, position, dialect).map_err(|e| vec![e])?;
    Ok(Customization {
        name,
        field_path: path.to_string(),
        criteria,
        do_not_deploy,
        options: Options::from_map(&m, path, dialect)?,
    })
}

type EntryHead = (Map<String, Value>, TargetCriteria, String, bool);

/// An entry's checked fields, criteria, name and `doNotDeploy`.
fn entry_head<E: Extra>(
    entry: &Value,
    path: &str,
    position: usize,
    dialect: Dialect,
) -> Result<EntryHead, FieldError> {
    let mut m = json::checked_object(entry, path, &entry_fields::<E>(), dialect)?;
    for sel in ["clusterSelector", "clusterGroupSelector"] {
        if let Some(v) = m.get(sel) {
            let c = json::canonical_selector(v, &join(path, sel), dialect)?;
            m.insert(sel.to_string(), c);
        }
    }
    let criteria = TargetCriteria::from_json(&Value::Object(m.clone()), path)?;
    let name = json::nonempty_string(m.get("name"), &join(path, "name"))?
        .unwrap_or_else(|| format!("target{position:03}"));
    let do_not_deploy =
        json::boolean(m.get("doNotDeploy"), &join(path, "doNotDeploy"))?.unwrap_or(false);
    Ok((m, criteria, name, do_not_deploy))
}

fn parse_list<E: Extra>(
    v: Option<&Value>,
    path: &str,
    first_position: usize,
    dialect: Dialect,
) -> Result<Vec<Customization<E>>, Vec<FieldError>> {
    let mut out = Vec::new();
    let mut errors = Vec::new();
    for (i, e) in json::list(v, path).map_err(|e| vec![e])?.iter().enumerate() {
        match parse_customization(e, &index(path, i), first_position + i, dialect) {
            Ok(c) => out.push(c),
            Err(es) => errors.extend(es),
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

impl<E: Extra> FleetConfig<E> {
    /// Whether any options (the bundle's or a customization's) name `yaml.overlays`: then the
    /// items under `overlays/` are overlay input, not objects.
    pub fn uses_yaml_overlays(&self) -> bool {
        !self.root.yaml_overlays.is_empty()
            || self
                .customizations
                .iter()
                .any(|c| !c.options.yaml_overlays.is_empty())
    }

    /// Reads the Fleet fields of a `Tailor` spec (`spec` is the spec map; `path` is where it
    /// sits, normally `"spec"`). Only these keys are read; the caller checks the others:
    /// `targetCustomizationMode`, `targetCustomizations`, the bundle-level Fleet options
    /// (`namespace`, `defaultNamespace`, `yaml`, ...) and the spec-level Flux fields
    /// (`targetNamespace`, `namePrefix`, `nameSuffix`, `commonMetadata`, `patches`, `images`,
    /// `replacements`), which become the base the customizations are merged onto.
    pub fn from_tailor_spec(spec: &Value, path: &str) -> Result<FleetConfig<E>, Vec<FieldError>> {
        let m = json::as_object(spec, path).map_err(|e| vec![e])?;
        let mode = Mode::from_json(
            m.get("targetCustomizationMode"),
            &join(path, "targetCustomizationMode"),
        )
        .map_err(|e| vec![e])?;
        let root = Options::from_map(m, path, Dialect::Tailor);
        let customizations = parse_list(
            m.get("targetCustomizations"),
            &join(path, "targetCustomizations"),
            0,
            Dialect::Tailor,
        );
        match (root, customizations) {
            (Ok(root), Ok(customizations)) => {
                // The same warnings as in fleet.yaml for what changes Fleet's deployment but
                // not tailor's output (`helm`, `correctDrift`, ...).
                let notes = unmodeled(
                    std::iter::once((&root, path)).chain(
                        customizations
                            .iter()
                            .map(|c| (&c.options, c.field_path.as_str())),
                    ),
                    false,
                );
                Ok(FleetConfig {
                    mode,
                    root,
                    customizations,
                    notes,
                    ..FleetConfig::default()
                })
            }
            (root, customizations) => Err(root
                .err()
                .into_iter()
                .chain(customizations.err())
                .flatten()
                .collect()),
        }
    }

    /// Reads a parsed fleet.yaml (see [`parse_fleet_yaml`] for text) as Fleet's reader does:
    /// keys match case-insensitively, unknown keys are dropped with a warning, a `dependsOn`
    /// Fleet would reject is an error, and the caller's own fields (`E::fields()`, which a
    /// `Tailor` spec has and Fleet does not) are errors saying where they belong.
    pub fn from_fleet_yaml(doc: &Value) -> Result<FleetConfig<E>, Vec<FieldError>> {
        let dialect = Dialect::FleetYaml;
        if doc.is_null() {
            return Ok(FleetConfig::default());
        }
        if !doc.is_object() {
            return Err(vec![json::wrong_type("", "map", doc)]);
        }
        let (doc, mut notes) = fleetyaml::prune(doc, E::fields())?;
        let m = doc.as_object().cloned().unwrap_or_default();
        fleetyaml::validate(&m).map_err(|e| vec![e])?;
        let targets = parse_list(m.get("targets"), "targets", 0, dialect)?;
        let rest = parse_list(
            m.get("targetCustomizations"),
            "targetCustomizations",
            targets.len(),
            dialect,
        )?;
        let root = Options::from_map(&m, "", dialect)?;
        let override_targets = match m.get("overrideTargets") {
            None | Some(Value::Null) => None,
            Some(v) => {
                let mut out = Vec::new();
                for (i, t) in json::list(Some(v), "overrideTargets")
                    .map_err(|e| vec![e])?
                    .iter()
                    .enumerate()
                {
                    let path = index("overrideTargets", i);
                    let mut t = t.clone();
                    if let Value::Object(map) = &mut t {
                        for sel in ["clusterSelector", "clusterGroupSelector"] {
                            if let Some(v) = map.get(sel) {
                                let c = json::canonical_selector(v, &join(&path, sel), dialect)
                                    .map_err(|e| vec![e])?;
                                map.insert(sel.to_string(), c);
                            }
                        }
                    }
                    out.push(TargetCriteria::from_json(&t, &path).map_err(|e| vec![e])?);
                }
                Some(out)
            }
        };
        let customizations: Vec<Customization<E>> = targets.into_iter().chain(rest).collect();
        notes.extend(unmodeled(
            std::iter::once((&root, "")).chain(
                customizations
                    .iter()
                    .map(|c| (&c.options, c.field_path.as_str())),
            ),
            true,
        ));
        for (key, what) in BUNDLE_FIELDS_NOT_MODELED {
            if m.get(*key)
                .is_some_and(|v| !v.is_null() && v != &Value::Bool(false))
            {
                notes.push(
                    Diagnostic::warning(format!("{what}; tailor does not model it"))
                        .at(fleetyaml::at(key)),
                );
            }
        }
        Ok(FleetConfig {
            mode: Mode::from_json(m.get("targetCustomizationMode"), "targetCustomizationMode")
                .map_err(|e| vec![e])?,
            root,
            customizations,
            override_targets,
            layout: None,
            notes,
        })
    }
}

/// Bundle fields (not options) that change what Fleet deploys, and how.
const BUNDLE_FIELDS_NOT_MODELED: &[(&str, &str)] = &[
    (
        "paused",
        "Fleet stops updating a paused bundle's deployments",
    ),
    (
        "imageScans",
        "Fleet's image scans write newer image tags back to git",
    ),
    (
        "targetRestrictions",
        "Fleet restricts the bundle's targets to these",
    ),
];

/// Warnings for the option fields set in the bundle or its entries that change what Fleet
/// deploys but that tailor does not model: one per field, naming where it is set.
/// `fleet_yaml`: the fields are fleet.yaml's (else a `Tailor` spec's, named in full).
fn unmodeled<'a, E: Extra + 'a>(
    sets: impl Iterator<Item = (&'a Options<E>, &'a str)>,
    fleet_yaml: bool,
) -> Vec<Diagnostic> {
    // field -> (subfields, where)
    let mut found: Vec<(&'static str, Vec<String>, Vec<String>)> = Vec::new();
    for (options, path) in sets {
        for field in options.fields_without_effect() {
            let at = if path.is_empty() { "the bundle" } else { path };
            let sub: Vec<String> = if field == "helm" {
                options
                    .helm
                    .iter()
                    .flat_map(|h| h.iter())
                    .filter(|(_, v)| !v.is_null())
                    .map(|(k, _)| format!("helm.{k}"))
                    .collect()
            } else {
                vec![field.to_string()]
            };
            match found.iter_mut().find(|(f, _, _)| *f == field) {
                Some((_, subs, wheres)) => {
                    for s in sub {
                        if !subs.contains(&s) {
                            subs.push(s);
                        }
                    }
                    wheres.push(at.to_string());
                }
                None => found.push((field, sub, vec![at.to_string()])),
            }
        }
    }
    found
        .into_iter()
        .map(|(field, subs, wheres)| {
            let what = match field {
                "helm" => "Helm options of the release Fleet deploys; tailor renders no Helm, and for raw YAML they change no object (`tailor fleet-values CONFIG DIR` prints each cluster's values)",
                "serviceAccount" => "Fleet's agent deploys with this service account; tailor does not model it",
                "diff" => "Fleet's drift detection ignores these differences; tailor does not model it",
                "downstreamResources" => "Fleet copies these Secrets and ConfigMaps to the downstream cluster; tailor does not",
                "namespaceLabels" | "namespaceAnnotations" => "Fleet sets these on the namespace it creates for the release; tailor creates no namespace",
                _ => "Fleet's agent acts on it when it deploys; tailor does not model it",
            };
            let subs = if subs.is_empty() { field.to_string() } else { subs.join(", ") };
            let at = if fleet_yaml {
                fleetyaml::at(&subs)
            } else {
                join(&wheres[0], subs.split(", ").next().unwrap_or(field))
            };
            Diagnostic::warning(format!("{what} (set in {})", wheres.join(", "))).at(at)
        })
        .collect()
}

/// Parses the text of a `fleet.yaml` as Fleet does (`sigs.k8s.io/yaml`: yaml.v2, YAML 1.1, the
/// first document; an empty file is an empty config). Errors name the field
/// (`targetCustomizations[0].clusterSelector.matchLabels.env: ...`).
pub fn parse_fleet_yaml<E: Extra>(text: &str) -> Result<FleetConfig<E>, Vec<FieldError>> {
    let v = tailor_yaml::sigs::v2read::yaml11_to_json(text)
        .map_err(|e| vec![FieldError::new("fleet.yaml", e)])?;
    FleetConfig::from_fleet_yaml(&v)
}

#[cfg(test)]
mod tests;
