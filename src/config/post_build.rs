//! `postBuild` as Flux's Kustomization spells it (also `spec.postBuild` of a `Tailor`).

use serde_json::Value as Json;

/// Where a `substituteFrom` entry reads its variables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SubstituteFrom {
    /// `ConfigMap` or `Secret`.
    pub kind: String,
    pub name: String,
    pub optional: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PostBuild {
    pub substitute: Vec<(String, String)>,
    pub substitute_from: Vec<SubstituteFrom>,
    /// Flux's `StrictPostBuildSubstitutions` feature gate, on by default since v1.9.
    pub strict: bool,
    /// `substituteStrategy: Always`: substitute even with no variables (so `$$` unescapes).
    pub always: bool,
}

const FIELDS: &str = "substitute, substituteFrom, strict, substituteStrategy";

/// Parses `postBuild` at `at` (e.g. `spec.postBuild`); errors name the field.
pub fn parse(v: &Json, at: &str) -> Result<PostBuild, (String, String)> {
    let map = v
        .as_object()
        .ok_or_else(|| (at.to_string(), format!("{at} must be a mapping ({FIELDS})")))?;
    let mut pb = PostBuild {
        substitute: Vec::new(),
        substitute_from: Vec::new(),
        strict: true,
        always: false,
    };
    for (key, value) in map {
        let field = format!("{at}.{key}");
        match key.as_str() {
            "substitute" => match value {
                Json::Null => {}
                Json::Object(vars) => {
                    for (name, v) in vars {
                        match v {
                            Json::String(s) => pb.substitute.push((name.clone(), s.clone())),
                            other => {
                                return Err((
                                    format!("{field}.{name}"),
                                    format!(
                                        "{field}.{name} must be a string, found {}; quote it (Flux's substitute is a map of strings)",
                                        json_kind(other)
                                    ),
                                ))
                            }
                        }
                    }
                }
                other => {
                    return Err((
                        field.clone(),
                        format!(
                            "{field} must be a map of variable names to strings, found {}",
                            json_kind(other)
                        ),
                    ))
                }
            },
            "substituteFrom" => match value {
                Json::Null => {}
                Json::Array(list) => {
                    for (i, entry) in list.iter().enumerate() {
                        pb.substitute_from
                            .push(parse_from(entry, &format!("{field}[{i}]"))?);
                    }
                }
                other => {
                    return Err((
                        field.clone(),
                        format!(
                            "{field} must be a list of {{kind, name, optional}}, found {}",
                            json_kind(other)
                        ),
                    ))
                }
            },
            "strict" => match value {
                Json::Bool(b) => pb.strict = *b,
                other => {
                    return Err((
                        field.clone(),
                        format!("{field} must be true or false, found {}", json_kind(other)),
                    ))
                }
            },
            "substituteStrategy" => match value.as_str() {
                Some("Always") => pb.always = true,
                _ if value.is_null() => {}
                _ => {
                    return Err((
                        field.clone(),
                        format!("{field} must be \"Always\" when set, found {value}"),
                    ))
                }
            },
            _ => {
                return Err((
                    field.clone(),
                    format!("unknown field {key:?} in {at}; accepted fields: {FIELDS}"),
                ))
            }
        }
    }
    Ok(pb)
}

fn parse_from(entry: &Json, at: &str) -> Result<SubstituteFrom, (String, String)> {
    let map = entry.as_object().ok_or_else(|| {
        (
            at.to_string(),
            format!("{at} must be a mapping {{kind, name, optional}}"),
        )
    })?;
    let mut from = SubstituteFrom {
        kind: String::new(),
        name: String::new(),
        optional: false,
    };
    for (key, value) in map {
        let field = format!("{at}.{key}");
        match (key.as_str(), value) {
            ("kind", Json::String(k)) if k == "ConfigMap" || k == "Secret" => from.kind = k.clone(),
            ("kind", other) => {
                return Err((
                    field.clone(),
                    format!("{field} must be ConfigMap or Secret, found {other}"),
                ))
            }
            ("name", Json::String(n)) if !n.is_empty() => from.name = n.clone(),
            ("name", other) => {
                return Err((
                    field.clone(),
                    format!("{field} must be a non-empty string, found {other}"),
                ))
            }
            ("optional", Json::Bool(b)) => from.optional = *b,
            ("optional", other) => {
                return Err((
                    field.clone(),
                    format!("{field} must be true or false, found {other}"),
                ))
            }
            _ => {
                return Err((
                    field.clone(),
                    format!("unknown field {key:?} in {at}; accepted fields: kind, name, optional"),
                ))
            }
        }
    }
    if from.kind.is_empty() {
        return Err((
            format!("{at}.kind"),
            format!("{at}.kind is required (ConfigMap or Secret)"),
        ));
    }
    if from.name.is_empty() {
        return Err((format!("{at}.name"), format!("{at}.name is required")));
    }
    Ok(from)
}

pub fn json_kind(v: &Json) -> &'static str {
    match v {
        Json::Null => "null",
        Json::Bool(_) => "a boolean",
        Json::Number(_) => "a number",
        Json::String(_) => "a string",
        Json::Array(_) => "a list",
        Json::Object(_) => "a mapping",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn flux_fields() {
        let pb = parse(
            &json!({"substitute": {"a": "1"}, "substituteFrom": [{"kind": "Secret", "name": "s", "optional": true}]}),
            "spec.postBuild",
        )
        .unwrap();
        assert_eq!(pb.substitute, vec![("a".to_string(), "1".to_string())]);
        assert!(pb.strict && !pb.always);
        assert_eq!(pb.substitute_from[0].kind, "Secret");
    }

    #[test]
    fn wrong_types_name_the_field() {
        let e = parse(&json!({"substitute": {"replicas": 3}}), "spec.postBuild").unwrap_err();
        assert_eq!(e.0, "spec.postBuild.substitute.replicas");
        let e = parse(
            &json!({"substituteFrom": [{"kind": "Pod", "name": "x"}]}),
            "spec.postBuild",
        )
        .unwrap_err();
        assert_eq!(e.0, "spec.postBuild.substituteFrom[0].kind");
        let e = parse(&json!({"substitue": {}}), "spec.postBuild").unwrap_err();
        assert!(e.1.contains("accepted fields"), "{}", e.1);
    }
}
