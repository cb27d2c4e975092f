//! An object a stage changed must still be one: a JSON patch `remove /metadata` or a
//! CustomTransform removing `$.kind` leaves a tree kpt cannot write back and a cluster cannot
//! take. Such an object is an error naming the stage's rules, never emitted (a failed run
//! answers with the items as read).

use crate::{KrmResult, Resource};

/// Which of `items` have a name before a stage runs: an object may arrive without one (kpt
/// passes a `kustomization.yaml` as an item), but one that had it must keep it.
pub(crate) fn named(items: &[Resource]) -> Vec<bool> {
    items.iter().map(|i| !i.name().is_empty()).collect()
}

/// The errors for the objects among `items` that `stage` changed and left without
/// `apiVersion` or `kind` (every item arrives with them), or without the `metadata.name` they
/// had (`named_before`, when the stage kept every object in its place).
pub(crate) fn lost_identity(
    stage: &str,
    rules: &str,
    items: &[Resource],
    named_before: &[bool],
) -> Vec<KrmResult> {
    let same_places = named_before.len() == items.len();
    let mut out = Vec::new();
    for (k, item) in items.iter().enumerate() {
        if !item.is_dirty() || item.is_list_shell() {
            continue;
        }
        let had_name = same_places && named_before[k];
        let missing: Vec<&str> = [
            ("apiVersion", item.api_version().is_empty()),
            ("kind", item.kind().is_empty()),
            ("metadata.name", had_name && item.name().is_empty()),
        ]
        .into_iter()
        .filter(|(_, lost)| *lost)
        .map(|(k, _)| k)
        .collect();
        if missing.is_empty() {
            continue;
        }
        let place = match (item.place(), item.path()) {
            (Some(place), _) => format!(" ({place})"),
            (None, Some(path)) => format!(" (in {path})"),
            _ => String::new(),
        };
        out.push(KrmResult::error(format!(
            "the {} stage ({}) left an object{place} without {}: every object keeps apiVersion, kind and metadata.name; change the rule",
            stage,
            rules,
            missing.join(", "),
        )));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read_input;

    fn items(text: &str) -> Vec<Resource> {
        read_input(text, &tailor_yaml::ParseOptions::default())
            .unwrap()
            .items
    }

    /// A changed object that lost its kind, or the name it had, is reported; one that
    /// arrived without a name (a kustomization file kpt passes) or was not changed is not.
    #[test]
    fn only_what_a_stage_took_away_is_reported() {
        let text = "kind: ResourceList\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: a}\n- apiVersion: kustomize.config.k8s.io/v1beta1\n  kind: Kustomization\n  resources: [a.yaml]\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: c}\n";
        let mut list = items(text);
        let named = named(&list);
        assert_eq!(named, [true, false, true]);
        list[0].node_mut().remove("kind");
        list[1].node_mut().set("x", tailor_yaml::Node::plain("y"));
        let strip = "strip";
        let rules = "a CustomTransform's `remove`";
        let errors = lost_identity(strip, rules, &list, &named);
        assert_eq!(errors.len(), 1);
        assert_eq!(
            errors[0].message,
            "the strip stage (a CustomTransform's `remove`) left an object (items[0]) without kind: every object keeps apiVersion, kind and metadata.name; change the rule"
        );
        list[2].node_mut().remove("metadata");
        assert_eq!(lost_identity(strip, rules, &list, &named).len(), 2);
        // A stage that removed objects: names are not compared by position.
        assert_eq!(lost_identity(strip, rules, &list[1..], &named).len(), 0);
    }
}
