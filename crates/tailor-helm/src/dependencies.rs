//! A chart's dependencies as Helm processes them before rendering
//! (`chartutil.ProcessDependenciesWithMerge`, `pkg/chartutil/dependencies.go` of helm/helm
//! v3.21.4): `alias` copies, `tags` and `condition` switching subcharts off, and
//! `import-values` laying a subchart's tables into its parent's values.
//!
//! Aliases do not depend on values, so [`resolve_aliases`] applies them once when the chart
//! is prepared; [`process`] runs per render, because tags and conditions read the user's
//! values.

use crate::chart::Chart;
use crate::coalesce::{self, Import};
use crate::gofmt::format_v;
use crate::semver::is_compatible_range;
use serde_json::{Map, Value as Json};

/// A `dependencies` entry of `Chart.yaml` (or `requirements.yaml`), Helm's `chart.Dependency`,
/// as far as rendering reads it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Dependency {
    pub name: String,
    pub version: String,
    pub alias: String,
    pub condition: String,
    pub tags: Vec<String>,
    pub import_values: Vec<Json>,
}

impl Dependency {
    fn from_json(v: &Json) -> Dependency {
        let text = |k: &str| v.get(k).and_then(Json::as_str).unwrap_or("").to_string();
        let list = |k: &str| {
            v.get(k)
                .and_then(Json::as_array)
                .cloned()
                .unwrap_or_default()
        };
        Dependency {
            name: text("name"),
            version: text("version"),
            alias: text("alias"),
            condition: text("condition"),
            tags: list("tags")
                .iter()
                .filter_map(|t| t.as_str().map(str::to_string))
                .collect(),
            import_values: list("import-values"),
        }
    }

    /// The name the dependency goes by once its alias is applied.
    fn key(&self) -> &str {
        if self.alias.is_empty() {
            &self.name
        } else {
            &self.alias
        }
    }
}

/// The chart's listed dependencies; `None` when it lists none (Go's nil slice: Helm then
/// processes neither this chart's subcharts nor theirs).
pub fn listed(metadata: &Map<String, Json>) -> Option<Vec<Dependency>> {
    let list = metadata.get("dependencies")?.as_array()?;
    Some(list.iter().map(Dependency::from_json).collect())
}

/// `action.CheckDependencies`: the listed dependencies that are not among the loaded
/// subcharts (by name), in the order listed.
pub fn missing(chart: &Chart) -> Vec<String> {
    let Some(reqs) = listed(&chart.metadata) else {
        return Vec::new();
    };
    reqs.iter()
        .filter(|r| !chart.dependencies.iter().any(|d| d.name() == r.name))
        .map(|r| r.name.clone())
        .collect()
}

/// [`missing`] as `helm template`'s command runs it on the chart it is given, worded as Helm
/// words it. Only the command checks: Helm's install action (what Fleet's agent calls)
/// renders a chart without the subcharts it lacks.
pub fn check_present(chart: &Chart) -> Result<(), String> {
    let missing = missing(chart);
    if missing.is_empty() {
        return Ok(());
    }
    Err(format!(
        "An error occurred while checking for chart dependencies. You may need to run `helm dependency build` to fetch missing dependencies: found in Chart.yaml, but missing in charts/ directory: {}",
        missing.join(", ")
    ))
}

/// The alias step of Helm's `processDependencyEnabled`, for every chart it reaches: the
/// subcharts no listed dependency names (by name and compatible version) first, then, per
/// listed dependency, a copy of the first compatible subchart of that name, renamed to the
/// alias. A chart listing no dependencies is left as it is, subcharts included.
pub fn resolve_aliases(mut chart: Chart) -> Chart {
    let Some(reqs) = listed(&chart.metadata) else {
        return chart;
    };
    let compatible = |r: &Dependency, c: &Chart| {
        c.name() == r.name && is_compatible_range(&r.version, version(c))
    };
    let existing = std::mem::take(&mut chart.dependencies);
    let mut resolved: Vec<Chart> = existing
        .iter()
        .filter(|c| !reqs.iter().any(|r| compatible(r, c)))
        .cloned()
        .collect();
    for r in &reqs {
        if let Some(found) = existing.iter().find(|c| compatible(r, c)) {
            let mut copy = found.clone();
            if !r.alias.is_empty() {
                copy.metadata
                    .insert("name".into(), Json::String(r.alias.clone()));
            }
            resolved.push(copy);
        }
    }
    chart.dependencies = resolved.into_iter().map(resolve_aliases).collect();
    chart
}

fn version(c: &Chart) -> &str {
    c.metadata
        .get("version")
        .and_then(Json::as_str)
        .unwrap_or("")
}

