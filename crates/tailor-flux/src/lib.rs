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

pub mod envsubst;
pub mod kustomization;
pub mod overlay;
pub mod postbuild;
