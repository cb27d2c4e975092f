//! `values.schema.json` checked as Helm's `chartutil.ValidateAgainstSchema` does
//! (`pkg/chartutil/jsonschema.go`): each chart's schema against its values, subcharts against
//! their table, every failure listed under the chart's name. Helm v3.21 validates with
//! santhosh-tekuri/jsonschema v6; tailor validates with the `jsonschema` crate and words the
//! common failures as that library does (`- at '/age': minimum: got -5, want 0`).

use crate::chart::Chart;
use crate::gofmt::format_v;
use jsonschema::error::{TypeKind, ValidationErrorKind as K};
use serde_json::{Map, Value as Json};

/// All failures of `chart`'s and its enabled subcharts' schemas (`enabled` per chart in
/// pre-order: a subchart a tag or condition switched off is no dependency any more), Helm's
/// text, or `Ok`.
pub fn validate(chart: &Chart, values: &Map<String, Json>, enabled: &[bool]) -> Result<(), String> {
    let mut out = String::new();
    let mut next = 0;
    collect(chart, values, enabled, &mut next, &mut out)?;
    if out.is_empty() {
        return Ok(());
    }
    Err(format!(
        "values don't meet the specifications of the schema(s) in the following chart(s):\n{out}"
    ))
}

fn collect(
    chart: &Chart,
    values: &Map<String, Json>,
    enabled: &[bool],
    next: &mut usize,
    out: &mut String,
) -> Result<(), String> {
    let on = enabled.get(*next).copied().unwrap_or(true);
    *next += 1;
    if let Some(schema) = chart.schema.as_ref().filter(|_| on) {
        let validator = jsonschema::validator_for(schema)
            .map_err(|e| format!("{}: values.schema.json: {e}", chart.name()))?;
        let instance = Json::Object(values.clone());
        let mut lines: Vec<(String, String)> = Vec::new();
        for e in validator.iter_errors(&instance) {
            let at = e.instance_path().as_str().to_string();
            let msg = match e.kind() {
                K::Required { property } => {
                    let p = property.as_str().unwrap_or_default().to_string();
                    if let Some(prev) = lines
                        .iter_mut()
                        .find(|(a, m)| *a == at && m.starts_with("missing propert"))
                    {
                        let names = prev
                            .1
                            .trim_start_matches("missing property ")
                            .trim_start_matches("missing properties ");
                        prev.1 = format!("missing properties {names}, '{p}'");
                        continue;
                    }
                    format!("missing property '{p}'")
                }
                K::Minimum { limit } => format!(
                    "minimum: got {}, want {}",
                    num(e.instance()),
                    format_v(limit)
                ),
                K::Maximum { limit } => format!(
                    "maximum: got {}, want {}",
                    num(e.instance()),
                    format_v(limit)
                ),
                K::ExclusiveMinimum { limit } => format!(
                    "exclusiveMinimum: got {}, want {}",
                    num(e.instance()),
                    format_v(limit)
                ),
                K::ExclusiveMaximum { limit } => format!(
                    "exclusiveMaximum: got {}, want {}",
                    num(e.instance()),
                    format_v(limit)
                ),
                K::MinLength { limit } => {
                    format!("minLength: got {}, want {limit}", len(e.instance()))
                }
                K::MaxLength { limit } => {
                    format!("maxLength: got {}, want {limit}", len(e.instance()))
                }
                K::Type { kind } => {
                    format!("got {}, want {}", json_type(e.instance()), want_types(kind))
                }
                K::Pattern { pattern } => format!(
                    "'{}' does not match pattern '{pattern}'",
                    format_v(e.instance())
                ),
                K::AdditionalProperties { unexpected } => {
                    let names: Vec<String> = unexpected.iter().map(|u| format!("'{u}'")).collect();
                    format!("additional properties {} not allowed", names.join(", "))
                }
                K::Enum { options } => {
                    let opts: Vec<String> = options
                        .as_array()
                        .map(|a| {
                            a.iter()
                                .map(|o| serde_json::to_string(o).unwrap_or_default())
                                .collect()
                        })
                        .unwrap_or_default();
                    format!("value must be one of {}", opts.join(", "))
                }
                _ => e.to_string(),
            };
            lines.push((at, msg));
        }
        if !lines.is_empty() {
            out.push_str(&format!("{}:\n", chart.name()));
            for (at, msg) in lines {
                out.push_str(&format!("- at '{at}': {msg}\n"));
            }
        }
    }
    for dep in &chart.dependencies {
        let sub = match values.get(dep.name()) {
            Some(Json::Object(m)) => m.clone(),
            _ => Map::new(),
        };
        collect(dep, &sub, enabled, next, out)?;
    }
    Ok(())
}

fn num(v: &Json) -> String {
    format_v(v)
}

fn len(v: &Json) -> usize {
    v.as_str().map_or(0, |s| s.chars().count())
}

/// santhosh-tekuri's type names: `integer` for a whole number, as Go's float64 values are.
fn json_type(v: &Json) -> &'static str {
    match v {
        Json::Null => "null",
        Json::Bool(_) => "boolean",
        Json::Number(n) if n.as_f64().is_some_and(|f| f.fract() == 0.0) => "integer",
        Json::Number(_) => "number",
        Json::String(_) => "string",
        Json::Array(_) => "array",
        Json::Object(_) => "object",
    }
}

fn want_types(kind: &TypeKind) -> String {
    match kind {
        TypeKind::Single(t) => t.to_string(),
        TypeKind::Multiple(set) => set
            .iter()
            .map(|t| t.to_string())
            .collect::<Vec<_>>()
            .join(" or "),
    }
}