/// What dependency processing needs of a chart whose aliases are resolved: its name and
/// defaults, its listed dependencies (names replaced by aliases) and its subcharts. `id` is
/// the chart's place in a pre-order walk of the tree (the order `Chart::dependencies` gives).
#[derive(Debug, Clone)]
pub struct Tree {
    id: usize,
    name: String,
    values: Map<String, Json>,
    listed: Option<Vec<Dependency>>,
    children: Vec<Tree>,
}

impl Tree {
    pub fn of(chart: &Chart) -> Tree {
        let mut next = 0;
        Tree::build(chart, &mut next)
    }

    fn build(chart: &Chart, next: &mut usize) -> Tree {
        let id = *next;
        *next += 1;
        let listed = listed(&chart.metadata).map(|reqs| {
            reqs.into_iter()
                .map(|mut r| {
                    r.name = r.key().to_string();
                    r
                })
                .collect()
        });
        Tree {
            id,
            name: chart.name().to_string(),
            values: chart.values.clone(),
            listed,
            children: chart
                .dependencies
                .iter()
                .map(|c| Tree::build(c, next))
                .collect(),
        }
    }

    fn view(&self) -> coalesce::Chart {
        coalesce::Chart {
            name: self.name.clone(),
            values: self.values.clone(),
            dependencies: self.children.iter().map(Tree::view).collect(),
        }
    }

    fn size(&self) -> usize {
        1 + self.children.iter().map(Tree::size).sum::<usize>()
    }

    fn mark(&self, enabled: &mut [bool]) {
        enabled[self.id] = true;
        self.children.iter().for_each(|c| c.mark(enabled));
    }
}

/// The chart tree after dependency processing for one set of user values.
#[derive(Debug, Clone)]
pub struct Resolved {
    /// Per chart, in pre-order: whether it is still a dependency (not switched off by a tag
    /// or condition, nor under a chart that is).
    pub enabled: Vec<bool>,
    /// The enabled charts with their values after `import-values`, for coalescing.
    pub chart: coalesce::Chart,
}

/// `ProcessDependenciesWithMerge` (what `helm template` runs): subcharts switched off by
/// tags and conditions removed, then imports laid into each parent's values.
pub fn process(tree: &Tree, user: &Map<String, Json>) -> Result<Resolved, String> {
    process_with(tree, user, true)
}

/// As [`process`]; `merge: false` is `ProcessDependencies` (imports coalesced, nulls trimmed).
pub fn process_with(
    tree: &Tree,
    user: &Map<String, Json>,
    merge: bool,
) -> Result<Resolved, String> {
    let mut t = tree.clone();
    enable(&mut t, user, "")?;
    import(&mut t, merge)?;
    let mut enabled = vec![false; tree.size()];
    t.mark(&mut enabled);
    Ok(Resolved {
        enabled,
        chart: t.view(),
    })
}

/// `processDependencyEnabled`: `v` is the values the chart's defaults are coalesced into
/// (the root's, for every level, as Helm does) and `path` the chart's place in them.
fn enable(c: &mut Tree, v: &Map<String, Json>, path: &str) -> Result<(), String> {
    let Some(reqs) = c.listed.take() else {
        return Ok(());
    };
    let cvals = coalesce::coalesce_values(&c.view(), v)
        .map_err(|e| e.0)?
        .values;
    let on: Vec<bool> = reqs
        .iter()
        .map(|r| condition(r, &cvals, path).unwrap_or_else(|| tags_allow(r, &cvals)))
        .collect();
    let off: Vec<&str> = reqs
        .iter()
        .zip(&on)
        .filter(|(_, on)| !**on)
        .map(|(r, _)| r.name.as_str())
        .collect();
    c.children.retain(|ch| !off.contains(&ch.name.as_str()));
    for ch in &mut c.children {
        let sub = format!("{path}{}.", ch.name);
        enable(ch, &cvals, &sub)?;
    }
    c.listed = Some(
        reqs.iter()
            .filter(|r| !off.contains(&r.name.as_str()))
            .cloned()
            .collect(),
    );
    Ok(())
}

/// `processDependencyTags`: off when one of its tags is false and none is true.
fn tags_allow(r: &Dependency, cvals: &Map<String, Json>) -> bool {
    let Some(Json::Object(tags)) = cvals.get("tags") else {
        return true;
    };
    let values: Vec<bool> = r
        .tags
        .iter()
        .filter_map(|k| tags.get(k).and_then(Json::as_bool))
        .collect();
    values.contains(&true) || !values.contains(&false)
}

