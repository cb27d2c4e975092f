//! Replacements stage: kustomize v5.5 `replacements` (the kustomize crate does the work), with
//! the destination cluster's properties available as `source: {property: NAME}`.

use crate::stages::Tailoring;
use std::collections::BTreeMap;

use tailor_kube::resid::ResId;
use tailor_kustomize::replacements::{apply_with_earlier_ids, Replacement};
use tailor_yaml::Node;

use super::explain::objects;
use super::{unmatched, Context, Declaration, NameRead, PropertyReads, Scope, Sees, Stage};
use tailor_kio::{KrmResult, Resource};

/// Where the stage's replacements come from.
pub enum RulesFrom {
    /// A list of its own (ApplyReplacements, ReplacementTransformer), written at `field`.
    Fixed {
        list: Vec<Replacement>,
        field: &'static str,
    },
    /// The destination's target customization (a `Tailor` spec and its targets); `properties`:
    /// the destination properties some target's rule takes as its source.
    Targets { properties: Vec<String> },
}

pub struct Replacements(pub RulesFrom);

/// The destination's property `rule` takes as its source, if it takes one.
pub fn property_read(rule: &Replacement) -> Option<&str> {
    rule.source.as_ref().and_then(|s| s.property.as_deref())
}

impl Stage<Tailoring> for Replacements {
    fn declares(&self) -> Declaration {
        // Replacements may read the destination's properties.
        Declaration::new("replacements", Scope::PerDestination)
            // The cluster's properties (they include `clusterName`), when a rule may take one as its
            // source.
            .sees(if self.properties().is_empty() {
                Sees::NOTHING
            } else {
                Sees::PROPERTIES
            })
    }

    /// The properties its rules name. A missing one fails in words that list the
    /// destination's property names: there the destination renders on its own.
    fn properties_read(&self, _items: &[Resource]) -> PropertyReads {
        PropertyReads {
            name: NameRead::WhereMissingOrLonger(usize::MAX),
            ..PropertyReads::named(self.properties())
        }
    }

    fn run(&self, items: &mut Vec<Resource>, ctx: &mut Context<'_>) {
        let (list, field) = match &self.0 {
            RulesFrom::Fixed { list, field } => (list.as_slice(), *field),
            RulesFrom::Targets { .. } => (
                ctx.options.extra.overlay().replacements.as_slice(),
                "spec.replacements",
            ),
        };
        if list.is_empty() {
            return;
        }
        let props: BTreeMap<String, String> = ctx
            .cluster()
            .map(|c| c.properties.clone().into_iter().collect())
            .unwrap_or_default();
        // Every item is a source and a target, local-config objects and the Kptfile included:
        // kpt hands them to functions and kustomize's transformers see them (a local-config
        // ConfigMap is the usual source). The trees move out and back: the library reports
        // which ones it wrote to, so nothing is cloned to find what changed. A failed run's
        // output is re-read from the input, so trees left half edited are never written.
        // Objects renamed earlier in the run are also selected by their earlier ids.
        let mut nodes: Vec<Node> = items.iter_mut().map(Resource::take_node).collect();
        let earlier: Vec<&[ResId]> = items.iter().map(Resource::earlier_ids).collect();
        let applied = apply_with_earlier_ids(&mut nodes, list, &props, &earlier);
        drop(earlier);
        for (k, (node, item)) in nodes.into_iter().zip(items.iter_mut()).enumerate() {
            let changed = applied.as_ref().is_ok_and(|a| a.written.contains(&k));
            item.put_node(node, changed);
        }
        let applied = match applied {
            Ok(applied) => applied,
            Err(e) => {
                let at = e
                    .replacement()
                    .map_or_else(|| field.to_string(), |i| format!("{field}[{i}]"));
                ctx.log
                    .results
                    .push(KrmResult::error(e.to_string()).at_field(at));
                return;
            }
        };
        for (i, &n) in applied.per_replacement.iter().enumerate() {
            ctx.note_rule(format!("{field}[{i}]"), format!("wrote {}", objects(n)));
        }
        for &(r, t) in &applied.unmatched {
            let select = list[r]
                .targets
                .as_ref()
                .and_then(|ts| ts[t].select.as_ref());
            ctx.log.results.push(unmatched_target(
                &format!("{field}[{r}].targets[{t}].select"),
                select,
                items,
            ));
        }
        // kustomize reads every object back with its metadata validated.
        for &k in &applied.written {
            if items[k].name().is_empty() {
                ctx.log.results.push(
                    KrmResult::error(format!(
                        "missing metadata.name in object {} after replacements",
                        items[k].display_id()
                    ))
                    .about(&items[k])
                    .at_field("metadata.name"),
                );
            }
        }
    }
}

