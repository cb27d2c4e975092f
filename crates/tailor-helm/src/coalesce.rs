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
//! Known difference: Helm copies a global table one level deep when pushing it to a
//! subchart, so tables two levels under `global` stay shared with the parent and a
//! subchart's defaults there leak back into the parent's and siblings' globals. Values
//! here are copied, not shared: that leak is not reproduced.

use crate::gofmt::{format_t, format_v};
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
    let mut out = Coalesced {
        values: vals.clone(),
        warnings: Vec::new(),
    };
    coalesce(&mut out.warnings, chart, &mut out.values, "", merge)?;
    Ok(out)
}

/// `CoalesceTables`: `src` under `dst` (`dst` wins), nulls in `dst` deleting.
pub fn coalesce_tables(
    dst: &mut Map<String, Value>,
    src: Option<Map<String, Value>>,
    warnings: &mut Vec<String>,
) {
    if let Some(src) = src {
        tables(warnings, dst, src, "", false);
    }
}

/// `MergeTables`: as [`coalesce_tables`], keeping nulls.
pub fn merge_tables(
    dst: &mut Map<String, Value>,
    src: Option<Map<String, Value>>,
    warnings: &mut Vec<String>,
) {
    if let Some(src) = src {
        tables(warnings, dst, src, "", true);
    }
}

fn concat_prefix(a: &str, b: &str) -> String {
    if a.is_empty() {
        b.to_string()
    } else {
        format!("{a}.{b}")
    }
}

fn coalesce(
    warnings: &mut Vec<String>,
    chart: &Chart,
    dest: &mut Map<String, Value>,
    prefix: &str,
    merge: bool,
) -> Result<(), Error> {
    chart_defaults(warnings, chart, dest, prefix, merge);
    dependencies(warnings, chart, dest, prefix, merge)
}

/// `coalesceDeps`: each subchart's values (under its name) coalesced with its own
/// chart, after the parent's globals are pushed into them.
fn dependencies(
    warnings: &mut Vec<String>,
    chart: &Chart,
    dest: &mut Map<String, Value>,
    prefix: &str,
    merge: bool,
) -> Result<(), Error> {
    for sub in &chart.dependencies {
        let mut sub_values = match dest.get(&sub.name) {
            None => Map::new(),
            Some(Value::Object(m)) => m.clone(),
            Some(other) => {
                return Err(Error(format!(
                    "type mismatch on {}: {}",
                    sub.name,
                    format_t(other)
                )))
            }
        };
        let sub_prefix = concat_prefix(prefix, &chart.name);
        globals(warnings, &mut sub_values, dest.get(GLOBAL_KEY), &sub_prefix);
        let result = coalesce(warnings, sub, &mut sub_values, &sub_prefix, merge);
        dest.insert(sub.name.clone(), Value::Object(sub_values));
        result?;
    }
    Ok(())
}

/// `coalesceGlobals`: the parent's `global` merged into the subchart's; the parent's
/// values win (a global is set from the top down).
fn globals(
    warnings: &mut Vec<String>,
    dest: &mut Map<String, Value>,
    src_global: Option<&Value>,
    prefix: &str,
) {
    let mut dg = match dest.get(GLOBAL_KEY) {
        None => Map::new(),
        Some(Value::Object(m)) => m.clone(),
        Some(_) => {
            warnings.push(format!(
                "warning: skipping globals because destination {GLOBAL_KEY} is not a table."
            ));
            return;
        }
    };
    let sg = match src_global {
        None => Map::new(),
        Some(Value::Object(m)) => m.clone(),
        Some(_) => {
            warnings.push(format!(
                "warning: skipping globals because source {GLOBAL_KEY} is not a table."
            ));
            return;
        }
    };
    for (key, val) in sg {
        match (&val, dg.get_mut(&key)) {
            (Value::Object(_), None) => {
                dg.insert(key, val);
            }
            (Value::Object(parent_table), Some(Value::Object(sub_table))) => {
                // Helm reverses coalescing's order here: the parent's table wins.
                let mut merged = parent_table.clone();
                let sub_table = std::mem::take(sub_table);
                tables(
                    warnings,
                    &mut merged,
                    sub_table,
                    &concat_prefix(prefix, &key),
                    true,
                );
                dg.insert(key, Value::Object(merged));
            }
            (Value::Object(_), Some(_)) => warnings.push(format!(
                "Conflict: cannot merge map onto non-map for {}. Skipping.",
                quote(&key)
            )),
            (_, Some(Value::Object(_))) => {
                warnings.push(format!("key {key} is table. Skipping"));
            }
            _ => {
                dg.insert(key, val);
            }
        }
    }
    dest.insert(GLOBAL_KEY.to_string(), Value::Object(dg));
}

/// `coalesceValues`: a chart's own defaults under the values `v` given for it.
fn chart_defaults(
    warnings: &mut Vec<String>,
    chart: &Chart,
    v: &mut Map<String, Value>,
    prefix: &str,
    merge: bool,
) {
    let sub_prefix = concat_prefix(prefix, &chart.name);
    for (key, default) in &chart.values {
        match v.get_mut(key) {
            None => {
                v.insert(key.clone(), default.clone());
            }
            Some(Value::Null) if !merge => {
                // A user null removes the default (and any earlier value's key).
                v.shift_remove(key);
            }
            Some(Value::Object(given)) => match default {
                Value::Object(src) => {
                    let is_subchart = chart.dependencies.iter().any(|d| &d.name == key);
                    let full = concat_prefix(&sub_prefix, key);
                    tables(warnings, given, src.clone(), &full, merge || is_subchart);
                }
                Value::Null => {}
                _ => warnings.push(format!(
                    "warning: skipped value for {sub_prefix}.{key}: Not a table."
                )),
            },
            Some(_) => {}
        }
    }
}

/// `coalesceTablesFullKey`: `src` under `dst`, `dst` winning.
fn tables(
    warnings: &mut Vec<String>,
    dst: &mut Map<String, Value>,
    mut src: Map<String, Value>,
    prefix: &str,
    merge: bool,
) {
    // Whether src had a real value tells "the user nulls a default" (delete) from
    // "the user sets null where there is no default" (keep the null).
    let src_non_nil: Vec<String> = src
        .iter()
        .filter(|(_, v)| !v.is_null())
        .map(|(k, _)| k.clone())
        .collect();
    for (key, val) in dst.iter() {
        if val.is_null() {
            src.insert(key.clone(), Value::Null);
        }
    }
    for (key, val) in src {
        let full = concat_prefix(prefix, &key);
        match dst.get_mut(&key) {
            Some(Value::Null) if !merge && src_non_nil.contains(&key) => {
                dst.shift_remove(&key);
            }
            None => {
                dst.insert(key, val);
            }
            Some(dv) => match (dv, val) {
                (Value::Object(d), Value::Object(s)) => tables(warnings, d, s, &full, merge),
                (_, s @ Value::Object(_)) => warnings.push(format!(
                    "warning: cannot overwrite table with non table for {full} ({})",
                    format_v(&s)
                )),
                (Value::Object(_), s) if !s.is_null() => warnings.push(format!(
                    "warning: destination for {full} is a table. Ignoring non-table value ({})",
                    format_v(&s)
                )),
                _ => {}
            },
        }
    }
}

#[cfg(test)]
mod tests;
