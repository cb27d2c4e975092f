//! Fleet's `namespace` (forced on every object; a cluster-scoped object is an error) and
//! `defaultNamespace` (set where an object has none) for the destination's customization.

use tailor_fleet::{apply_namespaces, Scopes};

use super::nodes::Work;
use super::{Context, Reads, Scope, Stage};
use crate::krm::{KrmResult, Resource};

pub struct FleetNamespaces {
    /// Whether the namespaces differ between destinations (target customizations set them).
    pub per_destination: bool,
}

impl Stage for FleetNamespaces {
    fn name(&self) -> &'static str {
        "fleet namespaces"
    }

    fn scope(&self) -> Scope {
        if self.per_destination {
            Scope::PerDestination
        } else {
            Scope::Shared
        }
    }

    fn reads(&self) -> Reads {
        Reads::Every
    }

    fn tailors(&self) -> bool {
        true
    }

    fn run(&self, items: &mut Vec<Resource>, ctx: &mut Context<'_>) {
        let options = ctx.tailoring;
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
                    ctx.results.push(r);
                }
            }
        }
    }
}
