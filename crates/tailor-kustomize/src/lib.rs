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
pub mod patch;
pub mod replacements;
