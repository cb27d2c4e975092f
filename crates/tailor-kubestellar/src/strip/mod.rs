//! KubeStellar's WEC-independent transforms.
//!
//! * [`strip_object`]: the whole strip of one object, saying whether it removed anything.
//! * [`strip_builtin`]: the transport controller's built-in cleaning of every object
//!   (server-populated `metadata` fields, the last-applied annotation, `status`) and the
//!   per-kind cleaning of `v1 Service` and `batch/v1 Job`.
//! * [`parse_custom_transform`] / [`apply_custom_transforms`]: `control.kubestellar.io/v1alpha1`
//!   `CustomTransform` removals, bound to objects by (group, plural resource) through a
//!   [`ResourceMapper`].
//! * [`parse_kubestellar_query`]: KubeStellar's JSONPath subset, with its error texts.
//!
//! Everything edits the `tailor_yaml` node tree in place, so comments, key order and scalar
//! styles of whatever is not removed stay as they were. Nothing here panics on input data:
//! wrong types become [`Diagnostic`]s that name the field.

mod builtin;
mod custom;
mod path;
mod resources;
mod tree;

pub use builtin::{
    may_need_builtin_strip, strip_builtin, LAST_APPLIED_ANNOTATION, PRESERVE_ANNOTATION,
    PRESERVE_ANNOTATION_OLD,
};
pub use custom::{
    apply_custom_transforms, duplicate_transform_warnings, parse_custom_transform,
    parse_custom_transform_at, parse_custom_transform_with, parse_remove_path,
    unmatched_transform_warnings, CustomTransform, PathSyntax, RemovePath,
};
pub use path::{decode_js_string_literal, parse_kubestellar_query, QueryError};
pub use resources::ResourceMapper;

use tailor_yaml::Node;

/// What strip and CustomTransforms report: tailor's one diagnostic type.
pub use tailor_kube::{Diagnostic, Diagnostic as Finding, Severity};

/// The `strip:` section of the `Tailor` config.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StripOptions {
    /// Run the built-in removals and the Service/Job cleaning (default true).
    pub builtin: bool,
}

impl Default for StripOptions {
    fn default() -> Self {
        StripOptions { builtin: true }
    }
}

impl StripOptions {
    /// Reads `{builtin: bool}`; a missing or null node gives the defaults. Unknown keys and
    /// wrong types are errors naming `spec.strip.<field>`.
    pub fn from_node(strip: Option<&Node>) -> Result<StripOptions, Vec<Finding>> {
        let mut opts = StripOptions::default();
        let Some(strip) = strip else {
            return Ok(opts);
        };
        if strip.is_null() {
            return Ok(opts);
        }
        let Some(pairs) = strip.pairs() else {
            return Err(vec![Diagnostic::error(
                "strip must be a mapping such as {builtin: true}",
            )
            .at_opt(Some("spec.strip".into()))]);
        };
        let mut errors = Vec::new();
        for p in pairs {
            let key = p.key.as_scalar().unwrap_or("");
            match key {
                "builtin" => match tree::as_bool(&p.value) {
                    Some(b) => opts.builtin = b,
                    None => errors.push(
                        Diagnostic::error("strip.builtin must be a boolean (true or false)")
                            .at_opt(Some("spec.strip.builtin".into())),
                    ),
                },
                other => errors.push(
                    Diagnostic::error(format!("unknown field {other:?} in strip (known: builtin)"))
                        .at_opt(Some(format!("spec.strip.{other}"))),
                ),
            }
        }
        if errors.is_empty() {
            Ok(opts)
        } else {
            Err(errors)
        }
    }
}

/// What stripping one object did.
#[derive(Debug, Default)]
pub struct Stripped {
    pub findings: Vec<Finding>,
    /// Whether anything was removed: an object left as it was keeps its text.
    pub changed: bool,
}

/// The whole strip stage for one object, in KubeStellar's order: built-ins (when enabled),
/// then the CustomTransforms bound to the object's resource.
pub fn strip_object(
    obj: &mut Node,
    opts: StripOptions,
    transforms: &[CustomTransform],
    mapper: &ResourceMapper,
) -> Stripped {
    // Stripping only ever removes, so an object that kept every node is unchanged; counting
    // is skipped where a removal is certain.
    let certain = opts.builtin && builtin::removes_server_fields(obj);
    let before = (!certain).then(|| node_count(obj));
    let mut findings = Vec::new();
    if opts.builtin {
        findings.extend(strip_builtin(obj));
    }
    findings.extend(apply_custom_transforms(obj, transforms, mapper));
    Stripped {
        findings,
        changed: before.is_none_or(|n| node_count(obj) != n),
    }
}

