//! A Flux `kustomize.toolkit.fluxcd.io/v1 Kustomization` read as tailor reads it
//! (`docs/semantics/flux.md`): the fields that change manifests (the overlay fields and
//! `postBuild`), decoded once; the controller's own fields (interval, sourceRef, prune, ...)
//! mean nothing offline and are accepted as they are.

use serde_json::Value as Json;
use tailor_kube::Diagnostic;

use crate::overlay::{Overlay, FLUX_FIELDS};

/// What a Kustomization asks tailor to do.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Kustomization {
    /// `metadata.name`, for the owner labels Flux adds.
    pub name: String,
    /// `metadata.namespace`: where `substituteFrom` sources live.
    pub namespace: Option<String>,
    /// `spec.decryption` is set: the controller would decrypt SOPS-encrypted Secrets, which
    /// tailor cannot.
    pub decryption: bool,
    pub overlay: Overlay,
    pub post_build: Option<PostBuild>,
    /// Warnings about fields that change what Flux applies but not tailor's output.
    pub notes: Vec<Diagnostic>,
}

/// Fields of the Flux API that only steer the controller.
const CONTROLLER_FIELDS: &[&str] = &[
    "interval",
    "retryInterval",
    "timeout",
    "path",
    "sourceRef",
    "prune",
    "deletionPolicy",
    "suspend",
    "force",
    "wait",
    "healthChecks",
    "healthCheckExprs",
    "dependsOn",
    "serviceAccountName",
    "kubeConfig",
    "ignore",
    "ignoreMissingComponents",
];

impl Kustomization {
    /// Reads a Kustomization (as JSON); every problem is a diagnostic naming its field.
    pub fn read(object: &Json) -> Result<Kustomization, Vec<Diagnostic>> {
        let namespace = object
            .pointer("/metadata/namespace")
            .and_then(Json::as_str)
            .map(str::to_string);
        let name = object
            .pointer("/metadata/name")
            .and_then(Json::as_str)
            .unwrap_or_default()
            .to_string();
        let spec = match object.get("spec") {
            None | Some(Json::Null) => {
                return Ok(Kustomization {
                    name,
                    namespace,
                    ..Kustomization::default()
                })
            }
            Some(Json::Object(m)) => m,
            Some(_) => {
                return Err(vec![Diagnostic::new(
                    "spec",
                    "Kustomization spec must be a mapping",
                )])
            }
        };
        let mut errors = Vec::new();
        let mut post_build = None;
        let mut decryption = false;
        let mut overlay_fields = serde_json::Map::new();
        let mut notes = Vec::new();
        for (key, value) in spec {
            let field = format!("spec.{key}");
            match key.as_str() {
                "postBuild" if value.is_null() => {}
                "postBuild" => match read_post_build(value, "spec.postBuild") {
                    Ok(pb) => post_build = Some(pb),
                    Err(e) => errors.push(e),
                },
                k if FLUX_FIELDS.contains(&k) => {
                    overlay_fields.insert(key.clone(), value.clone());
                }
                "components" if !is_empty(value) => errors.push(Diagnostic::new(
                    field,
                    "spec.components: kustomize components live in the source tree; tailor works on built manifests, so apply them before tailor",
                )),
                "components" => {}
                "decryption" => decryption = !value.is_null(),
                "buildMetadata" if !is_empty(value) => errors.push(Diagnostic::new(
                    field,
                    "spec.buildMetadata: the controller records where each resource came from in the source tree (kustomize build metadata); tailor works on built manifests and has no source tree, so remove it or add the annotations when building",
                )),
                "buildMetadata" => {}
                "ignore" if !is_empty(value) => notes.push(Diagnostic::warning(
                    "spec.ignore: not applied: the controller leaves these source files out of its build (with the source's .sourceignore); tailor reads every file it is given, so leave them out of the input",
                ).at("spec.ignore")),
                k if CONTROLLER_FIELDS.contains(&k) => {}
                _ => errors.push(Diagnostic::new(
                    field,
                    format!(
                        "unknown field {key:?} in Kustomization spec (kustomize.toolkit.fluxcd.io/v1)"
                    ),
                )),
            }
        }
        let overlay = Overlay::read(&overlay_fields, "spec").unwrap_or_else(|e| {
            errors.extend(e);
            Overlay::default()
        });
        if errors.is_empty() {
            Ok(Kustomization {
                name,
                namespace,
                decryption,
                overlay,
                post_build,
                notes,
            })
        } else {
            Err(errors)
        }
    }
}

