use serde_json::json;

use super::*;

/// [`super::group`] over the clusters of a list.
fn group(
    all: &[Cluster],
    seen: &Seen,
    options_key: impl Fn(&Cluster) -> Option<Vec<usize>>,
) -> Vec<usize> {
    super::group(all.len(), |at| all[at].clone(), seen, options_key)
}

fn cluster(spec: serde_json::Value) -> Cluster {
    Cluster::from_json(&spec, "spec.cluster").unwrap()
}

/// dev-a and dev-b share everything but their names (and so `clusterName`); prod differs in a
/// label, eu in an annotation, grouped in a group, strict in strictMatchLabels, newer in its
/// Kubernetes version, monitored in its API versions.
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
        cluster(json!({"name": "newer", "labels": {"env": "dev"}, "kubeVersion": "v1.31.0"})),
        cluster(
            json!({"name": "monitored", "labels": {"env": "dev"}, "apiVersions": ["monitoring.coreos.com/v1"]}),
        ),
    ]
}

fn same_options(_: &Cluster) -> Option<Vec<usize>> {
    Some(Vec::new())
}

/// What a stage that sees `sees` reads, any property among them.
fn seen(sees: Sees) -> Seen {
    Seen {
        sees,
        properties: PropertyReads::ALL,
    }
}

/// What a stage reading the properties `names` (and the name as `name` says) reads.
fn reading(names: &[&str], name: NameRead) -> Seen {
    Seen {
        sees: Sees::PROPERTIES,
        properties: PropertyReads {
            name,
            ..PropertyReads::named(names.iter().copied())
        },
    }
}

#[test]
fn destinations_that_agree_on_what_is_read_share_a_rendering() {
    let all = clusters();
    assert_eq!(
        group(&all, &seen(Sees::NOTHING), same_options),
        [0, 0, 0, 0, 0, 0, 0, 0]
    );
    assert_eq!(
        group(&all, &seen(Sees::LABELS), same_options),
        [0, 0, 2, 0, 0, 0, 0, 0]
    );
    assert_eq!(
        group(
            &all,
            &seen(Sees::LABELS.and(Sees::ANNOTATIONS)),
            same_options
        ),
        [0, 0, 2, 3, 0, 0, 0, 0]
    );
    assert_eq!(
        group(&all, &seen(Sees::GROUPS), same_options),
        [0, 0, 0, 0, 4, 0, 0, 0]
    );
    assert_eq!(
        group(&all, &seen(Sees::STRICT_MATCH_LABELS), same_options),
        [0, 0, 0, 0, 0, 5, 0, 0]
    );
    assert_eq!(
        group(&all, &seen(Sees::CAPABILITIES), same_options),
        [0, 0, 0, 0, 0, 0, 6, 7]
    );
    let each = [0, 1, 2, 3, 4, 5, 6, 7];
    assert_eq!(group(&all, &seen(Sees::NAME), same_options), each);
    // Properties hold `clusterName`: no two destinations share them.
    assert_eq!(group(&all, &seen(Sees::PROPERTIES), same_options), each);
    assert_eq!(group(&all, &seen(Sees::EVERYTHING), same_options), each);
}

#[test]
fn the_options_chosen_are_part_of_the_key() {
    let all = clusters();
    // Options chosen by the `env` label alone: prod apart, whatever the stages read.
    let by_env = |c: &Cluster| Some(vec![usize::from(c.labels["env"] == "prod")]);
    assert_eq!(
        group(&all, &seen(Sees::NOTHING), by_env),
        [0, 0, 2, 0, 0, 0, 0, 0]
    );
    // A job that cannot say what chose the options: every destination on its own.
    assert_eq!(
        group(&all, &seen(Sees::NOTHING), |_| None),
        [0, 1, 2, 3, 4, 5, 6, 7]
    );
}

