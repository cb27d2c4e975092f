//! [`Walker::set_elements`] with indexes, for associative lists that are not regular (see
//! `keyed.rs`): elements without a merge key, with an empty or null one, several elements with
//! the same key values, null or empty elements.
//!
//! kyaml's element algorithm on such lists has order-dependent corner cases (a later element
//! wipes what an earlier one set, the same destination element is merged twice, an element's
//! keys change when it is merged), so this module does not reason about the result: it runs the
//! very same sequence of operations as the plain port (`mergeValues`, `ElementList`,
//! `ElementSetter`, `appendListNode`), each one answered from an index instead of a scan of the
//! list. An element's key values are read from its fields, and those can change while the list
//! is merged (a merge gives a destination element the patch's keys; kyaml shares a patch's
//! scalar between the elements it was merged into), so after every element merge the elements
//! it touched, and those sharing a key node with them, are indexed again.
//!
//! The index serves lists whose elements are all mappings or nulls (all scalars for a list of
//! primitives), with at most [`MAX_KEYS`] merge keys; anything else (kyaml reports most such
//! lists as errors) keeps the plain port.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::rc::Rc;

use super::keyed::restore_keys;
use super::{Res, Walker};
use crate::patch::ynode::{self, Kind, Tag, N};

/// More merge keys than any Kubernetes schema has (the most is two): beyond, the plain port.
const MAX_KEYS: usize = 4;

const DEST: usize = 0;
const ORIGIN: usize = 1;
const ITEMS: usize = 2;

type Ptr = *const std::cell::RefCell<ynode::YNode>;

/// What the element operations read from an element: whether `ElementSetter` drops it (null or
/// an empty map) and, per merge key, the text of its first field of that name (for a list of
/// primitives, the element's own text).
#[derive(Clone, PartialEq, Eq)]
struct Sig {
    empty: bool,
    vals: Vec<Option<String>>,
}

/// A set of key positions (bit p: the p-th valid key).
type Mask = u8;

struct Node {
    node: N,
    sig: Sig,
    /// The nodes holding its key values, whose text may change under another element.
    kv: Vec<Ptr>,
    /// Where it is: (list, slot).
    slots: Vec<(usize, u32)>,
}

/// One list: its elements by slot (slots keep list order; a removed element leaves `None`),
/// and lazily built indexes by (positions that must be present, positions compared, texts).
#[derive(Default)]
struct Seq {
    slots: Vec<Option<Ptr>>,
    live: BTreeSet<u32>,
    empties: BTreeSet<u32>,
    buckets: HashMap<(Mask, Mask), HashMap<Vec<String>, BTreeSet<u32>>>,
}

fn bucket_key(sig: &Sig, present: Mask, compared: Mask) -> Option<Vec<String>> {
    let mut out = Vec::new();
    for (p, v) in sig.vals.iter().enumerate() {
        let bit = 1 << p;
        match v {
            None if present & bit != 0 => return None,
            Some(v) if compared & bit != 0 => out.push(v.clone()),
            _ => {}
        }
    }
    Some(out)
}

impl Seq {
    fn index(&mut self, slot: u32, sig: &Sig) {
        self.live.insert(slot);
        if sig.empty {
            self.empties.insert(slot);
        }
        for (&(present, compared), buckets) in &mut self.buckets {
            if let Some(k) = bucket_key(sig, present, compared) {
                buckets.entry(k).or_default().insert(slot);
            }
        }
    }

    fn unindex(&mut self, slot: u32, sig: &Sig) {
        self.live.remove(&slot);
        self.empties.remove(&slot);
        for (&(present, compared), buckets) in &mut self.buckets {
            if let Some(k) = bucket_key(sig, present, compared) {
                if let Some(b) = buckets.get_mut(&k) {
                    b.remove(&slot);
                }
            }
        }
    }
}

/// The destination list, the patch's list (the same one when the destination took the patch's
/// list), and the list being built, with what the operations need to know of their elements.
struct Lists {
    seqs: [Seq; 3],
    origin_is_dest: bool,
    nodes: HashMap<Ptr, Node>,
    /// Key-value node → the elements holding it.
    owners: HashMap<Ptr, Vec<Ptr>>,
    keys: Vec<String>,
    primitive: bool,
}

