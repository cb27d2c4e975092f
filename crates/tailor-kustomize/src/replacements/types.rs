//! The configuration model: kustomize's `types.Replacement` and friends (v5.5.0), plus
//! `sourceValue` (v5.7.0) and tailor's `source.property`.

use serde::Serialize;

/// `metadata.name` — the field used when a source or target gives no field path.
pub const DEFAULT_FIELD_PATH: &str = "metadata.name";

fn is_false(b: &bool) -> bool {
    !*b
}
fn is_zero(i: &i64) -> bool {
    *i == 0
}

/// Group, version, kind, name and namespace (kustomize's inlined `resid.ResId`). Empty fields
/// are wildcards when used as a selector.
pub use tailor_kube::resid::ResId;

/// `options` of a source or target.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct FieldOptions {
    #[serde(skip_serializing_if = "String::is_empty")]
    pub delimiter: String,
    #[serde(skip_serializing_if = "is_zero")]
    pub index: i64,
    /// Accepted and ignored, as in kustomize.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub encoding: String,
    #[serde(skip_serializing_if = "is_false")]
    pub create: bool,
}

impl FieldOptions {
    /// kustomize's `FieldOptions.String()`: empty unless a delimiter or create is set.
    pub fn describe(&self) -> String {
        if self.delimiter.is_empty() && !self.create {
            return String::new();
        }
        format!("{}({}), create={}", self.delimiter, self.index, self.create)
    }
}

/// `source:` — one resource and a field of it, or (tailor) a destination-cluster property.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Source {
    #[serde(flatten)]
    pub id: ResId,
    /// As written; the default `metadata.name` is applied after selection (as kustomize).
    #[serde(rename = "fieldPath", skip_serializing_if = "String::is_empty")]
    pub field_path: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub options: Option<FieldOptions>,
    /// tailor extension: take the value from the caller's cluster properties.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub property: Option<String>,
}

impl std::fmt::Display for Source {
    /// kustomize's `SourceSelector.String()`, used in selection errors.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.id)?;
        if !self.field_path.is_empty() {
            write!(f, ":{}", self.field_path)?;
        }
        if let Some(o) = &self.options {
            let d = o.describe();
            if !d.is_empty() {
                write!(f, ":{d}")?;
            }
        }
        Ok(())
    }
}

/// A resource selector for `select` / `reject`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Selector {
    #[serde(flatten)]
    pub id: ResId,
    #[serde(rename = "labelSelector", skip_serializing_if = "String::is_empty")]
    pub label_selector: String,
    #[serde(
        rename = "annotationSelector",
        skip_serializing_if = "String::is_empty"
    )]
    pub annotation_selector: String,
}

/// One entry of `targets:`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct TargetSelector {
    /// `None` is an error at apply time (`target must specify resources to select`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub select: Option<Selector>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub reject: Vec<Selector>,
    /// Empty means `[metadata.name]`.
    #[serde(rename = "fieldPaths", skip_serializing_if = "Vec::is_empty")]
    pub field_paths: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub options: Option<FieldOptions>,
}

/// One replacement.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Replacement {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<Source>,
    /// kustomize v5.7 `sourceValue`: a literal, an untagged plain scalar.
    #[serde(rename = "sourceValue", skip_serializing_if = "Option::is_none")]
    pub source_value: Option<String>,
    /// `None` (absent or null) is an error at apply time; `Some(vec![])` is a no-op, as
    /// kyaml's decoding leaves it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub targets: Option<Vec<TargetSelector>>,
}
