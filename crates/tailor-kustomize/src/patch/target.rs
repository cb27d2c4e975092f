//! kustomize patch targets (`types.Selector` matched by `resWrangler.Select`): group, version,
//! kind, name and namespace are regular expressions anchored as `^(?:…)$` (empty matches all),
//! name and namespace may match the resource's original or current id, and label/annotation
//! selectors use Kubernetes selector syntax.

use std::collections::BTreeMap;

use regex::Regex;
use tailor_kube::LabelSelector;
use tailor_yaml::Node;

use crate::patch::Error;
use tailor_kube::resid::ResId;

/// A `target:` entry of a kustomize `patches` item (also Flux `spec.patches[].target`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PatchTarget {
    pub group: String,
    pub version: String,
    pub kind: String,
    pub name: String,
    pub namespace: String,
    pub label_selector: String,
    pub annotation_selector: String,
}

impl PatchTarget {
    /// The fields of a `target:` mapping.
    pub const FIELDS: &'static [&'static str] = &[
        "group",
        "version",
        "kind",
        "name",
        "namespace",
        "labelSelector",
        "annotationSelector",
    ];

    /// Reads a `target:` mapping with kustomize's field names; unknown fields are ignored, as
    /// kustomize's YAML decoding ignores them.
    pub fn from_node(n: &Node) -> Result<PatchTarget, Error> {
        if n.is_null() {
            return Ok(PatchTarget::default());
        }
        let Some(pairs) = n.pairs() else {
            return Err(Error::new("patch target must be a mapping"));
        };
        let mut t = PatchTarget::default();
        for p in pairs {
            let Some(key) = p.key.as_scalar() else {
                continue;
            };
            let slot = match key {
                "group" => &mut t.group,
                "version" => &mut t.version,
                "kind" => &mut t.kind,
                "name" => &mut t.name,
                "namespace" => &mut t.namespace,
                "labelSelector" => &mut t.label_selector,
                "annotationSelector" => &mut t.annotation_selector,
                _ => continue,
            };
            if p.value.is_null() {
                continue;
            }
            let Some(v) = p.value.as_scalar() else {
                return Err(Error::new(format!(
                    "patch target field '{key}' must be a string"
                )));
            };
            *slot = v.to_string();
        }
        Ok(t)
    }

    /// Whether `res` (by its current id) is selected. Errors for a bad regex or selector.
    pub fn matches(&self, res: &Node) -> Result<bool, Error> {
        let compiled = self.compile()?;
        compiled.matches(res, &[])
    }

    pub(crate) fn compile(&self) -> Result<CompiledTarget<'_>, Error> {
        Ok(CompiledTarget {
            target: self,
            group: anchored(&self.group)?,
            version: anchored(&self.version)?,
            kind: anchored(&self.kind)?,
            name: anchored(&self.name)?,
            namespace: anchored(&self.namespace)?,
        })
    }

    /// `Selector.String()`, as kustomize prints it in messages.
    pub(crate) fn id_string(&self) -> String {
        let id = ResId {
            gvk: tailor_kube::resid::Gvk {
                group: self.group.clone(),
                version: self.version.clone(),
                kind: self.kind.clone(),
            },
            name: self.name.clone(),
            namespace: self.namespace.clone(),
        };
        format!(
            "{id}:a={}:l={}",
            self.annotation_selector, self.label_selector
        )
    }
}

pub(crate) struct CompiledTarget<'a> {
    target: &'a PatchTarget,
    group: Option<Regex>,
    version: Option<Regex>,
    kind: Option<Regex>,
    name: Option<Regex>,
    namespace: Option<Regex>,
}

fn is_match(re: &Option<Regex>, s: &str) -> bool {
    re.as_ref().is_none_or(|r| r.is_match(s))
}

