//! Strip stage: KubeStellar's WEC-independent removals and CustomTransforms
//! (`tailor_kubestellar::strip` does the work; this adapts it to resources and results).

use std::collections::BTreeSet;

use tailor_kubestellar::strip::{
    duplicate_transform_warnings, may_need_builtin_strip, parse_custom_transform_at, strip_object,
    unmatched_transform_warnings, CustomTransform, Finding, PathSyntax, ResourceMapper,
    StripOptions, Stripped,
};
use tailor_yaml::Node;

use super::{
    Applied, Apply, Claim, Context, Declaration, Reads, Scope, Sees, Stage, State, Tailoring,
};
use tailor_kio::orchestrator::Kept;
use tailor_kio::{KrmResult, Resource, Severity};

pub struct Strip {
    /// The transport controller's built-in cleaning.
    pub builtin: bool,
    /// CustomTransforms written in the functionConfig (those that arrive as items are in the
    /// context, and apply after these).
    pub transforms: Vec<CustomTransform>,
}

impl Stage<Tailoring> for Strip {
    fn declares(&self) -> Declaration {
        Declaration::new("strip", Scope::SharedEach)
            // With nothing to do of its own it looks into an object only for a CustomTransform that
            // arrives as an item (which parses the objects it needs on demand).
            .reads(if self.builtin || !self.transforms.is_empty() {
                Reads::Every
            } else {
                Reads::Annotated(&[])
            })
            // Only the options decide what it does.
            .sees(Sees::NOTHING)
            .rules("a CustomTransform's `remove`")
    }

    /// A CustomTransform that arrives as an item configures the strip: it is read, not
    /// tailored.
    fn claims(&self, item: &Resource) -> Claim {
        if is_custom_transform(item) {
            Claim::Input("a CustomTransform")
        } else {
            Claim::No
        }
    }

    /// The CustomTransforms that arrived as items, parsed; errors name the item's place in the
    /// ResourceList (`items[3].spec.remove[0]`), or, for a document of a file, the field in
    /// the object.
    fn fork(&self, inputs: &[Resource], results: &mut Vec<KrmResult>) -> State {
        Box::new(item_transforms(inputs, results))
    }

    fn each(&self) -> Option<&dyn Apply<Tailoring>> {
        self.builtin.then_some(self as &dyn Apply<Tailoring>)
    }

    fn run(&self, items: &mut Vec<Resource>, ctx: &mut Context<'_>) {
        let arrived: &[CustomTransform] = ctx
            .state
            .downcast_ref::<Vec<CustomTransform>>()
            .map_or(&[], Vec::as_slice);
        let transforms: Vec<CustomTransform> =
            self.transforms.iter().chain(arrived).cloned().collect();
        if !self.builtin && transforms.is_empty() {
            return;
        }
        ctx.log.results.extend(
            duplicate_transform_warnings(&transforms)
                .into_iter()
                .map(KrmResult::from),
        );
        let mut mapper = ResourceMapper::builtin();
        for item in items.iter() {
            if item.kind() == "CustomResourceDefinition" {
                for f in mapper.add_crd(item.node()) {
                    ctx.log.results.push(crd_problem(item, f, &transforms));
                }
            }
        }
        if ctx.explaining() {
            note_transforms(&transforms, items, &mapper, ctx);
        }
        if !transforms.is_empty() {
            let present: BTreeSet<(String, String)> = items
                .iter()
                .filter(|i| !i.is_left_alone())
                .filter_map(|i| mapper.resource_for(i.api_version(), i.kind()))
                .collect();
            ctx.log.results.extend(
                unmatched_transform_warnings(&transforms, &present, &mapper)
                    .into_iter()
                    .map(KrmResult::from),
            );
        }
        let opts = StripOptions {
            builtin: self.builtin,
        };
        for item in items.iter_mut() {
            if item.is_left_alone() {
                continue;
            }
            if let Some(results) = ctx.log.take_read(item) {
                // Stripped as it was read (changed or not): its findings go where the strip
                // would have reported them, then the CustomTransforms run.
                ctx.log.results.extend(results);
                if !transforms.is_empty() {
                    let custom = StripOptions { builtin: false };
                    for f in strip_in_place(item, custom, &transforms, &mapper).findings {
                        ctx.log.results.push(KrmResult::from(f).about(item));
                    }
                }
                continue;
            }
            if transforms.is_empty() && !may_need_builtin_strip(item.node()) {
                continue;
            }
            for f in strip_in_place(item, opts, &transforms, &mapper).findings {
                ctx.log.results.push(KrmResult::from(f).about(item));
            }
        }
    }
}

impl Apply<Tailoring> for Strip {
    /// The built-in strip of one object as it is read, with the results it would report
    /// about it, whether it changed the object or not: an object the built-in strip leaves as
    /// it was need not be looked into again, and the reader may drop its tree.
    /// CustomTransforms still run in [`Stage::run`] (they need the CRDs among all the items):
    /// the CustomTransforms of the configuration apply to every object, and the CRDs among
    /// the items map the resources they name.
    fn apply(&self, item: &mut Resource, _: &Tailoring) -> Option<Applied> {
        if !self.builtin || item.is_left_alone() {
            return None;
        }
        let done = self.transforms.is_empty() && item.kind() != "CustomResourceDefinition";
        if !may_need_builtin_strip(item.node()) {
            return Some(Applied {
                results: Vec::new(),
                done,
            });
        }
        let builtin = StripOptions { builtin: true };
        let stripped = strip_in_place(item, builtin, &[], &ResourceMapper::new());
        let results = stripped
            .findings
            .into_iter()
            .map(|f| KrmResult::from(f).about(item))
            .collect();
        Some(Applied { results, done })
    }
}

