//! Template expansion stage: KubeStellar's `control.kubestellar.io/expand-templates`
//! (`tailor_kubestellar::templates` holds the rules). Any failure is an error result per failing
//! string; the run then fails as a whole (`docs/design.md`).

use crate::stages::Tailoring;
use tailor_go::ExecOptions;
use tailor_kubestellar::templates::{
    expand, expansion_refused, has_templates, template_reads, wants_expansion, ObjectName,
};

pub use tailor_kubestellar::templates::EXPAND_ANNOTATION;

use super::{Context, Declaration, NameRead, PropertyReads, Reads, Scope, Sees, Stage};
use tailor_kio::{KrmResult, Resource};

pub struct Templates {
    /// Limits for each template execution (output size, `range` iterations).
    pub limits: ExecOptions,
}

/// The stage's name: the in-place check of a plan finds the stage by it
/// (`config::in_place::expands_again`).
pub const STAGE: &str = "templates";

impl Stage<Tailoring> for Templates {
    fn declares(&self) -> Declaration {
        // Templates are filled with the destination's properties.
        Declaration::new(STAGE, Scope::PerDestination)
            // Only annotated objects are looked into.
            .reads(Reads::Annotated(&[EXPAND_ANNOTATION]))
            // The templates read the cluster's properties (`clusterName` among them); its
            // name only in their errors ([`Stage::properties_read`]).
            .sees(Sees::PROPERTIES)
            .rules("a template")
    }

    /// The properties the templates of the annotated `items` name. Their errors name the
    /// destination: every destination renders on its own unless every template is plain
    /// (`{{ .key }}` alone), which fails only where a key is missing or its value is long
    /// enough to go over the output limit.
    fn properties_read(&self, items: &[Resource]) -> PropertyReads {
        let annotated = items
            .iter()
            .filter(|i| !i.is_left_alone() && i.annotation(EXPAND_ANNOTATION).is_some());
        let (mut reads, mut plain) = (PropertyReads::named(Vec::<String>::new()), true);
        let (mut longest, mut actions) = (0, 0);
        for (len, template) in annotated.flat_map(|i| template_reads(i.node())) {
            reads = reads.and(PropertyReads {
                names: template.keys,
                name: NameRead::Never,
            });
            plain &= template.plain;
            longest = longest.max(len);
            actions += template.actions;
        }
        reads.name = if actions == 0 && plain {
            // No template to fail.
            NameRead::Never
        } else if plain {
            // Output at most the longest text and a value per action: within the limit.
            let room = self.limits.max_output_bytes.saturating_sub(longest + 1);
            NameRead::WhereMissingOrLonger(room / actions.max(1))
        } else {
            NameRead::Always
        };
        reads
    }

    fn run(&self, items: &mut Vec<Resource>, ctx: &mut Context<'_>) {
        run(items, &self.limits, ctx);
    }
}

fn run(items: &mut [Resource], limits: &ExecOptions, ctx: &mut Context<'_>) {
    for item in items.iter_mut() {
        // The annotation lookup reads only what every object keeps at hand, so objects without
        // it are not parsed again when their trees were deferred.
        if item.is_left_alone() || item.annotation(EXPAND_ANNOTATION).is_none() {
            continue;
        }
        if !wants_expansion(item.node()) {
            if let Some(why) = expansion_refused(item.node()) {
                ctx.log.results.push(
                    KrmResult::warning(why)
                        .about(item)
                        .at_field(format!("metadata.annotations.{EXPAND_ANNOTATION}")),
                );
            }
            continue;
        }
        if !has_templates(item.node()) {
            continue;
        }
        let Some(cluster) = ctx.cluster() else {
            ctx.log.results.push(
                KrmResult::error(format!(
                    "{} asks for template expansion ({EXPAND_ANNOTATION}: \"true\") but no destination cluster is named: set spec.cluster (or clusterName) so its properties can fill the templates",
                    item.display_id()
                ))
                .about(item)
                .at_field(format!("metadata.annotations.{EXPAND_ANNOTATION}")),
            );
            continue;
        };
        let (group, kind, namespace, name) = (
            item.group().to_string(),
            item.kind().to_string(),
            item.namespace().map(str::to_string),
            item.name().to_string(),
        );
        let id = ObjectName {
            group: &group,
            kind: &kind,
            namespace: namespace.as_deref(),
            name: &name,
        };
        let mut expansion = expand(item.node(), &id, &cluster.name, &cluster.properties, limits);
        for e in std::mem::take(&mut expansion.errors) {
            ctx.log.results.push(KrmResult::from(e).about(item));
        }
        if !expansion.is_unchanged() {
            expansion.apply(item.node_mut());
        }
    }
}

