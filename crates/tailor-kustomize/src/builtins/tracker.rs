//! What kustomize keeps in its `internal.config.kubernetes.io/previous*`, `prefixes` and
//! `suffixes` build annotations, kept beside the resources instead of inside them, so that no
//! annotation has to be added and removed again (kustomize strips them from its output).

use tailor_yaml::Node;

use crate::builtins::Error;
use tailor_kube::resid::{Gvk, ResId};

/// One earlier identity: kind, name and the *effective* namespace at the time it was stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct PrevId {
    pub kind: String,
    pub name: String,
    pub namespace: String,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Track {
    pub prev: Vec<PrevId>,
    pub prefixes: Vec<String>,
    pub suffixes: Vec<String>,
}

/// The renaming history of a list of resources, index for index, so that references to
/// renamed objects can be fixed afterwards ([`NameTracker::fix_name_references`]).
///
/// Stages that run between the renames and the fix (kustomize runs replacements there) may
/// edit the resources but must not add, remove or reorder them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NameTracker {
    pub(crate) tracks: Vec<Track>,
}

impl NameTracker {
    /// A tracker for `count` resources with no history yet.
    pub fn new(count: usize) -> NameTracker {
        NameTracker {
            tracks: vec![Track::default(); count],
        }
    }

    /// True when no resource was renamed or moved, so no reference can need fixing.
    pub fn is_empty(&self) -> bool {
        self.tracks.iter().all(|t| t.prev.is_empty())
    }

    pub(crate) fn check_len(&self, resources: &[Node]) -> Result<(), Error> {
        if self.tracks.len() != resources.len() {
            return Err(Error::new(format!(
                "name tracker holds {} resources but {} were given; resources must not be \
                 added or removed between renaming and fixing name references",
                self.tracks.len(),
                resources.len()
            )));
        }
        Ok(())
    }

    /// kustomize `Resource.StorePreviousId`: remember the current id before a rename.
    pub(crate) fn store_previous_id(&mut self, i: usize, node: &Node) {
        let id = ResId::of(node);
        let namespace = id.effective_namespace().to_string();
        if let Some(t) = self.tracks.get_mut(i) {
            t.prev.push(PrevId {
                kind: id.gvk.kind,
                name: id.name,
                namespace,
            });
        }
    }

    pub(crate) fn track(&self, i: usize) -> Option<&Track> {
        self.tracks.get(i)
    }

    pub(crate) fn track_mut(&mut self, i: usize) -> Option<&mut Track> {
        self.tracks.get_mut(i)
    }

    /// The previous ids as kustomize rebuilds them: group and version from the current
    /// apiVersion, kind, name and namespace from the history.
    pub(crate) fn prev_ids(&self, i: usize, node: &Node) -> Vec<ResId> {
        let gvk = Gvk::of(node);
        self.track(i)
            .map(|t| {
                t.prev
                    .iter()
                    .map(|p| ResId {
                        gvk: Gvk {
                            kind: p.kind.clone(),
                            ..gvk.clone()
                        },
                        name: p.name.clone(),
                        namespace: p.namespace.clone(),
                    })
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The ids resource `i` had before its renames, oldest first, as kustomize's
    /// `previousNames`/`previousKinds`/`previousNamespaces` build annotations hold them; for
    /// the stages that run after the renames and select by earlier names (replacements).
    pub fn earlier_ids(&self, i: usize, node: &Node) -> Vec<ResId> {
        self.prev_ids(i, node)
    }

    /// kustomize `Resource.OrgId`: the oldest previous id, else the current one.
    pub(crate) fn org_id(&self, i: usize, node: &Node) -> ResId {
        self.prev_ids(i, node)
            .into_iter()
            .next()
            .unwrap_or_else(|| ResId::of(node))
    }
}
