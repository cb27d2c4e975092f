//! functionConfig kinds → the pipeline they ask for. Each single-purpose kind runs just its
//! stage; `Tailor` configures all of them.

mod flux_fields;
mod flux_kustomization;
pub mod post_build;
mod tailor_spec;

use serde_json::Value as Json;
use tailor_cluster::ClusterSpec;
use tailor_yaml::Node;

use crate::krm::KrmResult;

pub use flux_fields::check as check_flux_fields;
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
    /// CustomTransforms from the config (items of that kind are added at run time).
    pub custom_transforms: Vec<tailor_kubestellar::strip::CustomTransform>,
    /// The kustomize `replacements:` list, when replacements run.
    pub replacements: Option<Replacements>,
    /// KubeStellar template expansion of annotated objects.
    pub templates: bool,
    /// Limits for each template execution (output size, `range` iterations).
    pub template_limits: tailor_go::ExecOptions,
    /// Flux `postBuild` substitution, when configured.
    pub post_build: Option<post_build::PostBuild>,
    /// `metadata.namespace` of the functionConfig: where `substituteFrom` sources live.
    pub namespace: Option<String>,
    /// Fleet customizations and the Flux overlay fields (spec-level ones are its base).
    pub fleet: Option<tailor_fleet::FleetConfig>,
    /// Kratix destination selectors.
    pub kratix: Option<tailor_kratix::KratixSchedule>,
    /// Fleet overlay files (`overlays/<name>/...`), gathered from the input at run time.
    pub overlay_files: Vec<tailor_fleet::BundleFile>,
    /// Largest number of tailored copies (clusters × items) one run may produce.
    pub max_fan_out_items: usize,
}

/// A `replacements:` list, the reader whose rules it follows and where it is written.
#[derive(Clone, Debug)]
pub struct Replacements {
    pub list: Node,
    pub dialect: tailor_kustomize::replacements::Dialect,
    /// For messages: `spec.replacements`, `functionConfig.replacements`.
    pub field: &'static str,
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

