//! The inputs that come back. kpt writes back exactly the items a function returns, each to
//! the file it came from: an input left out (an inventory file, a CustomTransform, a
//! `substituteFrom` ConfigMap, the functionConfig's own file) is a file deleted, and the next
//! render finds no inventory. So when the host writes files back ([`Host::writes_files_back`]),
//! every item the run reads as an input comes back as it was read, where it was. kustomize
//! deploys what comes back, and a pipe's stream is deployed too: there inputs stay out.
//!
//! [`Host::writes_files_back`]: crate::host::Host::writes_files_back

use crate::{annotations, KrmResult, Resource};

/// Inputs to put back into the answer, as read.
#[derive(Default)]
pub(super) struct Returned {
    /// Each input with the number of objects to tailor that came before it.
    items: Vec<(usize, Resource)>,
}

impl Returned {
    /// Keeps `item` (an input of the run, `what` it is for the warning, `None` for the
    /// functionConfig itself) to come back after the `before`-th object to tailor. An input
    /// not marked local-config gets a warning: `kpt live apply` and kustomize would deploy it.
    pub fn keep(
        &mut self,
        before: usize,
        item: Resource,
        what: Option<&str>,
        results: &mut Vec<KrmResult>,
    ) {
        if let Some(what) = what {
            if item.annotation(annotations::LOCAL_CONFIG) != Some("true") {
                results.push(not_local_config(&item, what));
            }
        }
        self.items.push((before, item));
    }

    /// The inputs that come back, in order.
    pub fn items(&self) -> impl Iterator<Item = &Resource> {
        self.items.iter().map(|(_, item)| item)
    }

    /// Puts the inputs back among the tailored objects `out`: where they were when the
    /// objects are still the ones read, in order (one destination), else after them (a
    /// fan-out's copies; kpt places each item by its path annotation anyway).
    pub fn put_back(self, out: &mut Vec<Resource>, in_order: bool) {
        // Nothing to put back (the common case): `out` stays where it is, not moved into a
        // second list (at 64,000 objects, 15 MB of fresh memory).
        if self.items.is_empty() {
            return;
        }
        if !in_order {
            out.extend(self.items.into_iter().map(|(_, item)| item));
            return;
        }
        let mut merged = Vec::with_capacity(out.len() + self.items.len());
        let mut objects = std::mem::take(out).into_iter();
        let mut taken = 0;
        for (before, item) in self.items {
            while taken < before {
                match objects.next() {
                    Some(o) => merged.push(o),
                    None => break,
                }
                taken += 1;
            }
            merged.push(item);
        }
        merged.extend(objects);
        *out = merged;
    }
}

fn not_local_config(item: &Resource, what: &str) -> KrmResult {
    let place = item.path().map_or_else(String::new, |p| format!(" ({p})"));
    KrmResult::warning(format!(
        "{what}{place}: it comes back unchanged, but it is not marked `{}: \"true\"`, so `kpt live apply` and kustomize would deploy it",
        annotations::LOCAL_CONFIG,
    ))
    .about(item)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read_input;

    fn items(names: &[&str], local: bool) -> Vec<Resource> {
        let annotation = if local {
            "\n  annotations: {config.kubernetes.io/local-config: 'true'}"
        } else {
            ""
        };
        let text: String = names
            .iter()
            .map(|n| {
                format!(
                    "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {n}{annotation}\n"
                )
            })
            .collect();
        read_input(&text, &tailor_yaml::ParseOptions::default())
            .unwrap()
            .items
    }

    fn names(items: &[Resource]) -> Vec<&str> {
        items.iter().map(Resource::name).collect()
    }

    #[test]
    fn inputs_go_back_where_they_were() {
        let mut results = Vec::new();
        let mut returned = Returned::default();
        let mut inputs = items(&["first", "third", "last"], true).into_iter();
        returned.keep(0, inputs.next().unwrap(), Some("x"), &mut results);
        returned.keep(1, inputs.next().unwrap(), Some("x"), &mut results);
        returned.keep(2, inputs.next().unwrap(), None, &mut results);
        assert!(results.is_empty());
        let mut out = items(&["second", "fourth"], false);
        returned.put_back(&mut out, true);
        assert_eq!(names(&out), ["first", "second", "third", "fourth", "last"]);
    }

    #[test]
    fn a_fan_out_gets_them_last_and_deployable_inputs_are_warned_about() {
        let mut results = Vec::new();
        let mut returned = Returned::default();
        for item in items(&["inventory"], false) {
            returned.keep(0, item, Some("an inventory object"), &mut results);
        }
        assert_eq!(results.len(), 1);
        assert_eq!(
            results[0].message,
            "an inventory object: it comes back unchanged, but it is not marked `config.kubernetes.io/local-config: \"true\"`, so `kpt live apply` and kustomize would deploy it"
        );
        let mut out = items(&["a", "b"], false);
        returned.put_back(&mut out, false);
        assert_eq!(names(&out), ["a", "b", "inventory"]);
    }
}