impl CompiledTarget<'_> {
    /// `resWrangler.Select` for one resource: `previous` are its earlier ids (the first is the
    /// original one).
    pub(crate) fn matches(&self, res: &Node, previous: &[ResId]) -> Result<bool, Error> {
        let cur = ResId::of(res);
        let org = previous.first().unwrap_or(&cur);
        if !is_match(&self.namespace, org.effective_namespace())
            && !is_match(&self.namespace, cur.effective_namespace())
        {
            return Ok(false);
        }
        if !is_match(&self.name, &org.name) && !is_match(&self.name, &cur.name) {
            return Ok(false);
        }
        if !is_match(&self.group, &cur.gvk.group)
            || !is_match(&self.version, &cur.gvk.version)
            || !is_match(&self.kind, &cur.gvk.kind)
        {
            return Ok(false);
        }
        if !selector_matches(&self.target.label_selector, res, "labels")? {
            return Ok(false);
        }
        selector_matches(&self.target.annotation_selector, res, "annotations")
    }
}

fn selector_matches(text: &str, res: &Node, field: &str) -> Result<bool, Error> {
    if text.is_empty() {
        return Ok(true);
    }
    let sel = LabelSelector::parse(text).map_err(|e| Error::new(e.message))?;
    Ok(sel.matches(&meta_map(res, field)))
}

/// `metadata.labels` / `metadata.annotations` as kyaml reads them: raw text, later keys win.
pub(crate) fn meta_map(res: &Node, field: &str) -> BTreeMap<String, String> {
    crate::metadata_entries(res, field)
        .iter()
        .filter_map(|p| {
            Some((
                p.key.as_scalar()?.to_string(),
                p.value.as_scalar()?.to_string(),
            ))
        })
        .collect()
}

/// kustomize's `anchorRegex` compiled with Go's RE2 semantics (ASCII Perl classes).
fn anchored(pat: &str) -> Result<Option<Regex>, Error> {
    if pat.is_empty() {
        return Ok(None);
    }
    tailor_go::regexp::compile_anchored(pat)
        .map(Some)
        .map_err(Error::new)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tailor_yaml::parse_stream;

    fn doc(s: &str) -> Node {
        parse_stream(s).unwrap().remove(0).root
    }

    #[test]
    fn regexes_are_anchored_and_selectors_apply() {
        let res = doc("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web-1\n  labels: {app: x}\n  annotations: {team: a}\n");
        let t = |f: &dyn Fn(&mut PatchTarget)| {
            let mut t = PatchTarget::default();
            f(&mut t);
            t.matches(&res).unwrap()
        };
        assert!(t(&|_| {}));
        assert!(t(&|t| t.kind = "Deploy.*".into()));
        assert!(!t(&|t| t.kind = "Deploy".into()));
        assert!(t(&|t| t.name = "web-\\d".into()));
        assert!(!t(&|t| t.name = "web".into()));
        assert!(t(&|t| t.group = "apps".into()));
        assert!(!t(&|t| t.group = "app".into()));
        assert!(t(&|t| t.version = "v1".into()));
        assert!(t(&|t| t.namespace = "default".into()));
        assert!(!t(&|t| t.namespace = "other".into()));
        assert!(t(&|t| t.label_selector = "app in (x,y)".into()));
        assert!(!t(&|t| t.label_selector = "app!=x".into()));
        assert!(t(&|t| t.annotation_selector = "team".into()));
        let bad = PatchTarget {
            name: "(".into(),
            ..Default::default()
        };
        assert!(bad.matches(&res).is_err());
    }

    #[test]
    fn cluster_scoped_kinds_have_no_namespace() {
        let ns = doc("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: x\n");
        let t = PatchTarget {
            namespace: "default".into(),
            ..Default::default()
        };
        assert!(!t.matches(&ns).unwrap());
    }

    #[test]
    fn reads_kustomize_field_names() {
        let t = PatchTarget::from_node(&doc("kind: Deployment\nlabelSelector: a=b\nextra: 1\n"))
            .unwrap();
        assert_eq!(t.kind, "Deployment");
        assert_eq!(t.label_selector, "a=b");
        assert!(PatchTarget::from_node(&doc("kind: [a]\n")).is_err());
    }
}