    /// Whether some stage reads (or writes) every object's tree. Template expansion does not
    /// count: it reads only objects whose header carries its annotation. When nothing does,
    /// the items' trees can be dropped as they are read (`krm::read`), and only the objects a
    /// run does look into are parsed again.
    pub fn reads_every_object(&self) -> bool {
        self.strip_builtin
            || !self.custom_transforms.is_empty()
            || self.replacements.is_some()
            || self.post_build.is_some()
            || self
                .fleet
                .as_ref()
                .is_some_and(|f| *f != tailor_fleet::FleetConfig::default())
            || self.kratix.is_some()
            || !self.overlay_files.is_empty()
            || self.fan_out
            || self.clusters.len() > 1
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
        ("v1", "ConfigMap") => config_map(fc).map_err(|(f, m)| fail(&f, m)),
        ("fn.kpt.dev/v1alpha1", "ApplyReplacements")
        | ("builtin", "ReplacementTransformer")
        | ("", "ReplacementTransformer") => {
            let mut p = Pipeline::new(kind);
            let dialect = if kind == "ApplyReplacements" {
                tailor_kustomize::replacements::Dialect::ApplyReplacements
            } else {
                tailor_kustomize::replacements::Dialect::ReplacementTransformer
            };
            match fc.get("replacements") {
                Some(r) if r.is_sequence() => {
                    // Decoded now, with the rules (and messages) of the reader named, so a
                    // malformed entry is reported once, before anything runs.
                    let files = std::collections::BTreeMap::new();
                    if let Err(e) =
                        tailor_kustomize::replacements::parse_replacements_with(r, dialect, &files)
                    {
                        return Err(fail("replacements", e.to_string()));
                    }
                    p.replacements = Some(Replacements {
                        list: r.clone(),
                        dialect,
                        field: "functionConfig.replacements",
                    });
                }
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
            // Paths read from the functionConfig's root: `spec.remove[0]`.
            let t = tailor_kubestellar::strip::parse_custom_transform_at(
                fc,
                "functionConfig",
                tailor_kubestellar::strip::PathSyntax::Extended,
                "",
            )
            .map_err(|findings| {
                findings
                    .into_iter()
                    .map(crate::filters::strip::finding_result)
                    .collect::<Vec<_>>()
            })?;
            p.custom_transforms.push(t);
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
fn config_map(fc: &Node) -> Result<Pipeline, (String, String)> {
    let mut p = strip_only("ConfigMap");
    p.templates = true;
    let data = match fc.get("data") {
        None => return Ok(p),
        Some(d) if d.is_null() => return Ok(p),
        Some(d) => d.pairs().ok_or_else(|| {
            (
                "data".to_string(),
                "ConfigMap data must be a map of strings".to_string(),
            )
        })?,
    };
    let mut name = None;
    let mut props = tailor_cluster::StringMap::new();
    for pair in data {
        let k = pair.key.as_scalar().unwrap_or_default();
        let v = &pair.value;
        // kpt sends strings (`-- k=v`); a number or boolean written in a ConfigMap file is
        // taken as its text, as written (kyaml's GetDataMap reads the node's text). A map or
        // list has no text.
        let s = if v.is_null() {
            String::new()
        } else if let Some(text) = v.as_scalar() {
            text.to_string()
        } else {
            return Err((
                format!("data.{k}"),
                format!(
                    "functionConfig.data.{k}: ConfigMap data values must be strings, found {}",
                    if v.is_sequence() {
                        "a list"
                    } else {
                        "a mapping"
                    }
                ),
            ));
        };
        if k == "clusterName" {
            name = Some(s);
        } else if !tailor_go::unicode::is_identifier(k) {
            return Err((
                format!("data.{k}"),
                format!("functionConfig.data.{k}: property names must be Go identifiers (letters, digits and '_', not starting with a digit, not a Go keyword), so templates can use {{{{.name}}}}"),
            ));
        } else {
            props.insert(k.to_string(), s);
        }
    }
    match name {
        Some(n) if !n.is_empty() => p.clusters.push(ClusterSpec {
            name: n,
            labels: props.clone(),
            properties: props,
            ..ClusterSpec::default()
        }),
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

#[cfg(test)]
mod tests {
    use super::*;

    fn fc(text: &str) -> Node {
        tailor_yaml::parse_stream(text).unwrap().remove(0).root
    }

    fn config_map_error(data: &str) -> (String, String) {
        config_map(&fc(&format!(
            "apiVersion: v1\nkind: ConfigMap\ndata: {data}\n"
        )))
        .unwrap_err()
    }

    #[test]
    fn config_map_scalars_are_taken_as_written() {
        let p = config_map(&fc(
            "apiVersion: v1\nkind: ConfigMap\ndata: {clusterName: virgo, tag: 1.20, on: true, none: ~}\n",
        ))
        .unwrap();
        let props = &p.clusters[0].properties;
        assert_eq!(p.clusters[0].name, "virgo");
        assert_eq!(props["tag"], "1.20");
        assert_eq!(props["on"], "true");
        assert_eq!(props["none"], "");
        assert_eq!(p.clusters[0].labels, *props);
    }

    #[test]
    fn config_map_errors_name_the_data_key() {
        assert_eq!(
            config_map_error("{clusterName: a, env: {x: y}}"),
            (
                "data.env".to_string(),
                "functionConfig.data.env: ConfigMap data values must be strings, found a mapping"
                    .to_string()
            )
        );
        let (field, message) = config_map_error("{clusterName: [a]}");
        assert_eq!(field, "data.clusterName");
        assert!(message.ends_with("found a list"), "{message}");
        let (field, message) = config_map_error("{clusterName: a, my-prop: x}");
        assert_eq!(field, "data.my-prop");
        assert!(
            message
                .starts_with("functionConfig.data.my-prop: property names must be Go identifiers"),
            "{message}"
        );
        assert_eq!(config_map_error("[a]").0, "data");
    }
}
