//! `*List` objects are containers, as kpt and kubectl keep them: the stages tailor a List's
//! items where they are, and the List is written back around them (byte for byte when none of
//! them changed). While the stages run, each item is an object of its own that knows its
//! container ([`unpack`]); the container stays in the item list as a shell every stage leaves
//! alone, and goes to every destination as any object does. [`repack`] puts each destination's
//! items back into its copy of the container.

use std::collections::HashMap;
use std::sync::Arc;

use tailor_yaml::{Node, Value};

use super::resource::{ListInfo, ListRole, Resource};

/// Replaces every `*List` object by its shell followed by its items, each an object of its own
/// (Lists among the items likewise). The shell keeps the List's tree with an empty `items`.
pub fn unpack(items: Vec<Resource>) -> Vec<Resource> {
    if !items.iter().any(|r| r.is_list()) {
        return items;
    }
    let mut out = Vec::with_capacity(items.len());
    for item in items {
        unpack_into(&mut out, item);
    }
    out
}

fn unpack_into(out: &mut Vec<Resource>, mut list: Resource) {
    if !list.is_list() {
        out.push(list);
        return;
    }
    let mut node = list.take_node();
    let members = node
        .get_mut("items")
        .and_then(Node::items_mut)
        .map(std::mem::take)
        .unwrap_or_default();
    list.put_node(node, false);
    let info = Arc::new(ListInfo {
        len: members.len(),
        path: list.path().map(str::to_string),
        index: list.index(),
        local: list.is_meta_or_local(),
        fanned_out_for: list.fanned_out_for().map(str::to_string),
    });
    let member_of = list.list_role().and_then(|r| r.member_of.clone());
    list.set_list_role(Some(ListRole {
        shell_of: Some(info.clone()),
        member_of,
    }));
    let place = list.place().map(|p| p.into_owned());
    out.push(list);
    for (j, node) in members.into_iter().enumerate() {
        let mut member = Resource::new(node, super::Origin::None);
        if let Some(place) = &place {
            member.set_place(&format!("{place}.items[{j}]"));
        }
        member.set_list_role(Some(ListRole {
            shell_of: None,
            member_of: Some((info.clone(), j)),
        }));
        unpack_into(out, member);
    }
}

/// A container and a destination: the items of one copy of a List.
type Group = (*const ListInfo, Option<String>);

fn group_of(info: &Arc<ListInfo>, item: &Resource) -> Group {
    (Arc::as_ptr(info), item.cluster().map(str::to_string))
}

/// Puts the items back into their containers: each shell becomes the List again, holding the
/// items of its destination that are left, in their order; it is written verbatim when it and
/// all its items are untouched and all there. A shell whose items all went elsewhere (another
/// destination, or none) is not written; one that never had items is. An item whose shell is
/// gone is written on its own rather than lost.
pub fn repack(items: Vec<Resource>) -> Vec<Resource> {
    if !items.iter().any(|r| r.list_role().is_some()) {
        return items;
    }
    let mut members: HashMap<Group, Vec<usize>> = HashMap::new();
    for (i, item) in items.iter().enumerate() {
        if let Some((info, _)) = item.list_role().and_then(|r| r.member_of.as_ref()) {
            members.entry(group_of(info, item)).or_default().push(i);
        }
    }
    let mut slots: Vec<Option<Resource>> = items.into_iter().map(Some).collect();
    // Inner Lists come after the List holding them: filled first, they are then items of it.
    for i in (0..slots.len()).rev() {
        let Some(info) = slots[i]
            .as_ref()
            .and_then(|r| r.list_role())
            .and_then(|r| r.shell_of.clone())
        else {
            continue;
        };
        let Some(mut shell) = slots[i].take() else {
            continue;
        };
        let taken: Vec<Resource> = members
            .remove(&group_of(&info, &shell))
            .unwrap_or_default()
            .into_iter()
            .filter_map(|k| slots[k].take())
            .collect();
        if taken.is_empty() && info.len > 0 {
            continue;
        }
        fill(&mut shell, &info, taken);
        slots[i] = Some(shell);
    }
    slots
        .into_iter()
        .flatten()
        .map(|mut r| {
            if r.list_role().is_some() {
                r.set_list_role(None);
            }
            r
        })
        .collect()
}

