//! A `v1 ConfigMap` functionConfig, as `kpt fn eval --exec tailor -- clusterName=virgo env=prod`
//! sends it: `clusterName` names the destination, every other key is a property and a label.
//! It runs the built-in strip and template expansion.

use tailor_cluster::ClusterSpec;
use tailor_kube::Diagnostic;
use tailor_yaml::Node;

use super::Plan;
use crate::stages::strip::Strip;
use crate::stages::templates::Templates;

/// An error at `functionConfig.<field>`.
fn at_field(field: String, message: String) -> Diagnostic {
    Diagnostic::new(format!("functionConfig.{field}"), message)
}

/// `kpt fn eval --exec tailor -- clusterName=virgo env=prod`: `clusterName` names the cluster,
/// every other key is a property and a label. An empty ConfigMap means "no config".
pub fn parse(fc: &Node) -> Result<Plan, Diagnostic> {
    let budget = super::budget::run_budget(Default::default(), 1)?;
    let mut p = Plan::new(
        "ConfigMap",
        vec![
            Box::new(Strip {
                builtin: true,
                transforms: Vec::new(),
            }),
            Box::new(Templates {
                limits: tailor_go::ExecOptions {
                    budget: budget.clone(),
                    ..tailor_go::ExecOptions::default()
                },
            }),
        ],
        1,
    );
    p.budget = Some(budget);
    let data = match fc.get("data") {
        None => return Ok(p),
        Some(d) if d.is_null() => return Ok(p),
        Some(d) => d.pairs().ok_or_else(|| {
            at_field(
                "data".to_string(),
                "ConfigMap data must be a map of strings".to_string(),
            )
        })?,
    };
    let mut name = None;
    let mut props = tailor_cluster::StringMap::new();
    for pair in data {
        let k = pair.key.as_scalar().unwrap_or_default();
        let s = data_text(k, &pair.value)?;
        if k == "clusterName" {
            name = Some(s);
        } else if !tailor_go::unicode::is_identifier(k) {
            return Err(at_field(
                format!("data.{k}"),
                format!("functionConfig.data.{k}: property names must be Go identifiers (letters, digits and '_', not starting with a digit, not a Go keyword), so templates can use {{{{.name}}}}"),
            ));
        } else {
            props.insert(k.to_string(), s);
        }
    }
    match name {
        Some(n) if !n.is_empty() => p.clusters.push(
            ClusterSpec {
                name: n,
                labels: props.clone(),
                properties: props,
                ..ClusterSpec::default()
            }
            .into(),
        ),
        Some(_) => {
            return Err(at_field("data.clusterName".to_string(), "clusterName must not be empty".to_string()))
        }
        None if !props.is_empty() => {
            return Err(at_field(
                "data.clusterName".into(),
                "ConfigMap functionConfig has properties but no clusterName: name the destination cluster (-- clusterName=NAME ...)".into(),
            ))
        }
        None => {}
    }
    Ok(p)
}

/// The text of the value `v` of data key `k`.
fn data_text(k: &str, v: &Node) -> Result<String, Diagnostic> {
    // kpt sends strings (`-- k=v`); a number or boolean written in a ConfigMap file is
    // taken as its text, as written (kyaml's GetDataMap reads the node's text). A map or
    // list has no text.
    Ok(if v.is_null() {
        String::new()
    } else if let Some(text) = v.as_scalar() {
        text.to_string()
    } else {
        return Err(at_field(
            format!("data.{k}"),
            format!(
                "functionConfig.data.{k}: ConfigMap data values must be strings, found {}",
                if v.is_sequence() {
                    "a list"
                } else {
                    "a mapping"
                }
            ),
        ));
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fc(text: &str) -> Node {
        tailor_yaml::parse_stream(text).unwrap().remove(0).root
    }

    fn config_map_error(data: &str) -> (String, String) {
        let e = parse(&fc(&format!(
            "apiVersion: v1\nkind: ConfigMap\ndata: {data}\n"
        )))
        .err()
        .expect("an error");
        (
            e.field.trim_start_matches("functionConfig.").to_string(),
            e.message,
        )
    }

    #[test]
    fn config_map_scalars_are_taken_as_written() {
        let p = parse(&fc(
            "apiVersion: v1\nkind: ConfigMap\ndata: {clusterName: virgo, tag: 1.20, on: true, none: ~}\n",
        ))
        .unwrap_or_else(|e| panic!("{e}"));
        let spec = p.clusters[0].spec();
        let props = &spec.properties;
        assert_eq!(spec.name, "virgo");
        assert_eq!(props["tag"], "1.20");
        assert_eq!(props["on"], "true");
        assert_eq!(props["none"], "");
        assert_eq!(spec.labels, *props);
    }

    #[test]
    fn config_map_errors_name_the_data_key() {
        assert_eq!(
            config_map_error("{clusterName: a, env: {x: y}}"),
            (
                "data.env".to_string(),
                "functionConfig.data.env: ConfigMap data values must be strings, found a mapping"
                    .to_string()
            )
        );
        let (field, message) = config_map_error("{clusterName: [a]}");
        assert_eq!(field, "data.clusterName");
        assert!(message.ends_with("found a list"), "{message}");
        let (field, message) = config_map_error("{clusterName: a, my-prop: x}");
        assert_eq!(field, "data.my-prop");
        assert!(
            message
                .starts_with("functionConfig.data.my-prop: property names must be Go identifiers"),
            "{message}"
        );
        assert_eq!(config_map_error("[a]").0, "data");
    }
}
