//! kustomize, as tailor follows it (v5.5.0; `docs/semantics/kustomize.md`): everything tailor
//! borrows from kustomize lives here, so comparing tailor with kustomize means opening this
//! crate.
//!
//! - [`replacements`]: the `replacements` field and its `ReplacementTransformer` /
//!   `ApplyReplacements` config kinds;
//! - [`patch`]: the `patches` field: strategic merge (kyaml `merge2`), JSON 6902, targets;
//! - [`builtins`]: the built-in transformers behind Flux's overlay fields (namespace, name
//!   prefix/suffix with name references, images, labels and annotations).

pub mod builtins;
mod error;
pub mod patch;
pub mod replacements;

pub use error::Error;

use tailor_yaml::{Node, Pair};

/// The entries of a resource's `metadata.<field>` mapping (labels, annotations); none when it
/// is absent or not a mapping. Each module reads their text as its kustomize code does.
pub(crate) fn metadata_entries<'a>(res: &'a Node, field: &str) -> &'a [Pair] {
    res.get("metadata")
        .and_then(|m| m.get(field))
        .and_then(Node::pairs)
        .unwrap_or_default()
}
