//! `fn.kpt.dev/v1alpha1 ApplyReplacements` and kustomize's `builtin ReplacementTransformer`:
//! replacements only, with the rules (and messages) of the reader each one names.

use std::collections::BTreeMap;

use tailor_kube::Diagnostic;
use tailor_kustomize::replacements::{parse_replacements_noting, Dialect};
use tailor_yaml::Node;

use super::Plan;
use crate::stages::replacements::{Replacements, RulesFrom};
use tailor_kio::read::describe;

#[derive(Clone, Copy)]
pub enum Kind {
    ApplyReplacements,
    ReplacementTransformer,
}

const FIELD: &str = "functionConfig.replacements";

pub fn parse(fc: &Node, kind: Kind) -> Result<Plan, Diagnostic> {
    let (name, dialect) = match kind {
        Kind::ApplyReplacements => ("ApplyReplacements", Dialect::ApplyReplacements),
        Kind::ReplacementTransformer => ("ReplacementTransformer", Dialect::ReplacementTransformer),
    };
    let (list, notes) = match fc.get("replacements") {
        Some(r) if r.is_sequence() => {
            // Decoded now, with the reader's rules, so a malformed entry is reported once,
            // before anything runs. Fields the upstream reader ignores are ignored too, with
            // a warning.
            parse_replacements_noting(r, dialect, &BTreeMap::new())
                .map_err(|e| Diagnostic::new(FIELD, e.to_string()))?
        }
        Some(r) => {
            return Err(Diagnostic::new(
                FIELD,
                format!("{name}: replacements must be a list, found {}", describe(r)),
            ))
        }
        None => {
            return Err(Diagnostic::new(
                FIELD,
                format!("{name}: replacements is required"),
            ))
        }
    };
    let mut plan = Plan::new(
        name,
        vec![Box::new(Replacements(RulesFrom::Fixed {
            list,
            field: FIELD,
        }))],
        0,
    );
    plan.notes = notes.into_iter().map(|n| n.at(FIELD)).collect();
    Ok(plan)
}
