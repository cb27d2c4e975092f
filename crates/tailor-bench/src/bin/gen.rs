//! Writes benchmark inputs for the scripts in `scripts/bench-*.sh`.
//!
//! ```text
//! tailor-bench-gen full N              ResourceList: N exported objects, full-pipeline Tailor
//! tailor-bench-gen noop N              ResourceList: N exported Deployments, nothing changes
//! tailor-bench-gen pairs N             ResourceList: N ConfigMap+Deployment pairs, ApplyReplacements
//! tailor-bench-gen pairs-each N        the same pairs, one ApplyReplacements entry per pair (by name)
//! tailor-bench-gen patches N           ResourceList: the same pairs, Tailor with two patches
//! tailor-bench-gen fanout N CLUSTERS   ResourceList: N exported objects, Tailor spec.clusters
//! tailor-bench-gen fanout N CLUSTERS GROUPS   the same, clusters in GROUPS label groups, each
//!                                      with a target customization (one rendering per group)
//! tailor-bench-gen fanout N CLUSTERS GROUPS properties   the same, clusters in GROUPS `region`
//!                                      properties that the objects' templates read
//! tailor-bench-gen small N             ResourceList: N small objects (block items), nothing changes
//! tailor-bench-gen small-flow N        the same as flow items (`- {...}`, kpt's .json items)
//! tailor-bench-gen json-line N         the same as one line of JSON
//! tailor-bench-gen json-pretty N       the same as indented JSON
//! tailor-bench-gen small-pyyaml N      the same objects as served (uid, status...), written as
//!                                      PyYAML writes them (sorted keys, flush `- ` lists)
//! tailor-bench-gen small-dir N DIR [json]   DIR/manifests/ (YAML files, or .json ones) and
//!                                      DIR/tailor.yaml: the same objects for standalone mode
//! tailor-bench-gen fleet-helm TEMPLATES CLUSTERS DIR   DIR/bundle/ a Fleet Helm bundle whose
//!                                      chart has TEMPLATES templates, DIR/tailor.yaml CLUSTERS
//!                                      destinations (`tailor DIR/tailor.yaml DIR/bundle`)
//! tailor-bench-gen fleet-values COMPONENTS CLUSTERS DIR   the same layout, a bundle whose
//!                                      values file has COMPONENTS components (~520 bytes each),
//!                                      `${ }` values and two customizations; a 4-template chart
//! tailor-bench-gen kustomize-pairs N DIR     DIR/{resources,kustomization}.yaml, same replacements
//! tailor-bench-gen kustomize-patches N DIR   DIR/{resources,kustomization}.yaml, same patches
//! ```

use std::io::Write;
use std::path::Path;

use tailor_bench::*;

const USAGE: &str = "usage: tailor-bench-gen (full|noop|pairs|pairs-each|patches|small|small-flow|small-pyyaml|json-line|json-pretty) N | fanout N CLUSTERS [GROUPS [properties]] | (kustomize-pairs|kustomize-patches) N DIR | small-dir N DIR [json] | (fleet-helm TEMPLATES|fleet-values COMPONENTS) CLUSTERS DIR";

fn number(arg: Option<&String>) -> Result<usize, String> {
    arg.ok_or_else(|| USAGE.to_string())?
        .replace('_', "")
        .parse()
        .map_err(|e| format!("not a count: {e}"))
}

fn patches_config() -> String {
    let mut cfg = String::from("apiVersion: tailor.dev/v1alpha1\nkind: Tailor\nmetadata:\n  name: patches\nspec:\n  strip:\n    builtin: false\n  patches:\n");
    for line in patches_yaml().lines() {
        cfg.push_str("  ");
        cfg.push_str(line);
        cfg.push('\n');
    }
    cfg
}

fn write_kustomization(
    dir: &Path,
    items: &[String],
    field: &str,
    value: &str,
) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    std::fs::write(dir.join("resources.yaml"), stream(items))
        .map_err(|e| format!("{}: {e}", dir.display()))?;
    std::fs::write(
        dir.join("kustomization.yaml"),
        kustomization_for(&["resources.yaml"], &[(field, value)]),
    )
    .map_err(|e| format!("{}: {e}", dir.display()))
}

