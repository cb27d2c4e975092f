//! The Flux overlay lists (`patches`, `images`, `replacements`) of the spec and of each target
//! customization are merged per destination before they run, so a run-time error could only
//! name a position in the merged list. They are checked here instead, where each entry's own
//! place is known: `spec.targetCustomizations[2].images[0]: must be a mapping`.

use std::collections::BTreeMap;

use serde_json::Value as Json;
use tailor_fleet::{FleetConfig, FluxOverlay};
use tailor_kustomize::builtins::Image;
use tailor_kustomize::replacements::{parse_replacements_with, Dialect};
use tailor_yaml::Node;

use crate::krm::KrmResult;

/// Checks the root's and every customization's Flux lists. `root` is where the root options
/// are written (`spec`, or `""` for a fleet.yaml).
pub fn check(config: &FleetConfig, root: &str) -> Vec<KrmResult> {
    let mut errors = Vec::new();
    check_overlay(&config.root.flux, root, &mut errors);
    for c in &config.customizations {
        check_overlay(&c.options.flux, &c.field_path, &mut errors);
    }
    errors
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

fn sequence(list: &[Json]) -> Node {
    Node::sequence(list.iter().map(tailor_yaml::from_json).collect())
}

fn check_overlay(flux: &FluxOverlay, path: &str, errors: &mut Vec<KrmResult>) {
    if !flux.patches.is_empty() {
        if let Err((field, message)) =
            crate::filters::overlays::parse_patches(&flux.patches, &join(path, "patches"))
        {
            errors.push(KrmResult::error(message).at_field(field));
        }
    }
    if !flux.images.is_empty() {
        let images = join(path, "images");
        if let Err(e) = Image::list_from_node(Some(&sequence(&flux.images)), &images) {
            let field = e.field().unwrap_or(&images).to_string();
            errors.push(KrmResult::error(e.to_string()).at_field(field));
        }
    }
    if !flux.replacements.is_empty() {
        // kustomize's decoder does not say which entry is wrong: the field is the list.
        if let Err(e) = parse_replacements_with(
            &sequence(&flux.replacements),
            Dialect::Tailor,
            &BTreeMap::new(),
        ) {
            errors.push(KrmResult::error(e.to_string()).at_field(join(path, "replacements")));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn errors(spec: Json) -> Vec<(String, String)> {
        let config = FleetConfig::from_tailor_spec(&spec, "spec").unwrap();
        check(&config, "spec")
            .into_iter()
            .map(|r| (r.field_path.clone().unwrap_or_default(), r.message.clone()))
            .collect()
    }

    #[test]
    fn errors_name_the_entry_where_it_is_written() {
        let spec = serde_json::json!({
            "images": [{"name": "a"}],
            "targetCustomizations": [
                {"name": "one", "clusterName": "a"},
                {"name": "two", "clusterName": "b", "images": [{"name": "b"}, "x"],
                 "patches": [{"patch": "x"}], "replacements": ["x"]},
            ],
        });
        let e = errors(spec);
        assert_eq!(e.len(), 3, "{e:?}");
        assert_eq!(e[0].0, "spec.targetCustomizations[1].patches[0].patch");
        assert_eq!(e[1].0, "spec.targetCustomizations[1].images[1]");
        assert_eq!(
            e[1].1,
            "spec.targetCustomizations[1].images[1]: must be a mapping"
        );
        assert_eq!(e[2].0, "spec.targetCustomizations[1].replacements");
        assert!(e[2].1.contains("cannot unmarshal string"), "{}", e[2].1);
    }

    #[test]
    fn valid_lists_pass() {
        let spec = serde_json::json!({
            "images": [{"name": "a", "newTag": "1"}],
            "replacements": [{"source": {"kind": "ConfigMap", "fieldPath": "data.a"},
                              "targets": [{"select": {"kind": "ConfigMap"}, "fieldPaths": ["data.b"]}]}],
        });
        assert_eq!(errors(spec), Vec::new());
    }

    #[test]
    fn a_fleet_yaml_root_has_no_prefix() {
        let config = FleetConfig::from_fleet_yaml(&serde_json::json!({"images": [3]})).unwrap();
        let e = check(&config, "");
        assert_eq!(e[0].field_path.as_deref(), Some("images[0]"));
    }
}
