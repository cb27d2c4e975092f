//! `tailor fleet-values CONFIG DIR [FILE...] [--cluster NAME]`: the Helm values Fleet would
//! pass for each destination of a Fleet bundle (`tailor_fleet::values`), so that
//! `helm template RELEASE CHART -f values.yaml` reproduces what Fleet deploys. CONFIG names the
//! destinations as for a run (`spec.cluster` / `spec.clusters`, or a ConfigMap); FILEs may hold
//! Fleet `Cluster` and `ClusterGroup` objects (and the other inventory kinds), which complete
//! the destinations and give Fleet's `.ClusterNamespace` and `.ClusterValues`, and the
//! ConfigMaps and Secrets `helm.valuesFrom` reads.

use std::path::Path;

use serde_json::Value as Json;
use tailor_cluster::{Cluster, Inventory};
use tailor_fleet::values::{cluster_values, to_yaml, ClusterValues, FleetCluster, ValuesCache};
use tailor_fleet::values_from::Source;

use super::report;
use crate::config::TargetFields;
use tailor_kio::KrmResult;

const USAGE: &str = "usage: tailor fleet-values CONFIG DIR [FILE...] [--cluster NAME]";

/// `tailor fleet-values --help`.
const HELP: &str = "tailor fleet-values CONFIG DIR [FILE...] [--cluster NAME]

Prints, per destination, the Helm values Fleet would pass for the Fleet bundle in DIR (its
fleet.yaml helm.values and valuesFiles, the matching targetCustomizations merged as Fleet
merges them, then Fleet's templating with the cluster, then helm.valuesFrom), so that
`helm template RELEASE CHART -f values.yaml` renders what Fleet deploys.

  CONFIG          names the destinations: a Tailor with spec.cluster or spec.clusters
                  (or a ConfigMap); with neither, the Fleet Cluster objects in FILEs
  DIR             the bundle: a directory with fleet.yaml (or fleet.yml)
  FILE...         Fleet Cluster and ClusterGroup objects (and other inventory kinds): labels,
                  .ClusterNamespace and .ClusterValues (spec.templateValues); the
                  ConfigMaps and Secrets helm.valuesFrom names
  --cluster NAME  only this destination; an error if it gets no deployment

helm.valuesFrom: the ConfigMap and Secret keys Fleet's agent reads on the cluster are read
from the ConfigMaps and Secrets among FILEs and merged over the values in the agent's order
(as `tailor CONFIG DIR` renders the chart); one that is missing is an error naming it.
Output: one YAML document per destination, headed by a comment naming the cluster and the
target customizations applied. Exit 0, 1 on an error, 2 on a bad command line.
";

pub(crate) fn run(args: &[String]) -> i32 {
    if args.iter().any(|a| a == "--help" || a == "-h") {
        super::emit(HELP);
        return 0;
    }
    let (config, dir, files, only) = match parse_args(args) {
        Ok(a) => a,
        Err(msg) => {
            super::say(&format!("tailor fleet-values: {msg}"));
            super::say_fixed(USAGE);
            return 2;
        }
    };
    match values(&config, &dir, &files, only.as_deref()) {
        Ok(text) => super::emit(&text),
        Err(results) => {
            report(&results);
            1
        }
    }
}

type Args = (String, String, Vec<String>, Option<String>);

fn parse_args(args: &[String]) -> Result<Args, String> {
    let mut positional = Vec::new();
    let mut only = None;
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        if a == "--cluster" {
            only = Some(args.get(i + 1).ok_or("--cluster needs a value")?.clone());
            i += 2;
            continue;
        }
        if let Some(v) = a.strip_prefix("--cluster=") {
            only = Some(v.to_string());
        } else if a.starts_with('-') && a != "-" {
            return Err(format!("unknown flag {a:?}"));
        } else {
            positional.push(a.to_string());
        }
        i += 1;
    }
    let mut it = positional.into_iter();
    let config = it.next().ok_or("missing CONFIG file")?;
    let dir = it.next().ok_or("missing the bundle DIR")?;
    Ok((config, dir, it.collect(), only))
}

