//! Reading fleet.yaml and Tailor-spec configuration: tailor-kube's readers, plus the Fleet
//! dialect's case-insensitive field names.

use serde_json::{Map, Value};
pub use tailor_kube::json::*;
use tailor_kube::FieldError;

use crate::Dialect;

/// The map at `path` with only the `accepted` keys (see `tailor_kube::json::known_fields`); in
/// the Fleet dialect keys are matched case-insensitively, as `encoding/json` does when Fleet
/// decodes fleet.yaml.
pub(crate) fn checked_object(
    v: &Value,
    path: &str,
    accepted: &[&str],
    dialect: Dialect,
) -> Result<Map<String, Value>, FieldError> {
    known_fields(v, path, accepted, dialect == Dialect::FleetYaml)
}

/// The selector fields of a label selector, canonicalised for the Fleet dialect so that
/// `tailor_cluster`'s strict parser sees the spelling Fleet would have accepted.
pub(crate) fn canonical_selector(
    v: &Value,
    path: &str,
    dialect: Dialect,
) -> Result<Value, FieldError> {
    if dialect != Dialect::FleetYaml || !v.is_object() {
        return Ok(v.clone());
    }
    let mut m = checked_object(v, path, &["matchLabels", "matchExpressions"], dialect)?;
    if let Some(Value::Array(exprs)) = m.get("matchExpressions").cloned() {
        let base = join(path, "matchExpressions");
        let mut out = Vec::with_capacity(exprs.len());
        for (i, e) in exprs.iter().enumerate() {
            if e.is_object() {
                let c =
                    checked_object(e, &index(&base, i), &["key", "operator", "values"], dialect)?;
                out.push(Value::Object(c));
            } else {
                out.push(e.clone());
            }
        }
        m.insert("matchExpressions".into(), Value::Array(out));
    }
    Ok(Value::Object(m))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn checked_object_folds_case_only_in_the_fleet_dialect() {
        let v = json!({"NameSpace": "a", "namespace": "b"});
        let m = checked_object(&v, "", &["namespace"], Dialect::FleetYaml).unwrap();
        // The later spelling wins, as with encoding/json.
        assert_eq!(m["namespace"], "b");
        assert!(checked_object(&v, "", &["namespace"], Dialect::Tailor).is_err());
    }
}