#[cfg(test)]
mod properties_read {
    use super::*;
    use tailor_kio::{read_input, reading::parse_options};

    fn reads(input: &str) -> PropertyReads {
        let items = read_input(input, &parse_options()).unwrap().items;
        let stage = Templates {
            limits: ExecOptions {
                max_output_bytes: 1000,
                ..ExecOptions::default()
            },
        };
        stage.properties_read(&items)
    }

    fn object(annotated: bool, value: &str) -> String {
        let annotation = if annotated {
            "  annotations: {control.kubestellar.io/expand-templates: \"true\"}\n"
        } else {
            ""
        };
        format!("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n{annotation}data:\n  a: '{value}'\n  b: '{{{{ .zone }}}}-{{{{ .zone }}}}'\n")
    }

    #[test]
    fn plain_templates_read_the_properties_they_name() {
        let r = reads(&format!(
            "{}---\n{}",
            object(true, "{{ .region }}"),
            object(false, "{{ .other }}")
        ));
        let names: Vec<&str> = r.names.iter().flatten().map(String::as_str).collect();
        assert_eq!(names, ["region", "zone"]);
        // Three actions, the longest text 23 bytes: a value over (1000 - 24) / 3 may overflow.
        assert_eq!(r.name, NameRead::WhereMissingOrLonger(325));
        let none = reads(&object(false, "{{ .region }}"));
        assert_eq!(none, PropertyReads::named(Vec::<String>::new()));
    }

    #[test]
    fn templates_that_may_fail_otherwise_read_the_name() {
        for value in [
            "{{ .region | printf \"%s\" }}",
            "{{ .region",
            "{{ if .a }}x{{ end }}",
        ] {
            let r = reads(&object(true, value));
            assert_eq!(r.name, NameRead::Always, "{value}");
        }
        assert_eq!(
            reads(&object(true, "{{ index . \"region\" }}")),
            PropertyReads::ALL
        );
    }
}

/// The stage's example (kustomize keeps an `example_test.go` beside each filter): objects in,
/// the stage run on them, the objects written out.
#[cfg(test)]
mod example {
    use super::Templates;
    use crate::stages::example::{run_stage, virgo, Setup};
    use serde_json::json;

    #[test]
    fn templates_expand_with_the_destination_properties() {
        let input = "\
apiVersion: v1
kind: ConfigMap
metadata:
  name: endpoints
  annotations:
    control.kubestellar.io/expand-templates: \"true\"
data:
  api: https://api.{{.region}}.example.com # per region
  cluster: '{{.clusterName}}'
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: literal
data:
  text: '{{.region}} stays, this object is not annotated'
";
        let setup = Setup {
            cluster: virgo(json!({"env": "prod"}), json!({"region": "eu-west"})),
            ..Setup::default()
        };
        let stage = Templates {
            limits: Default::default(),
        };
        let (out, results) = run_stage(&stage, input, &setup);
        assert_eq!(
            out,
            "\
apiVersion: v1
kind: ConfigMap
metadata:
  name: endpoints
  annotations:
    control.kubestellar.io/expand-templates: \"true\"
data:
  api: https://api.eu-west.example.com # per region
  cluster: 'virgo'
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: literal
data:
  text: '{{.region}} stays, this object is not annotated'
"
        );
        assert!(results.is_empty(), "{results:?}");
    }
}
