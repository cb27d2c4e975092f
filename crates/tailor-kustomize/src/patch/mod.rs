//! kustomize-compatible patching over [`tailor_yaml::Node`] trees.
//!
//! * [`strategic_merge`]: kustomize v5.5.0's strategic merge (kyaml `merge2` with the built-in
//!   Kubernetes v1.21 schema, list merge keys, `$patch` directives, `null` deletes).
//! * [`json6902`]: RFC 6902 with evanphx/json-patch v4 behaviour and error texts.
//! * [`merge_patch`]: RFC 7386, Fleet's patch for kinds without a Go type.
//! * [`PatchTarget`] and [`apply_patches`]: kustomize's `patches:` field (PatchTransformer),
//!   patch-type detection ([`parse_patch`]), target selection, and its error messages.
//! * [`is_builtin_kind`]: whether Fleet treats a kind as built-in (strategic merge).
//!
//! ## Where kustomize (kyaml) and apimachinery's strategicpatch differ
//! Fleet applies strategic merge patches with apimachinery; Flux and kustomize with kyaml. This
//! crate follows kyaml, so with the same patch Fleet's result may differ:
//! * `$setElementOrder/…`, `$deleteFromPrimitiveList/…` and `$retainKeys` are not directives
//!   for kyaml: they are copied into the output as ordinary fields.
//! * New list elements go first (kustomize merges with "prepend"), and the merged list takes the
//!   patch's order, then the remaining destination elements.
//! * In a list with merge keys, an element without the merge key (for example
//!   `- $patch: replace`) deletes every destination element that has the key; the directive is
//!   not a list directive for kyaml.
//! * `$patch: replace` on a list element is undone: the original element is put back.
//! * Lists whose schema lists several keys (`x-kubernetes-list-map-keys`, e.g. container ports
//!   by `containerPort` and `protocol`) are matched on all keys, with kyaml's rules for missing
//!   secondary keys.
//! * Only the v1.21 schema is known; fields added later merge as plain values (lists replaced).
//! * With a `target`, the patch's labels and annotations are rewritten as strings before the
//!   merge (kustomize copies them through a `map[string]string`), so `null` there sets the
//!   text `"null"` rather than deleting.

mod apply;
mod json6902;
mod merge2;
mod mergepatch;
mod parse;
mod target;
mod ynode;
pub use crate::Error;
pub use apply::{apply_patches, strategic_merge, Merged, PatchSpec, Report};
pub use json6902::{decode_ops, json6902, Op};
pub use mergepatch::merge_patch;
pub use parse::{parse_patch, Patch};
pub use tailor_kube::resid::ResId;
pub use tailor_kube::schema::{is_builtin_kind, is_cluster_scoped};
pub use target::PatchTarget;