impl Lists {
    fn new(keys: Vec<String>, dest: &N, origin: Option<&N>) -> Lists {
        let primitive = keys[0].is_empty();
        let mut lists = Lists {
            seqs: Default::default(),
            origin_is_dest: origin.is_some_and(|o| Rc::ptr_eq(o, dest)),
            nodes: HashMap::new(),
            owners: HashMap::new(),
            keys,
            primitive,
        };
        for elem in ynode::content(dest) {
            lists.push(DEST, elem);
        }
        if let Some(origin) = origin.filter(|_| !lists.origin_is_dest) {
            for elem in ynode::content(origin) {
                lists.push(ORIGIN, elem);
            }
        }
        lists
    }

    fn list(&self, list: usize) -> usize {
        if list == ORIGIN && self.origin_is_dest {
            DEST
        } else {
            list
        }
    }

    fn signature(&self, n: &N) -> (Sig, Vec<Ptr>) {
        let y = n.borrow();
        let empty = y.tag == Tag::Null || matches!(&y.kind, Kind::Mapping(c) if c.is_empty());
        if self.primitive {
            let text = match &y.kind {
                Kind::Scalar(s) => s.to_string(),
                _ => String::new(),
            };
            let vals = vec![Some(text)];
            return (Sig { empty, vals }, Vec::new());
        }
        let mut vals = vec![None; self.keys.len()];
        let mut kv = Vec::new();
        if let Kind::Mapping(c) = &y.kind {
            for (p, key) in self.keys.iter().enumerate() {
                let field = c.chunks(2).filter(|kv| kv.len() == 2).find(
                    |kv| matches!(&kv[0].borrow().kind, Kind::Scalar(k) if k.as_str() == key),
                );
                if let Some(f) = field {
                    vals[p] = Some(ynode::value_text(&f[1]));
                    kv.push(Rc::as_ptr(&f[1]));
                }
            }
        }
        (Sig { empty, vals }, kv)
    }

    /// Reads `n`'s keys again, re-indexing every slot holding it when they changed.
    fn refresh(&mut self, n: &N) {
        let p = Rc::as_ptr(n);
        let (sig, kv) = self.signature(n);
        let Some(info) = self.nodes.get_mut(&p) else {
            for k in &kv {
                self.owners.entry(*k).or_default().push(p);
            }
            let node = n.clone();
            let slots = Vec::new();
            self.nodes.insert(
                p,
                Node {
                    node,
                    sig,
                    kv,
                    slots,
                },
            );
            return;
        };
        if info.sig != sig {
            let old = std::mem::replace(&mut info.sig, sig.clone());
            for &(l, s) in &info.slots {
                self.seqs[l].unindex(s, &old);
                self.seqs[l].index(s, &sig);
            }
        }
        if info.kv != kv {
            let old = std::mem::replace(&mut info.kv, kv.clone());
            for k in old {
                if let Some(o) = self.owners.get_mut(&k) {
                    o.retain(|q| *q != p);
                }
            }
            for k in kv {
                self.owners.entry(k).or_default().push(p);
            }
        }
    }

    /// `n` and the elements sharing a key-value node with it.
    fn touching(&self, n: &N, out: &mut Vec<N>) {
        out.push(n.clone());
        let Some(info) = self.nodes.get(&Rc::as_ptr(n)) else {
            return;
        };
        for k in &info.kv {
            for o in self.owners.get(k).into_iter().flatten() {
                out.push(self.nodes[o].node.clone());
            }
        }
    }

    fn refresh_all(&mut self, nodes: &[N]) {
        let mut seen = HashSet::new();
        for n in nodes {
            if seen.insert(Rc::as_ptr(n)) {
                self.refresh(n);
            }
        }
        // Elements sharing a key node with a refreshed one may have changed with it.
        let mut more = Vec::new();
        for n in nodes {
            self.touching(n, &mut more);
        }
        for n in more {
            if seen.insert(Rc::as_ptr(&n)) {
                self.refresh(&n);
            }
        }
    }

    fn place(&mut self, list: usize, slot: u32, n: N) {
        self.refresh(&n);
        let p = Rc::as_ptr(&n);
        let info = self.nodes.get_mut(&p).expect("refreshed");
        info.slots.push((list, slot));
        let sig = info.sig.clone();
        self.seqs[list].slots[slot as usize] = Some(p);
        self.seqs[list].index(slot, &sig);
    }

