//! The pipeline stages, one module each, run in DESIGN.md's order. Every stage leaves the
//! Kptfile and local-config objects alone.

pub mod replacements;
pub mod strip;

use tailor_cluster::Cluster;
use tailor_yaml::Node;

use crate::config::Pipeline;
use crate::krm::{KrmResult, Resource};

pub struct StageContext<'a> {
    pub cluster: Option<&'a Cluster>,
    pub custom_transforms: &'a [Node],
    pub results: &'a mut Vec<KrmResult>,
}

/// Runs the stages this build has, in DESIGN.md's order.
pub fn run_all(pipeline: &Pipeline, items: &mut [Resource], ctx: &mut StageContext<'_>) {
    strip::run(pipeline, items, ctx);
    // Stages whose engines exist as crates but are not wired into the pipeline yet: asking
    // for them is an error, never a silent no-op.
    if let Some(list) = &pipeline.replacements {
        replacements::run(list, items, ctx);
    }
    if pipeline.templates {
        for item in items.iter() {
            if item.annotation("control.kubestellar.io/expand-templates") == Some("true") {
                ctx.results.push(
                    KrmResult::error("template expansion is not in this build of tailor yet")
                        .about(item)
                        .at_field("metadata.annotations.control.kubestellar.io/expand-templates"),
                );
            }
        }
    }
}
