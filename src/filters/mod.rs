//! The pipeline stages, one module each, run in DESIGN.md's order. Every stage leaves the
//! Kptfile and local-config objects alone.

use tailor_cluster::Cluster;
use tailor_yaml::Node;

use crate::config::Pipeline;
use crate::krm::{KrmResult, Resource};

pub struct StageContext<'a> {
    pub cluster: Option<&'a Cluster>,
    pub custom_transforms: &'a [Node],
    pub results: &'a mut Vec<KrmResult>,
}

pub fn run_all(pipeline: &Pipeline, items: &mut Vec<Resource>, ctx: &mut StageContext<'_>) {
    let _ = (pipeline, items, ctx);
}
