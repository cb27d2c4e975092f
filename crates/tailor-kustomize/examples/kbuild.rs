//! Builds a kustomization directory that uses only `resources:` (files), `namespace:`,
//! `namePrefix:`, `nameSuffix:` and `images:`, printing the resources as JSON lines; for
//! comparing one case by hand with `kubectl kustomize`.
//!
//! Usage: `cargo run -p tailor-kustomize --example kbuild -- DIR`

use tailor_kustomize::builtins::{apply_overlay, Image, Overlay};
use tailor_yaml::{parse_stream, Node};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = std::path::PathBuf::from(std::env::args().nth(1).ok_or("usage: kbuild DIR")?);
    let k = parse_stream(&std::fs::read_to_string(dir.join("kustomization.yaml"))?)?
        .into_iter()
        .next()
        .ok_or("empty kustomization")?
        .root;
    let mut resources: Vec<Node> = Vec::new();
    for file in k.get("resources").and_then(Node::items).unwrap_or_default() {
        let path = dir.join(file.as_str().ok_or("resources: not a string")?);
        let docs = parse_stream(&std::fs::read_to_string(path)?)?;
        resources.extend(docs.into_iter().filter(|d| !d.empty).map(|d| d.root));
    }
    let text = |key: &str| k.get_str(key).unwrap_or_default().to_string();
    let overlay = Overlay {
        namespace: text("namespace"),
        name_prefix: text("namePrefix"),
        name_suffix: text("nameSuffix"),
        images: Image::list_from_node(k.get("images"), "images")?,
    };
    apply_overlay(&mut resources, &overlay)?;
    for r in &resources {
        println!("{}", r.to_json()?);
    }
    Ok(())
}
