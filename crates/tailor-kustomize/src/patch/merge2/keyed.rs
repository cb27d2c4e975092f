//! [`Walker::set_elements`] in linear time for regular associative lists.
//!
//! kyaml merges an associative list with a scan of the destination per element (`ElementList`,
//! `ElementSetter`), quadratic in the list's length even when the patch does not touch it (a
//! Deployment with 8,000 `env` entries patched on `replicas` took 16 s). For the lists real
//! manifests hold, every element has each merge key once with a non-empty scalar value (or is
//! a non-empty scalar, in a list of primitives) and no two elements of one list share their
//! key values. On such lists kyaml's algorithm reduces to lookups by key values, which this
//! module does with one hash map per list; the result, including the order, is the same:
//!
//! * each key tuple, the patch's first, then the destination's new ones, is merged once
//!   (`$patch: delete` or a null result drops it);
//! * one merge key: the merged elements in that order, each replaced by the destination's
//!   element where the destination has one (kyaml's `appendListNode` puts it back);
//! * several merge keys: the merged elements the destination does not have, then the
//!   destination's elements in its order.
//!
//! Lists that are not regular (an element without a key, a null or empty element, a repeated
//! key value) keep kyaml's element algorithm, whose corner cases depend on the scan order.

use std::collections::{HashMap, HashSet};

use super::{set_field_named, set_scalar, Res, Walker};
use crate::patch::ynode::{self, Kind, Tag, N};

/// A list's elements by merge-key values, in list order.
struct Keyed {
    order: Vec<Vec<String>>,
    by_values: HashMap<Vec<String>, N>,
}

impl Keyed {
    /// `None` when the list is not regular (see the module docs).
    fn of(list: &N, keys: &[String]) -> Option<Keyed> {
        let items = match &list.borrow().kind {
            Kind::Sequence(items) => items.clone(),
            _ => return None,
        };
        let mut keyed = Keyed {
            order: Vec::with_capacity(items.len()),
            by_values: HashMap::with_capacity(items.len()),
        };
        for elem in items {
            let values = key_values(&elem, keys)?;
            if keyed.by_values.insert(values.clone(), elem).is_some() {
                return None;
            }
            keyed.order.push(values);
        }
        Some(keyed)
    }

    fn get(&self, values: &[String]) -> Option<N> {
        self.by_values.get(values).cloned()
    }
}

/// The merge-key values of a regular element: a mapping with each key once, holding a
/// non-null non-empty scalar; for a list of primitives (`keys == [""]`) the element's text.
fn key_values(elem: &N, keys: &[String]) -> Option<Vec<String>> {
    let y = elem.borrow();
    if keys.len() == 1 && keys[0].is_empty() {
        return match &y.kind {
            Kind::Scalar(s) if y.tag != Tag::Null && !s.is_empty() => Some(vec![s.to_string()]),
            _ => None,
        };
    }
    let Kind::Mapping(content) = &y.kind else {
        return None;
    };
    let mut values = Vec::with_capacity(keys.len());
    for key in keys {
        let mut found = content
            .chunks(2)
            .filter(|kv| kv.len() == 2 && ynode::value_text(&kv[0]) == *key);
        let value = found.next()?;
        if found.next().is_some() {
            return None;
        }
        let v = value[1].borrow();
        match &v.kind {
            Kind::Scalar(s) if v.tag != Tag::Null && !s.is_empty() => values.push(s.to_string()),
            _ => return None,
        }
    }
    Some(values)
}

