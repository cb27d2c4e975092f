//! The Kubernetes and kustomize core every other crate shares, so each rule has one
//! implementation:
//!
//! - [`diag`]: the one diagnostic type (severity, field path, message);
//! - [`json`]: reading configuration with errors that name the field;
//! - [`kube_version`]: a Kubernetes version as Helm's `--kube-version` takes it;
//! - [`labels`]: label selectors with apimachinery's semantics (object and string forms);
//! - [`resid`]: kustomize's resource ids (kyaml `resid`) and their printed forms;
//! - [`tree`]: which files of a directory tree the user handed over may be read;
//! - [`schema`]: the built-in Kubernetes v1.21 OpenAPI schema kyaml merges with (merge keys,
//!   patch strategies, cluster-scoped kinds).
//!
//! ```
//! use tailor_kube::labels::LabelSelector;
//! use tailor_kube::StringMap;
//!
//! let sel = LabelSelector::parse("env in (prod,staging),!legacy")?;
//! let labels = StringMap::from([("env".to_string(), "prod".to_string())]);
//! assert!(sel.matches(&labels));
//! # Ok::<(), tailor_kube::diag::Diagnostic>(())
//! ```

pub mod diag;
pub mod json;
pub mod kube_version;
pub mod labels;
pub mod resid;
pub mod schema;
pub mod strategicpatch;
pub mod tree;

/// A string-to-string map (labels, annotations, properties). Sorted, so output is deterministic.
pub type StringMap = std::collections::BTreeMap<String, String>;

pub use diag::{Diagnostic, FieldError, Severity};
pub use labels::LabelSelector;