fn is_empty(v: &Json) -> bool {
    match v {
        Json::Null => true,
        Json::String(s) => s.is_empty(),
        Json::Array(a) => a.is_empty(),
        Json::Object(o) => o.is_empty(),
        _ => false,
    }
}

/// `postBuild` as Flux's Kustomization spells it (also `spec.postBuild` of a `Tailor`).
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

/// Reads `postBuild` written at `at` (e.g. `spec.postBuild`); errors name the field.
pub fn read_post_build(v: &Json, at: &str) -> Result<PostBuild, Diagnostic> {
    let map = v
        .as_object()
        .ok_or_else(|| Diagnostic::new(at, format!("{at} must be a mapping ({FIELDS})")))?;
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
                                return Err(Diagnostic::new(
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
                    return Err(Diagnostic::new(
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
                    return Err(Diagnostic::new(
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
                    return Err(Diagnostic::new(
                        field.clone(),
                        format!("{field} must be true or false, found {}", json_kind(other)),
                    ))
                }
            },
            "substituteStrategy" => match value.as_str() {
                Some("Always") => pb.always = true,
                Some("WithVariables") => pb.always = false,
                _ if value.is_null() => {}
                _ => {
                    return Err(Diagnostic::new(
                        field.clone(),
                        format!("{field} must be \"WithVariables\" or \"Always\", found {value}"),
                    ))
                }
            },
            _ => {
                return Err(Diagnostic::new(
                    field.clone(),
                    format!("unknown field {key:?} in {at}; accepted fields: {FIELDS}"),
                ))
            }
        }
    }
    Ok(pb)
}

fn parse_from(entry: &Json, at: &str) -> Result<SubstituteFrom, Diagnostic> {
    let map = entry.as_object().ok_or_else(|| {
        Diagnostic::new(
            at,
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
                return Err(Diagnostic::new(
                    field.clone(),
                    format!("{field} must be ConfigMap or Secret, found {other}"),
                ))
            }
            ("name", Json::String(n)) if !n.is_empty() => from.name = n.clone(),
            ("name", other) => {
                return Err(Diagnostic::new(
                    field.clone(),
                    format!("{field} must be a non-empty string, found {other}"),
                ))
            }
            ("optional", Json::Bool(b)) => from.optional = *b,
            ("optional", other) => {
                return Err(Diagnostic::new(
                    field.clone(),
                    format!("{field} must be true or false, found {other}"),
                ))
            }
            _ => {
                return Err(Diagnostic::new(
                    field.clone(),
                    format!("unknown field {key:?} in {at}; accepted fields: kind, name, optional"),
                ))
            }
        }
    }
    if from.kind.is_empty() {
        return Err(Diagnostic::new(
            format!("{at}.kind"),
            format!("{at}.kind is required (ConfigMap or Secret)"),
        ));
    }
    if from.name.is_empty() {
        return Err(Diagnostic::new(
            format!("{at}.name"),
            format!("{at}.name is required"),
        ));
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
        let pb = read_post_build(
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
        let e =
            read_post_build(&json!({"substitute": {"replicas": 3}}), "spec.postBuild").unwrap_err();
        assert_eq!(e.field, "spec.postBuild.substitute.replicas");
        let e = read_post_build(
            &json!({"substituteFrom": [{"kind": "Pod", "name": "x"}]}),
            "spec.postBuild",
        )
        .unwrap_err();
        assert_eq!(e.field, "spec.postBuild.substituteFrom[0].kind");
        let e = read_post_build(&json!({"substitue": {}}), "spec.postBuild").unwrap_err();
        assert!(e.message.contains("accepted fields"), "{}", e.message);
    }
}
