//! KubeStellar, as tailor follows it (`docs/semantics/kubestellar.md`): everything tailor
//! borrows from KubeStellar lives here, so comparing tailor with KubeStellar means opening this
//! crate.
//!
//! - [`strip`]: the transport controller's WEC-independent cleaning and `CustomTransform`
//!   removals (its JSONPath subset included);
//! - [`templates`]: expansion of objects annotated `control.kubestellar.io/expand-templates`.
//!
//! Which labels, annotations and ConfigMap keys become a cluster's template properties, and
//! their precedence, is KubeStellar's rule too, but it lives with the cluster model that
//! every stage reads (`tailor_cluster::properties`), so the model does not depend on this
//! crate.
//!
//! An exported Service, cleaned for another cluster and expanded with that cluster's
//! properties:
//!
//! ```
//! use tailor_kube::StringMap;
//! use tailor_kubestellar::strip::{strip_object, ResourceMapper, StripOptions};
//! use tailor_kubestellar::templates;
//!
//! let mut doc = tailor_yaml::parse_stream(
//!     "apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n  uid: 1f2e\n  \
//!      resourceVersion: \"42\"\n  annotations:\n    \
//!      control.kubestellar.io/expand-templates: \"true\"\n    \
//!      dns: web.{{.region}}.example.com\nspec:\n  clusterIP: 10.96.0.7\n  \
//!      ports:\n  - port: 80\n    nodePort: 30080\nstatus:\n  loadBalancer: {}\n",
//! )
//! .unwrap()
//! .remove(0);
//! let obj = &mut doc.root;
//!
//! let stripped = strip_object(obj, StripOptions::default(), &[], &ResourceMapper::builtin());
//! assert!(stripped.changed && stripped.findings.is_empty());
//!
//! assert!(templates::wants_expansion(obj));
//! // The properties tailor_cluster::properties::collect builds for a cluster labelled
//! // region=eu-west.
//! let props = StringMap::from([
//!     ("clusterName".to_string(), "virgo".to_string()),
//!     ("region".to_string(), "eu-west".to_string()),
//! ]);
//! let id = templates::ObjectName { group: "", kind: "Service", namespace: None, name: "web" };
//! let expansion = templates::expand(obj, &id, "virgo", &props, &Default::default());
//! assert!(expansion.errors.is_empty());
//! expansion.apply(obj);
//!
//! assert_eq!(
//!     tailor_yaml::emit_document(&doc, Default::default()),
//!     "apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n  annotations:\n    \
//!      control.kubestellar.io/expand-templates: \"true\"\n    \
//!      dns: web.eu-west.example.com\nspec:\n  ports:\n  - port: 80\n"
//! );
//! ```

pub mod strip;
pub mod templates;