fn values(
    config: &str,
    dir: &str,
    files: &[String],
    only: Option<&str>,
) -> Result<String, Vec<KrmResult>> {
    let one = |r: KrmResult| vec![r];
    let opts = tailor_kio::reading::parse_options();
    let fc = super::standalone::read_config(config, &opts).map_err(one)?;
    let mut plan = crate::config::parse(Some(&fc))?;
    let budget = plan.run_budget().map_err(|d| one(d.into()))?;
    let dir_path = Path::new(dir);
    if !tailor_fleet::bundle::is_bundle(dir_path) {
        return Err(one(KrmResult::error(format!(
            "{dir}: not a Fleet bundle (no fleet.yaml or fleet.yml)"
        ))));
    }
    let bundle = tailor_fleet::bundle::read_dir::<TargetFields>(dir_path, &opts)
        .map_err(|e| e.into_iter().map(KrmResult::from).collect::<Vec<_>>())?;
    // Typos in fleet.yaml matter here (`valeus:`); what tailor does not model does not.
    let typos: Vec<KrmResult> = bundle
        .config
        .notes
        .iter()
        .filter(|n| n.message.starts_with("unknown field"))
        .cloned()
        .map(KrmResult::from)
        .collect();
    report(&typos);

    let (items, mut clusters) = destinations(files, &plan, &opts)?;
    if clusters.is_empty() {
        return Err(one(KrmResult::error(
            "no destination: name the clusters in CONFIG (spec.cluster or spec.clusters) or pass Fleet Cluster objects",
        )));
    }
    if let Some(name) = only {
        clusters.retain(|c| c.name == name);
        if clusters.is_empty() {
            return Err(one(KrmResult::error(format!(
                "--cluster {name}: no such destination in CONFIG or the inventory"
            ))));
        }
    }
    values_text(&bundle.config, &items, &clusters, only, &budget)
}

/// The objects of `files` and the destinations: the plan's, completed from the inventory
/// objects among them, or else every cluster the inventory names.
fn destinations(
    files: &[String],
    plan: &crate::config::Plan,
    opts: &tailor_yaml::ParseOptions,
) -> Result<(Vec<Json>, Vec<Cluster>), Vec<KrmResult>> {
    let one = |r: KrmResult| vec![r];
    let mut items: Vec<Json> = Vec::new();
    for f in files {
        for r in super::standalone::read_path(Path::new(f), None, opts).map_err(one)? {
            items.push(
                r.node()
                    .to_json()
                    .map_err(|e| one(KrmResult::error(format!("{f}: {e}"))))?,
            );
        }
    }
    let inventory_items: Vec<Json> = items
        .iter()
        .filter(|i| tailor_cluster::is_inventory(i))
        .cloned()
        .collect();
    let inventory = Inventory::from_items(&inventory_items).map_err(|e| one(e.into()))?;
    let clusters: Vec<Cluster> = if plan.clusters.is_empty() {
        inventory
            .cluster_names()
            .into_iter()
            .filter_map(|n| inventory.resolve(n))
            .collect()
    } else {
        plan.clusters
            .iter()
            .map(|s| inventory.resolve_spec(&s.spec()))
            .collect()
    };
    Ok((items, clusters))
}

/// Each destination's values, as YAML documents headed by a comment naming the cluster; their
/// templating spends the run's `budget`.
fn values_text(
    config: &tailor_fleet::FleetConfig<TargetFields>,
    items: &[Json],
    clusters: &[Cluster],
    only: Option<&str>,
    budget: &tailor_go::Budget,
) -> Result<String, Vec<KrmResult>> {
    let one = |r: KrmResult| vec![r];
    let mut sources = Vec::new();
    for item in items {
        sources.extend(Source::from_object(item).map_err(|e| one(KrmResult::error(e)))?);
    }
    let mut out = String::new();
    let cache = ValuesCache::default();
    for (i, cluster) in clusters.iter().enumerate() {
        let fleet = items
            .iter()
            .find(|o| {
                o.get("apiVersion").and_then(Json::as_str) == Some("fleet.cattle.io/v1alpha1")
                    && o.get("kind").and_then(Json::as_str) == Some("Cluster")
                    && o.pointer("/metadata/name").and_then(Json::as_str)
                        == Some(cluster.name.as_str())
            })
            .map(FleetCluster::from_object)
            .unwrap_or_default();
        let computed = cluster_values(config, cluster, &fleet, &sources, budget, &cache)
            .map_err(|e| one(KrmResult::error(e)))?;
        if i > 0 {
            out.push_str("---\n");
        }
        match computed {
            ClusterValues::NotDeployed(why) => {
                if only.is_some() {
                    return Err(one(KrmResult::error(why)));
                }
                out.push_str(&format!("# cluster {}: no values: {why}\n", cluster.name));
            }
            ClusterValues::Values { matched, values } => {
                out.push_str(&format!("# cluster {}", cluster.name));
                if !matched.is_empty() {
                    out.push_str(&format!(" (target customizations: {})", matched.join(", ")));
                }
                out.push('\n');
                out.push_str(&to_yaml(&values.unwrap_or_default()));
            }
        }
    }
    Ok(out)
}
