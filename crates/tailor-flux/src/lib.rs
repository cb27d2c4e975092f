//! Flux, as tailor follows it (kustomize-controller v1.x; `docs/semantics/flux.md`): everything
//! tailor borrows from Flux lives here, so comparing tailor with Flux means opening this crate.
//!
//! - [`envsubst`]: Flux's fork of drone/envsubst (`${var:=default}`, strict mode) and the
//!   controller's rules for applying it to resources;
//! - [`kustomization`]: the Kustomization object as a functionConfig (overlay fields,
//!   `postBuild`, the controller's own fields);
//! - [`overlay`]: the Kustomization's overlay fields (targetNamespace, namePrefix/Suffix,
//!   commonMetadata, patches, images), decoded;
//! - [`postbuild`]: the yaml.v2 print and YAML 1.1 re-read that `postBuild` substitution
//!   performs around envsubst, with only changed values written back.
//!
//! A Kustomization used as a functionConfig, its `postBuild` applied to one resource:
//!
//! ```
//! use serde_json::json;
//! use tailor_flux::envsubst::{Options, Vars};
//! use tailor_flux::kustomization::Kustomization;
//! use tailor_flux::postbuild::substitute_resource;
//!
//! let ks = Kustomization::read(&json!({
//!     "apiVersion": "kustomize.toolkit.fluxcd.io/v1",
//!     "kind": "Kustomization",
//!     "metadata": {"name": "apps", "namespace": "flux-system"},
//!     "spec": {"interval": "10m", "namePrefix": "prod-",
//!              "postBuild": {"substitute": {"cluster_env": "prod"}}},
//! }))
//! .unwrap();
//! assert_eq!(ks.overlay.name_prefix.as_deref(), Some("prod-"));
//! let post_build = ks.post_build.unwrap();
//! let mut vars = Vars::new();
//! vars.set_inline(post_build.substitute.clone());
//! let opts = Options { strict: post_build.strict, ..Options::default() };
//!
//! let mut doc = tailor_yaml::parse_stream(
//!     "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings # kept\n\
//!      data:\n  env: ${cluster_env}\n  tier: ${tier:=gold}\n",
//! )
//! .unwrap()
//! .remove(0);
//! let change = substitute_resource(&doc.root, &vars, &opts).unwrap().expect("a change");
//! change.apply(&mut doc.root);
//! // Only the substituted values are rewritten; the comment and layout stay.
//! assert_eq!(
//!     tailor_yaml::emit_document(&doc, Default::default()),
//!     "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings # kept\n\
//!      data:\n  env: prod\n  tier: gold\n"
//! );
//! ```

pub mod envsubst;
pub mod kustomization;
pub mod overlay;
pub mod postbuild;
pub mod sourceignore;
