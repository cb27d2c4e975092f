//! KubeStellar's template expansion (`docs/semantics/kubestellar.md` §3): in an object annotated
//! `control.kubestellar.io/expand-templates: "true"`, every string value containing `{{` is a Go
//! `text/template` executed with the destination's properties (`missingkey=error`, no extra
//! functions). Keys are never templates.

use tailor_go::{DataReads, ExecOptions, MissingKey, Template, Value as Data};
use tailor_kube::{Diagnostic, StringMap};
use tailor_yaml::{Node, ScalarKind, Value};

pub const EXPAND_ANNOTATION: &str = "control.kubestellar.io/expand-templates";

/// KubeStellar expands only when the annotation is exactly the string `"true"`, and not at all
/// when any annotation value is not a string (its `GetAnnotations` then returns nothing).
pub fn wants_expansion(object: &Node) -> bool {
    let Some(pairs) = object
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

/// Why an object whose annotation looks meant to ask for expansion is not expanded: a boolean
/// `true` or `"True"` instead of the string `"true"`, or another annotation that is not a
/// string (KubeStellar then sees no annotations at all). `None` when it is expanded, or the
/// annotation is absent or plainly says no.
pub fn expansion_refused(object: &Node) -> Option<String> {
    let pairs = object
        .get_path(&["metadata", "annotations"])
        .and_then(Node::pairs)?;
    let value = pairs
        .iter()
        .find(|p| p.key.as_scalar() == Some(EXPAND_ANNOTATION))
        .map(|p| &p.value)?;
    let text = value.as_scalar()?;
    let meant_yes = matches!(
        text.to_ascii_lowercase().as_str(),
        "true" | "yes" | "on" | "y" | "1"
    );
    if !meant_yes {
        return None;
    }
    if value.scalar_kind() != Some(ScalarKind::Str) {
        return Some(format!(
            "{EXPAND_ANNOTATION} is {text} written as a {}, not the string \"true\": KubeStellar expands only the string \"true\" (and Kubernetes accepts only string annotations); quote it. Not expanded",
            kind_name(value)
        ));
    }
    if text != "true" {
        return Some(format!(
            "{EXPAND_ANNOTATION} is {text:?}: KubeStellar expands only the exact string \"true\". Not expanded"
        ));
    }
    let other = pairs
        .iter()
        .find(|p| p.value.scalar_kind() != Some(ScalarKind::Str))?;
    Some(format!(
        "annotation {:?} is not a string, so KubeStellar reads no annotations of this object and does not expand it (Kubernetes accepts only string annotations); quote it. Not expanded",
        other.key.as_scalar().unwrap_or_default()
    ))
}

fn kind_name(n: &Node) -> &'static str {
    match n.scalar_kind() {
        Some(ScalarKind::Bool) => "boolean",
        Some(ScalarKind::Int) => "number",
        Some(ScalarKind::Float) => "number",
        Some(ScalarKind::Null) => "null",
        Some(_) => "string",
        None => "collection",
    }
}

/// Whether `object` holds any template string (so expanding it needs a destination).
pub fn has_templates(object: &Node) -> bool {
    let mut found = Vec::new();
    collect(object, &mut Vec::new(), &mut String::new(), &mut found);
    !found.is_empty()
}

/// What each template string of `object` reads of the properties, with its length in bytes
/// (a plain template's output is its text and one value per action). A string that does not
/// parse reads none, and is not plain: its error names the destination.
pub fn template_reads(object: &Node) -> Vec<(usize, DataReads)> {
    let mut found = Vec::new();
    collect(object, &mut Vec::new(), &mut String::new(), &mut found);
    found
        .into_iter()
        .map(|(_, _, text)| {
            let reads = Template::parse("", &text).map_or_else(
                |_| DataReads {
                    keys: Some(Default::default()),
                    ..DataReads::default()
                },
                |t| t.data_reads(),
            );
            (text.len(), reads)
        })
        .collect()
}

/// Which object a template belongs to: its group, kind, namespace and name, for the names
/// KubeStellar gives templates (Go's error messages quote them).
pub struct ObjectName<'a> {
    pub group: &'a str,
    pub kind: &'a str,
    pub namespace: Option<&'a str>,
    pub name: &'a str,
}

/// What expanding an object's templates gives: the new text of each string that changed, and
/// a diagnostic per failing string (at its field, with Go's message).
pub struct Expansion {
    edits: Vec<(Path, String)>,
    pub errors: Vec<Diagnostic>,
}

impl Expansion {
    /// Whether no string changes.
    pub fn is_unchanged(&self) -> bool {
        self.edits.is_empty()
    }