/// The shell holding `members` again; it stays clean only when they are all its original
/// items, in order and untouched.
fn fill(shell: &mut Resource, info: &ListInfo, members: Vec<Resource>) {
    let intact = members.len() == info.len
        && members.iter().enumerate().all(|(j, m)| {
            !m.is_dirty()
                && m.list_role()
                    .and_then(|r| r.member_of.as_ref())
                    .map(|(_, k)| *k)
                    == Some(j)
        });
    let member_of = shell.list_role().and_then(|r| r.member_of.clone());
    shell.set_list_role(member_of.map(|m| ListRole {
        shell_of: None,
        member_of: Some(m),
    }));
    let mut node = shell.take_node();
    if let Some(Value::Sequence(slot)) = node.get_mut("items").map(|n| &mut n.value) {
        *slot = members.into_iter().map(Resource::into_node).collect();
    }
    shell.put_node(node, !intact);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read_input;
    use crate::write::write_resource_list;
    use tailor_yaml::ParseOptions;

    const LISTS: &str = "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- apiVersion: v1\n  kind: List\n  items:\n  - apiVersion: v1\n    kind: ConfigMap\n    metadata: {name: a}\n  - apiVersion: v1\n    kind: ConfigMapList\n    items:\n    - {apiVersion: v1, kind: ConfigMap, metadata: {name: b}}\n- apiVersion: v1\n  kind: ConfigMapList\n  items: []\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: c}\n";

    fn unpacked() -> Vec<Resource> {
        unpack(read_input(LISTS, &ParseOptions::default()).unwrap().items)
    }

    #[test]
    fn items_are_objects_of_their_own_and_shells_are_left_alone() {
        let items = unpacked();
        let names: Vec<(&str, &str, bool)> = items
            .iter()
            .map(|r| (r.kind(), r.name(), r.is_left_alone()))
            .collect();
        assert_eq!(
            names,
            [
                ("List", "", true),
                ("ConfigMap", "a", false),
                ("ConfigMapList", "", true),
                ("ConfigMap", "b", false),
                ("ConfigMapList", "", true),
                ("ConfigMap", "c", false),
            ]
        );
        assert_eq!(
            items[3].place().as_deref(),
            Some("items[0].items[1].items[0]")
        );
        assert!(items.iter().all(|r| !r.is_dirty()));
    }

    #[test]
    fn untouched_lists_come_back_byte_for_byte() {
        let out = repack(unpacked());
        assert_eq!(out.len(), 3);
        assert_eq!(write_resource_list(&out, None, &[]), LISTS);
    }

    #[test]
    fn a_changed_item_is_written_inside_its_list() {
        let mut items = unpacked();
        items[3].set_label("x", "z");
        items.remove(1);
        let out = repack(items);
        assert_eq!(out.len(), 3);
        let text = write_resource_list(&out, None, &[]);
        assert!(
            text.contains("- apiVersion: v1\n  kind: List\n  items:\n  - apiVersion: v1\n    kind: ConfigMapList\n    items:\n    - {apiVersion: v1, kind: ConfigMap, metadata: {name: b, labels: {x: z}}}\n"),
            "{text}"
        );
    }

    #[test]
    fn a_list_whose_items_all_went_is_not_written() {
        let mut items = unpacked();
        items.retain(|r| r.is_left_alone() || r.name() == "c");
        let out = repack(items);
        let kinds: Vec<&str> = out.iter().map(Resource::kind).collect();
        assert_eq!(kinds, ["ConfigMapList", "ConfigMap"]);
    }

    #[test]
    fn each_destination_gets_its_copy_of_the_list() {
        let items = unpacked();
        let mut out = Vec::new();
        for cluster in ["dev", "prod"] {
            for mut r in items.clone() {
                r.set_cluster(cluster);
                out.push(r);
            }
        }
        let out = repack(out);
        let lists: Vec<(&str, Option<&str>, usize)> = out
            .iter()
            .map(|r| {
                (
                    r.kind(),
                    r.cluster(),
                    r.node()
                        .get("items")
                        .and_then(Node::items)
                        .map_or(0, <[Node]>::len),
                )
            })
            .collect();
        assert_eq!(
            lists,
            [
                ("List", Some("dev"), 2),
                ("ConfigMapList", Some("dev"), 0),
                ("ConfigMap", Some("dev"), 0),
                ("List", Some("prod"), 2),
                ("ConfigMapList", Some("prod"), 0),
                ("ConfigMap", Some("prod"), 0),
            ]
        );
        assert!(out.iter().all(|r| !r.is_dirty()));
    }
}
