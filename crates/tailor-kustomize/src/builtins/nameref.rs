//! kustomize's name-reference fixing (`api/internal/accumulator/namereferencetransformer.go`
//! and `api/filters/nameref`): after renames and namespace changes, every field listed in
//! the name-reference table that still names an object by one of its previous names is
//! rewritten to the object's current name (and, for `{name, namespace}` maps such as RBAC
//! subjects and webhook services, its current namespace).

use std::sync::OnceLock;

use tailor_yaml::{parse_stream, Node};

use crate::builtins::fieldspec::{set_string, split_path, walk, WalkError};
use crate::builtins::tracker::NameTracker;
use crate::builtins::Error;
use tailor_kube::resid::{GvkSel, ResId, TOTALLY_NOT_A_NAMESPACE};

const TABLE_TEXT: &str = include_str!("namereference.yaml");

#[derive(Debug, Default)]
struct Sel {
    group: String,
    version: String,
    kind: String,
}

impl Sel {
    fn as_sel(&self) -> GvkSel<'_> {
        GvkSel {
            group: &self.group,
            version: &self.version,
            kind: &self.kind,
        }
    }
}

#[derive(Debug)]
struct Referrer {
    sel: Sel,
    path: String,
    segments: Vec<String>,
}

/// One `nameReference` entry: objects of kind `target` are named by these referrer fields.
#[derive(Debug)]
struct BackRef {
    target: Sel,
    referrers: Vec<Referrer>,
}

fn table() -> Result<&'static [BackRef], Error> {
    static TABLE: OnceLock<Result<Vec<BackRef>, String>> = OnceLock::new();
    TABLE
        .get_or_init(|| parse_table(TABLE_TEXT))
        .as_deref()
        .map_err(|e| Error::new(format!("built-in name reference table: {e}")))
}

fn parse_table(text: &str) -> Result<Vec<BackRef>, String> {
    let docs = parse_stream(text).map_err(|e| e.to_string())?;
    let root = &docs.first().ok_or("empty")?.root;
    let entries = root
        .get("nameReference")
        .and_then(Node::items)
        .ok_or("no nameReference list")?;
    let sel = |n: &Node| Sel {
        group: n.get_str("group").unwrap_or_default().to_string(),
        version: n.get_str("version").unwrap_or_default().to_string(),
        kind: n.get_str("kind").unwrap_or_default().to_string(),
    };
    entries
        .iter()
        .map(|e| {
            let specs = e
                .get("fieldSpecs")
                .and_then(Node::items)
                .ok_or("entry without fieldSpecs")?;
            let referrers = specs
                .iter()
                .map(|s| {
                    let path = s.get_str("path").ok_or("fieldSpec without path")?;
                    Ok(Referrer {
                        sel: sel(s),
                        path: path.to_string(),
                        segments: split_path(path),
                    })
                })
                .collect::<Result<Vec<_>, String>>()?;
            Ok(BackRef {
                target: sel(e),
                referrers,
            })
        })
        .collect()
}

/// What the filters read about each resource; taken once, since fixing references changes
/// only referrer fields, never names or namespaces.
struct Snap {
    live: bool,
    cur: ResId,
    prev: Vec<ResId>,
    org: ResId,
    prefixes: Vec<String>,
    suffixes: Vec<String>,
}

impl NameTracker {
    /// Rewrites references to renamed or moved objects, as kustomize does at the end of a
    /// build. Run it after every stage that kustomize runs before it (replacements included).
    pub fn fix_name_references(&self, resources: &mut [Node]) -> Result<(), Error> {
        self.check_len(resources)?;
        if self.is_empty() {
            return Ok(());
        }
        let table = table()?;
        let snaps: Vec<Snap> = resources
            .iter()
            .enumerate()
            .map(|(i, node)| {
                let track = self.track(i).cloned().unwrap_or_default();
                Snap {
                    live: node.is_mapping(),
                    cur: ResId::of(node),
                    prev: self.prev_ids(i, node),
                    org: self.org_id(i, node),
                    prefixes: track.prefixes,
                    suffixes: track.suffixes,
                }
            })
            .collect();
        for (i, node) in resources.iter_mut().enumerate() {
            if !snaps[i].live {
                continue;
            }
            let filters: Vec<(&Referrer, &Sel)> = table
                .iter()
                .flat_map(|b| b.referrers.iter().map(move |r| (r, &b.target)))
                .filter(|(r, _)| snaps[i].org.gvk.is_selected(&r.sel.as_sel()))
                .collect();
            if filters.is_empty() {
                continue;
            }
            let candidates = subset(i, node, &snaps);
            for (referrer, target) in filters {
                let role_ref = if referrer.path.ends_with("roleRef/name") {
                    role_ref_sel(node)
                } else {
                    None
                };
                let ctx = Ctx {
                    snaps: &snaps,
                    referrer: i,
                    target: target.as_sel(),
                    role_ref: role_ref.as_ref().map(Sel::as_sel),
                    candidates: &candidates,
                };
                walk(node, &referrer.segments, false, &mut |n| ctx.set(n)).map_err(|e| {
                    Error::new(format!(
                        "updating name reference in '{}' field of {}: {e}",
                        referrer.path,
                        snaps[i].cur.describe()
                    ))
                })?;
            }
        }
        Ok(())
    }
}

