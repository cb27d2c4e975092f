//! Fleet's `namespace` (forced on every object; a cluster-scoped object is an error) and
//! `defaultNamespace` (set where an object has none) for the destination's customization; for
//! a Fleet bundle also the agent's keep policy on CRDs (`helmdeployer/postrender.go`: every
//! CustomResourceDefinition gets `helm.sh/resource-policy: keep` unless the bundle sets
//! `deleteCRDResources`).

use crate::stages::Tailoring;
use tailor_fleet::{apply_namespaces, Scopes};

use super::nodes::Work;
use super::{Context, Declaration, Scope, Sees, Stage};
use tailor_kio::{KrmResult, Resource};

pub struct FleetNamespaces {
    /// Whether the namespaces differ between destinations (target customizations set them).
    pub per_destination: bool,
    /// A Fleet bundle: CRDs get the keep policy Fleet's post-renderer gives them.
    pub crd_keep: bool,
}

/// The annotation Fleet's post-renderer sets on CRDs, and its value.
const RESOURCE_POLICY: (&str, &str) = ("helm.sh/resource-policy", "keep");

impl Stage<Tailoring> for FleetNamespaces {
    fn declares(&self) -> Declaration {
        Declaration::new("fleet namespaces", Scope::of_options(self.per_destination))
            // Only the options decide what it does.
            .sees(Sees::NOTHING)
    }

    fn run(&self, items: &mut Vec<Resource>, ctx: &mut Context<'_>) {
        let options = ctx.options;
        if self.crd_keep && !options.delete_crd_resources() {
            for item in items.iter_mut() {
                if item.kind() == "CustomResourceDefinition" && !item.is_meta_or_local() {
                    item.set_annotation(RESOURCE_POLICY.0, RESOURCE_POLICY.1);
                }
            }
        }
        if options.namespace.is_none() && options.default_namespace.is_none() {
            return;
        }
        let mut work = Work::of(items);
        let scopes = Scopes::from_items(&work.nodes);
        match apply_namespaces(
            &mut work.nodes,
            options.namespace.as_deref(),
            options.default_namespace.as_deref(),
            &scopes,
        ) {
            Ok(()) => work.write_back(items),
            Err(errors) => {
                let positions = work.positions.clone();
                work.write_back(items);
                for e in errors {
                    let mut r = KrmResult::error(e.to_string()).at_field("namespace");
                    if let Some(&pos) = positions.get(e.index) {
                        r = r.about(&items[pos]);
                    }
                    ctx.log.results.push(r);
                }
            }
        }
    }
}

/// The stage's example (kustomize keeps an `example_test.go` beside each filter): objects in,
/// the stage run on them, the objects written out.
#[cfg(test)]
mod example {
    use super::FleetNamespaces;
    use crate::stages::example::{run_stage, Setup};
    use crate::stages::Tailoring;

    #[test]
    fn fleet_namespaces_fill_in_the_default_namespace() {
        let input = "\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  namespace: shared
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: reader
";
        let setup = Setup {
            tailoring: Tailoring {
                default_namespace: Some("team-a".into()),
                ..Tailoring::default()
            },
            ..Setup::default()
        };
        let stage = FleetNamespaces {
            per_destination: false,
            crd_keep: false,
        };
        let (out, results) = run_stage(&stage, input, &setup);
        // Only the namespaced object without a namespace gets one.
        assert_eq!(
            out,
            "\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: team-a
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  namespace: shared
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: reader
"
        );
        assert!(results.is_empty(), "{results:?}");
    }
}