    fn push(&mut self, list: usize, n: N) {
        let list = self.list(list);
        let slot = self.seqs[list].slots.len() as u32;
        self.seqs[list].slots.push(None);
        self.place(list, slot, n);
    }

    fn remove(&mut self, list: usize, slot: u32) {
        let Some(p) = self.seqs[list].slots[slot as usize].take() else {
            return;
        };
        let info = self.nodes.get_mut(&p).expect("placed");
        info.slots.retain(|&(l, s)| (l, s) != (list, slot));
        let sig = info.sig.clone();
        self.seqs[list].unindex(slot, &sig);
    }

    fn bucket(
        &mut self,
        list: usize,
        present: Mask,
        compared: Mask,
    ) -> &HashMap<Vec<String>, BTreeSet<u32>> {
        let seq = &mut self.seqs[list];
        if !seq.buckets.contains_key(&(present, compared)) {
            let mut built: HashMap<Vec<String>, BTreeSet<u32>> = HashMap::new();
            for (slot, p) in seq.slots.iter().enumerate() {
                let Some(p) = p else { continue };
                if let Some(k) = bucket_key(&self.nodes[p].sig, present, compared) {
                    built.entry(k).or_default().insert(slot as u32);
                }
            }
            seq.buckets.insert((present, compared), built);
        }
        &seq.buckets[&(present, compared)]
    }

    /// `ElementList`: the first element whose keys at `positions` have the texts `values`.
    fn first(&mut self, list: usize, positions: Mask, values: &[String]) -> Option<N> {
        let list = self.list(list);
        let slot = *self
            .bucket(list, positions, positions)
            .get(values)?
            .first()?;
        let p = self.seqs[list].slots[slot as usize]?;
        Some(self.nodes[&p].node.clone())
    }

    /// `ElementSetter{Element, Keys, Values}` (see `element_setter` in merge2.rs).
    fn set(&mut self, list: usize, values: &[String], element: Option<N>) {
        let list = self.list(list);
        for slot in std::mem::take(&mut self.seqs[list].empties) {
            self.remove(list, slot);
        }
        let mut matched = false;
        if values.is_empty() {
            for slot in std::mem::take(&mut self.seqs[list].live) {
                self.remove(list, slot);
            }
        } else {
            let (present, compared, key) = self.setter_query(values);
            let slots: Vec<u32> = (self.bucket(list, present, compared).get(&key))
                .map(|b| b.iter().copied().collect())
                .unwrap_or_default();
            matched = !slots.is_empty();
            for slot in slots {
                self.remove(list, slot);
                if let Some(e) = &element {
                    self.place(list, slot, e.clone());
                }
            }
        }
        if let Some(e) = element.filter(|e| !ynode::is_null(e)) {
            if !matched {
                self.push(list, e);
            }
        }
    }

    /// `FieldMatcher` per key: a named key must be there, and equal where the value is not
    /// empty; a list of primitives compares the text, empty or not.
    fn setter_query(&self, values: &[String]) -> (Mask, Mask, Vec<String>) {
        if self.primitive {
            return (1, 1, vec![values[0].clone()]);
        }
        let (mut present, mut compared, mut key) = (0, 0, Vec::new());
        for (p, v) in values.iter().enumerate().take(self.keys.len()) {
            present |= 1 << p;
            if !v.is_empty() {
                compared |= 1 << p;
                key.push(v.clone());
            }
        }
        (present, compared, key)
    }

    fn live(&self, list: usize) -> Vec<N> {
        let seq = &self.seqs[self.list(list)];
        let slots = seq.live.iter().filter_map(|&s| seq.slots[s as usize]);
        slots.map(|p| self.nodes[&p].node.clone()).collect()
    }
}

/// Whether every element has the kind the index reads keys from.
fn indexable(list: &N, primitive: bool) -> bool {
    ynode::content(list).iter().all(|e| {
        let y = e.borrow();
        match &y.kind {
            Kind::Scalar(_) => primitive || y.tag == Tag::Null,
            Kind::Mapping(_) => !primitive,
            Kind::Sequence(_) => false,
        }
    })
}

