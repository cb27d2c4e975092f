//! Values coalescing as Helm v3's `pkg/chartutil/coalesce.go` (helm/helm v3.21.4,
//! commit 813176c51bb5c181dbbd7901298ddcc104cd3417): a chart's defaults under the
//! user's values, recursively into subcharts, with `global` pushed down to them.
//!
//! - User values win; maps merge recursively; lists and scalars are replaced.
//! - Coalescing (`CoalesceValues`): a user `null` over a chart default deletes the
//!   key; a `null` with no default to delete is kept as `null`. Merging
//!   (`MergeValues`) keeps every `null`, and values under a subchart's key are always
//!   merged, never nulled, so a later coalesce still sees them.
//! - Type clashes are not errors: Helm logs a warning and keeps the user's value;
//!   here the warnings are returned as diagnostics, worded as Helm logs them (values
//!   printed as Go's `%v` prints them). A subchart key holding a non-map is an error.
//!
//! Go maps are shared by reference, and Helm copies a global table only one level
//! deep when it pushes it to a subchart: tables two levels under `global` stay shared
//! with the parent, so a subchart's defaults there show in the parent's and the
//! siblings' globals too. To give the same values, coalescing runs on a heap of
//! maps shared as Go shares them, and copies exactly where Helm copies.

use crate::gofmt::{format_t, format_v};
use indexmap::IndexMap;
use serde_json::{Map, Value};
use std::fmt;
use tailor_go::strconv::quote;

/// Helm's `GlobalKey`.
pub const GLOBAL_KEY: &str = "global";

/// What coalescing needs of a chart: its name, its defaults and its loaded subcharts
/// (Helm's `Chart.Metadata.Name`, `Chart.Values`, `Chart.Dependencies()`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Chart {
    pub name: String,
    pub values: Map<String, Value>,
    pub dependencies: Vec<Chart>,
}

/// Values that Helm refuses to coalesce.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error(pub String);

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

/// Coalesced values and the warnings Helm would have logged on the way.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Coalesced {
    pub values: Map<String, Value>,
    pub warnings: Vec<String>,
}

/// How deep exported values may nest (Go's maps could in principle form a loop).
const MAX_DEPTH: usize = 10_000;

/// `CoalesceValues`: `vals` over the chart's and its subcharts' defaults; user nulls
/// delete defaults.
pub fn coalesce_values(chart: &Chart, vals: &Map<String, Value>) -> Result<Coalesced, Error> {
    run(chart, vals, false)
}

/// `MergeValues`: as [`coalesce_values`], keeping nulls.
pub fn merge_values(chart: &Chart, vals: &Map<String, Value>) -> Result<Coalesced, Error> {
    run(chart, vals, true)
}

fn run(chart: &Chart, vals: &Map<String, Value>, merge: bool) -> Result<Coalesced, Error> {
    let mut heap = Heap::default();
    let root = heap.import_map(vals);
    heap.coalesce(chart, root, "", merge)?;
    Ok(Coalesced {
        values: heap.export_map(root, 0)?,
        warnings: heap.warnings,
    })
}

/// `CoalesceTables`: `src` under `dst` (`dst` wins), nulls in `dst` deleting.
pub fn coalesce_tables(
    dst: &mut Map<String, Value>,
    src: Option<Map<String, Value>>,
    warnings: &mut Vec<String>,
) -> Result<(), Error> {
    run_tables(dst, src, warnings, false)
}

/// `MergeTables`: as [`coalesce_tables`], keeping nulls.
pub fn merge_tables(
    dst: &mut Map<String, Value>,
    src: Option<Map<String, Value>>,
    warnings: &mut Vec<String>,
) -> Result<(), Error> {
    run_tables(dst, src, warnings, true)
}

