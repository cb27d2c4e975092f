//! Flux's owner labels: `kustomize.toolkit.fluxcd.io/name` and `/namespace` on every object,
//! naming the Kustomization that applies it (the controller's `SetOwnerLabels`, what
//! `flux build kustomization` shows). Set after substitution, before `commonMetadata`.

use super::{Context, Declaration, Scope, Sees, Stage};
use crate::stages::Tailoring;
use tailor_kio::Resource;

pub struct OwnerLabels {
    pub name: String,
    pub namespace: String,
}

impl Stage<Tailoring> for OwnerLabels {
    fn declares(&self) -> Declaration {
        Declaration::new("owner labels", Scope::SharedEach)
            // Only the options decide what it does.
            .sees(Sees::NOTHING)
    }

    fn run(&self, items: &mut Vec<Resource>, _ctx: &mut Context<'_>) {
        for item in items.iter_mut().filter(|i| !i.is_left_alone()) {
            item.set_label("kustomize.toolkit.fluxcd.io/name", &self.name);
            item.set_label("kustomize.toolkit.fluxcd.io/namespace", &self.namespace);
        }
    }
}

/// The stage's example (kustomize keeps an `example_test.go` beside each filter): objects in,
/// the stage run on them, the objects written out.
#[cfg(test)]
mod example {
    use super::OwnerLabels;
    use crate::stages::example::{run_stage, Setup};

    #[test]
    fn owner_labels_name_the_kustomization() {
        let input = "\
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
data:
  mode: fast
";
        let stage = OwnerLabels {
            name: "apps".into(),
            namespace: "flux-system".into(),
        };
        let (out, results) = run_stage(&stage, input, &Setup::default());
        assert_eq!(
            out,
            "\
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  labels:
    kustomize.toolkit.fluxcd.io/name: apps
    kustomize.toolkit.fluxcd.io/namespace: flux-system
data:
  mode: fast
"
        );
        assert!(results.is_empty(), "{results:?}");
    }
}
