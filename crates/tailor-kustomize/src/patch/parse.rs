//! Patch text to [`Patch`], with kustomize's detection: the text is read both as
//! strategic-merge documents and as a JSON6902 operation list; exactly one must succeed.

use serde_json::Value as Json;
use tailor_yaml::{parse_stream_with, Document, Node, ParseOptions, Style, Value};

use crate::patch::json6902::{decode_ops, Op};
use crate::patch::Error;

#[derive(Clone, Debug, PartialEq)]
pub enum Patch {
    /// Strategic-merge documents (a multi-document patch applies each, by its own id).
    Strategic(Vec<Node>),
    /// RFC 6902 operations.
    Json6902(Vec<Op>),
    /// RFC 7386 merge patch (Fleet, for kinds without a Go type).
    MergePatch(Node),
}

/// kustomize's `[patch: "…"]` source label, with Go `%q` quoting.
pub(crate) fn source_label(text: &str) -> String {
    format!("[patch: {}]", tailor_go::strconv::quote(text))
}

/// Parses inline patch text (`patch: |`) or a patch file's content.
pub fn parse_patch(text: &str) -> Result<Patch, Error> {
    let text = text.trim();
    if text.is_empty() {
        return Err(Error::new("must specify one of patch and path"));
    }
    let sm = strategic_docs(text);
    let js = json_ops(text);
    match (sm, js) {
        (Ok(s), Ok(j)) if !s.is_empty() && !j.is_empty() => Err(Error::new(format!(
            "illegally qualifies as both an SM and JSON patch: {}",
            source_label(text)
        ))),
        (Err(_), Err(_)) => Err(Error::new(format!(
            "unable to parse SM or JSON patch from {}",
            source_label(text)
        ))),
        (Ok(s), _) => Ok(Patch::Strategic(s)),
        (Err(_), Ok(j)) => Ok(Patch::Json6902(j)),
    }
}

/// A patch given as a node: a sequence is JSON 6902 operations, anything else strategic-merge
/// documents, with the same checks as text.
pub(crate) fn patch_from_node(node: &Node, source: &str) -> Result<Patch, Error> {
    if node.is_sequence() {
        let ops = node
            .to_json()
            .map_err(|e| Error::new(e.to_string()))
            .and_then(|j| decode_ops(&j).map_err(|e| Error::new(e.to_string())));
        return ops.map(Patch::Json6902).map_err(|_| {
            Error::new(format!(
                "unable to parse SM or JSON patch from {}",
                source_label(source)
            ))
        });
    }
    // As with text, a document that is not a valid strategic-merge patch (and cannot be a
    // JSON 6902 one, not being a list) is reported as neither.
    let mut out = Vec::new();
    push_document(&mut out, node.clone()).map_err(|_| {
        Error::new(format!(
            "unable to parse SM or JSON patch from {}",
            source_label(source)
        ))
    })?;
    Ok(Patch::Strategic(out))
}

/// Patch text as kustomize reads it: into kyaml nodes (strategic merge) or through yaml.v2
/// (JSON 6902), neither of which refuses a duplicate key; resources are checked for them when
/// a patch is applied ([`check_duplicate_keys`]).
fn parse_patch_text(text: &str) -> Result<Vec<Document>, Error> {
    let opts = ParseOptions {
        unique_keys: false,
        ..ParseOptions::default()
    };
    parse_stream_with(text, &opts).map_err(|e| Error::new(e.to_string()))
}

/// `ResourceFactory.SliceFromBytes`: documents, `…List` items inlined, empty ones skipped,
/// each needing a kind and a name.
fn strategic_docs(text: &str) -> Result<Vec<Node>, Error> {
    let docs = parse_patch_text(text)?;
    let mut out = Vec::new();
    for d in docs.into_iter().filter(|d| !d.empty) {
        push_document(&mut out, d.root)?;
    }
    Ok(out)
}

/// One document of a strategic-merge patch: a `…List`'s items inlined, each validated.
fn push_document(out: &mut Vec<Node>, root: Node) -> Result<(), Error> {
    {
        let items = match (&root.value, root.get("kind").and_then(Node::as_scalar)) {
            (Value::Mapping(_), Some(k)) if k.ends_with("List") => root
                .get("items")
                .and_then(Node::items)
                .map(<[Node]>::to_vec),
            _ => None,
        };
        match items {
            Some(items) => {
                for i in items {
                    push_validated(out, i)?;
                }
            }
            None => push_validated(out, root)?,
        }
    }
    Ok(())
}