impl Walker {
    /// `setAssociativeSequenceElements` through indexes; `None` (nothing done) when the
    /// lists are not indexable (see the module docs).
    pub(super) fn set_elements_indexed(
        &self,
        values_list: &mut [Vec<String>],
        keys: &[String],
        dest: &N,
    ) -> Option<Res> {
        #[cfg(test)]
        if PLAIN.with(|d| d.get()) {
            return None;
        }
        let primitive = keys.first().is_none_or(|k| k.is_empty());
        let unique = keys.iter().collect::<HashSet<_>>().len() == keys.len();
        let lists = [Some(dest), self.origin.as_ref()];
        if keys.is_empty() || keys.len() > MAX_KEYS || !unique || (primitive && keys.len() != 1) {
            return None;
        }
        if !lists.into_iter().flatten().all(|l| indexable(l, primitive)) {
            return None;
        }
        if keys.len() > 1 {
            merge_values(values_list);
        }
        Some(self.merge_indexed(values_list, keys, dest))
    }

    fn merge_indexed(&self, values_list: &[Vec<String>], keys: &[String], dest: &N) -> Res {
        if values_list.is_empty() {
            return Ok((!ynode::is_null(dest)).then(|| dest.clone()));
        }
        let valid = valid_positions(values_list, keys.len());
        let vk: Vec<String> = valid.iter().map(|&i| keys[i].clone()).collect();
        let mut lists = Lists::new(vk.clone(), dest, self.origin.as_ref());
        let elem_schema = self.schema.as_ref().and_then(|s| s.elements());
        for values in values_list {
            let vv: Vec<String> = valid.iter().map(|&i| values[i].clone()).collect();
            let (mut positions, mut ev) = (0, Vec::new());
            for (p, v) in vv.iter().enumerate().filter(|(_, v)| !v.is_empty()) {
                positions |= 1 << p;
                ev.push(v.clone());
            }
            if positions == 0 {
                positions = (1 << vv.len()) - 1;
                ev = vv.clone();
            }
            let d = lists.first(DEST, positions, &ev);
            let o = lists.first(ORIGIN, positions, &ev);
            let mut touched = Vec::new();
            for n in d.iter().chain(&o) {
                lists.touching(n, &mut touched);
            }
            let val = Walker {
                schema: elem_schema.clone(),
                dest: d,
                origin: o,
                path: self.path.clone(),
            }
            .walk()?;
            touched.extend(val.iter().cloned());
            lists.refresh_all(&touched);
            match val {
                Some(v) if !ynode::is_empty_map(Some(&v)) => {
                    restore_keys(&v, &vk, &vv)?;
                    lists.refresh_all(std::slice::from_ref(&v));
                    lists.set(ITEMS, &vv, Some(v));
                }
                _ => {
                    for _ in &vk {
                        lists.set(DEST, &vv, None);
                    }
                }
            }
        }
        ynode::set_content(dest, lists.live(DEST));
        append_list_node(&mut lists);
        let items = ynode::empty_seq();
        ynode::set_content(&items, lists.live(ITEMS));
        Ok(Some(items))
    }
}

/// `appendListNode(items, dest, validKeys)` (see `append_list_node` in merge2.rs).
fn append_list_node(lists: &mut Lists) {
    for elem in lists.live(DEST) {
        if lists.primitive {
            let v = ynode::value_text(&elem);
            lists.set(ITEMS, &[v], Some(elem));
            continue;
        }
        let mut v = Vec::new();
        for key in lists.keys.clone() {
            match ynode::field_value(&elem, &key) {
                None => lists.push(ITEMS, elem.clone()),
                Some(n) => v.push(ynode::value_text(&n)),
            }
        }
        if lists.keys.len() > 1 {
            lists.set(ITEMS, &v, None);
        }
        lists.set(ITEMS, &v, Some(elem));
    }
}

/// `validateKeys`' positions: the keys some element has a value for (all when none has).
fn valid_positions(values_list: &[Vec<String>], n: usize) -> Vec<usize> {
    let valid: Vec<usize> = (0..n)
        .filter(|&i| {
            values_list
                .iter()
                .any(|v| v.get(i).is_some_and(|s| !s.is_empty()))
        })
        .collect();
    if valid.is_empty() {
        (0..n).collect()
    } else {
        valid
    }
}

