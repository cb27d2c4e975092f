//! Replacements stage: kustomize v5.5 `replacements` (`tailor-replacements` does the work),
//! with the destination cluster's properties available as `source: {property: NAME}`.

use std::collections::BTreeMap;

use tailor_kustomize::replacements::{apply_reporting, parse_replacements_with};
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
    // The trees move out and back: the library reports which ones it wrote to, so nothing is
    // cloned to find what changed. A failed run's output is re-read from the input, so trees
    // left half edited by an error are never written.
    let targets: Vec<usize> = (0..items.len())
        .filter(|&i| !items[i].is_meta_or_local())
        .collect();
    let mut nodes: Vec<Node> = targets.iter().map(|&i| items[i].take_node()).collect();
    let written = apply_reporting(&mut nodes, &replacements, &props);
    for (k, (node, &i)) in nodes.into_iter().zip(&targets).enumerate() {
        let changed = written.as_ref().is_ok_and(|w| w.contains(&k));
        items[i].put_node(node, changed);
    }
    if let Err(e) = written {
        ctx.results
            .push(KrmResult::error(e.to_string()).at_field(config.field));
    }
}
