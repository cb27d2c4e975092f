//! The pipeline stages, one module each, run in DESIGN.md's order. Every stage leaves the
//! Kptfile and local-config objects alone.

pub mod replacements;
pub mod strip;
pub mod substitute;
pub mod templates;

use tailor_cluster::Cluster;
use tailor_yaml::Node;

use crate::config::Pipeline;
use crate::krm::{KrmResult, Resource};

pub struct StageContext<'a> {
    pub cluster: Option<&'a Cluster>,
    pub custom_transforms: &'a [Node],
    pub results: &'a mut Vec<KrmResult>,
}

/// Runs the stages in DESIGN.md's order: strip → replacements → templates → substitution.
pub fn run_all(pipeline: &Pipeline, items: &mut [Resource], ctx: &mut StageContext<'_>) {
    strip::run(pipeline, items, ctx);
    if let Some(list) = &pipeline.replacements {
        replacements::run(list, items, ctx);
    }
    if pipeline.templates {
        templates::run(items, &pipeline.template_limits, ctx);
    }
    if let Some(pb) = &pipeline.post_build {
        substitute::run(pb, pipeline.namespace.as_deref(), items, ctx);
    }
}