/// Nodes in a tree (mapping entries count their key and value).
fn node_count(node: &Node) -> usize {
    1 + match &node.value {
        tailor_yaml::Value::Mapping(pairs) => pairs.iter().map(|p| 1 + node_count(&p.value)).sum(),
        tailor_yaml::Value::Sequence(items) => items.iter().map(node_count).sum(),
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tailor_yaml::parse_stream;

    fn node(src: &str) -> Node {
        parse_stream(src).unwrap().remove(0).root
    }

    #[test]
    fn strip_options_default_and_off() {
        assert_eq!(
            StripOptions::from_node(None),
            Ok(StripOptions { builtin: true })
        );
        assert_eq!(
            StripOptions::from_node(Some(&node("null"))),
            Ok(StripOptions { builtin: true })
        );
        assert_eq!(
            StripOptions::from_node(Some(&node("{builtin: false}"))),
            Ok(StripOptions { builtin: false })
        );
        let e = StripOptions::from_node(Some(&node("{builtin: \"no\", x: 1}"))).unwrap_err();
        let paths: Vec<_> = e
            .iter()
            .map(|f| f.field.clone())
            .filter(|f| !f.is_empty())
            .collect();
        assert_eq!(paths, ["spec.strip.builtin", "spec.strip.x"]);
        assert!(StripOptions::from_node(Some(&node("[1]"))).is_err());
    }

    #[test]
    fn builtin_off_still_runs_custom_transforms() {
        let mut obj = node(
            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  uid: x\n  labels: {a: b}\nstatus: {}\n",
        );
        let t = parse_custom_transform(
            &node("apiGroup: ''\nresource: configmaps\nremove: [$.metadata.labels]\n"),
            "t",
        )
        .unwrap();
        let f = strip_object(
            &mut obj,
            StripOptions { builtin: false },
            &[t],
            &ResourceMapper::builtin(),
        );
        assert!(f.findings.is_empty());
        assert!(f.changed);
        let out = tailor_yaml::emit_node(&obj, tailor_yaml::EmitOptions::default());
        assert_eq!(
            out,
            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  uid: x\nstatus: {}\n"
        );
    }

    #[test]
    fn custom_transforms_run_after_builtins() {
        // A transform cannot un-preserve: the preserve check saw the annotation first.
        let mut obj = node("apiVersion: v1\nkind: Service\nmetadata:\n  annotations:\n    control.kubestellar.io/preserve: nodeport\nspec:\n  ports:\n  - nodePort: 30001\n");
        let t = parse_custom_transform(&node("apiGroup: ''\nresource: services\nremove: ['$.metadata.annotations[\"control.kubestellar.io/preserve\"]']\n"), "t").unwrap();
        strip_object(
            &mut obj,
            StripOptions::default(),
            &[t],
            &ResourceMapper::builtin(),
        );
        let out = tailor_yaml::emit_node(&obj, tailor_yaml::EmitOptions::default());
        assert_eq!(out, "apiVersion: v1\nkind: Service\nmetadata:\n  annotations: {}\nspec:\n  ports:\n  - nodePort: 30001\n");
    }

    /// A Service or Job the cleaning leaves as it was is reported unchanged, so it keeps its
    /// text; one it does change, or an object with server fields, is reported changed.
    #[test]
    fn changed_only_when_something_was_removed() {
        let run = |src: &str| {
            let mut obj = node(src);
            strip_object(
                &mut obj,
                StripOptions::default(),
                &[],
                &ResourceMapper::builtin(),
            )
            .changed
        };
        assert!(!run("apiVersion: v1\nkind: Service\nmetadata:\n  name: s\n  annotations: {}\nspec:\n  ports:\n  - port: 80\n"));
        assert!(!run(
            "apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec:\n  template: {}\n"
        ));
        assert!(run(
            "apiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec:\n  clusterIP: 10.0.0.1\n"
        ));
        assert!(run(
            "apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec:\n  suspend: false\n"
        ));
        assert!(run(
            "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\nstatus: {}\n"
        ));
        assert!(!run(
            "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n"
        ));
    }
}
