//! KubeStellar, as tailor follows it (`docs/semantics/kubestellar.md`): everything tailor
//! borrows from KubeStellar lives here, so comparing tailor with KubeStellar means opening this
//! crate.
//!
//! - [`strip`]: the transport controller's WEC-independent cleaning and `CustomTransform`
//!   removals (its JSONPath subset included);
//! - [`templates`]: expansion of objects annotated `control.kubestellar.io/expand-templates`;
//! - [`properties`]: which labels, annotations and ConfigMap keys become template properties,
//!   and their precedence.

pub mod properties;
pub mod strip;
pub mod templates;