#[test]
fn equal_properties_apart_from_the_name_still_differ() {
    let a = cluster(json!({"name": "a", "properties": {"region": "eu"}}));
    let b = cluster(json!({"name": "b", "properties": {"region": "eu"}}));
    assert_ne!(
        Key::of(&a, &seen(Sees::PROPERTIES), Some(Vec::new())),
        Key::of(&b, &seen(Sees::PROPERTIES), Some(Vec::new()))
    );
    assert_eq!(
        Key::of(&a, &seen(Sees::LABELS), Some(Vec::new())),
        Key::of(&b, &seen(Sees::LABELS), Some(Vec::new()))
    );
}

/// Five clusters: two in eu, two in us (one with a long zone), one without a region.
fn regions() -> Vec<Cluster> {
    vec![
        cluster(json!({"name": "a", "properties": {"region": "eu", "zone": "1"}})),
        cluster(json!({"name": "b", "properties": {"region": "us", "zone": "1"}})),
        cluster(json!({"name": "c", "properties": {"region": "eu", "zone": "2"}})),
        cluster(json!({"name": "d", "properties": {"zone": "1"}})),
        cluster(json!({"name": "e", "properties": {"zone": "1"}})),
        cluster(json!({"name": "f", "properties": {"region": "us", "zone": "1"}})),
    ]
}

#[test]
fn destinations_share_a_rendering_where_the_properties_read_agree() {
    let all = regions();
    let never = NameRead::Never;
    assert_eq!(
        group(&all, &reading(&["region"], never), same_options),
        [0, 1, 0, 3, 3, 1]
    );
    // A missing property is not an empty one, nor another value.
    assert_eq!(
        group(&all, &reading(&["region", "zone"], never), same_options),
        [0, 1, 2, 3, 3, 1]
    );
    // `clusterName` is a property like the others: read, it sets every destination apart.
    assert_eq!(
        group(&all, &reading(&["clusterName"], never), same_options),
        [0, 1, 2, 3, 4, 5]
    );
    assert_eq!(group(&all, &reading(&[], never), same_options), [0; 6]);
    // Any property, or the name always: each on its own.
    let each = [0, 1, 2, 3, 4, 5];
    assert_eq!(group(&all, &seen(Sees::PROPERTIES), same_options), each);
    assert_eq!(
        group(&all, &reading(&["region"], NameRead::Always), same_options),
        each
    );
}

#[test]
fn where_a_read_property_is_missing_or_too_long_the_name_is_read_too() {
    let all = regions();
    let guarded = reading(&["region"], NameRead::WhereMissingOrLonger(2));
    // d and e miss the region: their failures name them, so they stay apart.
    assert_eq!(group(&all, &guarded, same_options), [0, 1, 0, 3, 4, 1]);
    let short = reading(&["region"], NameRead::WhereMissingOrLonger(1));
    assert_eq!(group(&all, &short, same_options), [0, 1, 2, 3, 4, 5]);
}

#[test]
fn reads_combine_to_the_wider() {
    let a = PropertyReads::named(["region"]);
    let b = PropertyReads {
        name: NameRead::WhereMissingOrLonger(9),
        ..PropertyReads::named(["zone"])
    };
    let both = a.clone().and(b.clone());
    assert_eq!(
        both,
        PropertyReads {
            names: Some(["region", "zone"].map(String::from).into()),
            name: NameRead::WhereMissingOrLonger(9),
        }
    );
    let tighter = PropertyReads {
        name: NameRead::WhereMissingOrLonger(3),
        ..PropertyReads::named(Vec::<String>::new())
    };
    assert_eq!(b.and(tighter).name, NameRead::WhereMissingOrLonger(3));
    assert_eq!(a.clone().and(PropertyReads::ALL), PropertyReads::ALL);
    assert_eq!(PropertyReads::ALL.and(a).names, None);
}

#[test]
fn distinct_counts_the_groups() {
    assert_eq!(distinct(&[0, 0, 2, 0, 4]), 3);
    assert_eq!(distinct(&[]), 0);
}