fn run_tables(
    dst: &mut Map<String, Value>,
    src: Option<Map<String, Value>>,
    warnings: &mut Vec<String>,
    merge: bool,
) -> Result<(), Error> {
    let Some(src) = src else { return Ok(()) };
    let mut heap = Heap::default();
    let (d, s) = (heap.import_map(dst), heap.import_map(&src));
    heap.tables(d, s, "", merge);
    *dst = heap.export_map(d, 0)?;
    warnings.append(&mut heap.warnings);
    Ok(())
}

/// One `import-values` entry of a dependency: the table to import (a dotted path from the
/// parent's values, starting with the dependency's name) and where it goes in the parent's
/// values (a dotted path, or `.` for the top).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Import {
    pub child: String,
    pub parent: String,
}

/// Helm's `processImportValues` for one chart (`pkg/chartutil/dependencies.go`): the chart's
/// values merged (`merge`, as `helm template` does) or coalesced with its subcharts', then
/// every imported table laid under them: the chart's own values win over imports, and an
/// earlier import wins over a later one. Runs on maps shared as Go shares them, since an
/// imported table stays the child's table while later imports merge into it.
pub fn import_values(chart: &Chart, imports: &[Import], merge: bool) -> Result<Coalesced, Error> {
    let mut heap = Heap::default();
    let cvals = heap.new_map(IndexMap::new());
    heap.coalesce(chart, cvals, "", merge)?;
    let b = heap.new_map(IndexMap::new());
    for import in imports {
        let table = match heap.table(cvals, &import.child) {
            Ok(table) => table,
            Err(key) => {
                heap.warnings.push(format!(
                    "Warning: ImportValues missing table: {}",
                    quote(&key) + " is not a table"
                ));
                continue;
            }
        };
        let src = if import.parent == "." {
            table
        } else {
            import.parent.split('.').rev().fold(table, |inner, key| {
                heap.new_map(IndexMap::from([(key.to_string(), GoValue::Table(inner))]))
            })
        };
        heap.tables(b, src, "", merge);
    }
    let mut values = heap.export_map(cvals, 0)?;
    if !merge {
        // Helm trims nulls here for backward compatibility before laying the imports under.
        trim_nulls(&mut values);
    }
    let copy = heap.import_map(&values);
    heap.tables(copy, b, "", merge);
    Ok(Coalesced {
        values: heap.export_map(copy, 0)?,
        warnings: heap.warnings,
    })
}

/// `trimNilValues`: nulls removed from maps, at every depth of nested maps.
fn trim_nulls(m: &mut Map<String, Value>) {
    m.retain(|_, v| !v.is_null());
    for v in m.values_mut() {
        if let Value::Object(inner) = v {
            trim_nulls(inner);
        }
    }
}

fn concat_prefix(a: &str, b: &str) -> String {
    if a.is_empty() {
        b.to_string()
    } else {
        format!("{a}.{b}")
    }
}

/// A Go `interface{}` value during coalescing: a map is a reference into the heap;
/// anything else (lists included: coalescing never changes them) is held as is.
#[derive(Debug, Clone)]
enum GoValue {
    Plain(Value),
    Table(usize),
}

const NIL: GoValue = GoValue::Plain(Value::Null);

/// Go maps, shared by reference as Go shares them, and the warnings logged so far.
#[derive(Debug, Default)]
struct Heap {
    maps: Vec<IndexMap<String, GoValue>>,
    warnings: Vec<String>,
}

impl Heap {
    fn new_map(&mut self, m: IndexMap<String, GoValue>) -> usize {
        self.maps.push(m);
        self.maps.len() - 1
    }

    /// A deep copy into the heap (`copystructure.Copy`).
    fn import_map(&mut self, m: &Map<String, Value>) -> usize {
        let entries = m.iter().map(|(k, v)| (k.clone(), self.import(v))).collect();
        self.new_map(entries)
    }

    fn import(&mut self, v: &Value) -> GoValue {
        match v {
            Value::Object(m) => GoValue::Table(self.import_map(m)),
            other => GoValue::Plain(other.clone()),
        }
    }

