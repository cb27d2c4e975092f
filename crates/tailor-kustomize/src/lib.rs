//! kustomize, as tailor follows it (v5.5.0; `docs/semantics/kustomize.md`): everything tailor
//! borrows from kustomize lives here, so comparing tailor with kustomize means opening this
//! crate.
//!
//! - [`replacements`]: the `replacements` field and its `ReplacementTransformer` /
//!   `ApplyReplacements` config kinds;
//! - [`patch`]: the `patches` field: strategic merge (kyaml `merge2`), JSON 6902, targets;
//! - [`builtins`]: the built-in transformers behind Flux's overlay fields (namespace, name
//!   prefix/suffix with name references, images, labels and annotations).
//!
//! Each works on parsed [`tailor_yaml::Node`] trees, in the order `kustomize build` runs them:
//!
//! ```
//! use std::collections::BTreeMap;
//! use tailor_kustomize::builtins::{apply_overlay, Image, Overlay};
//! use tailor_kustomize::patch::{apply_patches, PatchSpec};
//! use tailor_kustomize::replacements::{apply, parse_replacements};
//!
//! let docs = tailor_yaml::parse_stream(
//!     "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}\ndata: {tier: gold}\n---\n\
//!      apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: 1\n  \
//!      template:\n    spec:\n      containers:\n      - {name: app, image: nginx:1.25}\n      \
//!      volumes:\n      - {name: cfg, configMap: {name: settings}}\n",
//! )?;
//! let mut resources: Vec<_> = docs.into_iter().map(|d| d.root).collect();
//!
//! // `patches:` (a strategic merge patch), then `namePrefix:` and `images:`...
//! let patch = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec: {replicas: 3}\n";
//! apply_patches(&mut resources, &[PatchSpec::from_text(patch, None)?])?;
//! let overlay = Overlay {
//!     name_prefix: "prod-".into(),
//!     images: vec![Image { name: "nginx".into(), new_tag: "1.27".into(), ..Image::default() }],
//!     ..Overlay::default()
//! };
//! apply_overlay(&mut resources, &overlay)?;
//! // ...then `replacements:`.
//! let config = tailor_yaml::parse_stream(
//!     "- source: {kind: ConfigMap, fieldPath: data.tier}\n  targets:\n  \
//!      - select: {kind: Deployment}\n    fieldPaths: [metadata.labels.tier]\n    \
//!      options: {create: true}\n",
//! )?;
//! apply(&mut resources, &parse_replacements(&config[0].root)?, &BTreeMap::new())?;
//!
//! let web = resources[1].to_json().unwrap();
//! assert_eq!(web["metadata"]["name"], "prod-web");
//! assert_eq!(web["metadata"]["labels"]["tier"], "gold");
//! assert_eq!(web["spec"]["replicas"], 3);
//! let pod = &web["spec"]["template"]["spec"];
//! assert_eq!(pod["containers"][0]["image"], "nginx:1.27");
//! // The prefix renamed the ConfigMap, and the reference to it followed.
//! assert_eq!(pod["volumes"][0]["configMap"]["name"], "prod-settings");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

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
