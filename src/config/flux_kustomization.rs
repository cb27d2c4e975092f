//! A Flux `kustomize.toolkit.fluxcd.io/v1 Kustomization` as functionConfig: the fields that
//! change manifests run as tailor stages; the controller's own fields (interval, sourceRef,
//! prune, ...) mean nothing offline and are accepted as they are.

use serde_json::Value as Json;

use super::{post_build, Pipeline};
use crate::krm::KrmResult;

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
    "decryption",
    "ignoreMissingComponents",
];

/// Overlay fields: tailor runs them as its overlay stage.
const OVERLAY_FIELDS: &[&str] = &[
    "targetNamespace",
    "namePrefix",
    "nameSuffix",
    "commonMetadata",
    "patches",
    "images",
];

pub fn parse(json: &Json) -> Result<Pipeline, Vec<KrmResult>> {
    let mut p = Pipeline::new("Kustomization");
    p.namespace = json
        .pointer("/metadata/namespace")
        .and_then(Json::as_str)
        .map(str::to_string);
    let spec = match json.get("spec") {
        None | Some(Json::Null) => return Ok(p),
        Some(Json::Object(m)) => m,
        Some(_) => {
            return Err(vec![KrmResult::error(
                "Kustomization spec must be a mapping",
            )
            .at_field("spec")])
        }
    };
    let mut errors = Vec::new();
    let mut overlay = serde_json::Map::new();
    for (key, value) in spec {
        let field = format!("spec.{key}");
        match key.as_str() {
            "postBuild" if value.is_null() => {}
            "postBuild" => match post_build::parse(value, "spec.postBuild") {
                Ok(pb) => p.post_build = Some(pb),
                Err((f, m)) => errors.push(KrmResult::error(m).at_field(f)),
            },
            k if OVERLAY_FIELDS.contains(&k) => {
                overlay.insert(key.clone(), value.clone());
            }
            "components" if !is_empty(value) => errors.push(
                KrmResult::error(
                    "spec.components: kustomize components live in the source tree; tailor works on built manifests, so apply them before tailor",
                )
                .at_field(field),
            ),
            "components" => {}
            k if CONTROLLER_FIELDS.contains(&k) => {}
            _ => errors.push(
                KrmResult::error(format!(
                    "unknown field {key:?} in Kustomization spec (kustomize.toolkit.fluxcd.io/v1)"
                ))
                .at_field(field),
            ),
        }
    }
    match tailor_fleet::FleetConfig::from_tailor_spec(&Json::Object(overlay), "spec") {
        Ok(cfg) => {
            errors.extend(super::flux_fields::check(&cfg, "spec"));
            p.fleet = Some(cfg);
        }
        Err(e) => errors.push(KrmResult::error(e.message.clone()).at_field(e.field.clone())),
    }
    if errors.is_empty() {
        Ok(p)
    } else {
        Err(errors)
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
