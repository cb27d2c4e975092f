//! What a template reads of its data, found from its parse tree without running it: the keys
//! of the top-level map it names (`.region`, `$.region`), or "any key" as soon as a key could
//! be reached by a computed name or the map itself is handed on (`.`, `$`, `index . $k`,
//! `range`, `with`, `template`, a variable). A fan-out uses it to tell which destinations
//! fill a template alike; when unsure it says "any key".

use std::collections::BTreeSet;

use super::node::{Arg, List, Node, Pipe};
use super::Template;

/// What a template reads of the map it is executed with.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DataReads {
    /// The keys it reads; `None`: any of them.
    pub keys: Option<BTreeSet<String>>,
    /// Text and `{{ .key }}` actions only: executed on a map of strings with
    /// `missingkey=error`, it fails only where a key it reads is missing or its output is over
    /// the limit. Anything else (a function, a pipeline, a branch) may fail in other ways.
    pub plain: bool,
    /// How many actions it has (a plain template's output is its text and one value per
    /// action).
    pub actions: usize,
}

impl DataReads {
    fn any_key(&mut self) {
        self.keys = None;
        self.plain = false;
    }

    fn key(&mut self, key: &str) {
        if let Some(keys) = &mut self.keys {
            keys.insert(key.to_string());
        }
    }
}

impl Template {
    /// What the template (its root; others run only through `template`, which reads any key)
    /// reads of its data.
    pub fn data_reads(&self) -> DataReads {
        let mut reads = DataReads {
            keys: Some(BTreeSet::new()),
            plain: true,
            actions: 0,
        };
        match self.trees.get(&self.name) {
            Some(tree) => list(&tree.list, &mut reads),
            None => reads.any_key(),
        }
        reads
    }
}

fn list(l: &List, reads: &mut DataReads) {
    for node in &l.nodes {
        match node {
            Node::Text(_) => {}
            Node::Action(p) => {
                reads.actions += 1;
                if !is_plain_field(p) {
                    reads.plain = false;
                }
                pipe(p, reads);
            }
            Node::If(b) => {
                reads.plain = false;
                pipe(&b.pipe, reads);
                list(&b.list, reads);
                if let Some(e) = &b.else_list {
                    list(e, reads);
                }
            }
            // They move dot (or hand the data on): what is read below is not a key of the map.
            Node::Range(_) | Node::With(_) | Node::Template { .. } => reads.any_key(),
            Node::Break | Node::Continue => reads.plain = false,
        }
    }
}

/// `{{ .key }}`: one command, one field of one name, nothing declared.
fn is_plain_field(p: &Pipe) -> bool {
    match (p.decl.as_slice(), p.cmds.as_slice()) {
        ([], [cmd]) => {
            matches!(cmd.args.as_slice(), [Arg::Field { ident, .. }] if ident.len() == 1)
        }
        _ => false,
    }
}

fn pipe(p: &Pipe, reads: &mut DataReads) {
    // A variable can hold the map (`$m := .`) and reach any key through it.
    if !p.decl.is_empty() {
        reads.any_key();
    }
    for cmd in &p.cmds {
        for a in &cmd.args {
            arg(a, reads);
        }
    }
}

fn arg(a: &Arg, reads: &mut DataReads) {
    match a {
        Arg::Field { ident, .. } => {
            if let Some(first) = ident.first() {
                reads.key(first);
            }
        }
        Arg::Variable(v) => match v.ident.as_slice() {
            [root, key, ..] if root == "$" => reads.key(key),
            // `$` whole, or a variable that may hold the map.
            _ => reads.any_key(),
        },
        Arg::Dot { .. } => reads.any_key(),
        Arg::Chain { node, .. } => arg(node, reads),
        Arg::Pipe(p) => pipe(p, reads),
        Arg::Nil { .. }
        | Arg::Bool { .. }
        | Arg::Number(_)
        | Arg::String { .. }
        | Arg::Identifier { .. } => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reads(text: &str) -> DataReads {
        Template::parse("t", text).unwrap().data_reads()
    }

    fn keys(text: &str) -> Option<Vec<String>> {
        reads(text).keys.map(|k| k.into_iter().collect())
    }

    #[test]
    fn field_references_name_the_keys_they_read() {
        let r = reads("https://api.{{ .region }}.example.com/{{.clusterName}}");
        assert_eq!(
            r.keys.unwrap().into_iter().collect::<Vec<_>>(),
            ["clusterName", "region"]
        );
        assert!(r.plain);
        assert_eq!(r.actions, 2);
        assert_eq!(keys("no templates here"), Some(vec![]));
        assert!(reads("{{/* a comment */}}").plain);
    }

    #[test]
    fn functions_and_branches_read_named_keys_but_are_not_plain() {
        for text in [
            "{{ printf \"%s-x\" .region }}",
            "{{ .region | printf \"%q\" }}",
            "{{ if eq .env \"prod\" }}{{ .region }}{{ end }}",
            "{{ $.region }}",
            "{{ (.region) }}",
            "{{ .region.sub }}",
        ] {
            let r = reads(text);
            assert!(!r.plain, "{text}");
            let k = r.keys.unwrap_or_else(|| panic!("{text}: any key"));
            assert!(k.contains("region"), "{text}");
            assert!(k.len() <= 2, "{text}");
        }
    }

    #[test]
    fn a_key_reached_by_a_computed_name_means_any_key() {
        for text in [
            "{{ . }}",
            "{{ index . \"region\" }}",
            "{{ $k := \"region\" }}{{ index $ $k }}",
            "{{ $ }}",
            "{{ $m := . }}{{ $m.region }}",
            "{{ $r := .region }}{{ $r }}",
            "{{ range $k, $v := . }}{{ $v }}{{ end }}",
            "{{ with .region }}{{ . }}{{ end }}",
            "{{ define \"x\" }}{{ .region }}{{ end }}{{ template \"x\" . }}",
            "{{ template \"x\" }}{{ define \"x\" }}a{{ end }}",
            "{{ len . }}",
            "{{ printf \"%v\" . }}",
            "{{ if . }}yes{{ end }}",
        ] {
            let r = reads(text);
            assert_eq!(r.keys, None, "{text}");
            assert!(!r.plain, "{text}");
        }
    }
}