fn push_validated(out: &mut Vec<Node>, n: Node) -> Result<(), Error> {
    let empty = match &n.value {
        Value::Mapping(p) => p.is_empty(),
        Value::Sequence(i) => i.is_empty(),
        _ => n.is_null(),
    };
    if empty {
        return Ok(());
    }
    if !n.is_mapping() {
        return Err(Error::new("missing Resource metadata"));
    }
    let kind = n.get("kind").and_then(Node::as_scalar).unwrap_or("");
    if kind.is_empty() {
        return Err(Error::new("missing kind in object"));
    }
    let name = n
        .get("metadata")
        .and_then(|m| m.get("name"))
        .and_then(Node::as_scalar)
        .unwrap_or("");
    if name.is_empty() && !kind.ends_with("List") {
        return Err(Error::new("missing metadata.name in object"));
    }
    out.push(n);
    Ok(())
}

/// go-yaml refuses a mapping that repeats a key when kustomize decodes a resource to JSON.
pub(crate) fn check_duplicate_keys(n: &Node) -> Result<(), Error> {
    match &n.value {
        Value::Mapping(pairs) => {
            let mut seen = std::collections::HashSet::new();
            for p in pairs {
                if let Some(k) = p.key.as_scalar() {
                    if !seen.insert(k) {
                        return Err(Error::new(format!("mapping key \"{k}\" already defined")));
                    }
                }
                check_duplicate_keys(&p.value)?;
            }
            Ok(())
        }
        Value::Sequence(items) => items.iter().try_for_each(check_duplicate_keys),
        _ => Ok(()),
    }
}

/// `jsonPatchFromBytes`: JSON when the text starts with `[`, else YAML converted as
/// sigs.k8s.io/yaml does (YAML 1.1 booleans), then `DecodePatch`.
fn json_ops(text: &str) -> Result<Vec<Op>, Error> {
    let json: Json = if text.starts_with('[') {
        serde_json::from_str(text).map_err(|e| Error::new(e.to_string()))?
    } else {
        let docs = parse_patch_text(text)?;
        match docs.into_iter().next() {
            Some(d) if !d.empty => yaml11_json(&d.root)?,
            _ => Json::Null,
        }
    };
    decode_ops(&json)
}

/// Node to JSON with go-yaml v2's reading of plain scalars (`yes`/`on`/`y` are booleans).
fn yaml11_json(n: &Node) -> Result<Json, Error> {
    match &n.value {
        Value::Scalar(s) if n.style == Style::Plain && n.tag().is_none() => {
            match s.as_str() {
                "y" | "Y" | "yes" | "Yes" | "YES" | "on" | "On" | "ON" => {
                    return Ok(Json::Bool(true))
                }
                "n" | "N" | "no" | "No" | "NO" | "off" | "Off" | "OFF" => {
                    return Ok(Json::Bool(false))
                }
                _ => {}
            }
            n.to_json().map_err(|e| Error::new(e.to_string()))
        }
        Value::Sequence(items) => items
            .iter()
            .map(yaml11_json)
            .collect::<Result<_, _>>()
            .map(Json::Array),
        Value::Mapping(pairs) => {
            let mut m = serde_json::Map::new();
            for p in pairs {
                let k = match p.key.as_scalar() {
                    Some(k) => k.to_string(),
                    None => p
                        .key
                        .to_json()
                        .map_err(|e| Error::new(e.to_string()))?
                        .to_string(),
                };
                m.insert(k, yaml11_json(&p.value)?);
            }
            Ok(Json::Object(m))
        }
        _ => n.to_json().map_err(|e| Error::new(e.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_kind_of_patch() {
        let smp = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata: {x: y}\n";
        assert!(matches!(parse_patch(smp), Ok(Patch::Strategic(d)) if d.len() == 1));
        let two = format!("{smp}---\n{smp}");
        assert!(matches!(parse_patch(&two), Ok(Patch::Strategic(d)) if d.len() == 2));
        let yaml_ops = "- op: add\n  path: /data/x\n  value: yes\n";
        match parse_patch(yaml_ops) {
            Ok(Patch::Json6902(ops)) => assert_eq!(ops[0].0["value"], Json::Bool(true)),
            other => panic!("{other:?}"),
        }
        let json_ops = r#"[{"op": "remove", "path": "/data"}]"#;
        assert!(matches!(parse_patch(json_ops), Ok(Patch::Json6902(o)) if o.len() == 1));
        let err = parse_patch("kind: ConfigMap\ndata: {}\n").unwrap_err();
        assert_eq!(
            err.message(),
            "unable to parse SM or JSON patch from [patch: \"kind: ConfigMap\\ndata: {}\"]"
        );
        assert!(parse_patch("   ").is_err());
        let list = "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: a}\n";
        assert!(matches!(parse_patch(list), Ok(Patch::Strategic(d)) if d.len() == 1));
    }
}
