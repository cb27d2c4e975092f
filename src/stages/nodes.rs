//! Stages that work on plain `Node` lists (kustomize-style transformers) edit a list of trees;
//! only the objects whose tree changed leave the verbatim-copy path.

use tailor_yaml::Node;

use tailor_kio::orchestrator::Kept;
use tailor_kio::Resource;

/// The objects a stage may edit (the Kptfile, local-config objects and the shells of `*List`
/// containers are left alone), with their positions in `items`.
///
/// An object an earlier stage already changed is written from its tree whatever happens next,
/// so its tree is moved out and back. Only an object still on the verbatim path is copied,
/// to find out afterwards whether this stage changed it. In a pipeline that strips exported
/// objects that is none of them, and the stage costs no copy and no comparison.
pub struct Work {
    pub positions: Vec<usize>,
    pub nodes: Vec<Node>,
    /// Per entry: the tree was moved out of an object already marked changed.
    moved: Vec<bool>,
    /// Per moved entry, the host's annotations it had (an unmoved object still holds them).
    kept: Vec<Option<Kept>>,
}

impl Work {
    pub fn of(items: &mut [Resource]) -> Work {
        let positions: Vec<usize> = (0..items.len())
            .filter(|&i| !items[i].is_left_alone())
            .collect();
        let moved: Vec<bool> = positions.iter().map(|&i| items[i].is_dirty()).collect();
        let mut kept = Vec::with_capacity(positions.len());
        let nodes = positions
            .iter()
            .zip(&moved)
            .map(|(&i, &moved)| {
                if moved {
                    let node = items[i].take_node();
                    kept.push(Some(Kept::of(&node)));
                    node
                } else {
                    kept.push(None);
                    items[i].node().clone()
                }
            })
            .collect();
        Work {
            positions,
            nodes,
            moved,
            kept,
        }
    }

    /// Forgets the entries whose index (in `nodes`, before the call) `drop` returns true for;
    /// the caller removes the same entries from `nodes`.
    pub fn forget_entries(&mut self, drop: impl Fn(usize) -> bool) {
        let mut k = 0;
        self.positions.retain(|_| {
            let keep = !drop(k);
            k += 1;
            keep
        });
        let mut k = 0;
        self.moved.retain(|_| {
            let keep = !drop(k);
            k += 1;
            keep
        });
        let mut k = 0;
        self.kept.retain(|_| {
            let keep = !drop(k);
            k += 1;
            keep
        });
    }

    /// Puts the trees back; the node list must still be index-aligned with `positions`. Call it
    /// on error paths too: moved-out objects hold a placeholder until then.
    /// The host's annotations an object had come back if the stage removed them ([`Kept`]).
    pub fn write_back(self, items: &mut [Resource]) {
        let entries = self.nodes.into_iter().zip(self.positions).zip(self.kept);
        for ((mut node, i), kept) in entries {
            match kept {
                Some(kept) => {
                    kept.restore(&mut node);
                    items[i].put_node(node, true);
                }
                None if node != *items[i].node() => {
                    Kept::of(items[i].node()).restore(&mut node);
                    *items[i].node_mut() = node;
                }
                None => {}
            }
        }
    }
}
