//! The pipeline stages, one module each, run in `docs/design.md`'s order. Every stage leaves the
//! Kptfile and local-config objects alone.

pub mod fleet;
mod nodes;
pub mod overlays;
pub mod replacements;
pub mod schedule;
pub mod strip;
pub mod substitute;
pub mod templates;

use tailor_cluster::Cluster;
use tailor_fleet::{Decision, Options};
use tailor_yaml::Node;

use crate::config::{Pipeline, Replacements};
use crate::krm::{KrmResult, Resource};

pub struct StageContext<'a> {
    pub cluster: Option<&'a Cluster>,
    pub custom_transforms: &'a [tailor_kubestellar::strip::CustomTransform],
    pub results: &'a mut Vec<KrmResult>,
    /// Outcomes kept from one destination to the next of a fan-out.
    pub memo: Option<&'a mut substitute::Memo>,
}

/// Runs the stages in `docs/design.md`'s order: schedule → strip → overlays (Fleet yaml
/// overlays, patches, namespaces, prefix/suffix, images, commonMetadata) → replacements →
/// templates → substitution.
pub fn run_all(pipeline: &Pipeline, items: &mut Vec<Resource>, ctx: &mut StageContext<'_>) {
    let options = match customization(pipeline, ctx) {
        Some(Customized::Deploy(o)) => Some(*o),
        Some(Customized::Skip) => {
            items.clear();
            return;
        }
        None => None,
    };
    if ctx.results.iter().any(KrmResult::is_error) {
        return;
    }
    if let Some(schedule) = &pipeline.kratix {
        schedule::run(schedule, items, ctx);
    }
    strip::run(pipeline, items, ctx);
    if let Some(o) = &options {
        overlay_stages(o, pipeline, items, ctx);
    }
    let merged;
    let replacements = match &options {
        Some(o) if !o.flux.replacements.is_empty() => {
            merged = Replacements {
                list: Node::sequence(
                    o.flux
                        .replacements
                        .iter()
                        .map(tailor_yaml::from_json)
                        .collect(),
                ),
                dialect: tailor_kustomize::replacements::Dialect::Tailor,
                field: "spec.replacements",
            };
            Some(&merged)
        }
        Some(_) => None,
        None => pipeline.replacements.as_ref(),
    };
    if let Some(r) = replacements {
        replacements::run(r, items, ctx);
    }
    if pipeline.templates {
        templates::run(items, &pipeline.template_limits, ctx);
    }
    if let Some(pb) = &pipeline.post_build {
        substitute::run(pb, pipeline.namespace.as_deref(), items, ctx);
    }
}

/// The overlay stages of one destination's options: Fleet yaml overlays, the Flux fields but
/// replacements (patches, namespace, prefix/suffix, images, commonMetadata), Fleet namespaces.
pub fn overlay_stages(
    options: &Options,
    pipeline: &Pipeline,
    items: &mut Vec<Resource>,
    ctx: &mut StageContext<'_>,
) {
    fleet::yaml_overlays(&options.yaml_overlays, &pipeline.overlay_files, items, ctx);
    overlays::run(&options.flux, items, ctx);
    fleet::namespaces(options, items, ctx);
}

/// The options left for each destination once [`overlay_stages`] ran for all of them: only
/// the replacements, which may read the destination's properties.
pub fn without_overlay_stages(options: &Options) -> Options {
    Options {
        namespace: None,
        default_namespace: None,
        yaml_overlays: Vec::new(),
        flux: tailor_fleet::FluxOverlay {
            replacements: options.flux.replacements.clone(),
            ..Default::default()
        },
        ..options.clone()
    }
}

enum Customized {
    Deploy(Box<Options>),
    Skip,
}

/// Which Fleet customization applies to this destination, merged (FirstMatch/AllMatches).
fn customization(pipeline: &Pipeline, ctx: &mut StageContext<'_>) -> Option<Customized> {
    let config = pipeline.fleet.as_ref()?;
    let Some(cluster) = ctx.cluster else {
        if !config.customizations.is_empty() {
            ctx.results.push(
                KrmResult::error(
                    "spec.targetCustomizations need a destination cluster to match against: set spec.cluster or spec.clusters",
                )
                .at_field("spec.targetCustomizations"),
            );
        }
        return Some(Customized::Deploy(Box::new(config.root.clone())));
    };
    match config.resolve(cluster) {
        Decision::Deploy { matched, options } => {
            if !matched.is_empty() {
                ctx.results.push(KrmResult::info(format!(
                    "cluster {:?}: target customization {} applied",
                    cluster.name,
                    matched
                        .iter()
                        .map(|m| format!("{m:?}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                )));
            }
            Some(Customized::Deploy(Box::new(options)))
        }
        Decision::Skip { reason, .. } => {
            ctx.results.push(KrmResult::info(reason));
            Some(Customized::Skip)
        }
    }
}