/// kustomize `SubsetThatCouldBeReferencedByResource`: a namespaced referrer sees
/// cluster-scoped objects, objects in its own namespace and, for a RoleBinding, objects in
/// the namespaces its ServiceAccount subjects name.
fn subset(i: usize, node: &Node, snaps: &[Snap]) -> Vec<usize> {
    let me = &snaps[i].cur;
    let live = (0..snaps.len()).filter(|&j| snaps[j].live);
    if me.gvk.is_cluster_scoped() {
        return live.collect();
    }
    let rb_namespaces = role_binding_namespaces(node);
    live.filter(|&j| {
        let t = &snaps[j].cur;
        t.gvk.is_cluster_scoped() || t.is_ns_equal(me) || rb_namespaces.contains(&t.namespace)
    })
    .collect()
}

fn role_binding_namespaces(node: &Node) -> Vec<String> {
    if tailor_kube::resid::scalar_field(node, "kind") != "RoleBinding" {
        return Vec::new();
    }
    let Some(subjects) = node.get("subjects").and_then(Node::items) else {
        return Vec::new();
    };
    subjects
        .iter()
        .filter(|s| s.get("kind").and_then(Node::as_scalar) == Some("ServiceAccount"))
        .filter_map(|s| s.get("namespace").and_then(Node::as_scalar))
        .map(str::to_string)
        .collect()
}

/// The `{apiGroup, kind}` a binding's roleRef names; without both, any target qualifies.
fn role_ref_sel(node: &Node) -> Option<Sel> {
    let role_ref = node.get("roleRef").filter(|n| !n.is_null())?;
    let field = |k: &str| {
        role_ref
            .get(k)
            .filter(|n| !n.is_null())
            .map(|n| n.as_scalar().unwrap_or_default().to_string())
    };
    Some(Sel {
        group: field("apiGroup")?,
        version: String::new(),
        kind: field("kind")?,
    })
}

struct Ctx<'a> {
    snaps: &'a [Snap],
    referrer: usize,
    target: GvkSel<'a>,
    role_ref: Option<GvkSel<'a>>,
    candidates: &'a [usize],
}