    /// Writes the strings that succeeded into `object` (the object it was computed from).
    pub fn apply(self, object: &mut Node) {
        for (path, text) in self.edits {
            if let Some(node) = node_at_mut(object, &path) {
                node.set_string(&text);
            }
        }
    }
}

/// Expands every template string of `object` for the destination `cluster` with its
/// `properties`.
pub fn expand(
    object: &Node,
    id: &ObjectName<'_>,
    cluster: &str,
    properties: &StringMap,
    limits: &ExecOptions,
) -> Expansion {
    let opts = ExecOptions {
        missing_key: MissingKey::Error,
        ..limits.clone()
    };
    let mut found = Vec::new();
    collect(object, &mut Vec::new(), &mut String::new(), &mut found);
    let data = Data::StringMap(properties.clone());
    let prefix = name_prefix(cluster, id);
    let mut errors = Vec::new();
    let mut edits = Vec::new();
    for (path, field, text) in found {
        let name = format!("{prefix}{field}");
        let mut out = String::new();
        match Template::parse(&name, &text).and_then(|t| t.execute(&data, &opts, &mut out)) {
            Ok(()) if out != text => edits.push((path, out)),
            Ok(()) => {}
            Err(e) => errors.push(Diagnostic::error(e.message).at(field.trim_start_matches('.'))),
        }
    }
    Expansion { edits, errors }
}

/// `<inventoryName>/<GroupKind>(<ns>/<name>)`: the name KubeStellar gives each template.
fn name_prefix(cluster: &str, id: &ObjectName<'_>) -> String {
    let group_kind = match id.group {
        "" => id.kind.to_string(),
        g => format!("{}.{g}", id.kind),
    };
    match id.namespace.filter(|ns| !ns.is_empty()) {
        Some(ns) => format!("{cluster}/{group_kind}({ns}/{})", id.name),
        None => format!("{cluster}/{group_kind}({})", id.name),
    }
}

/// One step from a node to a child: the index of a mapping pair or of a sequence item.
type Path = Vec<usize>;

/// Every string value containing `{{`, with its tree path and its JSON-path-like field name
/// (`.spec.outputs[0].url`, keys appended raw as KubeStellar does).
fn collect(
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
                collect(&pair.value, path, field, out);
                path.pop();
                field.truncate(len);
            }
        }
        Value::Sequence(items) => {
            for (i, item) in items.iter().enumerate() {
                let len = field.len();
                field.push_str(&format!("[{i}]"));
                path.push(i);
                collect(item, path, field, out);
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

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(s: &str) -> Node {
        tailor_yaml::parse_stream(s).unwrap().remove(0).root
    }

    #[test]
    fn expands_strings_and_names_templates_as_kubestellar() {
        let mut obj = doc("apiVersion: logging.openshift.io/v1\nkind: ClusterLogForwarder\nmetadata:\n  name: instance\n  namespace: openshift-logging\n  annotations:\n    control.kubestellar.io/expand-templates: \"true\"\nspec:\n  outputs:\n  - url: https://my.loki.server.com/{{.clusterName}}-{{.clusterHash}}\n  - url: '{{.missing}}'\n  '{{.key}}': kept\n");
        assert!(wants_expansion(&obj) && has_templates(&obj));
        let props = StringMap::from([
            ("clusterName".to_string(), "virgo".to_string()),
            ("clusterHash".to_string(), "1001-dead-beef".to_string()),
        ]);
        let id = ObjectName {
            group: "logging.openshift.io",
            kind: "ClusterLogForwarder",
            namespace: Some("openshift-logging"),
            name: "instance",
        };
        let expansion = expand(&obj, &id, "virgo", &props, &ExecOptions::default());
        let errors = expansion.errors.clone();
        expansion.apply(&mut obj);
        assert_eq!(
            obj.get_path(&["spec", "outputs"]).unwrap().items().unwrap()[0].get_str("url"),
            Some("https://my.loki.server.com/virgo-1001-dead-beef")
        );
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].field, "spec.outputs[1].url");
        assert!(errors[0].message.starts_with("template: virgo/ClusterLogForwarder.logging.openshift.io(openshift-logging/instance).spec.outputs[1].url:1:2: executing"), "{}", errors[0].message);
    }

    #[test]
    fn only_the_exact_string_true_triggers() {
        for annotation in ["true", "'True'", "\"yes\""] {
            let obj = doc(&format!("metadata:\n  annotations:\n    control.kubestellar.io/expand-templates: {annotation}\n"));
            assert!(!wants_expansion(&obj), "{annotation}");
        }
        let other_not_string = doc("metadata:\n  annotations:\n    control.kubestellar.io/expand-templates: \"true\"\n    n: 1\n");
        assert!(!wants_expansion(&other_not_string));
    }
}
