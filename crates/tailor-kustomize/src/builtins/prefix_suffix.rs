//! kustomize's PrefixTransformer and SuffixTransformer (`namePrefix:`, `nameSuffix:`) with
//! the default field specs (`api/konfig/builtinpluginconsts/nameprefix.go`, `namesuffix.go`).

use tailor_yaml::Node;

use crate::builtins::fieldspec::{set_string, split_path, walk, FieldSpec};
use crate::builtins::tracker::NameTracker;
use crate::builtins::{describe, Error};
use tailor_kube::resid::{Gvk, GvkSel};

/// The default `namePrefix`/`nameSuffix` field specs, in kustomize's order. The two entries
/// with a kind carry `skip: true`, which the FieldSpec type does not have; they are inert
/// because the transformer skips those kinds outright (see [`SKIPPED`]).
const NAME_SPECS: &[FieldSpec<'static>] = &[
    FieldSpec::new("metadata/name"),
    FieldSpec {
        gvk: GvkSel {
            group: "",
            version: "",
            kind: "CustomResourceDefinition",
        },
        path: "metadata/name",
        create: false,
    },
    FieldSpec {
        gvk: GvkSel {
            group: "apiregistration.k8s.io",
            version: "",
            kind: "APIService",
        },
        path: "metadata/name",
        create: false,
    },
];

/// `prefixFieldSpecsToSkip` / `suffixFieldSpecsToSkip`: kinds that are never renamed,
/// matched against the resource's original id.
const SKIPPED: &[GvkSel<'static>] = &[
    GvkSel {
        group: "",
        version: "",
        kind: "CustomResourceDefinition",
    },
    GvkSel {
        group: "apiregistration.k8s.io",
        version: "",
        kind: "APIService",
    },
    GvkSel {
        group: "",
        version: "",
        kind: "Namespace",
    },
];

#[derive(Clone, Copy)]
enum Affix {
    Prefix,
    Suffix,
}

/// Adds `prefix` then `suffix` to `metadata.name` as kustomize's `namePrefix`/`nameSuffix`
/// do, recording previous ids in `tracker`. Empty strings do nothing.
pub fn add_prefix_suffix_tracked(
    resources: &mut [Node],
    prefix: &str,
    suffix: &str,
    tracker: &mut NameTracker,
) -> Result<(), Error> {
    tracker.check_len(resources)?;
    if !prefix.is_empty() {
        affix(resources, prefix, Affix::Prefix, tracker)?;
    }
    if !suffix.is_empty() {
        affix(resources, suffix, Affix::Suffix, tracker)?;
    }
    Ok(())
}

fn affix(
    resources: &mut [Node],
    affix: &str,
    which: Affix,
    tracker: &mut NameTracker,
) -> Result<(), Error> {
    for (i, node) in resources.iter_mut().enumerate() {
        if !node.is_mapping() {
            continue;
        }
        let org = tracker.org_id(i, node);
        if SKIPPED.iter().any(|s| org.gvk.is_selected(s)) {
            continue;
        }
        for spec in NAME_SPECS {
            if !org.gvk.is_selected(&spec.gvk) {
                continue;
            }
            if spec.path == "metadata/name" {
                if let Some(t) = tracker.track_mut(i) {
                    match which {
                        Affix::Prefix => t.prefixes.push(affix.to_string()),
                        Affix::Suffix => t.suffixes.push(affix.to_string()),
                    }
                }
                tracker.store_previous_id(i, node);
            }
            if !spec.matches(&Gvk::of(node)) {
                continue;
            }
            walk(node, &split_path(spec.path), false, &mut |n| {
                let old = n.as_scalar().unwrap_or_default().to_string();
                let new = match which {
                    Affix::Prefix => format!("{affix}{old}"),
                    Affix::Suffix => format!("{old}{affix}"),
                };
                set_string(n, &new);
                Ok(())
            })
            .map_err(|e| Error::new(format!("{}: {}: {e}", describe(node), spec.path)))?;
        }
    }
    Ok(())
}