/// Tuples by their texts on a set of positions, for [`merge_values`].
type TupleIndex = HashMap<(Mask, Vec<String>), BTreeSet<usize>>;

fn project(t: &[String], r: Mask) -> Vec<String> {
    (0..t.len())
        .filter(|p| r & (1 << p) != 0)
        .map(|p| t[p].clone())
        .collect()
}

fn index_tuple(index: &mut TupleIndex, t: &[String], j: usize, add: bool) {
    for r in 1..(1 << t.len()) {
        let e = index.entry((r, project(t, r))).or_default();
        if add {
            e.insert(j);
        } else {
            e.remove(&j);
        }
    }
}

/// The tuples `matchValues(v1, t)` accepts: they agree where both have a value, and either
/// share a value (on `w`, a non-empty part of v1's values `s`) or are both empty somewhere
/// (at `q`, outside `s`).
fn matching(index: &TupleIndex, v1: &[String]) -> BTreeSet<usize> {
    let m = v1.len();
    let s: Mask = (0..m)
        .filter(|&p| !v1[p].is_empty())
        .fold(0, |a, p| a | 1 << p);
    let mut out = BTreeSet::new();
    let mut w = s;
    loop {
        let pattern: Vec<String> = (0..m)
            .map(|p| {
                if w & (1 << p) != 0 {
                    v1[p].clone()
                } else {
                    String::new()
                }
            })
            .collect();
        if w != 0 {
            out.extend(
                index
                    .get(&(s, project(&pattern, s)))
                    .into_iter()
                    .flatten()
                    .copied(),
            );
        }
        for q in (0..m).filter(|&q| s & (1 << q) == 0) {
            let r = s | 1 << q;
            out.extend(
                index
                    .get(&(r, project(&pattern, r)))
                    .into_iter()
                    .flatten()
                    .copied(),
            );
        }
        if w == 0 {
            return out;
        }
        w = (w - 1) & s;
    }
}

/// `mergeValues` without its scan per tuple: tuples are indexed by their texts on every set
/// of positions, and each one looks up exactly those [`matching`] it, then merges them in list
/// order as kyaml's double loop does (a merged tuple is re-indexed).
fn merge_values(list: &mut [Vec<String>]) {
    let m = list.first().map_or(0, Vec::len);
    if list.iter().any(|t| t.len() != m) || m > MAX_KEYS {
        return super::merge_values(list);
    }
    let mut index = TupleIndex::new();
    for (j, t) in list.iter().enumerate() {
        index_tuple(&mut index, t, j, true);
    }
    for i in 0..list.len() {
        let v1 = list[i].clone();
        for j in matching(&index, &v1) {
            let Some(merged) = super::match_values(&v1, &list[j]) else {
                continue;
            };
            for k in [i, j] {
                index_tuple(&mut index, &list[k], k, false);
                list[k] = merged.clone();
                index_tuple(&mut index, &list[k], k, true);
            }
        }
    }
}

