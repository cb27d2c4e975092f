//! Reading the Fleet part of a configuration: the `Tailor` spec's `targetCustomizationMode`,
//! `targetCustomizations` and bundle-level options, or a Fleet bundle's `fleet.yaml`.

use serde_json::{Map, Value};
use tailor_cluster::FieldError;

use crate::matching::TargetCriteria;

use crate::json::{self, index, join};
use crate::options::{Extra, Options, FLEET_OPTION_FIELDS};
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
    /// fleet.yaml fields tailor reads but that do not change its output (`labels`,
    /// `dependsOn`, `rolloutStrategy`, ...), so callers can mention them.
    pub ignored_fields: Vec<String>,
}

/// Fields of an entry: `name`, `doNotDeploy`, the criteria, Fleet's options, the caller's.
fn entry_fields<E: Extra>() -> Vec<&'static str> {
    let mut v = vec!["name", "doNotDeploy"];
    v.extend_from_slice(CRITERIA_FIELDS);
    v.extend_from_slice(FLEET_OPTION_FIELDS);
    v.extend_from_slice(E::fields());
    v
}

/// fleet.yaml fields that are accepted and have no effect on tailor's output.
const FLEET_YAML_IGNORED: &[&str] = &[
    "name",
    "labels",
    "paused",
    "rolloutStrategy",
    "resources",
    "targetRestrictions",
    "dependsOn",
    "helmOpOptions",
    "contentsId",
    "imageScans",
    "overrideTargets",
];

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
            (Ok(root), Ok(customizations)) => Ok(FleetConfig {
                mode,
                root,
                customizations,
                ignored_fields: Vec::new(),
            }),
            (root, customizations) => Err(root
                .err()
                .into_iter()
                .chain(customizations.err())
                .flatten()
                .collect()),
        }
    }

    /// Reads a parsed fleet.yaml (see [`parse_fleet_yaml`] for text). Keys are matched
    /// case-insensitively as Fleet's decoder does; unknown keys are errors.
    pub fn from_fleet_yaml(doc: &Value) -> Result<FleetConfig<E>, Vec<FieldError>> {
        let dialect = Dialect::FleetYaml;
        if doc.is_null() {
            return Ok(FleetConfig::default());
        }
        let mut accepted: Vec<&str> =
            vec!["targetCustomizationMode", "targetCustomizations", "targets"];
        accepted.extend_from_slice(FLEET_OPTION_FIELDS);
        accepted.extend_from_slice(E::fields());
        accepted.extend_from_slice(FLEET_YAML_IGNORED);
        let m: Map<String, Value> =
            json::checked_object(doc, "", &accepted, dialect).map_err(|e| vec![e])?;
        let targets = parse_list(m.get("targets"), "targets", 0, dialect)?;
        let rest = parse_list(
            m.get("targetCustomizations"),
            "targetCustomizations",
            targets.len(),
            dialect,
        )?;
        let root = Options::from_map(&m, "", dialect)?;
        let mut ignored_fields: Vec<String> = FLEET_YAML_IGNORED
            .iter()
            .filter(|k| m.get(**k).is_some_and(|v| !v.is_null()))
            .map(|k| k.to_string())
            .collect();
        ignored_fields.extend(root.fields_without_effect().iter().map(|k| k.to_string()));
        Ok(FleetConfig {
            mode: Mode::from_json(m.get("targetCustomizationMode"), "targetCustomizationMode")
                .map_err(|e| vec![e])?,
            root,
            customizations: targets.into_iter().chain(rest).collect(),
            ignored_fields,
        })
    }
}

/// Parses the text of a `fleet.yaml` (one YAML document; an empty file is an empty config).
/// Errors name the field (`targetCustomizations[0].clusterSelector.matchLabels.env: ...`).
pub fn parse_fleet_yaml<E: Extra>(text: &str) -> Result<FleetConfig<E>, Vec<FieldError>> {
    let docs = tailor_yaml::parse_stream(text)
        .map_err(|e| vec![FieldError::new("", format!("fleet.yaml: {e}"))])?;
    let docs: Vec<_> = docs.into_iter().filter(|d| !d.empty).collect();
    match docs.as_slice() {
        [] => Ok(FleetConfig::default()),
        [doc] => {
            let v = tailor_yaml::to_json(&doc.root)
                .map_err(|e| vec![FieldError::new("", format!("fleet.yaml: {e}"))])?;
            FleetConfig::from_fleet_yaml(&v)
        }
        _ => Err(vec![FieldError::new(
            "",
            "fleet.yaml: expected one YAML document, found several",
        )]),
    }
}

#[cfg(test)]
mod tests;
