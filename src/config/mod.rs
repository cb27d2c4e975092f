//! functionConfig kinds → the pipeline they ask for. Each single-purpose kind runs just its
//! stage; `Tailor` configures all of them.

mod flux_kustomization;
pub mod post_build;
mod tailor_spec;

use serde_json::Value as Json;
use tailor_cluster::ClusterSpec;
use tailor_yaml::Node;

use crate::krm::KrmResult;

pub use tailor_spec::TAILOR_FIELDS;

/// What a run does, decided by the functionConfig.
#[derive(Clone, Debug, Default)]
pub struct Pipeline {
    /// Which functionConfig kind asked for this (for messages).
    pub source: String,
    /// Destinations: one tailored copy per entry. Empty means "no destination named".
    pub clusters: Vec<ClusterSpec>,
    /// `spec.clusters` was used: paths get a `<cluster>/` prefix.
    pub fan_out: bool,
    pub strip_builtin: bool,
    /// CustomTransform specs from the config (items of that kind are added at run time).
    pub custom_transforms: Vec<Node>,
    /// The kustomize `replacements:` list, when replacements run.
    pub replacements: Option<Node>,
    /// KubeStellar template expansion of annotated objects.
    pub templates: bool,
    /// Limits for each template execution (output size, `range` iterations).
    pub template_limits: tailor_gotemplate::ExecOptions,
    /// Flux `postBuild` substitution, when configured.
    pub post_build: Option<post_build::PostBuild>,
    /// `metadata.namespace` of the functionConfig: where `substituteFrom` sources live.
    pub namespace: Option<String>,
    /// Fleet customizations and the Flux overlay fields (spec-level ones are its base).
    pub fleet: Option<tailor_fleet::FleetConfig>,
    /// Kratix destination selectors.
    pub kratix: Option<tailor_fleet::KratixSchedule>,
    /// Fleet overlay files (`overlays/<name>/...`), gathered from the input at run time.
    pub overlay_files: Vec<tailor_fleet::BundleFile>,
    /// Largest number of tailored copies (clusters × items) one run may produce.
    pub max_fan_out_items: usize,
}

pub const ACCEPTED_KINDS: &str = "tailor.dev/v1alpha1 Tailor, v1 ConfigMap, fn.kpt.dev/v1alpha1 ApplyReplacements, builtin ReplacementTransformer, control.kubestellar.io/v1alpha1 CustomTransform, kustomize.toolkit.fluxcd.io/v1 Kustomization";

const DEFAULT_MAX_FAN_OUT_ITEMS: usize = 10_000_000;

impl Pipeline {
    fn new(source: &str) -> Pipeline {
        Pipeline {
            source: source.to_string(),
            max_fan_out_items: DEFAULT_MAX_FAN_OUT_ITEMS,
            ..Pipeline::default()
        }
    }
}

/// Parses the functionConfig; every problem is an error result naming the field.
pub fn parse(fc: Option<&Node>) -> Result<Pipeline, Vec<KrmResult>> {
    let Some(fc) = fc else {
        return Ok(strip_only("no functionConfig"));
    };
    let json = fc
        .to_json()
        .map_err(|e| vec![KrmResult::error(format!("functionConfig: {e}"))])?;
    let api_version = json.get("apiVersion").and_then(Json::as_str).unwrap_or("");
    let kind = json.get("kind").and_then(Json::as_str).unwrap_or("");
    let fail = |field: &str, msg: String| {
        vec![KrmResult::error(msg).at_field(format!("functionConfig.{field}"))]
    };
    match (api_version, kind) {
        ("tailor.dev/v1alpha1", "Tailor") => tailor_spec::parse(&json, fc),
        ("v1", "ConfigMap") => config_map(&json).map_err(|(f, m)| fail(&f, m)),
        ("fn.kpt.dev/v1alpha1", "ApplyReplacements")
        | ("builtin", "ReplacementTransformer")
        | ("", "ReplacementTransformer") => {
            let mut p = Pipeline::new(kind);
            match fc.get("replacements") {
                Some(r) if r.is_sequence() => p.replacements = Some(r.clone()),
                Some(r) => {
                    return Err(fail(
                        "replacements",
                        format!(
                            "{kind}: replacements must be a list, found {}",
                            crate::krm::read::describe(r)
                        ),
                    ))
                }
                None => {
                    return Err(fail(
                        "replacements",
                        format!("{kind}: replacements is required"),
                    ))
                }
            }
            Ok(p)
        }
        ("control.kubestellar.io/v1alpha1", "CustomTransform") => {
            let mut p = Pipeline::new(kind);
            p.strip_builtin = true;
            p.custom_transforms.push(fc.clone());
            Ok(p)
        }
        ("kustomize.toolkit.fluxcd.io/v1", "Kustomization") => flux_kustomization::parse(&json),
        _ => Err(vec![KrmResult::error(format!(
            "unsupported functionConfig {} {}; accepted kinds: {ACCEPTED_KINDS}",
            if api_version.is_empty() {
                "<no apiVersion>"
            } else {
                api_version
            },
            if kind.is_empty() { "<no kind>" } else { kind },
        ))
        .at_field("functionConfig")]),
    }
}

fn strip_only(source: &str) -> Pipeline {
    let mut p = Pipeline::new(source);
    p.strip_builtin = true;
    p
}

/// `kpt fn eval --exec tailor -- clusterName=virgo env=prod`: `clusterName` names the cluster,
/// every other key is a property and a label. An empty ConfigMap means "no config".
fn config_map(json: &Json) -> Result<Pipeline, (String, String)> {
    let mut p = strip_only("ConfigMap");
    p.templates = true;
    let data = match json.get("data") {
        None | Some(Json::Null) => return Ok(p),
        Some(Json::Object(m)) => m,
        Some(_) => {
            return Err((
                "data".into(),
                "ConfigMap data must be a map of strings".into(),
            ))
        }
    };
    let mut name = None;
    let mut props = serde_json::Map::new();
    for (k, v) in data {
        let s = match v {
            Json::String(s) => s.clone(),
            Json::Null => String::new(),
            other => other.to_string(),
        };
        if k == "clusterName" {
            name = Some(s);
        } else {
            props.insert(k.clone(), Json::String(s));
        }
    }
    match name {
        Some(n) if !n.is_empty() => {
            let spec = serde_json::json!({"name": n, "labels": props.clone(), "properties": props});
            let spec = ClusterSpec::from_json(&spec, "functionConfig.data")
                .map_err(|e| (e.field.clone(), e.to_string()))?;
            p.clusters.push(spec);
        }
        Some(_) => {
            return Err(("data.clusterName".into(), "clusterName must not be empty".into()))
        }
        None if !props.is_empty() => {
            return Err((
                "data.clusterName".into(),
                "ConfigMap functionConfig has properties but no clusterName: name the destination cluster (-- clusterName=NAME ...)".into(),
            ))
        }
        None => {}
    }
    Ok(p)
}