/// Whether an item is a KubeStellar CustomTransform.
pub fn is_custom_transform(r: &Resource) -> bool {
    r.kind() == "CustomTransform" && r.api_version() == "control.kubestellar.io/v1alpha1"
}

fn item_transforms(items: &[Resource], results: &mut Vec<KrmResult>) -> Vec<CustomTransform> {
    let mut out = Vec::new();
    for (i, r) in items.iter().enumerate() {
        let name = r
            .place()
            .map_or_else(|| format!("item {i}"), |p| p.into_owned());
        match parse_custom_transform_at(
            r.node(),
            &name,
            PathSyntax::Extended,
            &r.place().unwrap_or_default(),
        ) {
            Ok(t) => out.push(t),
            Err(findings) => results.extend(findings.into_iter().map(|f| {
                let result = KrmResult::from(f);
                if r.place().is_none() {
                    result.about(r)
                } else {
                    result
                }
            })),
        }
    }
    out
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

/// A CustomResourceDefinition the mapper cannot read (no `spec.group`, `names.kind` or
/// `names.plural`: test fixtures and fragments often are) matters only to a CustomTransform of
/// the resource it defines, whose objects would escape it: an error then, a warning otherwise.
/// The resource is read from the CRD's fields, or from its name (`<plural>.<group>`); when
/// neither tells, any CustomTransform may need it.
fn crd_problem(crd: &Resource, finding: Finding, transforms: &[CustomTransform]) -> KrmResult {
    let node = crd.node();
    let from_name = crd.name().split_once('.');
    let group = node
        .get_path(&["spec", "group"])
        .and_then(Node::as_str)
        .or(from_name.map(|(_, g)| g));
    let plural = node
        .get_path(&["spec", "names", "plural"])
        .and_then(Node::as_str)
        .or(from_name.map(|(p, _)| p));
    let needs = transforms
        .iter()
        .find(|t| group.is_none_or(|g| g == t.api_group) && plural.is_none_or(|p| p == t.resource));
    let result = KrmResult::from(finding).about(crd);
    match needs {
        Some(t) => KrmResult {
            message: format!(
                "{}; CustomTransform {:?} removes fields of {}/{}, which it would define",
                result.message, t.name, t.api_group, t.resource
            ),
            ..result
        },
        None => KrmResult {
            severity: Severity::Warning,
            message: format!(
                "{}; it is skipped (no CustomTransform needs the resource it defines)",
                result.message
            ),
            ..result
        },
    }
}

/// Strips one object; it leaves the verbatim-copy path only when something was removed. The
/// host's annotations are never among what goes ([`Kept`]).
fn strip_in_place(
    item: &mut Resource,
    opts: StripOptions,
    transforms: &[CustomTransform],
    mapper: &ResourceMapper,
) -> Stripped {
    let mut node = item.take_node();
    let kept = Kept::of(&node);
    let stripped = strip_object(&mut node, opts, transforms, mapper);
    if stripped.changed {
        kept.restore(&mut node);
    }
    item.put_node(node, stripped.changed);
    stripped
}

/// The stage's example (kustomize keeps an `example_test.go` beside each filter): objects in,
/// the stage run on them, the objects written out.
#[cfg(test)]
mod example {
    use super::Strip;
    use crate::stages::example::{run_stage, Setup};

    #[test]
    fn strip_removes_what_the_source_cluster_filled_in() {
        let input = "\
apiVersion: v1
kind: Service
metadata:
  name: web # the frontend
  namespace: shop
  uid: 5f2c6f0e-8a47-4c1b-9f1e-2d3c4b5a6978
  resourceVersion: \"48211\"
  creationTimestamp: \"2024-03-01T10:00:07Z\"
  annotations:
    kubectl.kubernetes.io/last-applied-configuration: |
      {\"apiVersion\":\"v1\",\"kind\":\"Service\"}
spec:
  type: NodePort
  clusterIP: 10.96.12.7
  clusterIPs:
  - 10.96.12.7
  ipFamilies:
  - IPv4
  ports:
  - port: 80
    nodePort: 30080
status:
  loadBalancer: {}
";
        let strip = Strip {
            builtin: true,
            transforms: vec![],
        };
        let (out, results) = run_stage(&strip, input, &Setup::default());
        assert_eq!(
            out,
            "\
apiVersion: v1
kind: Service
metadata:
  name: web # the frontend
  namespace: shop
  creationTimestamp: \"2024-03-01T10:00:07Z\"
  annotations: {}
spec:
  type: NodePort
  ports:
  - port: 80
"
        );
        assert!(results.is_empty(), "{results:?}");
    }
}