impl Replacements {
    /// The destination properties its rules take as their source.
    fn properties(&self) -> Vec<&str> {
        match &self.0 {
            RulesFrom::Fixed { list, .. } => list.iter().filter_map(property_read).collect(),
            RulesFrom::Targets { properties } => properties.iter().map(String::as_str).collect(),
        }
    }
}

/// The warning for a target whose `select` chose nothing (kustomize passes over it silently),
/// with the kind or name meant when one among the objects is a near miss.
fn unmatched_target(
    at: &str,
    select: Option<&tailor_kustomize::replacements::Selector>,
    items: &[Resource],
) -> KrmResult {
    let Some(s) = select else {
        return KrmResult::warning("replacement target selects no object; nothing replaced")
            .at_field(at);
    };
    let id = &s.id;
    let selector = unmatched::selector_text(&[
        ("group", &id.gvk.group),
        ("version", &id.gvk.version),
        ("kind", &id.gvk.kind),
        ("name", &id.name),
        ("namespace", &id.namespace),
        ("labelSelector", &s.label_selector),
        ("annotationSelector", &s.annotation_selector),
    ]);
    let hint = unmatched::near_miss(
        &id.gvk.kind,
        &id.name,
        items.iter().map(|r| (r.kind(), r.name())),
    );
    KrmResult::warning(format!(
        "replacement target {selector} selects no object; nothing replaced{hint}"
    ))
    .at_field(at)
}

/// The stage's example (kustomize keeps an `example_test.go` beside each filter): objects in,
/// the stage run on them, the objects written out.
#[cfg(test)]
mod example {
    use super::{Replacements, RulesFrom};
    use crate::stages::example::{run_stage, tailoring, virgo, Setup};
    use serde_json::json;

    #[test]
    fn replacements_copy_fields_and_cluster_properties() {
        let input = "\
apiVersion: v1
kind: Service
metadata:
  name: db
spec:
  ports:
  - port: 5432
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  template:
    spec:
      containers:
      - name: app
        env:
        - name: DB_PORT
          value: \"0\"
";
        let setup = Setup {
            cluster: virgo(json!({}), json!({"region": "eu-west"})),
            tailoring: tailoring(json!({"replacements": [
                {"source": {"kind": "Service", "name": "db", "fieldPath": "spec.ports.0.port"},
                 "targets": [{"select": {"kind": "Deployment"},
                              "fieldPaths": ["spec.template.spec.containers.[name=app].env.[name=DB_PORT].value"]}]},
                {"source": {"property": "region"},
                 "targets": [{"select": {"kind": "Deployment"},
                              "fieldPaths": ["metadata.labels.region"],
                              "options": {"create": true}}]},
            ]})),
        };
        let (out, results) = run_stage(
            &Replacements(RulesFrom::Targets {
                properties: vec!["region".to_string()],
            }),
            input,
            &setup,
        );
        assert_eq!(
            out,
            "\
apiVersion: v1
kind: Service
metadata:
  name: db
spec:
  ports:
  - port: 5432
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels:
    region: eu-west
spec:
  template:
    spec:
      containers:
      - name: app
        env:
        - name: DB_PORT
          value: \"5432\"
"
        );
        assert!(results.is_empty(), "{results:?}");
    }
}