#[cfg(test)]
thread_local! {
    /// Lets the tests compare this path with kyaml's element algorithm on the same input.
    pub(super) static DISABLED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

impl Walker {
    /// The merged list, or `None` (nothing changed yet) when a list is not regular.
    pub(super) fn set_elements_keyed(&self, keys: &[String], dest: &N) -> Option<Res> {
        #[cfg(test)]
        if DISABLED.with(|d| d.get()) {
            return None;
        }
        let dest_keyed = Keyed::of(dest, keys)?;
        let origin_keyed = match &self.origin {
            Some(origin) => Keyed::of(origin, keys)?,
            None => Keyed {
                order: Vec::new(),
                by_values: HashMap::new(),
            },
        };
        Some(self.merge_keyed(keys, dest, &dest_keyed, &origin_keyed))
    }

    fn merge_keyed(&self, keys: &[String], dest: &N, dest_keyed: &Keyed, origin: &Keyed) -> Res {
        let mut tuples: Vec<&Vec<String>> = origin.order.iter().collect();
        tuples.extend(
            (dest_keyed.order.iter()).filter(|t| !origin.by_values.contains_key(t.as_slice())),
        );
        if tuples.is_empty() {
            return Ok(Some(dest.clone()));
        }
        let elem_schema = self.schema.as_ref().and_then(|s| s.elements());
        let mut merged: Vec<(&Vec<String>, N)> = Vec::with_capacity(tuples.len());
        let mut deleted: HashSet<&Vec<String>> = HashSet::new();
        for values in tuples {
            let val = Walker {
                schema: elem_schema.clone(),
                dest: dest_keyed.get(values),
                origin: origin.get(values),
                path: self.path.clone(),
            }
            .walk()?;
            match val {
                Some(v) if !ynode::is_empty_map(Some(&v)) => {
                    restore_keys(&v, keys, values)?;
                    merged.push((values, v));
                }
                _ => {
                    deleted.insert(values);
                }
            }
        }
        let kept: Vec<(&Vec<String>, N)> = dest_keyed
            .order
            .iter()
            .filter(|t| !deleted.contains(t))
            .filter_map(|t| Some((t, dest_keyed.get(t)?)))
            .collect();
        if !deleted.is_empty() {
            ynode::set_content(dest, kept.iter().map(|(_, n)| n.clone()).collect());
        }
        let items: Vec<N> = if keys.len() == 1 {
            let merged = merged.into_iter();
            merged
                .map(|(t, v)| dest_keyed.get(t).unwrap_or(v))
                .collect()
        } else {
            let merged = merged.into_iter();
            let new = merged.filter(|(t, _)| !dest_keyed.by_values.contains_key(t.as_slice()));
            new.chain(kept).map(|(_, v)| v).collect()
        };
        let list = ynode::empty_seq();
        ynode::set_content(&list, items);
        Ok(Some(list))
    }
}

/// A merged element gets back a merge key it lost (kyaml's loop over the valid keys).
pub(super) fn restore_keys(v: &N, keys: &[String], values: &[String]) -> Result<(), String> {
    for (key, value) in keys.iter().zip(values) {
        let has = ynode::is_mapping(v) && ynode::field(v, key).is_some();
        if has || value.is_empty() {
            continue;
        }
        if key.is_empty() {
            set_scalar(v, value)?;
        } else {
            set_field_named(v, key, Some(ynode::scalar(value)))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::patch::merge2::indexed::tests::merged;

    /// A small deterministic generator (xorshift), so a failure names its seed.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self, n: u64) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0 % n
        }
    }

    /// An `env` list, a `ports` list (two merge keys) and `finalizers` (primitive, merged).
    fn object(rng: &mut Rng, patch: bool) -> String {
        let mut env = String::new();
        for _ in 0..rng.next(6) {
            let name = ["a", "b", "c", "d", "e"][rng.next(5) as usize];
            env.push_str(&match rng.next(if patch { 5 } else { 3 }) {
                0 => format!("        - name: {name}\n"),
                3 => format!("        - name: {name}\n          $patch: delete\n"),
                4 => format!("        - name: {name}\n          value: null\n"),
                _ => format!(
                    "        - name: {name}\n          value: v{}\n",
                    rng.next(9)
                ),
            });
        }
        let mut ports = String::new();
        for _ in 0..rng.next(4) {
            let protocol = ["TCP", "UDP"][rng.next(2) as usize];
            ports.push_str(&format!(
                "        - containerPort: {}\n          protocol: {protocol}\n          name: p{}\n",
                80 + rng.next(3),
                rng.next(9)
            ));
        }
        let finalizers: Vec<&str> = (0..rng.next(4))
            .map(|_| ["x", "y", "z"][rng.next(3) as usize])
            .collect();
        format!(
            "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: w\n  finalizers: [{}]\n\
             spec:\n  template:\n    spec:\n      containers:\n      - name: web\n        env:\n{env}\
                     \n        ports:\n{ports}",
            finalizers.join(", ")
        )
        .replace("        env:\n\n", "        env: []\n")
        .replace("        ports:\n", if ports.is_empty() { "        ports: []\n" } else { "        ports:\n" })
    }

    #[test]
    fn keyed_lookups_give_kyamls_element_algorithm_results() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let mut keyed_cases = 0;
        for case in 0..3000 {
            let (patch, dest) = (object(&mut rng, true), object(&mut rng, false));
            let fast = merged(&patch, &dest, true, true);
            let slow = merged(&patch, &dest, false, false);
            assert_eq!(fast, slow, "case {case}\npatch:\n{patch}\ndest:\n{dest}");
            keyed_cases += usize::from(!fast.starts_with("error"));
        }
        assert!(keyed_cases > 1000, "{keyed_cases}");
    }
}
