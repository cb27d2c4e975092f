//! Which program runs tailor as a KRM function, told from what it writes on the items.
//!
//! Measured with kpt 1.0.0-beta and kustomize v4.5.4 (see `docs/host-contract.md`):
//!
//! | host                         | `config.kubernetes.io/path` | `internal.config.kubernetes.io/id` |
//! |------------------------------|-----------------------------|------------------------------------|
//! | `kpt fn render`, `kpt fn eval` | on every item             | on every item                      |
//! | `kpt fn source` (a pipe)     | on every item               | none                               |
//! | kustomize `transformers:`    | none                        | on every item                      |
//! | a hand-written list          | usually none                | none                               |
//!
//! kpt writes back exactly the items a function returns, each to the file its path
//! annotation names: an item missing is a file deleted. kustomize deploys what comes back
//! (less local-config objects), and writes no file.

use tailor_yaml::Node;

use crate::{annotations, Resource};

/// What kpt and kustomize write on each item they hand a function, besides its path.
const ID: &str = "internal.config.kubernetes.io/id";

/// The program that handed tailor its ResourceList.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Host {
    /// `kpt fn render` or `kpt fn eval`: the answer is written over the package it was read
    /// from.
    KptInPlace,
    /// Items that carry kpt's paths but no run id: `kpt fn source | tailor | kpt fn sink`,
    /// written wherever the sink points.
    KptPipe,
    /// A kustomize `transformers:` entry: what comes back is deployed.
    Kustomize,
    /// Anything else (standalone mode, a list written by hand).
    #[default]
    Plain,
}

impl Host {
    /// The host of a ResourceList with `items`, from the annotations of its first item that
    /// carries either mark (kpt and kustomize mark every item alike).
    pub fn of(items: &[Resource]) -> Host {
        let has_path = |r: &Resource| {
            r.annotation(annotations::PATH).is_some()
                || r.annotation(annotations::LEGACY_PATH).is_some()
        };
        // An object whose header keeps no annotation carries neither mark (the header keeps
        // every `config.kubernetes.io/` and `internal.config.kubernetes.io/` one): skipped
        // without three lookups each.
        let Some(first) = items
            .iter()
            .filter(|r| !r.header_annotations_empty())
            .find(|r| has_path(r) || r.annotation(ID).is_some())
        else {
            return Host::Plain;
        };
        match (has_path(first), first.annotation(ID).is_some()) {
            (true, true) => Host::KptInPlace,
            (true, false) => Host::KptPipe,
            _ => Host::Kustomize,
        }
    }

    /// Whether the host writes each returned item back to the file it came from, so the items
    /// tailor reads as inputs must come back (leaving one out deletes its file).
    pub fn writes_files_back(self) -> bool {
        matches!(self, Host::KptInPlace | Host::KptPipe)
    }

    /// Whether the answer replaces the very files it was read from.
    pub fn in_place(self) -> bool {
        self == Host::KptInPlace
    }
}

/// Where the functionConfig sits among the items, when the host passes it as an item too
/// (kpt's `configPath:` names a file of the package).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OwnConfig {
    path: Option<String>,
    index: Option<String>,
    id: [String; 4],
}

impl OwnConfig {
    /// The functionConfig's place: its path and index when kpt recorded them (`kpt fn
    /// render`), else its apiVersion, kind, namespace and name (`kpt fn eval --fn-config`
    /// drops the path); `None` for a config without a name, which no item can be.
    pub fn of(fc: &Node) -> Option<OwnConfig> {
        let annotation = |key: &str| {
            fc.get_path(&["metadata", "annotations", key])
                .and_then(Node::as_scalar)
                .map(str::to_string)
        };
        let text = |path: &[&str]| {
            fc.get_path(path)
                .and_then(Node::as_scalar)
                .unwrap_or("")
                .to_string()
        };
        let name = text(&["metadata", "name"]);
        let path = annotation(annotations::PATH).or_else(|| annotation(annotations::LEGACY_PATH));
        if name.is_empty() && path.is_none() {
            return None;
        }
        Some(OwnConfig {
            index: annotation(annotations::INDEX).or_else(|| annotation(annotations::LEGACY_INDEX)),
            path,
            id: [
                text(&["apiVersion"]),
                text(&["kind"]),
                text(&["metadata", "namespace"]),
                name,
            ],
        })
    }