    fn export_map(&self, id: usize, depth: usize) -> Result<Map<String, Value>, Error> {
        if depth > MAX_DEPTH {
            return Err(Error(format!("values nest deeper than {MAX_DEPTH} levels")));
        }
        let mut out = Map::new();
        for (k, v) in &self.maps[id] {
            let v = match v {
                GoValue::Plain(p) => p.clone(),
                GoValue::Table(t) => Value::Object(self.export_map(*t, depth + 1)?),
            };
            out.insert(k.clone(), v);
        }
        Ok(out)
    }

    /// `Values.Table`: the map at a dotted path, each step a map; else the key that is not.
    fn table(&self, id: usize, path: &str) -> Result<usize, String> {
        path.split('.')
            .try_fold(id, |at, key| match self.get(at, key) {
                Some(GoValue::Table(t)) => Ok(t),
                _ => Err(key.to_string()),
            })
    }

    fn get(&self, id: usize, key: &str) -> Option<GoValue> {
        self.maps[id].get(key).cloned()
    }

    fn set(&mut self, id: usize, key: &str, v: GoValue) {
        self.maps[id].insert(key.to_string(), v);
    }

    fn entries(&self, id: usize) -> Vec<(String, GoValue)> {
        self.maps[id]
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect()
    }

    fn coalesce(
        &mut self,
        chart: &Chart,
        dest: usize,
        prefix: &str,
        merge: bool,
    ) -> Result<(), Error> {
        self.chart_defaults(chart, dest, prefix, merge);
        self.dependencies(chart, dest, prefix, merge)
    }

    /// `coalesceDeps`: each subchart's values (under its name) coalesced with its own
    /// chart, after the parent's globals are pushed into them.
    fn dependencies(
        &mut self,
        chart: &Chart,
        dest: usize,
        prefix: &str,
        merge: bool,
    ) -> Result<(), Error> {
        for sub in &chart.dependencies {
            let sub_values = match self.get(dest, &sub.name) {
                None => {
                    let id = self.new_map(IndexMap::new());
                    self.set(dest, &sub.name, GoValue::Table(id));
                    id
                }
                Some(GoValue::Table(id)) => id,
                Some(GoValue::Plain(other)) => {
                    return Err(Error(format!(
                        "type mismatch on {}: {}",
                        sub.name,
                        format_t(&other)
                    )))
                }
            };
            let sub_prefix = concat_prefix(prefix, &chart.name);
            self.globals(sub_values, dest, &sub_prefix);
            self.coalesce(sub, sub_values, &sub_prefix, merge)?;
        }
        Ok(())
    }

    /// The `global` table of map `id` (a new empty one when it has none), or `None` with
    /// Helm's warning when `global` is not a table (`side` names which map, as Helm does).
    fn global_table(&mut self, id: usize, side: &str) -> Option<usize> {
        match self.get(id, GLOBAL_KEY) {
            None => Some(self.new_map(IndexMap::new())),
            Some(GoValue::Table(table)) => Some(table),
            Some(GoValue::Plain(_)) => {
                self.warnings.push(format!(
                    "warning: skipping globals because {side} {GLOBAL_KEY} is not a table."
                ));
                None
            }
        }
    }

