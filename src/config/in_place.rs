//! Rendering in place twice must change nothing. `kpt fn render` and `kpt fn eval` write the
//! answer over the package it was read from ([`Host::in_place`]), and the next render reads
//! the tailored objects as its input. A rule that does not give the same answer on its own
//! output would then tailor again what it already tailored: `namePrefix: p-` gives `p-p-cm`,
//! a JSON 6902 `add` to a list adds a second entry. Such a configuration is refused in place,
//! before anything runs, with where to render instead; every other rule tailor applies is
//! idempotent (the strip, namespaces, labels, replacements, images, substitution of a text
//! that holds no variable any more). A fan-out in place is recognised by the
//! `# tailor.dev/cluster:` comment its copies carry instead ([`super::fan_out`]).
//!
//! [`Host::in_place`]: tailor_kio::host::Host::in_place

use serde_json::Value as Json;
use tailor_kubestellar::templates::{has_templates, wants_expansion};
use tailor_kustomize::patch::Patch;

use super::{Plan, Tailoring};
use crate::stages::templates::{self, EXPAND_ANNOTATION};
use tailor_kio::host::ELSEWHERE;
use tailor_kio::{KrmResult, Resource};

/// The error for a plan whose rules tailor their own output again, under a host that renders
/// in place; `None` when every rule gives the same answer on its output.
pub(super) fn refusal(plan: &Plan) -> Option<KrmResult> {
    let (field, what) = plan.targets.all().into_iter().find_map(repeating_rule)?;
    Some(
        KrmResult::error(format!(
            "{field} {what} each time it runs, and kpt renders in place: the next `kpt fn render` would tailor the tailored objects again; {ELSEWHERE}"
        ))
        .at_field(&field),
    )
}

/// The error for an object whose expanded templates still hold a template (`{{"{{"}}` writes
/// one), under a host that renders in place: the next render would expand that too. Found on
/// the run's output; `None` when no object asks for expansion.
pub(super) fn expands_again(plan: &Plan, items: &[Resource]) -> Option<KrmResult> {
    if !plan
        .stages
        .iter()
        .any(|s| s.declares().name == templates::STAGE)
    {
        return None;
    }
    let item = items.iter().find(|i| {
        !i.is_left_alone()
            && i.annotation(EXPAND_ANNOTATION).is_some()
            && wants_expansion(i.node())
            && has_templates(i.node())
    })?;
    let place = item.path().map_or_else(String::new, |p| format!(" ({p})"));
    Some(
        KrmResult::error(format!(
            "its expanded templates{place} still hold a template, and kpt renders in place: the next `kpt fn render` would expand it again; {ELSEWHERE}"
        ))
        .about(item),
    )
}

/// The first rule of `t` that changes its own output again, and what it does.
fn repeating_rule(t: &Tailoring) -> Option<(String, &'static str)> {
    let flux = &t.extra.0;
    if flux.name_prefix.is_some() {
        return Some(("spec.namePrefix".into(), "adds its prefix to every name"));
    }
    if flux.name_suffix.is_some() {
        return Some(("spec.nameSuffix".into(), "adds its suffix to every name"));
    }
    flux.patches.iter().enumerate().find_map(|(i, spec)| {
        let Patch::Json6902(ops) = &spec.patch else {
            return None;
        };
        ops.iter().any(|op| inserts_into_list(&op.0)).then(|| {
            (
                format!("spec.patches[{i}]"),
                "inserts a list entry (a JSON 6902 `add` to `/-` or an index)",
            )
        })
    })
}

/// Whether a JSON 6902 operation inserts a list entry (`add` to `.../-` or `.../3`), which
/// inserts another one on every run; an `add` to a map key replaces its value and is
/// idempotent.
fn inserts_into_list(op: &serde_json::Map<String, Json>) -> bool {
    let is_add = op.get("op").and_then(Json::as_str) == Some("add");
    let last = op
        .get("path")
        .and_then(Json::as_str)
        .and_then(|p| p.rsplit('/').next())
        .unwrap_or("");
    is_add && (last == "-" || (!last.is_empty() && last.bytes().all(|b| b.is_ascii_digit())))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tailor_kio::host::Host;

    fn plan(spec: &str) -> Plan {
        let text = format!(
            "apiVersion: tailor.dev/v1alpha1\nkind: Tailor\nmetadata: {{name: t}}\nspec:\n{spec}"
        );
        let fc = tailor_yaml::parse_stream(&text).unwrap().remove(0).root;
        crate::config::parse(Some(&fc)).unwrap_or_else(|r| panic!("{r:?}"))
    }

    #[test]
    fn rules_that_tailor_their_output_again_are_refused_in_place() {
        let refused = refusal(&plan("  namePrefix: p-\n")).expect("refused");
        assert_eq!(
            refused.message,
            format!("spec.namePrefix adds its prefix to every name each time it runs, and kpt renders in place: the next `kpt fn render` would tailor the tailored objects again; {ELSEWHERE}")
        );
        assert!(refusal(&plan("  nameSuffix: -s\n")).is_some());
        let append = "  patches:\n  - target: {kind: Deployment}\n    patch: |\n      - op: add\n        path: /spec/template/spec/containers/-\n        value: {name: side}\n";
        let refused = refusal(&plan(append)).expect("refused");
        assert!(refused
            .message
            .starts_with("spec.patches[0] inserts a list entry"));
        let at_index = append.replace("containers/-", "containers/0");
        assert!(refusal(&plan(&at_index)).is_some());
    }

    #[test]
    fn idempotent_rules_and_other_hosts_pass() {
        let replace = "  patches:\n  - target: {kind: Deployment}\n    patch: |\n      - op: add\n        path: /spec/replicas\n        value: 2\n";
        assert!(refusal(&plan(replace)).is_none());
        assert!(refusal(&plan("  targetNamespace: apps\n")).is_none());
        // Only a host that renders in place asks: the run checks the host first.
        let items = tailor_kio::read_input(
            "kind: ResourceList\nitems:\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: a}}\n",
            &tailor_yaml::ParseOptions::default(),
        )
        .unwrap()
        .items;
        let p = plan("  namePrefix: p-\n");
        for host in [
            Host::KptPipe,
            Host::Kustomize,
            Host::Plain,
            Host::KptInPlace,
        ] {
            let guest = tailor_kio::host::Guest {
                host,
                own_config: None,
            };
            let outcome = tailor_kio::run::process(items.clone(), &p, &guest);
            assert_eq!(outcome.failed, host == Host::KptInPlace, "{host:?}");
        }
    }
}
