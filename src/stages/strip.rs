//! Strip stage: KubeStellar's WEC-independent removals and CustomTransforms
//! (`tailor_kubestellar::strip` does the work; this adapts it to resources and results).

use std::collections::BTreeSet;

use tailor_kubestellar::strip::{
    duplicate_transform_warnings, may_need_builtin_strip, strip_object,
    unmatched_transform_warnings, CustomTransform, ResourceMapper, StripOptions,
};

use super::{Context, Reads, Scope, Stage};
use crate::krm::{KrmResult, Resource};

pub struct Strip {
    /// The transport controller's built-in cleaning.
    pub builtin: bool,
    /// CustomTransforms written in the functionConfig (those that arrive as items are in the
    /// context, and apply after these).
    pub transforms: Vec<CustomTransform>,
}

impl Stage for Strip {
    fn name(&self) -> &'static str {
        "strip"
    }

    fn scope(&self) -> Scope {
        Scope::Shared
    }

    /// With nothing to do of its own it looks into an object only for a CustomTransform that
    /// arrives as an item (which parses the objects it needs on demand).
    fn reads(&self) -> Reads {
        if self.builtin || !self.transforms.is_empty() {
            Reads::Every
        } else {
            Reads::Annotated(&[])
        }
    }

    fn per_object(&self) -> bool {
        true
    }

    fn runs_at_read(&self) -> bool {
        self.builtin
    }

    /// The built-in strip of one object as it is read: whether the stage would edit it, and
    /// the results it would report about it. CustomTransforms still run in [`Stage::run`]
    /// (they need the CRDs among all the items).
    fn at_read(&self, item: &mut Resource) -> Option<Vec<KrmResult>> {
        if !self.builtin || item.is_meta_or_local() || !may_need_builtin_strip(item.node()) {
            return None;
        }
        let findings = tailor_kubestellar::strip::strip_builtin(item.node_mut());
        Some(
            findings
                .into_iter()
                .map(|f| KrmResult::from(f).about(item))
                .collect(),
        )
    }

    fn run(&self, items: &mut Vec<Resource>, ctx: &mut Context<'_>) {
        let transforms: Vec<CustomTransform> = self
            .transforms
            .iter()
            .chain(ctx.transforms)
            .cloned()
            .collect();
        if !self.builtin && transforms.is_empty() {
            return;
        }
        ctx.results.extend(
            duplicate_transform_warnings(&transforms)
                .into_iter()
                .map(KrmResult::from),
        );
        let mut mapper = ResourceMapper::builtin();
        for item in items.iter() {
            if item.kind() == "CustomResourceDefinition" {
                for f in mapper.add_crd(item.node()) {
                    ctx.results.push(KrmResult::from(f).about(item));
                }
            }
        }
        if ctx.explaining() {
            note_transforms(&transforms, items, &mapper, ctx);
        }
        if !transforms.is_empty() {
            let present: BTreeSet<(String, String)> = items
                .iter()
                .filter(|i| !i.is_meta_or_local())
                .filter_map(|i| mapper.resource_for(i.api_version(), i.kind()))
                .collect();
            ctx.results.extend(
                unmatched_transform_warnings(&transforms, &present, &mapper)
                    .into_iter()
                    .map(KrmResult::from),
            );
        }
        let opts = StripOptions {
            builtin: self.builtin,
        };
        for item in items.iter_mut() {
            if item.is_meta_or_local() {
                continue;
            }
            if let Some(results) = item.take_strip_results() {
                // Stripped as it was read: its findings go where the strip would have reported
                // them, then the CustomTransforms run.
                ctx.results.extend(results);
                if !transforms.is_empty() {
                    let custom = StripOptions { builtin: false };
                    for f in strip_object(item.node_mut(), custom, &transforms, &mapper) {
                        ctx.results.push(KrmResult::from(f).about(item));
                    }
                }
                continue;
            }
            if transforms.is_empty() && !may_need_builtin_strip(item.node()) {
                continue;
            }
            for f in strip_object(item.node_mut(), opts, &transforms, &mapper) {
                ctx.results.push(KrmResult::from(f).about(item));
            }
        }
    }
}

/// For `--explain`: how many objects each CustomTransform changes, each tried alone on a copy.
fn note_transforms(
    transforms: &[CustomTransform],
    items: &[Resource],
    mapper: &ResourceMapper,
    ctx: &mut Context<'_>,
) {
    for t in transforms {
        let changed = items
            .iter()
            .filter(|i| !i.is_meta_or_local())
            .filter(|i| {
                mapper.resource_for(i.api_version(), i.kind())
                    == Some((t.api_group.clone(), t.resource.clone()))
            })
            .filter(|i| {
                let mut copy = i.node().clone();
                tailor_kubestellar::strip::apply_custom_transforms(
                    &mut copy,
                    std::slice::from_ref(t),
                    mapper,
                );
                copy != *i.node()
            })
            .count();
        ctx.note_rule(
            format!("{} (CustomTransform {:?})", t.at, t.name),
            format!("changes {}", super::explain::objects(changed)),
        );
    }
}