    /// `coalesceGlobals`: the parent's `global` merged into the subchart's; the
    /// parent's values win (a global is set from the top down). Tables are copied one
    /// level deep only, as Helm copies them.
    fn globals(&mut self, dest: usize, src: usize, prefix: &str) {
        let Some(dg) = self.global_table(dest, "destination") else {
            return;
        };
        let Some(sg) = self.global_table(src, "source") else {
            return;
        };
        for (key, val) in self.entries(sg) {
            match (val, self.get(dg, &key)) {
                (GoValue::Table(parent), existing) => {
                    let vv = self.new_map(self.maps[parent].clone());
                    match existing {
                        None => self.set(dg, &key, GoValue::Table(vv)),
                        Some(GoValue::Table(sub_table)) => {
                            // Helm reverses coalescing's order here: the parent's table wins.
                            self.tables(vv, sub_table, &concat_prefix(prefix, &key), true);
                            self.set(dg, &key, GoValue::Table(vv));
                        }
                        Some(GoValue::Plain(_)) => self.warnings.push(format!(
                            "Conflict: cannot merge map onto non-map for {}. Skipping.",
                            quote(&key)
                        )),
                    }
                }
                (_, Some(GoValue::Table(_))) => {
                    self.warnings.push(format!("key {key} is table. Skipping"));
                }
                (val, _) => self.set(dg, &key, val),
            }
        }
        self.set(dest, GLOBAL_KEY, GoValue::Table(dg));
    }

    /// `coalesceValues`: a chart's own defaults (copied afresh) under the values `v`
    /// given for it.
    fn chart_defaults(&mut self, chart: &Chart, v: usize, prefix: &str, merge: bool) {
        let sub_prefix = concat_prefix(prefix, &chart.name);
        let vc = self.import_map(&chart.values);
        for (key, default) in self.entries(vc) {
            match (self.get(v, &key), default) {
                (None, default) => self.set(v, &key, default),
                (Some(GoValue::Plain(Value::Null)), _) if !merge => {
                    // A user null removes the default (and any earlier value's key).
                    self.maps[v].shift_remove(&key);
                }
                (Some(GoValue::Table(given)), GoValue::Table(src)) => {
                    let is_subchart = chart.dependencies.iter().any(|d| d.name == key);
                    let full = concat_prefix(&sub_prefix, &key);
                    self.tables(given, src, &full, merge || is_subchart);
                }
                (Some(GoValue::Table(_)), GoValue::Plain(Value::Null)) => {}
                (Some(GoValue::Table(_)), GoValue::Plain(_)) => self.warnings.push(format!(
                    "warning: skipped value for {sub_prefix}.{key}: Not a table."
                )),
                (Some(GoValue::Plain(_)), _) => {}
            }
        }
    }

    /// `coalesceTablesFullKey`: `src` under `dst`, `dst` winning.
    fn tables(&mut self, dst: usize, src: usize, prefix: &str, merge: bool) {
        // Whether src had a real value tells "the user nulls a default" (delete) from
        // "the user sets null where there is no default" (keep the null).
        let src_non_nil: Vec<String> = self.maps[src]
            .iter()
            .filter(|(_, v)| !matches!(v, GoValue::Plain(Value::Null)))
            .map(|(k, _)| k.clone())
            .collect();
        for (key, val) in self.entries(dst) {
            if matches!(val, GoValue::Plain(Value::Null)) {
                self.set(src, &key, NIL);
            }
        }
        for (key, val) in self.entries(src) {
            let full = concat_prefix(prefix, &key);
            match (self.get(dst, &key), val) {
                (Some(GoValue::Plain(Value::Null)), _) if !merge && src_non_nil.contains(&key) => {
                    self.maps[dst].shift_remove(&key);
                }
                (None, val) => self.set(dst, &key, val),
                (Some(GoValue::Table(d)), GoValue::Table(s)) => self.tables(d, s, &full, merge),
                (Some(GoValue::Plain(_)), GoValue::Table(s)) => {
                    let shown = format_v(&Value::Object(self.export_map(s, 0).unwrap_or_default()));
                    self.warnings.push(format!(
                        "warning: cannot overwrite table with non table for {full} ({shown})"
                    ));
                }
                (Some(GoValue::Table(_)), GoValue::Plain(s)) if !s.is_null() => {
                    self.warnings.push(format!(
                        "warning: destination for {full} is a table. Ignoring non-table value ({})",
                        format_v(&s)
                    ));
                }
                _ => {}
            }
        }
    }
}

#[cfg(test)]
mod tests;
