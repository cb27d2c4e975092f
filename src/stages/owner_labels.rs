//! Flux's owner labels: `kustomize.toolkit.fluxcd.io/name` and `/namespace` on every object,
//! naming the Kustomization that applies it (the controller's `SetOwnerLabels`, what
//! `flux build kustomization` shows). Set after substitution, before `commonMetadata`.

use super::{Context, Scope, Stage};
use tailor_kio::Resource;

pub struct OwnerLabels {
    pub name: String,
    pub namespace: String,
}

impl Stage for OwnerLabels {
    fn name(&self) -> &'static str {
        "owner labels"
    }

    fn scope(&self) -> Scope {
        Scope::Shared
    }

    fn per_object(&self) -> bool {
        true
    }

    fn run(&self, items: &mut Vec<Resource>, _ctx: &mut Context<'_>) {
        for item in items.iter_mut().filter(|i| !i.is_left_alone()) {
            item.set_label("kustomize.toolkit.fluxcd.io/name", &self.name);
            item.set_label("kustomize.toolkit.fluxcd.io/namespace", &self.namespace);
        }
    }
}