fn run(args: &[String]) -> Result<Option<String>, String> {
    let n = || number(args.get(1));
    match args.first().map(String::as_str) {
        Some("full") => {
            let (items, cfg) = full_pipeline_config(n()?, FULL_PIPELINE_STAGES);
            Ok(Some(resource_list(&items, &cfg)))
        }
        Some("noop") => {
            let (items, cfg) = noop_config(n()?);
            Ok(Some(resource_list(&items, &cfg)))
        }
        Some("pairs") => {
            let (items, repl) = replacement_pairs(n()?);
            let mut cfg = String::from("apiVersion: fn.kpt.dev/v1alpha1\nkind: ApplyReplacements\nmetadata:\n  name: pairs\nreplacements:\n");
            cfg.push_str(&repl);
            Ok(Some(resource_list(&items, &cfg)))
        }
        Some("pairs-each") => {
            let (items, repl) = replacement_per_pair(n()?);
            let mut cfg = String::from("apiVersion: fn.kpt.dev/v1alpha1\nkind: ApplyReplacements\nmetadata:\n  name: pairs\nreplacements:\n");
            cfg.push_str(&repl);
            Ok(Some(resource_list(&items, &cfg)))
        }
        Some("patches") => {
            let (items, _) = replacement_pairs(n()?);
            Ok(Some(resource_list(&items, &patches_config())))
        }
        Some("fanout") => {
            let clusters = number(args.get(2))?;
            let (items, cfg) = match (args.get(3), args.get(4).map(String::as_str)) {
                (Some(groups), Some("properties")) => {
                    fan_out_regions_config(n()?, clusters, number(Some(groups))?)
                }
                (Some(_), Some(_)) => return Err(USAGE.to_string()),
                (Some(groups), None) => {
                    fan_out_groups_config(n()?, clusters, number(Some(groups))?)
                }
                (None, _) => fan_out_config(n()?, clusters, FULL_PIPELINE_STAGES),
            };
            Ok(Some(resource_list(&items, &cfg)))
        }
        Some(kind @ ("kustomize-pairs" | "kustomize-patches")) => {
            let dir = args.get(2).ok_or_else(|| USAGE.to_string())?;
            let (items, repl) = replacement_pairs(n()?);
            let (field, value) = if kind == "kustomize-pairs" {
                ("replacements", repl)
            } else {
                ("patches", patches_yaml())
            };
            write_kustomization(Path::new(dir), &items, field, &value)?;
            Ok(None)
        }
        Some("small-dir") => {
            let dir = args.get(2).ok_or_else(|| USAGE.to_string())?;
            let json = args.get(3).is_some_and(|a| a == "json");
            small_dir(n()?, Path::new(dir), json).map_err(|e| format!("{dir}: {e}"))?;
            Ok(None)
        }
        Some("fleet-helm") => {
            let clusters = number(args.get(2))?;
            let dir = args.get(3).ok_or_else(|| USAGE.to_string())?;
            fleet_helm_bundle(n()?, clusters, Path::new(dir)).map_err(|e| format!("{dir}: {e}"))?;
            Ok(None)
        }
        Some("fleet-values") => {
            let clusters = number(args.get(2))?;
            let dir = args.get(3).ok_or_else(|| USAGE.to_string())?;
            fleet_values_bundle(n()?, clusters, Path::new(dir))
                .map_err(|e| format!("{dir}: {e}"))?;
            Ok(None)
        }
        Some(name) => match Shape::parse(name) {
            Some(shape) => Ok(Some(small_list(shape, n()?))),
            None => Err(USAGE.to_string()),
        },
        None => Err(USAGE.to_string()),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(Some(text)) => {
            let mut out = std::io::stdout().lock();
            if out
                .write_all(text.as_bytes())
                .and_then(|_| out.flush())
                .is_err()
            {
                std::process::exit(1);
            }
        }
        Ok(None) => {}
        Err(msg) => {
            eprintln!("tailor-bench-gen: {msg}");
            std::process::exit(2);
        }
    }
}
