//! Strip stage: KubeStellar's WEC-independent removals and CustomTransforms
//! (`tailor-strip` does the work; this adapts it to resources and results).

use tailor_kubestellar::strip::{
    duplicate_transform_warnings, may_need_builtin_strip, strip_object, Finding, ResourceMapper,
    StripOptions,
};

use super::StageContext;
use crate::config::Pipeline;
use crate::krm::{KrmResult, Resource};

pub fn run(pipeline: &Pipeline, items: &mut [Resource], ctx: &mut StageContext<'_>) {
    let transforms = ctx.custom_transforms;
    if !pipeline.strip_builtin && transforms.is_empty() {
        return;
    }
    ctx.results.extend(
        duplicate_transform_warnings(transforms)
            .into_iter()
            .map(|f| to_result(f, None)),
    );
    let mut mapper = ResourceMapper::builtin();
    for item in items.iter() {
        if item.kind() == "CustomResourceDefinition" {
            for f in mapper.add_crd(item.node()) {
                ctx.results.push(to_result(f, Some(item)));
            }
        }
    }
    let opts = StripOptions {
        builtin: pipeline.strip_builtin,
    };
    for item in items.iter_mut() {
        if item.is_meta_or_local() {
            continue;
        }
        if let Some(results) = item.take_strip_results() {
            // Stripped as it was read (`krm::read`): its findings go where the strip would
            // have reported them, then the CustomTransforms run.
            ctx.results.extend(results);
            if !transforms.is_empty() {
                let custom = StripOptions { builtin: false };
                for f in strip_object(item.node_mut(), custom, transforms, &mapper) {
                    ctx.results.push(to_result(f, Some(item)));
                }
            }
            continue;
        }
        if transforms.is_empty() && !may_need_builtin_strip(item.node()) {
            continue;
        }
        let findings = strip_object(item.node_mut(), opts, transforms, &mapper);
        for f in findings {
            ctx.results.push(to_result(f, Some(item)));
        }
    }
}

/// The built-in strip of one object as it is read: whether the strip stage would edit it,
/// and the results it would report about it.
pub(crate) fn strip_while_reading(item: &mut Resource) -> Option<Vec<KrmResult>> {
    if item.is_meta_or_local() || !may_need_builtin_strip(item.node()) {
        return None;
    }
    let findings = tailor_kubestellar::strip::strip_builtin(item.node_mut());
    Some(
        findings
            .into_iter()
            .map(|f| to_result(f, Some(item)))
            .collect(),
    )
}

/// A finding about the configuration (its field path says where).
pub(crate) fn finding_result(f: Finding) -> KrmResult {
    to_result(f, None)
}

fn to_result(f: Finding, about: Option<&Resource>) -> KrmResult {
    let r = KrmResult::from(f);
    match about {
        Some(res) => r.about(res),
        None => r,
    }
}
