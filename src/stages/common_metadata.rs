//! Flux's `commonMetadata`: labels and annotations set on every object. The controller applies
//! them in `apply()`, after the build and after substitution, so a `${var}` in them stays as
//! written and a `substitute: disabled` set through them does not switch substitution off.

use tailor_kustomize::builtins::set_common_metadata;

use super::nodes::Work;
use super::{Context, Scope, Stage};
use crate::krm::{KrmResult, Resource};

pub struct CommonMetadata {
    /// Whether the metadata differs between destinations (target customizations set it).
    pub per_destination: bool,
}

impl Stage for CommonMetadata {
    fn name(&self) -> &'static str {
        "common metadata"
    }

    fn scope(&self) -> Scope {
        Scope::of_options(self.per_destination)
    }

    fn tailors(&self) -> bool {
        true
    }

    fn run(&self, items: &mut Vec<Resource>, ctx: &mut Context<'_>) {
        let Some(m) = ctx.tailoring.extra.0.common_metadata.as_ref() else {
            return;
        };
        if m.is_empty() {
            return;
        }
        let mut work = Work::of(items);
        let outcome = set_common_metadata(&mut work.nodes, &m.labels, &m.annotations);
        work.write_back(items);
        if let Err(e) = outcome {
            ctx.results
                .push(KrmResult::error(e.to_string()).at_field("spec.commonMetadata"));
        }
    }
}
