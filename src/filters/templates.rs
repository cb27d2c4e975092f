//! Template expansion stage: KubeStellar's `control.kubestellar.io/expand-templates`. Every
//! string value containing `{{` in an annotated object is a Go `text/template` executed with
//! the destination's properties (`tailor-go` does the work). Any failure is an error
//! result per failing string; the run then fails as a whole (`docs/design.md`).

use tailor_go::{ExecOptions, MissingKey, Template, Value as Data};
use tailor_yaml::{Node, ScalarKind, Value};

use super::StageContext;
use crate::krm::{KrmResult, Resource};

pub const EXPAND_ANNOTATION: &str = "control.kubestellar.io/expand-templates";

/// One step from a node to a child: the index of a mapping pair or of a sequence item.
type Path = Vec<usize>;

pub fn run(items: &mut [Resource], limits: &ExecOptions, ctx: &mut StageContext<'_>) {
    let opts = ExecOptions {
        missing_key: MissingKey::Error,
        ..limits.clone()
    };
    for item in items.iter_mut() {
        // The annotation lookup reads only what every object keeps at hand, so objects without
        // it are not parsed again when their trees were deferred.
        if item.is_meta_or_local()
            || item.annotation(EXPAND_ANNOTATION) != Some("true")
            || !wants_expansion(item.node())
        {
            continue;
        }
        let mut found = Vec::new();
        collect_templates(item.node(), &mut Vec::new(), &mut String::new(), &mut found);
        if found.is_empty() {
            continue;
        }
        let Some(cluster) = ctx.cluster else {
            ctx.results.push(
                KrmResult::error(format!(
                    "{} asks for template expansion ({EXPAND_ANNOTATION}: \"true\") but no destination cluster is named: set spec.cluster (or clusterName) so its properties can fill the templates",
                    item.display_id()
                ))
                .about(item)
                .at_field(format!("metadata.annotations.{EXPAND_ANNOTATION}")),
            );
            continue;
        };
        let data = Data::StringMap(cluster.properties.clone());
        let name_prefix = template_name_prefix(&cluster.name, item);
        let mut edits = Vec::new();
        for (path, field, text) in found {
            let name = format!("{name_prefix}{field}");
            let mut out = String::new();
            let result =
                Template::parse(&name, &text).and_then(|t| t.execute(&data, &opts, &mut out));
            match result {
                Ok(()) => {
                    if out != text {
                        edits.push((path, out));
                    }
                }
                Err(e) => ctx.results.push(
                    KrmResult::error(e.message)
                        .about(item)
                        .at_field(field.trim_start_matches('.').to_string()),
                ),
            }
        }
        if !edits.is_empty() {
            let root = item.node_mut();
            for (path, text) in edits {
                if let Some(node) = node_at_mut(root, &path) {
                    node.set_string(&text);
                }
            }
        }
    }
}

/// KubeStellar expands only when the annotation is exactly the string `"true"`, and not at all
/// when any annotation value is not a string (its `GetAnnotations` then returns nothing).
fn wants_expansion(node: &Node) -> bool {
    let Some(pairs) = node
        .get_path(&["metadata", "annotations"])
        .and_then(Node::pairs)
    else {
        return false;
    };
    let all_strings = pairs
        .iter()
        .all(|p| p.value.scalar_kind() == Some(ScalarKind::Str));
    all_strings
        && pairs.iter().any(|p| {
            p.key.as_scalar() == Some(EXPAND_ANNOTATION) && p.value.as_str() == Some("true")
        })
}

/// `<inventoryName>/<GroupKind>(<ns>/<name>)`: the name KubeStellar gives each template, which
/// Go's error messages quote.
fn template_name_prefix(cluster: &str, item: &Resource) -> String {
    let group_kind = match item.group() {
        "" => item.kind().to_string(),
        g => format!("{}.{g}", item.kind()),
    };
    match item.namespace().filter(|ns| !ns.is_empty()) {
        Some(ns) => format!("{cluster}/{group_kind}({ns}/{})", item.name()),
        None => format!("{cluster}/{group_kind}({})", item.name()),
    }
}

/// Every string value containing `{{`, with its tree path and its JSON-path-like field name
/// (`.spec.outputs[0].url`, keys appended raw as KubeStellar does). Keys are never templates.
fn collect_templates(
    node: &Node,
    path: &mut Path,
    field: &mut String,
    out: &mut Vec<(Path, String, String)>,
) {
    match &node.value {
        Value::Scalar(s) => {
            if s.contains("{{") && node.scalar_kind() == Some(ScalarKind::Str) {
                out.push((path.clone(), field.clone(), s.to_string()));
            }
        }
        Value::Mapping(pairs) => {
            for (i, pair) in pairs.iter().enumerate() {
                let len = field.len();
                field.push('.');
                field.push_str(pair.key.as_scalar().unwrap_or(""));
                path.push(i);
                collect_templates(&pair.value, path, field, out);
                path.pop();
                field.truncate(len);
            }
        }
        Value::Sequence(items) => {
            for (i, item) in items.iter().enumerate() {
                let len = field.len();
                field.push_str(&format!("[{i}]"));
                path.push(i);
                collect_templates(item, path, field, out);
                path.pop();
                field.truncate(len);
            }
        }
        Value::Alias(_) => {}
    }
}

fn node_at_mut<'a>(mut node: &'a mut Node, path: &[usize]) -> Option<&'a mut Node> {
    for &i in path {
        node = match &mut node.value {
            Value::Mapping(pairs) => &mut pairs.get_mut(i)?.value,
            Value::Sequence(items) => items.get_mut(i)?,
            _ => return None,
        };
    }
    Some(node)
}