    /// Whether `item` is the functionConfig itself.
    pub fn is(&self, item: &Resource) -> bool {
        if let Some(path) = &self.path {
            let item_index = item
                .annotation(annotations::INDEX)
                .or_else(|| item.annotation(annotations::LEGACY_INDEX))
                .unwrap_or("0");
            return item.path() == Some(path.as_str())
                && item_index == self.index.as_deref().unwrap_or("0");
        }
        [
            item.api_version(),
            item.kind(),
            item.namespace().unwrap_or(""),
            item.name(),
        ] == [
            self.id[0].as_str(),
            self.id[1].as_str(),
            self.id[2].as_str(),
            self.id[3].as_str(),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read_input;

    fn items(text: &str) -> Vec<Resource> {
        read_input(text, &tailor_yaml::ParseOptions::default())
            .unwrap()
            .items
    }

    fn doc(text: &str) -> Node {
        tailor_yaml::parse_stream(text).unwrap().remove(0).root
    }

    fn list(annotations: &str) -> String {
        format!("kind: ResourceList\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n    annotations: {{{annotations}}}\n")
    }

    /// The annotations each host writes, as measured (module doc).
    #[test]
    fn the_host_is_told_by_its_annotations() {
        let render = "config.kubernetes.io/path: a.yaml, internal.config.kubernetes.io/path: a.yaml, internal.config.kubernetes.io/id: '1', config.k8s.io/id: '1'";
        assert_eq!(Host::of(&items(&list(render))), Host::KptInPlace);
        let source =
            "config.kubernetes.io/path: a.yaml, internal.config.kubernetes.io/path: a.yaml";
        assert_eq!(Host::of(&items(&list(source))), Host::KptPipe);
        let kustomize = "config.kubernetes.io/index: '0', internal.config.kubernetes.io/id: '1', config.k8s.io/id: '1'";
        assert_eq!(Host::of(&items(&list(kustomize))), Host::Kustomize);
        assert_eq!(Host::of(&items(&list("x: y"))), Host::Plain);
        assert!(Host::KptPipe.writes_files_back() && !Host::KptPipe.in_place());
        assert!(Host::KptInPlace.in_place());
        assert!(!Host::Kustomize.writes_files_back() && !Host::Plain.writes_files_back());
    }

    #[test]
    fn the_own_config_is_found_by_path_and_index_or_by_identity() {
        let text = "kind: ResourceList\nitems:\n- apiVersion: kustomize.toolkit.fluxcd.io/v1\n  kind: Kustomization\n  metadata:\n    name: app\n    annotations: {config.kubernetes.io/path: ks.yaml, config.kubernetes.io/index: '1'}\n- apiVersion: kustomize.toolkit.fluxcd.io/v1\n  kind: Kustomization\n  metadata:\n    name: app\n    annotations: {config.kubernetes.io/path: ks.yaml, config.kubernetes.io/index: '0'}\nfunctionConfig:\n  apiVersion: kustomize.toolkit.fluxcd.io/v1\n  kind: Kustomization\n  metadata:\n    name: app\n    annotations: {config.kubernetes.io/path: ks.yaml, config.kubernetes.io/index: '1'}\n";
        let input = read_input(text, &tailor_yaml::ParseOptions::default()).unwrap();
        let own = OwnConfig::of(input.function_config.as_ref().unwrap()).unwrap();
        assert!(own.is(&input.items[0]));
        assert!(!own.is(&input.items[1]));
        // Without a path (kpt fn eval --fn-config): by identity.
        let fc = doc("apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata: {name: app}\n");
        let own = OwnConfig::of(&fc).unwrap();
        assert!(own.is(&input.items[0]) && own.is(&input.items[1]));
        let nameless = doc("apiVersion: v1\nkind: ConfigMap\ndata: {a: b}\n");
        assert!(OwnConfig::of(&nameless).is_none());
    }
}

/// Where a run is a guest: the program that runs the function, as found on the items, and
/// the functionConfig's own item among them, if the host passes it as one.
#[derive(Clone, Debug, Default)]
pub struct Guest {
    pub host: Host,
    pub own_config: Option<OwnConfig>,
}

/// Where to tailor when sources and tailored objects cannot share a directory. kpt hands a
/// function the same items and environment whether it renders in place or to stdout (`kpt fn
/// render -o stdout`, `kpt fn eval -o stdout`: see `docs/host-contract.md`), so the ways to
/// stdout are named too.
pub const ELSEWHERE: &str = "tailor the sources into another place: kpt fn source SRC | tailor ... | kpt fn sink OUT, or tailor CONFIG SRC --output-dir OUT; to stdout: kpt fn source SRC | tailor ..., or tailor CONFIG SRC (kpt fn render -o stdout and kpt fn eval -o stdout hand tailor what an in-place render does, and are refused alike)";
