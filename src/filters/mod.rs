//! The pipeline stages, one module each, run in DESIGN.md's order. Every stage leaves the
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
    pub custom_transforms: &'a [tailor_strip::CustomTransform],
    pub results: &'a mut Vec<KrmResult>,
}

/// Runs the stages in DESIGN.md's order: schedule → strip → overlays (Fleet yaml overlays,
/// patches, namespaces, prefix/suffix, images, commonMetadata) → replacements → templates →
/// substitution.
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
        fleet::yaml_overlays(&o.yaml_overlays, &pipeline.overlay_files, items, ctx);
        overlays::run(&o.flux, items, ctx);
        fleet::namespaces(o, items, ctx);
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
                dialect: tailor_replacements::Dialect::Tailor,
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
