//! Replacements stage: kustomize v5.5 `replacements` (`tailor-replacements` does the work),
//! with the destination cluster's properties available as `source: {property: NAME}`.

use std::collections::BTreeMap;

use tailor_replacements::{apply, parse_replacements_with};
use tailor_yaml::Node;

use super::StageContext;
use crate::config::Replacements;
use crate::krm::{KrmResult, Resource};

pub fn run(config: &Replacements, items: &mut [Resource], ctx: &mut StageContext<'_>) {
    let replacements = match parse_replacements_with(&config.list, config.dialect, &BTreeMap::new())
    {
        Ok(r) => r,
        Err(e) => {
            ctx.results
                .push(KrmResult::error(e.to_string()).at_field(config.field));
            return;
        }
    };
    let props: BTreeMap<String, String> = ctx
        .cluster
        .map(|c| c.properties.clone().into_iter().collect())
        .unwrap_or_default();
    // kustomize edits a copy of the objects; only those that changed leave the verbatim path.
    let targets: Vec<usize> = (0..items.len())
        .filter(|&i| !items[i].is_meta_or_local())
        .collect();
    let mut nodes: Vec<Node> = targets.iter().map(|&i| items[i].node().clone()).collect();
    if let Err(e) = apply(&mut nodes, &replacements, &props) {
        ctx.results
            .push(KrmResult::error(e.to_string()).at_field(config.field));
        return;
    }
    for (node, &i) in nodes.into_iter().zip(&targets) {
        if node != *items[i].node() {
            *items[i].node_mut() = node;
        }
    }
}
