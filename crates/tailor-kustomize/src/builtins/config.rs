//! Reading the overlay settings from tailor's configuration nodes, with errors that name the
//! offending field (`spec.images[2].newTag: ...`).

use tailor_yaml::{Node, ScalarKind};

use crate::builtins::images::Image;
use crate::builtins::Error;

impl Image {
    /// Parses a list of `{name, newName, newTag, digest}`. `field_path` is where the list sits
    /// in the configuration, for messages. A missing or null list is empty. A value that YAML
    /// reads as a number or boolean is refused, as kustomize v5.5.0 refuses it (`cannot
    /// unmarshal number into Go struct field Image.images.newTag`) and as the Flux CRD's
    /// schema does: taken as written, `newTag: 1.10` would become the tag `1.1` after a JSON
    /// round trip, and `name: 5` would match nothing without a word.
    pub fn list_from_node(node: Option<&Node>, field_path: &str) -> Result<Vec<Image>, Error> {
        let Some(node) = node.filter(|n| !n.is_null()) else {
            return Ok(Vec::new());
        };
        let items = node
            .items()
            .ok_or_else(|| Error::at(field_path, "must be a list"))?;
        items
            .iter()
            .enumerate()
            .map(|(i, item)| Image::from_node(item, &format!("{field_path}[{i}]")))
            .collect()
    }

    /// Parses one `{name, newName, newTag, digest}` entry.
    pub fn from_node(node: &Node, field_path: &str) -> Result<Image, Error> {
        let pairs = node
            .pairs()
            .ok_or_else(|| Error::at(field_path, "must be a mapping"))?;
        let mut image = Image::default();
        for pair in pairs {
            let key = pair.key.as_scalar().unwrap_or_default();
            let slot = match key {
                "name" => &mut image.name,
                "newName" => &mut image.new_name,
                "newTag" => &mut image.new_tag,
                "digest" => &mut image.digest,
                _ => {
                    return Err(Error::at(
                        format!("{field_path}.{key}"),
                        "unknown field (expected name, newName, newTag or digest)",
                    ))
                }
            };
            *slot = image_text(&pair.value, &format!("{field_path}.{key}"))?;
        }
        if image.name.is_empty() {
            return Err(Error::at(format!("{field_path}.name"), "required"));
        }
        Ok(image)
    }
}

/// Parses a string map such as `commonMetadata.labels` into ordered pairs.
pub fn string_map_from_node(
    node: Option<&Node>,
    field_path: &str,
) -> Result<Vec<(String, String)>, Error> {
    let Some(node) = node.filter(|n| !n.is_null()) else {
        return Ok(Vec::new());
    };
    let pairs = node
        .pairs()
        .ok_or_else(|| Error::at(field_path, "must be a mapping"))?;
    pairs
        .iter()
        .map(|p| {
            let key = p.key.as_scalar().unwrap_or_default().to_string();
            let value = scalar_text(&p.value, &format!("{field_path}.{key}"))?;
            Ok((key, value))
        })
        .collect()
}

/// A string field of an `images` entry: a scalar YAML types as a string (or null).
fn image_text(node: &Node, field_path: &str) -> Result<String, Error> {
    let got = match node.scalar_kind() {
        Some(ScalarKind::Int | ScalarKind::Float) => "number",
        Some(ScalarKind::Bool) => "boolean",
        _ => return scalar_text(node, field_path),
    };
    Err(Error::at(
        field_path,
        format!("must be a string, got {got} (quote the value)"),
    ))
}

fn scalar_text(node: &Node, field_path: &str) -> Result<String, Error> {
    if node.is_null() {
        return Ok(String::new());
    }
    node.as_scalar()
        .map(str::to_string)
        .ok_or_else(|| Error::at(field_path, "must be a string"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tailor_yaml::parse_stream;

    fn doc(s: &str) -> Node {
        parse_stream(s).unwrap().remove(0).root
    }

    #[test]
    fn parses_images() {
        let n = doc("images:\n- name: nginx\n  newTag: \"1.20\"\n- name: a\n  newName: b\n  digest: sha256:00\n");
        let list = Image::list_from_node(n.get("images"), "spec.images").unwrap();
        assert_eq!(list.len(), 2);
        assert_eq!(list[0].new_tag, "1.20");
        assert_eq!(list[1].new_name, "b");
        assert_eq!(list[1].digest, "sha256:00");
        assert!(Image::list_from_node(None, "x").unwrap().is_empty());
    }

    /// kustomize v5.5.0 refuses these (`kubectl kustomize`: "json: cannot unmarshal number
    /// into Go struct field Image.images.newTag of type string"), and so does tailor.
    #[test]
    fn numbers_and_booleans_are_refused_in_images() {
        for (yaml, field, got) in [
            ("newTag: 1.10", "newTag", "number"),
            ("digest: 5", "digest", "number"),
            ("newName: true", "newName", "boolean"),
        ] {
            let n = doc(&format!("images:\n- name: nginx\n  {yaml}\n"));
            let e = Image::list_from_node(n.get("images"), "spec.images").unwrap_err();
            assert_eq!(
                e.to_string(),
                format!("spec.images[0].{field}: must be a string, got {got} (quote the value)")
            );
        }
        let n = doc("images:\n- name: 5\n");
        let e = Image::list_from_node(n.get("images"), "spec.images").unwrap_err();
        assert_eq!(e.field(), Some("spec.images[0].name"));
        let n = doc("images:\n- name: nginx\n  newTag: '1.10'\n  digest: \"5\"\n");
        let list = Image::list_from_node(n.get("images"), "spec.images").unwrap();
        assert_eq!(
            (list[0].new_tag.as_str(), list[0].digest.as_str()),
            ("1.10", "5")
        );
    }

    #[test]
    fn image_errors_name_the_field() {
        let n = doc("images:\n- name: a\n- newTag: x\n");
        let e = Image::list_from_node(n.get("images"), "spec.images").unwrap_err();
        assert_eq!(e.to_string(), "spec.images[1].name: required");
        let n = doc("images:\n- name: a\n  tag: x\n");
        let e = Image::list_from_node(n.get("images"), "spec.images").unwrap_err();
        assert!(e
            .to_string()
            .starts_with("spec.images[0].tag: unknown field"));
        let n = doc("images:\n- name: [a]\n");
        let e = Image::list_from_node(n.get("images"), "spec.images").unwrap_err();
        assert_eq!(e.to_string(), "spec.images[0].name: must be a string");
        assert_eq!(e.field(), Some("spec.images[0].name"));
        let n = doc("images: {}\n");
        let e = Image::list_from_node(n.get("images"), "spec.images").unwrap_err();
        assert_eq!(e.to_string(), "spec.images: must be a list");
        assert_eq!(e.field(), Some("spec.images"));
        let n = doc("images: [x]\n");
        let e = Image::list_from_node(n.get("images"), "spec.images").unwrap_err();
        assert_eq!(e.to_string(), "spec.images[0]: must be a mapping");
        assert_eq!(e.field(), Some("spec.images[0]"));
    }

    #[test]
    fn parses_string_maps() {
        let n = doc("labels:\n  a: x\n  b: 2\n");
        let m = string_map_from_node(n.get("labels"), "spec.commonMetadata.labels").unwrap();
        assert_eq!(m, vec![("a".into(), "x".into()), ("b".into(), "2".into())]);
        let n = doc("labels:\n  a: {x: 1}\n");
        let e = string_map_from_node(n.get("labels"), "spec.commonMetadata.labels").unwrap_err();
        assert_eq!(
            e.to_string(),
            "spec.commonMetadata.labels.a: must be a string"
        );
    }
}
