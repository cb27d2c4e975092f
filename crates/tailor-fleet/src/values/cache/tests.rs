//! The prepared values against the whole reading (`preprocessHelmValues` as written: the
//! values printed, templated and read back whole for each cluster).

use serde_json::json;
use tailor_cluster::Cluster;

use super::super::{
    cluster_values, read_rendered, render, template_data, to_yaml, ClusterValues, FleetCluster,
};
use super::*;
use crate::parse_fleet_yaml;
use crate::resolve::Decision;

fn cluster(name: &str, labels: Value) -> Cluster {
    Cluster::from_json(&json!({"name": name, "labels": labels}), "spec.cluster").unwrap()
}

/// A bundle whose values have constant keys around templated ones, and two customizations
/// (one changing a constant key, one a templated one).
const FLEET_YAML: &str = r##"helm:
  values:
    aaa: {list: [1, 2, {x: "y"}], nested: {deep: {er: true}}}
    cluster: "${ .ClusterName }"
    env: "${ .ClusterLabels.env }"
    global: {clusterName: "${ .ClusterName }", tier: standard, n: 3}
    zzz: ["- not a key", "# not a comment", 'it''s']
targetCustomizations:
- name: prod
  clusterSelector: {matchLabels: {env: prod}}
  helm:
    values:
      aaa: {nested: {deep: {er: false}}}
      replicas: 3
- name: eu
  clusterSelector: {matchLabels: {region: eu}}
  helm:
    values:
      global: {region: "${ get .ClusterLabels \"region\" }"}
"##;

/// What the values' templates of `c` see (a cluster of no Fleet object of its own).
fn data_of(c: &Cluster) -> tailor_go::Value {
    let labels = c
        .labels
        .iter()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    template_data(c, &FleetCluster::default(), &labels)
}

/// The values of `cluster` read whole, as before the cache.
fn whole(yaml: &str, c: &Cluster, budget: &Budget) -> Map<String, Value> {
    let config = parse_fleet_yaml::<()>(yaml).unwrap();
    let Decision::Deploy { options, .. } = config.resolve_options(c) else {
        panic!("deployed")
    };
    let helm = options.helm.unwrap();
    let values = helm["values"].as_object().unwrap();
    let data = data_of(c);
    read_rendered(&render(&to_yaml(values), &data, budget).unwrap(), budget).unwrap()
}

fn cached(yaml: &str, c: &Cluster, budget: &Budget, cache: &ValuesCache) -> Map<String, Value> {
    let config = parse_fleet_yaml::<()>(yaml).unwrap();
    match cluster_values(&config, c, &FleetCluster::default(), &[], budget, cache).unwrap() {
        ClusterValues::Values { values, .. } => values.unwrap(),
        ClusterValues::NotDeployed(why) => panic!("{why}"),
    }
}

#[test]
fn cached_values_equal_the_whole_reading_whichever_customizations_match() {
    let clusters = [
        cluster("none-1", json!({"env": "dev", "region": "us"})),
        cluster("prod-1", json!({"env": "prod", "region": "us"})),
        cluster("eu-1", json!({"env": "dev", "region": "eu"})),
        cluster("prod-eu", json!({"env": "prod", "region": "eu"})),
        cluster("none-2", json!({"env": "test", "region": "us"})),
        cluster("prod-2", json!({"env": "prod", "region": "us"})),
        cluster("eu-2", json!({"env": "test", "region": "eu"})),
    ];
    let cache = ValuesCache::default();
    for c in &clusters {
        let want = whole(FLEET_YAML, c, &Budget::unlimited());
        let got = cached(FLEET_YAML, c, &Budget::unlimited(), &cache);
        assert_eq!(got, want, "{}", c.name);
        // Keys in the same order, numbers of the same kind.
        assert_eq!(
            serde_json::to_string(&got).unwrap(),
            serde_json::to_string(&want).unwrap()
        );
    }
    assert_eq!(got_cluster(&clusters[2])["global"]["region"], "eu");
    assert_eq!(got_cluster(&clusters[3])["replicas"], 3);
    // FirstMatch: prod-eu gets prod's values, so three distinct values (none, prod, eu).
    assert_eq!(cache.counts(), (3, 0));
}

fn got_cluster(c: &Cluster) -> Map<String, Value> {
    cached(FLEET_YAML, c, &Budget::unlimited(), &ValuesCache::default())
}

#[test]
fn the_cache_spends_the_budget_as_the_whole_reading_does() {
    let c = cluster("c", json!({"env": "prod", "region": "eu"}));
    let (before, after) = (Budget::new(1 << 30, 1 << 30), Budget::new(1 << 30, 1 << 30));
    let cache = ValuesCache::default();
    for _ in 0..3 {
        whole(FLEET_YAML, &c, &before);
        cached(FLEET_YAML, &c, &after, &cache);
    }
    assert_eq!(before.remaining_output(), after.remaining_output());
    assert!(before.remaining_output() < 1 << 30);
}