/// `processDependencyConditions`: the first of the comma-separated paths that holds a bool
/// decides; `None` when none does (tags decide then).
fn condition(r: &Dependency, cvals: &Map<String, Json>, path: &str) -> Option<bool> {
    r.condition
        .trim()
        .split(',')
        .filter(|c| !c.is_empty())
        .find_map(|c| path_value(cvals, &format!("{path}{c}")).and_then(Json::as_bool))
}

/// `Values.PathValue`: the value at a dotted path, when it is not a map.
fn path_value<'a>(vals: &'a Map<String, Json>, path: &str) -> Option<&'a Json> {
    let keys: Vec<&str> = path.split('.').collect();
    let (last, tables) = keys.split_last()?;
    let mut table = vals;
    for k in tables {
        table = table.get(*k)?.as_object()?;
    }
    table.get(*last).filter(|v| !v.is_object())
}

/// `processDependencyImportValues`: subcharts first, then the chart's own imports.
fn import(c: &mut Tree, merge: bool) -> Result<(), String> {
    for ch in &mut c.children {
        import(ch, merge)?;
    }
    let Some(reqs) = &c.listed else {
        return Ok(());
    };
    let imports: Vec<Import> = reqs.iter().flat_map(imports_of).collect();
    c.values = coalesce::import_values(&c.view(), &imports, merge)
        .map_err(|e| e.0)?
        .values;
    Ok(())
}

/// A dependency's `import-values`: `{child, parent}` maps as given, and a plain string `S`
/// as `{child: exports.S, parent: .}`; other entries are ignored, as Helm ignores them.
fn imports_of(r: &Dependency) -> Vec<Import> {
    let field = |m: &Map<String, Json>, k: &str| format_v(m.get(k).unwrap_or(&Json::Null));
    r.import_values
        .iter()
        .filter_map(|iv| match iv {
            Json::Object(m) => Some(Import {
                child: format!("{}.{}", r.name, field(m, "child")),
                parent: field(m, "parent"),
            }),
            Json::String(s) => Some(Import {
                child: format!("{}.exports.{s}", r.name),
                parent: ".".into(),
            }),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn subpop() -> Tree {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/helm/deps/subpop");
        Tree::of(&resolve_aliases(crate::chart::load_dir(&dir).unwrap()))
    }

    fn at<'a>(m: &'a Map<String, Json>, path: &str) -> Option<&'a Json> {
        let mut keys = path.split('.');
        let first = m.get(keys.next()?)?;
        keys.try_fold(first, |v, k| v.get(k))
    }

    #[test]
    fn coalescing_imports_trims_nulls_and_merging_keeps_them() {
        // pkg/chartutil/dependencies_test.go TestProcessDependencyImportValues, both ways
        // (the table is in tests/data/helm/deps/cases.json; the binary runs the merged way).
        let cases = crate::testdata::load_cases(include_str!("../tests/data/helm/deps/cases.json"));
        let case = cases
            .iter()
            .find(|c| c["test"] == "TestProcessDependencyImportValues")
            .unwrap();
        for merge in [false, true] {
            let values = process_with(&subpop(), &Map::new(), merge)
                .unwrap()
                .chart
                .values;
            for (path, want) in case["paths"].as_object().unwrap() {
                let got = match at(&values, path) {
                    Some(Json::String(s)) => s.clone(),
                    Some(Json::Number(n)) => n.as_f64().unwrap().to_string(),
                    Some(other) => other.to_string(),
                    None => String::new(),
                };
                assert_eq!(&got, want.as_str().unwrap(), "{path} (merge {merge})");
            }
            assert_eq!(values.get("ensurenull"), merge.then_some(&Json::Null));
        }
    }

    #[test]
    fn a_condition_path_that_is_not_a_bool_leaves_the_decision_to_the_next_or_the_tags() {
        let tree = subpop();
        let vals = |v: Json| v.as_object().unwrap().clone();
        // subchart1's condition is `subchart1.enabled`: a string there is no decision, so
        // the tags decide (front-end: true in values.yaml).
        let on = process(
            &tree,
            &vals(serde_json::json!({"subchart1": {"enabled": "no"}})),
        )
        .unwrap();
        assert!(on.chart.dependencies.iter().any(|d| d.name == "subchart1"));
        let off = process(
            &tree,
            &vals(serde_json::json!({"subchart1": {"enabled": false}})),
        )
        .unwrap();
        assert!(!off.chart.dependencies.iter().any(|d| d.name == "subchart1"));
        assert_eq!(off.enabled.iter().filter(|e| **e).count(), 1);
    }
}