#[cfg(test)]
thread_local! {
    /// Lets the tests compare this path with the plain port on the same input.
    pub(super) static PLAIN: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

#[cfg(test)]
pub(super) mod tests {
    use super::PLAIN;
    use crate::patch::merge2::keyed::DISABLED;
    use crate::patch::{merge2, ynode};
    use tailor_yaml::parse_stream;

    /// A small deterministic generator (xorshift), so a failure names its seed.
    struct Rng(u64);
    impl Rng {
        fn below(&mut self, n: u64) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0 % n
        }
        fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
            from[self.below(from.len() as u64) as usize]
        }
    }

    /// A field line `key: value` of an element, or nothing (a missing key), or an irregular
    /// value: empty, null, quoted empty, a collection.
    fn key_field(rng: &mut Rng, key: &str, values: &[&str]) -> String {
        match rng.below(12) {
            0 | 10 => String::new(),
            1 => format!("{key}: \"\"\n"),
            2 => format!("{key}: null\n"),
            3 => format!("{key}:\n"),
            4 => format!("{key}: {{}}\n"),
            _ => format!("{key}: {}\n", rng.pick(values)),
        }
    }

    /// One element of a keyed list: a map of key fields and a payload, or an irregular
    /// element (null, empty map, a directive).
    fn element(rng: &mut Rng, keys: &[(&str, &[&str])], patch: bool, pad: &str) -> String {
        let lines = match rng.below(if patch { 14 } else { 12 }) {
            0 => return format!("{pad}- null\n"),
            1 => return format!("{pad}- {{}}\n"),
            _ => {
                let mut l: String = keys.iter().map(|(k, v)| key_field(rng, k, v)).collect();
                l += &match rng.below(if patch { 5 } else { 3 }) {
                    0 => String::new(),
                    3 => "$patch: delete\n".into(),
                    4 => "$patch: replace\nextra: r\n".into(),
                    _ => format!("value: v{}\n", rng.below(5)),
                };
                l
            }
        };
        if lines.is_empty() {
            return format!("{pad}- {{}}\n");
        }
        let mut out = String::new();
        for (i, line) in lines.lines().enumerate() {
            out += &format!("{pad}{}{line}\n", if i == 0 { "- " } else { "  " });
        }
        out
    }

    fn list(
        rng: &mut Rng,
        field: &str,
        keys: &[(&str, &[&str])],
        patch: bool,
        pad: &str,
    ) -> String {
        match rng.below(8) {
            0 => String::new(),
            1 => format!("{pad}{field}: []\n"),
            _ => {
                let n = 1 + rng.below(6);
                let items: String = (0..n).map(|_| element(rng, keys, patch, pad)).collect();
                format!("{pad}{field}:\n{items}")
            }
        }
    }

    const PORTS: &[(&str, &[&str])] = &[
        ("containerPort", &["80", "81", "9090"]),
        ("protocol", &["TCP", "UDP"]),
    ];
    const ENV: &[(&str, &[&str])] = &[("name", &["a", "b", "c"])];

    fn object(rng: &mut Rng, patch: bool) -> String {
        let mut containers = String::new();
        for _ in 0..1 + rng.below(2) {
            let name = rng.pick(&["web", "web", "side"]);
            containers += &format!("      - name: {name}\n");
            containers += &list(rng, "ports", PORTS, patch, "        ");
            containers += &list(rng, "env", ENV, patch, "        ");
        }
        let finalizers: Vec<&str> = (0..rng.below(5))
            .map(|_| rng.pick(&["x", "y", "x", "''", "null"]))
            .collect();
        format!(
            "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: w\n  finalizers: [{}]\n\
             spec:\n  template:\n    spec:\n      containers:\n{containers}",
            finalizers.join(", ")
        )
    }

    /// `patch` merged into `dest` with kyaml's keyed lookups and this module's indexes each on or
    /// off (the keyed and plain ports' tests compare them), rendered or the error.
    pub(in crate::patch::merge2) fn merged(
        patch: &str,
        dest: &str,
        keyed: bool,
        indexed: bool,
    ) -> String {
        let doc = |s: &str| parse_stream(s).unwrap().remove(0).root;
        let (p, d) = (ynode::from_node(&doc(patch)), ynode::from_node(&doc(dest)));
        DISABLED.with(|f| f.set(!keyed));
        PLAIN.with(|f| f.set(!indexed));
        let out = merge2::merge(p.unwrap(), d.unwrap());
        DISABLED.with(|f| f.set(false));
        PLAIN.with(|f| f.set(false));
        match out {
            Ok(Some(n)) => ynode::render(&n),
            Ok(None) => "deleted".into(),
            Err(e) => format!("error: {e}"),
        }
    }

    #[test]
    fn indexes_give_the_plain_ports_results_on_irregular_lists() {
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        let mut merged_cases = 0;
        for case in 0..4000 {
            let (patch, dest) = (object(&mut rng, true), object(&mut rng, false));
            let plain = merged(&patch, &dest, false, false);
            let indexed = merged(&patch, &dest, false, true);
            assert_eq!(
                indexed, plain,
                "case {case}\npatch:\n{patch}\ndest:\n{dest}"
            );
            let both = merged(&patch, &dest, true, true);
            assert_eq!(both, plain, "case {case}\npatch:\n{patch}\ndest:\n{dest}");
            merged_cases += usize::from(!plain.starts_with("error"));
        }
        assert!(merged_cases > 1000, "{merged_cases}");
    }
}
