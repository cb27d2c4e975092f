//! Stages that work on plain `Node` lists (kustomize-style transformers) edit copies; only the
//! objects whose tree changed leave the verbatim-copy path.

use tailor_yaml::Node;

use crate::krm::Resource;

/// The objects a stage may edit (the Kptfile and local-config objects are left alone), with
/// their positions in `items`.
pub struct Work {
    pub positions: Vec<usize>,
    pub nodes: Vec<Node>,
}

impl Work {
    pub fn of(items: &[Resource]) -> Work {
        let positions: Vec<usize> = (0..items.len())
            .filter(|&i| !items[i].is_meta_or_local())
            .collect();
        let nodes = positions.iter().map(|&i| items[i].node().clone()).collect();
        Work { positions, nodes }
    }

    /// Writes changed trees back; the node list must still be index-aligned with `positions`.
    pub fn write_back(self, items: &mut [Resource]) {
        for (node, i) in self.nodes.into_iter().zip(self.positions) {
            if node != *items[i].node() {
                *items[i].node_mut() = node;
            }
        }
    }
}