#[test]
fn pieces_that_cannot_stand_alone_are_read_whole() {
    // A value rendered onto new lines that start keys of their own (one of them twice), an
    // alias across keys, and text that is a list item at column 0.
    for values in [
        r#"{a: 1, b: "${ .ClusterName }", c: 2}"#,
        r#"{a: 1, b: "x${ \"\\nc: 3\\nd: 4\" }", c: 2}"#,
        r#"{a: 1, b: "x${ \"\\na: 5\" }"}"#,
        r#"{a: "&x ${ .ClusterName }", b: "x${ \"\\nc: *x\" }"}"#,
        r#"{a: "${ \"[\" }", b: "${ \"]\" }"}"#,
        r#"{a: "${ \"\\n- 1\" }"}"#,
    ] {
        let yaml = format!("helm:\n  values: {values}\n");
        let c = cluster("c", json!({"env": "dev"}));
        let config = parse_fleet_yaml::<()>(&yaml).unwrap();
        let cache = ValuesCache::default();
        let got = cluster_values(
            &config,
            &c,
            &FleetCluster::default(),
            &[],
            &Budget::unlimited(),
            &cache,
        );
        let Decision::Deploy { options, .. } = config.resolve_options(&c) else {
            panic!()
        };
        let helm = options.helm.unwrap();
        let data = data_of(&c);
        let budget = Budget::unlimited();
        let want = render(
            &to_yaml(helm["values"].as_object().unwrap()),
            &data,
            &budget,
        )
        .and_then(|out| read_rendered(&out, &budget));
        match (got, want) {
            (Ok(ClusterValues::Values { values: got, .. }), Ok(want)) => {
                let got = got.unwrap();
                assert_eq!(
                    serde_json::to_string(&got).unwrap(),
                    serde_json::to_string(&want).unwrap(),
                    "{values}"
                );
            }
            (Err(got), Err(want)) => assert_eq!(got, format!("cluster \"c\": {want}")),
            (got, want) => panic!("{values}: {got:?} against {want:?}"),
        }
    }
}

#[test]
fn text_is_cut_before_top_level_keys_only() {
    let text = "a:\n- 1\n- b: 2\nb: |\n  x\n# c\nc: 3\n";
    assert_eq!(
        cut_top_level(text),
        vec!["a:\n- 1\n- b: 2\n", "b: |\n  x\n# c\n", "c: 3\n"]
    );
    assert!(stands_alone("a:\n- 1\n  b: 2\n"));
    assert!(!stands_alone("a: 1\nb: 2\n"));
    assert!(!stands_alone("${ .x }: 1\n"));
    assert!(!stands_alone("a: *x\n"));
    // Nothing templated: nothing to prepare piece by piece.
    assert!(pieces("a: 1\nb: 2\n").is_none());
    let p = pieces("a: 1\nb: ${ .x }\nc: [1]\n").unwrap();
    assert!(matches!(
        p.as_slice(),
        [
            Piece::Constant { .. },
            Piece::Templated { .. },
            Piece::Constant { .. }
        ]
    ));
}

#[test]
fn values_past_the_limit_are_prepared_again_and_not_kept() {
    let cache = ValuesCache::default();
    let c = cluster("c", json!({"env": "dev"}));
    for i in 0..MAX_ENTRIES + 3 {
        let yaml = format!("helm:\n  values: {{i: {i}, c: \"${{ .ClusterName }}\"}}\n");
        let got = cached(&yaml, &c, &Budget::unlimited(), &cache);
        assert_eq!(Value::Object(got), json!({"i": i, "c": "c"}));
    }
    assert_eq!(cache.counts(), (MAX_ENTRIES, 3));
}

#[test]
fn templated_keys_are_read_alone_and_the_rest_once() {
    let c = cluster("eu-1", json!({"env": "dev", "region": "eu"}));
    let config = parse_fleet_yaml::<()>(FLEET_YAML).unwrap();
    let Decision::Deploy { options, .. } = config.resolve_options(&c) else {
        panic!("deployed")
    };
    let helm = options.helm.unwrap();
    let values = helm["values"].as_object().unwrap();
    let prepared = ValuesCache::default().prepared(values);
    let pieces = prepared.pieces.as_ref().expect("cut into keys");
    let kinds: Vec<bool> = pieces
        .iter()
        .map(|p| matches!(p, Piece::Templated { .. }))
        .collect();
    // aaa, cluster, env, global, zzz.
    assert_eq!(kinds, [false, true, true, true, false]);
    let data = data_of(&c);
    let budget = Budget::unlimited();
    let output = render(&prepared.text, &data, &budget).unwrap();
    let read = prepared
        .read_templated_keys(&output, &data, &budget)
        .unwrap();
    assert_eq!(read, Some(read_rendered(&output, &budget).unwrap()));
}
