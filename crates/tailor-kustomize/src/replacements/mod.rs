//! kustomize `replacements` with v5.5.0 semantics over [`tailor_yaml::Node`] trees, plus
//! kustomize v5.7's `sourceValue` and tailor's `source: {property: NAME}`, which takes the value
//! from the destination cluster's properties.
//!
//! ```
//! use std::collections::BTreeMap;
//! use tailor_kustomize::replacements::{apply, parse_replacements};
//!
//! let docs = tailor_yaml::parse_stream(
//!     "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm}\ndata: {host: a.example}\n---\n\
//!      apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec: {}\n",
//! ).unwrap();
//! let mut resources: Vec<_> = docs.into_iter().map(|d| d.root).collect();
//! let config = tailor_yaml::parse_stream(
//!     "- source: {kind: ConfigMap, name: cm, fieldPath: data.host}\n  targets:\n  \
//!      - select: {kind: Deployment}\n    fieldPaths: [spec.host]\n    options: {create: true}\n\
//!      - source: {property: region}\n  targets:\n  - select: {kind: Deployment}\n    \
//!      fieldPaths: [metadata.labels.region]\n    options: {create: true}\n",
//! ).unwrap();
//! let replacements = parse_replacements(&config[0].root).unwrap();
//! let props = BTreeMap::from([("region".to_string(), "eu".to_string())]);
//! apply(&mut resources, &replacements, &props).unwrap();
//! assert_eq!(resources[1].get_path(&["spec", "host"]).unwrap().as_str(), Some("a.example"));
//! assert_eq!(resources[1].get_path(&["metadata", "labels", "region"]).unwrap().as_str(), Some("eu"));
//! ```

mod config;
mod filter;
mod path;
mod types;

pub use crate::Error;
pub use config::{
    parse_config, parse_replacements, parse_replacements_noting, parse_replacements_with,
    ConfigKind, Dialect,
};
pub use filter::{apply, apply_reporting, apply_with_earlier_ids, Applied, EarlierIds};
pub use path::split_path;
pub use types::{
    FieldOptions, Replacement, ResId, Selector, Source, TargetSelector, DEFAULT_FIELD_PATH,
};
