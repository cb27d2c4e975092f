//! In place, every item that came from a package file comes back. `kpt fn render` and `kpt fn
//! eval` write back exactly the items a function returns: an item left out is its file (or
//! its document in the file) deleted, the Kptfile included. A Fleet `doNotDeploy`
//! destination leaves no object, Kratix selectors and a `$patch: delete` leave fewer; written
//! over the package, that deletes the user's sources, and the next render has nothing to read.
//! So in place such a run is refused, with the input items back unchanged, and the error names
//! the objects it would remove and where to render instead. A fan-out's copies (`CLUSTER/`
//! before the source's path, [`super::fan_out`]) stand for their source.

use std::collections::HashSet;

use crate::{KrmResult, Resource};

use crate::host::{Host, ELSEWHERE};

/// How many of the objects a refused run would remove the error names.
const NAMED: usize = 5;

/// The package files the items of an in-place run were read from.
pub(super) struct PackageItems {
    /// Each item's path and index, with its id for the error.
    read: Vec<(String, usize, String)>,
}

impl PackageItems {
    /// The places of `items` (as read, before any List is unpacked); `None` when the host does
    /// not render in place, where leaving an item out deletes nothing.
    pub fn of(host: Host, items: &[Resource]) -> Option<PackageItems> {
        if !host.in_place() {
            return None;
        }
        let read = items
            .iter()
            .filter_map(|i| {
                Some((
                    i.path()?.to_string(),
                    i.index().unwrap_or(0),
                    i.display_id(),
                ))
            })
            .collect();
        Some(PackageItems { read })
    }

    /// The error for an answer `out` (Lists packed again) that leaves out an item read from a
    /// package file; `destinations` are the names a fan-out put before its copies' paths.
    pub fn dropped(&self, out: &[Resource], destinations: &[String]) -> Option<KrmResult> {
        let fanned: HashSet<&str> = destinations.iter().map(String::as_str).collect();
        let mut back: HashSet<(&str, usize)> = HashSet::with_capacity(out.len());
        for item in out {
            let Some(path) = item.path() else { continue };
            let index = item.index().unwrap_or(0);
            back.insert((path, index));
            if let Some((cluster, source)) = path.split_once('/') {
                if fanned.contains(cluster) {
                    back.insert((source, index));
                }
            }
        }
        let gone: Vec<String> = self
            .read
            .iter()
            .filter(|(path, index, _)| !back.contains(&(path.as_str(), *index)))
            .map(|(path, _, id)| format!("{id} in {path}"))
            .collect();
        (!gone.is_empty()).then(|| refusal(&gone))
    }
}

fn refusal(gone: &[String]) -> KrmResult {
    let mut named = gone[..gone.len().min(NAMED)].join(", ");
    if gone.len() > NAMED {
        named.push_str(&format!(" and {} more", gone.len() - NAMED));
    }
    let objects = if gone.len() == 1 { "object" } else { "objects" };
    KrmResult::error(format!(
        "this run would remove {} {objects} of the package ({named}), and kpt renders in place: it would delete them from their files; {ELSEWHERE}",
        gone.len()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::Host;

    fn items(text: &str) -> Vec<Resource> {
        crate::read_input(text, &tailor_yaml::ParseOptions::default())
            .unwrap()
            .items
    }

    fn item(name: &str, path: &str, index: usize) -> String {
        format!("- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: {name}\n    annotations: {{config.kubernetes.io/path: '{path}', config.kubernetes.io/index: '{index}', internal.config.kubernetes.io/id: '1'}}\n")
    }

    fn list(entries: &[String]) -> Vec<Resource> {
        items(&format!("kind: ResourceList\nitems:\n{}", entries.concat()))
    }

    #[test]
    fn an_item_left_out_in_place_is_refused_with_its_name_and_file() {
        let read = list(&[item("a", "a.yaml", 0), item("b", "a.yaml", 1)]);
        let package = PackageItems::of(Host::KptInPlace, &read).expect("in place");
        assert!(package.dropped(&read, &[]).is_none());
        let refused = package.dropped(&read[..1], &[]).expect("refused");
        assert_eq!(
            refused.message,
            format!("this run would remove 1 object of the package (v1/ConfigMap/b in a.yaml), and kpt renders in place: it would delete them from their files; {ELSEWHERE}")
        );
        let refused = package.dropped(&[], &[]).expect("refused");
        assert!(refused.message.starts_with("this run would remove 2 objects of the package (v1/ConfigMap/a in a.yaml, v1/ConfigMap/b in a.yaml)"));
    }

    #[test]
    fn copies_under_a_destination_stand_for_their_source() {
        let read = list(&[item("a", "app/a.yaml", 0)]);
        let package = PackageItems::of(Host::KptInPlace, &read).expect("in place");
        let copies = list(&[item("a", "dev/app/a.yaml", 0)]);
        assert!(package.dropped(&copies, &["dev".into()]).is_none());
        // Not under a destination's name: the source is gone.
        assert!(package.dropped(&copies, &["prod".into()]).is_some());
    }

    #[test]
    fn only_an_in_place_host_is_checked_and_many_are_counted() {
        let read: Vec<String> = (0..7)
            .map(|i| item(&format!("c{i}"), "m.yaml", i))
            .collect();
        let read = list(&read);
        let refused = PackageItems::of(Host::KptInPlace, &read)
            .expect("in place")
            .dropped(&[], &[])
            .expect("refused");
        assert!(
            refused
                .message
                .contains("v1/ConfigMap/c4 in m.yaml and 2 more)"),
            "{}",
            refused.message
        );
        for host in [Host::KptPipe, Host::Kustomize, Host::Plain] {
            assert!(PackageItems::of(host, &read).is_none());
        }
    }
}