impl Ctx<'_> {
    fn set(&self, node: &mut Node) -> Result<(), WalkError> {
        if node.is_null() {
            return Ok(());
        }
        if node.is_scalar() {
            return self.set_scalar(node);
        }
        if node.is_mapping() {
            return self.set_mapping(node);
        }
        let Some(items) = node.items_mut() else {
            return Err("node must be a scalar, sequence or map".to_string());
        };
        for item in items {
            if item.is_null() {
                continue;
            }
            if item.is_scalar() {
                self.set_scalar(item)?;
            } else if item.is_mapping() {
                self.set_mapping(item)?;
            }
            // kustomize skips other element kinds
        }
        Ok(())
    }

    fn set_scalar(&self, node: &mut Node) -> Result<(), WalkError> {
        let old = node.as_scalar().unwrap_or_default().to_string();
        let Some(r) = self.select(&old, self.candidates.to_vec(), false)? else {
            return Ok(());
        };
        let new = &self.snaps[r].cur.name;
        if *new != old {
            set_string(node, new);
        }
        Ok(())
    }

    fn set_mapping(&self, node: &mut Node) -> Result<(), WalkError> {
        let Some(name) = node.get("name") else {
            return Err("path config error; no 'name' field in node".to_string());
        };
        let old = name.as_scalar().unwrap_or_default().to_string();
        let candidates = match node.get("namespace") {
            None => self.candidates.to_vec(),
            Some(ns) => self.by_namespace(ns.as_scalar().unwrap_or_default()),
        };
        let Some(r) = self.select(&old, candidates, true)? else {
            return Ok(());
        };
        let cur = &self.snaps[r].cur;
        if cur.name == old && cur.namespace.is_empty() {
            return Ok(());
        }
        if let Some(n) = node.get_mut("name") {
            if n.as_scalar() != Some(cur.name.as_str()) {
                set_string(n, &cur.name);
            }
        }
        // an empty namespace is a wildcard here and must not overwrite e.g. `default`
        if cur.namespace.is_empty() {
            return Ok(());
        }
        if let Some(n) = node.entry_or_insert("namespace", || Node::string("")) {
            if n.is_null() || n.as_scalar() != Some(cur.namespace.as_str()) {
                set_string(n, &cur.namespace);
            }
        }
        Ok(())
    }

    /// Candidates whose original namespace is `ns`, else those whose current one is.
    fn by_namespace(&self, ns: &str) -> Vec<usize> {
        let pick = |id: fn(&Snap) -> &ResId| -> Vec<usize> {
            self.candidates
                .iter()
                .copied()
                .filter(|&j| {
                    let eff = id(&self.snaps[j]).effective_namespace();
                    eff != TOTALLY_NOT_A_NAMESPACE && eff == ns
                })
                .collect()
        };
        let original = pick(|s| &s.org);
        if !original.is_empty() {
            return original;
        }
        pick(|s| &s.cur)
    }

    /// kustomize `selectReferral`.
    fn select(
        &self,
        old: &str,
        mut c: Vec<usize>,
        with_namespace: bool,
    ) -> Result<Option<usize>, WalkError> {
        let snaps = self.snaps;
        let me = &snaps[self.referrer];
        c.retain(|&j| snaps[j].prev.iter().any(|id| id.name == old));
        c.retain(|&j| {
            snaps[j]
                .prev
                .iter()
                .any(|id| id.gvk.is_selected(&self.target))
        });
        if let Some(sel) = &self.role_ref {
            c.retain(|&j| snaps[j].prev.iter().any(|id| id.gvk.is_selected(sel)));
        }
        if !me.cur.gvk.is_cluster_scoped() {
            c.retain(|&j| {
                let t = &snaps[j].cur;
                t.gvk.is_cluster_scoped()
                    || t.gvk.kind == "ServiceAccount"
                    || t.is_ns_equal(&me.cur)
            });
        }
        if c.len() == 1 {
            return Ok(c.first().copied());
        }
        c.retain(|&j| {
            same_ending(&snaps[j].prefixes, &me.prefixes)
                && same_ending(&snaps[j].suffixes, &me.suffixes)
        });
        let Some(&first) = c.first() else {
            return Ok(None);
        };
        if c.len() == 1 {
            return Ok(Some(first));
        }
        let f = &snaps[first].cur;
        let identical = c.iter().all(|&j| {
            let t = &snaps[j].cur;
            t.name == f.name && (!with_namespace || t.namespace == f.namespace)
        });
        if identical {
            return Ok(Some(first));
        }
        let ids: Vec<String> = c.iter().map(|&j| snaps[j].cur.to_string()).collect();
        Err(format!(
            "found multiple possible referrals: {}",
            ids.join(", ")
        ))
    }
}

/// kustomize `utils.SameEndingSubSlice`: one list ends with the other; an empty list only
/// matches an empty list.
fn same_ending(a: &[String], b: &[String]) -> bool {
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    if short.is_empty() {
        return long.is_empty();
    }
    long.ends_with(short)
}

/// Counts the referrer field specs in the table (for tests that the table loaded whole).
#[cfg(test)]
pub(crate) fn referrer_count() -> usize {
    table()
        .map(|t| t.iter().map(|b| b.referrers.len()).sum())
        .unwrap_or(0)
}

#[cfg(test)]
pub(crate) fn describe_table() -> Vec<String> {
    table()
        .map(|t| {
            t.iter()
                .map(|b| format!("{} <- {}", b.target.kind, b.referrers.len()))
                .collect()
        })
        .unwrap_or_default()
}
