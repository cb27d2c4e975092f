//! A Flux `kustomize.toolkit.fluxcd.io/v1 Kustomization` as functionConfig: its overlay fields
//! and `postBuild` run as tailor stages (the Flux crate reads the object).

use serde_json::Value as Json;
use tailor_flux::kustomization::Kustomization;
use tailor_kube::Diagnostic;

use super::{tailoring_stages, Plan, Tailoring, TargetFields, Targets};
use crate::stages::owner_labels::OwnerLabels;
use crate::stages::sops::SopsSecrets;
use crate::stages::substitution::Substitution;

pub fn parse(json: &Json) -> Result<Plan, Vec<Diagnostic>> {
    let k = Kustomization::read(json)?;
    let budget = super::budget::run_budget(Default::default(), 1).map_err(|e| vec![e])?;
    let targets = Targets::Fixed(Box::new(Tailoring {
        extra: TargetFields(k.overlay),
        ..Tailoring::default()
    }));
    let (mut stages, last) = tailoring_stages(&targets, &[], &budget);
    let counts = (stages.len(), last.len());
    let tailoring_at = usize::from(k.decryption);
    if k.decryption {
        stages.insert(0, Box::new(SopsSecrets));
    }
    if let Some(post_build) = k.post_build {
        let substitution = Substitution::new(post_build, k.namespace.clone());
        stages.push(Box::new(substitution.within(budget.clone())));
    }
    stages.push(Box::new(OwnerLabels {
        name: k.name,
        namespace: k.namespace.unwrap_or_default(),
    }));
    stages.extend(last);
    let mut plan = Plan::new("Kustomization", stages, tailoring_at);
    plan.tailored_by(counts.0, counts.1);
    plan.targets = targets;
    plan.notes = k.notes;
    plan.budget = Some(budget);
    Ok(plan)
}
