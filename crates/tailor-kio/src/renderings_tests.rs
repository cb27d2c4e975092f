use serde_json::json;

use super::*;

fn cluster(spec: serde_json::Value) -> Cluster {
    Cluster::from_json(&spec, "spec.cluster").unwrap()
}

/// dev-a and dev-b share everything but their names (and so `clusterName`); prod differs in a
/// label, eu in an annotation, grouped in a group, strict in strictMatchLabels.
fn clusters() -> Vec<Cluster> {
    vec![
        cluster(json!({"name": "dev-a", "labels": {"env": "dev"}})),
        cluster(json!({"name": "dev-b", "labels": {"env": "dev"}})),
        cluster(json!({"name": "prod", "labels": {"env": "prod"}})),
        cluster(json!({"name": "eu", "labels": {"env": "dev"}, "annotations": {"zone": "eu"}})),
        cluster(
            json!({"name": "grouped", "labels": {"env": "dev"}, "groups": [{"name": "g", "labels": {"tier": "1"}}]}),
        ),
        cluster(json!({"name": "strict", "labels": {"env": "dev"}, "strictMatchLabels": true})),
    ]
}

fn same_options(_: &Cluster) -> Option<Vec<usize>> {
    Some(Vec::new())
}

#[test]
fn destinations_that_agree_on_what_is_read_share_a_rendering() {
    let all = clusters();
    assert_eq!(group(&all, Sees::NOTHING, same_options), [0, 0, 0, 0, 0, 0]);
    assert_eq!(group(&all, Sees::LABELS, same_options), [0, 0, 2, 0, 0, 0]);
    assert_eq!(
        group(&all, Sees::LABELS.and(Sees::ANNOTATIONS), same_options),
        [0, 0, 2, 3, 0, 0]
    );
    assert_eq!(group(&all, Sees::GROUPS, same_options), [0, 0, 0, 0, 4, 0]);
    assert_eq!(
        group(&all, Sees::STRICT_MATCH_LABELS, same_options),
        [0, 0, 0, 0, 0, 5]
    );
    let each = [0, 1, 2, 3, 4, 5];
    assert_eq!(group(&all, Sees::NAME, same_options), each);
    // Properties hold `clusterName`: no two destinations share them.
    assert_eq!(group(&all, Sees::PROPERTIES, same_options), each);
    assert_eq!(group(&all, Sees::EVERYTHING, same_options), each);
}

#[test]
fn the_options_chosen_are_part_of_the_key() {
    let all = clusters();
    // Options chosen by the `env` label alone: prod apart, whatever the stages read.
    let by_env = |c: &Cluster| Some(vec![usize::from(c.labels["env"] == "prod")]);
    assert_eq!(group(&all, Sees::NOTHING, by_env), [0, 0, 2, 0, 0, 0]);
    // A job that cannot say what chose the options: every destination on its own.
    assert_eq!(group(&all, Sees::NOTHING, |_| None), [0, 1, 2, 3, 4, 5]);
}

#[test]
fn equal_properties_apart_from_the_name_still_differ() {
    let a = cluster(json!({"name": "a", "properties": {"region": "eu"}}));
    let b = cluster(json!({"name": "b", "properties": {"region": "eu"}}));
    assert_ne!(
        Key::of(&a, Sees::PROPERTIES, Some(Vec::new())),
        Key::of(&b, Sees::PROPERTIES, Some(Vec::new()))
    );
    assert_eq!(
        Key::of(&a, Sees::LABELS, Some(Vec::new())),
        Key::of(&b, Sees::LABELS, Some(Vec::new()))
    );
}

#[test]
fn distinct_counts_the_groups() {
    assert_eq!(distinct(&[0, 0, 2, 0, 4]), 3);
    assert_eq!(distinct(&[]), 0);
}
