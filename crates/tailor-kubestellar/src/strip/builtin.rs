//! `docs/semantics/kubestellar.md` §1: the transport controller's `TransformObject` before
//! CustomTransforms.
//!
//! Order (KubeStellar's): the eight `metadata` fields, the last-applied annotation, `status`,
//! then the per-kind cleaning looked up by exact GVK (`v1 Service`, `batch/v1 Job`).

use tailor_yaml::Node;

use crate::strip::tree::{remove_key, type_name};
use crate::strip::{Diagnostic, Finding};

/// `kubectl apply`'s annotation, removed from every object.
pub const LAST_APPLIED_ANNOTATION: &str = "kubectl.kubernetes.io/last-applied-configuration";
/// Value `nodeport` keeps Service `nodePort`s (the key KubeStellar's code checks).
pub const PRESERVE_ANNOTATION: &str = "control.kubestellar.io/preserve";
/// The older key from KubeStellar's docs; tailor honours it too.
pub const PRESERVE_ANNOTATION_OLD: &str = "kubestellar.io/annotations/preserve";

/// `ObjectMeta` fields the API server fills in, removed in this order (`Set*(nil/0/"")`).
const METADATA_FIELDS: [&str; 8] = [
    "managedFields",
    "finalizers",
    "generation",
    "ownerReferences",
    "selfLink",
    "resourceVersion",
    "uid",
    "generateName",
];

const SERVICE_SPEC_FIELDS: [&str; 5] = [
    "ipFamilies",
    "externalTrafficPolicy",
    "internalTrafficPolicy",
    "ipFamilyPolicy",
    "sessionAffinity",
];

const JOB_TRACKING_ANNOTATION: &str = "batch.kubernetes.io/job-tracking";
const CONTROLLER_UID_LABELS: [&str; 2] = ["controller-uid", "batch.kubernetes.io/controller-uid"];

/// Whether [`strip_builtin`] could change the object, answered without touching it, so
/// callers can keep untouched objects on their verbatim-copy path.
pub fn may_need_builtin_strip(obj: &Node) -> bool {
    let api_version = obj.get_str("apiVersion").unwrap_or("");
    let kind = obj.get_str("kind").unwrap_or("");
    removes_server_fields(obj)
        || (kind == "Service" && api_version == "v1")
        || (kind == "Job" && api_version == "batch/v1")
}

/// Whether [`strip_builtin`] surely changes the object: it holds `status`, or metadata fields
/// or annotations the cleaning removes whatever the kind. (A Service or a Job may also be
/// changed by its own cleaning, or not.)
pub(crate) fn removes_server_fields(obj: &Node) -> bool {
    obj.contains_key("status")
        || obj.get("metadata").is_some_and(|m| {
            METADATA_FIELDS.iter().any(|k| m.contains_key(k))
                || m.get("annotations").is_some_and(|a| {
                    a.contains_key(LAST_APPLIED_ANNOTATION) || string_map_problem(a).is_some()
                })
        })
}

/// Applies KubeStellar's WEC-independent cleaning (`docs/semantics/kubestellar.md` §1.1–§1.3)
/// to one object.
///
/// Differences from KubeStellar's code, decided by tailor: Service `nodePort` is removed
/// (not set to null, and not added to ports without one), the older preserve annotation
/// `kubestellar.io/annotations/preserve: nodeport` is honoured as well, and Job
/// `spec.suspended` is removed along with `spec.suspend`.
pub fn strip_builtin(obj: &mut Node) -> Vec<Finding> {
    let mut findings = Vec::new();
    if !obj.is_mapping() {
        findings.push(
            Diagnostic::warning(format!(
                "object is {}, not a mapping; nothing stripped",
                type_name(obj)
            ))
            .at_opt(None),
        );
        return findings;
    }
    strip_metadata(obj, &mut findings);
    remove_key(obj, "status");

    let api_version = obj.get_str("apiVersion").map(str::to_owned);
    let kind = obj.get_str("kind").map(str::to_owned);
    match (api_version.as_deref(), kind.as_deref()) {
        (Some("v1"), Some("Service")) => clean_service(obj, &mut findings),
        (Some("batch/v1"), Some("Job")) => clean_job(obj, &mut findings),
        _ => {}
    }
    findings
}

/// A warning about the field at `path`.
fn warn(findings: &mut Vec<Finding>, path: &str, message: impl Into<String>) {
    findings.push(Diagnostic::warning(message).at(path));
}

/// `obj[key]` when it is a mapping. Absent or null, it is `None` (KubeStellar's unstructured
/// helpers do nothing there); of any other type, `None` with a warning at `key`:
/// "`what` is <type>, not a mapping; `consequence`".
fn mapping_field<'a>(
    obj: &'a mut Node,
    key: &str,
    findings: &mut Vec<Finding>,
    what: &str,
    consequence: &str,
) -> Option<&'a mut Node> {
    let node = obj.get_mut(key)?;
    if node.is_mapping() {
        return Some(node);
    }
    if !node.is_null() {
        let ty = type_name(node);
        warn(
            findings,
            key,
            format!("{what} is {ty}, not a mapping; {consequence}"),
        );
    }
    None
}

/// The items of the list at `spec[key]`. Absent or null, it is `None`; of any other type,
/// `None` with a warning at `spec.<key>`: "spec.<key> is <type>, not a list; `consequence`".
fn list_field<'a>(
    spec: &'a mut Node,
    key: &str,
    findings: &mut Vec<Finding>,
    consequence: &str,
) -> Option<&'a mut Vec<Node>> {
    let node = spec.get_mut(key)?;
    if !node.is_sequence() {
        if !node.is_null() {
            let ty = type_name(node);
            warn(
                findings,
                &format!("spec.{key}"),
                format!("spec.{key} is {ty}, not a list; {consequence}"),
            );
        }
        return None;
    }
    node.items_mut()
}

/// Removes each of `keys` from `parent[field]` when that is there.
fn remove_keys_in(parent: &mut Node, field: &str, keys: &[&str]) {
    if let Some(node) = parent.get_mut(field) {
        for key in keys {
            remove_key(node, key);
        }
    }
}

/// §1.1 steps 1 and 2.
fn strip_metadata(obj: &mut Node, findings: &mut Vec<Finding>) {
    // RemoveNestedField/SetAnnotations do nothing when metadata is not a map.
    let Some(meta) = mapping_field(
        obj,
        "metadata",
        findings,
        "metadata",
        "metadata fields not stripped",
    ) else {
        return;
    };
    for field in METADATA_FIELDS {
        remove_key(meta, field);
    }
    let Some(annotations) = meta.get("annotations") else {
        return;
    };
    // GetAnnotations (NestedStringMap) is nil for null, a non-map, or any non-string value;
    // SetAnnotations(nil) then removes the key.
    match string_map_problem(annotations) {
        None => remove_keys_in(meta, "annotations", &[LAST_APPLIED_ANNOTATION]),
        Some(problem) => {
            if !annotations.is_null() {
                warn(findings, "metadata.annotations", format!(
                    "metadata.annotations {problem}; as KubeStellar does, the whole annotations field is removed"
                ));
            }
            remove_key(meta, "annotations");
        }
    }
}

/// Why `node` is not a `map[string]string` (None when it is one).
fn string_map_problem(node: &Node) -> Option<String> {
    let Some(pairs) = node.pairs() else {
        return Some(format!("is {}", type_name(node)));
    };
    for p in pairs {
        if p.value.as_str().is_none() {
            let key = p.key.as_scalar().unwrap_or("?");
            return Some(format!(
                "has a value that is not a string ({key:?} is {})",
                type_name(&p.value)
            ));
        }
    }
    None
}

/// The annotations as KubeStellar's `GetAnnotations` sees them: only a map of strings counts.
fn string_annotation<'a>(obj: &'a Node, key: &str) -> Option<&'a str> {
    let annotations = obj.get_path(&["metadata", "annotations"])?;
    if string_map_problem(annotations).is_some() {
        return None;
    }
    annotations.get_str(key)
}

/// §1.2: `filtering/service.go`, with tailor's nodePort decision.
fn clean_service(obj: &mut Node, findings: &mut Vec<Finding>) {
    let preserve_node_port = [PRESERVE_ANNOTATION, PRESERVE_ANNOTATION_OLD]
        .iter()
        .any(|k| string_annotation(obj, k) == Some("nodeport"));
    let Some(spec) = mapping_field(obj, "spec", findings, "Service spec", "not cleaned") else {
        return;
    };
    for field in SERVICE_SPEC_FIELDS {
        remove_key(spec, field);
    }

    // clusterIP: removed when it is a string other than "None" (including "").
    if let Some(ip) = spec.get("clusterIP") {
        if let Some(s) = ip.as_str() {
            if s != "None" {
                remove_key(spec, "clusterIP");
            }
        } else if !ip.is_null() {
            let ty = type_name(ip);
            warn(
                findings,
                "spec.clusterIP",
                format!("spec.clusterIP is {ty}, not a string; left as it is"),
            );
        }
    }

    // clusterIPs: only a list of strings counts; keep its "None" entries.
    let mut drop_ips = false;
    if let Some(items) = list_field(spec, "clusterIPs", findings, "left as it is") {
        if items.iter().all(|i| i.as_str().is_some()) {
            items.retain(|i| i.as_str() == Some("None"));
            drop_ips = items.is_empty();
        } else {
            warn(
                findings,
                "spec.clusterIPs",
                "spec.clusterIPs has an element that is not a string; left as it is",
            );
        }
    }
    if drop_ips {
        remove_key(spec, "clusterIPs");
    }

    if preserve_node_port {
        return;
    }
    if let Some(ports) = list_field(spec, "ports", findings, "nodePorts not removed") {
        for port in ports.iter_mut() {
            remove_key(port, "nodePort");
        }
    }
}

/// §1.3: `filtering/job.go`, plus `spec.suspended`.
fn clean_job(obj: &mut Node, findings: &mut Vec<Finding>) {
    if let Some(meta) = obj.get_mut("metadata") {
        remove_keys_in(meta, "annotations", &[JOB_TRACKING_ANNOTATION]);
        remove_keys_in(meta, "labels", &CONTROLLER_UID_LABELS);
    }
    if let Some(spec) = mapping_field(obj, "spec", findings, "Job spec", "not cleaned") {
        remove_key(spec, "selector");
        remove_key(spec, "suspend");
        remove_key(spec, "suspended");
        if let Some(meta) = spec.get_path_mut(&["template", "metadata"]) {
            remove_keys_in(meta, "labels", &CONTROLLER_UID_LABELS);
        }
    }
    remove_key(obj, "status");
}

#[cfg(test)]
mod tests {
    use super::*;
    use tailor_yaml::{emit_node, parse_stream, EmitOptions};

    fn parse(src: &str) -> Node {
        parse_stream(src).unwrap().remove(0).root
    }

    fn run(src: &str) -> (String, Vec<Finding>) {
        let mut n = parse(src);
        let f = strip_builtin(&mut n);
        (emit_node(&n, EmitOptions::default()), f)
    }

    fn out(src: &str) -> String {
        run(src).0
    }

    // ---- §1.1 step 1: the eight metadata fields ------------------------------------------

    #[test]
    fn removes_the_eight_metadata_fields_and_keeps_the_rest() {
        let src = "\
apiVersion: v1
kind: ConfigMap
metadata:
  name: a
  namespace: ns
  managedFields:
  - manager: kubectl
  finalizers: [x]
  generation: 3
  ownerReferences:
  - kind: X
  selfLink: /api/v1/x
  resourceVersion: \"12\"
  uid: 0000-1111
  generateName: a-
  creationTimestamp: \"2024-01-01T00:00:00Z\"
  labels: {a: b}
data: {k: v}
";
        assert_eq!(
            out(src),
            "\
apiVersion: v1
kind: ConfigMap
metadata:
  name: a
  namespace: ns
  creationTimestamp: \"2024-01-01T00:00:00Z\"
  labels: {a: b}
data: {k: v}
"
        );
    }

    #[test]
    fn metadata_fields_removed_whatever_their_value_even_null() {
        let src = "kind: X\nmetadata:\n  uid: null\n  finalizers: ~\n  generation: {a: 1}\n";
        assert_eq!(out(src), "kind: X\nmetadata: {}\n");
    }

    #[test]
    fn missing_metadata_is_not_created() {
        assert_eq!(out("kind: X\nstatus: {}\n"), "kind: X\n");
    }

    #[test]
    fn non_map_metadata_is_left_alone() {
        let (o, f) = run("kind: X\nmetadata: [uid]\nstatus: 1\n");
        assert_eq!(o, "kind: X\nmetadata: [uid]\n");
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].field.as_str(), "metadata");
        let (o, f) = run("kind: X\nmetadata: null\n");
        assert_eq!(o, "kind: X\nmetadata: null\n");
        assert!(f.is_empty());
    }

    #[test]
    fn non_mapping_object_is_a_warning() {
        let mut n = parse("- a\n");
        let f = strip_builtin(&mut n);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].severity, crate::strip::Severity::Warning);
    }

    // ---- §1.1 step 2: annotations ----------------------------------------------------------

    #[test]
    fn last_applied_removed_others_kept() {
        let src = "\
metadata:
  annotations:
    a: b
    kubectl.kubernetes.io/last-applied-configuration: |
      {\"x\": 1}
    c: d
";
        assert_eq!(out(src), "metadata:\n  annotations:\n    a: b\n    c: d\n");
    }

    #[test]
    fn annotations_left_empty_stay_as_empty_map() {
        let src = "metadata:\n  annotations:\n    kubectl.kubernetes.io/last-applied-configuration: '{}'\n";
        assert_eq!(out(src), "metadata:\n  annotations: {}\n");
    }

    #[test]
    fn existing_empty_annotations_stay() {
        assert_eq!(
            out("metadata:\n  annotations: {}\n"),
            "metadata:\n  annotations: {}\n"
        );
    }

    #[test]
    fn null_annotations_are_removed() {
        assert_eq!(
            out("metadata:\n  name: a\n  annotations: null\n"),
            "metadata:\n  name: a\n"
        );
        assert_eq!(
            out("metadata:\n  name: a\n  annotations:\n"),
            "metadata:\n  name: a\n"
        );
    }

    #[test]
    fn non_map_annotations_are_removed() {
        let (o, f) = run("metadata:\n  name: a\n  annotations: [x]\n");
        assert_eq!(o, "metadata:\n  name: a\n");
        assert_eq!(f[0].field.as_str(), "metadata.annotations");
    }

    #[test]
    fn annotations_with_a_non_string_value_are_removed_whole() {
        for v in ["true", "1", "null", "[a]", "{a: b}", "1.5"] {
            let src = format!("metadata:\n  name: a\n  annotations:\n    ok: yes\n    bad: {v}\n");
            let (o, f) = run(&src);
            assert_eq!(o, "metadata:\n  name: a\n", "value {v}");
            assert_eq!(f.len(), 1, "value {v}");
            assert!(f[0].message.contains("\"bad\""), "{}", f[0].message);
        }
    }

    #[test]
    fn quoted_or_tagged_strings_count_as_strings() {
        let src = "metadata:\n  annotations:\n    a: \"true\"\n    b: !!str 1\n    c: 'x'\n";
        assert_eq!(out(src), src);
    }

    #[test]
    fn annotation_key_match_is_exact() {
        let src =
            "metadata:\n  annotations:\n    Kubectl.kubernetes.io/last-applied-configuration: x\n";
        assert_eq!(out(src), src);
    }

    // ---- §1.1 step 3: status -------------------------------------------------------------

    #[test]
    fn status_removed_whatever_its_value() {
        for v in ["{}", "null", "x", "[1]", "\n  replicas: 1"] {
            assert_eq!(out(&format!("kind: X\nstatus: {v}\n")), "kind: X\n", "{v}");
        }
    }

    #[test]
    fn nested_status_is_not_touched() {
        let src = "kind: X\nspec:\n  status: keep\n";
        assert_eq!(out(src), src);
    }

    #[test]
    fn creation_timestamp_labels_namespace_kept() {
        let src = "kind: X\nmetadata:\n  creationTimestamp: null\n  deletionTimestamp: x\n  deletionGracePeriodSeconds: 30\n  labels: {a: b}\n";
        assert_eq!(out(src), src);
    }

    // ---- §1.2 Service ----------------------------------------------------------------------

    const SVC: &str = "apiVersion: v1\nkind: Service\n";

    #[test]
    fn service_spec_fields_removed() {
        let src = format!(
            "{SVC}spec:\n  ipFamilies: [IPv4]\n  externalTrafficPolicy: Cluster\n  internalTrafficPolicy: Cluster\n  ipFamilyPolicy: SingleStack\n  sessionAffinity: None\n  type: ClusterIP\n"
        );
        assert_eq!(out(&src), format!("{SVC}spec:\n  type: ClusterIP\n"));
    }

    #[test]
    fn service_fields_removed_whatever_value_and_spec_kept_empty() {
        let src = format!("{SVC}spec:\n  ipFamilies: null\n  sessionAffinity: 3\n");
        assert_eq!(out(&src), format!("{SVC}spec: {{}}\n"));
    }

    #[test]
    fn cluster_ip_removed_unless_none() {
        let o = out(&format!(
            "{SVC}spec:\n  clusterIP: 10.0.0.1\n  type: ClusterIP\n"
        ));
        assert_eq!(o, format!("{SVC}spec:\n  type: ClusterIP\n"));
        let o = out(&format!(
            "{SVC}spec:\n  clusterIP: \"\"\n  type: ClusterIP\n"
        ));
        assert_eq!(o, format!("{SVC}spec:\n  type: ClusterIP\n"));
        let keep = format!("{SVC}spec:\n  clusterIP: None\n");
        assert_eq!(out(&keep), keep);
    }

    #[test]
    fn cluster_ip_none_is_case_sensitive() {
        let o = out(&format!(
            "{SVC}spec:\n  clusterIP: none\n  type: ClusterIP\n"
        ));
        assert_eq!(o, format!("{SVC}spec:\n  type: ClusterIP\n"));
    }

    #[test]
    fn cluster_ip_not_a_string_is_kept() {
        let keep = format!("{SVC}spec:\n  clusterIP: 12\n");
        let (o, f) = run(&keep);
        assert_eq!(o, keep);
        assert_eq!(f[0].field.as_str(), "spec.clusterIP");
        let keep = format!("{SVC}spec:\n  clusterIP: null\n");
        assert_eq!(run(&keep), (keep.clone(), vec![]));
    }

    #[test]
    fn cluster_ips_keep_only_none_entries() {
        let o = out(&format!(
            "{SVC}spec:\n  clusterIPs:\n  - 10.0.0.1\n  - fd00::1\n  type: ClusterIP\n"
        ));
        assert_eq!(o, format!("{SVC}spec:\n  type: ClusterIP\n"));
        let keep = format!("{SVC}spec:\n  clusterIP: None\n  clusterIPs:\n  - None\n");
        assert_eq!(out(&keep), keep);
        let o = out(&format!(
            "{SVC}spec:\n  clusterIPs: [None, 1.2.3.4, None]\n"
        ));
        assert_eq!(o, format!("{SVC}spec:\n  clusterIPs: [None, None]\n"));
        let o = out(&format!("{SVC}spec:\n  clusterIPs: []\n  type: X\n"));
        assert_eq!(o, format!("{SVC}spec:\n  type: X\n"));
    }

    #[test]
    fn cluster_ips_with_non_string_or_not_a_list_are_left() {
        let keep = format!("{SVC}spec:\n  clusterIPs: [1.2.3.4, 5]\n");
        let (o, f) = run(&keep);
        assert_eq!(o, keep);
        assert_eq!(f.len(), 1);
        let keep = format!("{SVC}spec:\n  clusterIPs: 1.2.3.4\n");
        assert_eq!(out(&keep), keep);
        let keep = format!("{SVC}spec:\n  clusterIPs: null\n");
        assert_eq!(run(&keep), (keep.clone(), vec![]));
    }

    #[test]
    fn node_port_removed_from_every_port_of_every_type() {
        for ty in ["ClusterIP", "NodePort", "LoadBalancer"] {
            let src = format!(
                "{SVC}spec:\n  type: {ty}\n  ports:\n  - port: 80\n    nodePort: 30080\n  - port: 81\n  - just-a-string\n"
            );
            // tailor removes nodePort (KubeStellar's code sets it to null and adds it).
            assert_eq!(
                out(&src),
                format!("{SVC}spec:\n  type: {ty}\n  ports:\n  - port: 80\n  - port: 81\n  - just-a-string\n")
            );
        }
    }

    #[test]
    fn node_port_kept_with_preserve_annotation() {
        for key in [PRESERVE_ANNOTATION, PRESERVE_ANNOTATION_OLD] {
            let src = format!(
                "{SVC}metadata:\n  annotations:\n    {key}: nodeport\nspec:\n  ports:\n  - port: 80\n    nodePort: 30080\n"
            );
            assert_eq!(out(&src), src, "{key}");
        }
    }

    #[test]
    fn preserve_value_must_be_exactly_nodeport() {
        for v in ["NodePort", "nodeport,x", "\"nodeport \"", "true"] {
            let src = format!(
                "{SVC}metadata:\n  annotations:\n    {PRESERVE_ANNOTATION}: {v}\nspec:\n  ports:\n  - port: 80\n    nodePort: 30080\n"
            );
            assert!(!out(&src).contains("nodePort"), "{v}");
        }
        // The util constant "annotations.kubestellar.io/preserve" is not honoured.
        let src = format!(
            "{SVC}metadata:\n  annotations:\n    annotations.kubestellar.io/preserve: nodeport\nspec:\n  ports:\n  - nodePort: 1\n"
        );
        assert!(!out(&src).contains("nodePort"));
    }

    #[test]
    fn preserve_annotation_stays_and_counts_only_in_a_string_map() {
        // A non-string annotation makes GetAnnotations nil: the map is dropped and nothing
        // is preserved.
        let src = format!(
            "{SVC}metadata:\n  annotations:\n    {PRESERVE_ANNOTATION}: nodeport\n    n: 1\nspec:\n  ports:\n  - nodePort: 1\n"
        );
        let o = out(&src);
        assert!(!o.contains("nodePort") && !o.contains("annotations"), "{o}");
    }

    #[test]
    fn ports_not_a_list_is_a_warning() {
        let src = format!("{SVC}spec:\n  ports: {{nodePort: 1}}\n");
        let (o, f) = run(&src);
        assert_eq!(o, src);
        assert_eq!(f[0].field.as_str(), "spec.ports");
    }

    #[test]
    fn only_exact_gvk_is_cleaned() {
        for head in [
            "apiVersion: v2\nkind: Service\n",
            "apiVersion: serving.knative.dev/v1\nkind: Service\n",
            "apiVersion: v1\nkind: service\n",
            "kind: Service\n",
        ] {
            let src = format!("{head}spec:\n  clusterIP: 10.0.0.1\n  sessionAffinity: None\n");
            assert_eq!(out(&src), src, "{head}");
        }
    }

    #[test]
    fn service_spec_not_a_map_is_a_warning() {
        let src = format!("{SVC}spec: [1]\n");
        let (o, f) = run(&src);
        assert_eq!(o, src);
        assert_eq!(f[0].field.as_str(), "spec");
    }

    // ---- §1.3 Job --------------------------------------------------------------------------

    const JOB: &str = "apiVersion: batch/v1\nkind: Job\n";

    #[test]
    fn job_tracking_annotation_and_controller_uid_labels_removed() {
        let src = format!(
            "{JOB}metadata:\n  annotations:\n    batch.kubernetes.io/job-tracking: \"\"\n  labels:\n    controller-uid: x\n    batch.kubernetes.io/controller-uid: x\n    job-name: pi\n    batch.kubernetes.io/job-name: pi\n"
        );
        assert_eq!(
            out(&src),
            format!("{JOB}metadata:\n  annotations: {{}}\n  labels:\n    job-name: pi\n    batch.kubernetes.io/job-name: pi\n")
        );
    }

    #[test]
    fn job_labels_left_empty_stay_empty_map() {
        let src = format!("{JOB}metadata:\n  labels:\n    controller-uid: x\n");
        assert_eq!(out(&src), format!("{JOB}metadata:\n  labels: {{}}\n"));
    }

    #[test]
    fn job_selector_and_suspend_removed_whatever_value() {
        for v in ["true", "false", "null"] {
            let src = format!(
                "{JOB}spec:\n  selector:\n    matchLabels: {{a: b}}\n  manualSelector: true\n  suspend: {v}\n  parallelism: 1\n"
            );
            assert_eq!(
                out(&src),
                format!("{JOB}spec:\n  manualSelector: true\n  parallelism: 1\n")
            );
        }
    }

    #[test]
    fn job_spec_suspended_removed_too() {
        // tailor's decision: the docs' `spec.suspended` goes as well.
        let src = format!("{JOB}spec:\n  suspended: true\n  completions: 1\n");
        assert_eq!(out(&src), format!("{JOB}spec:\n  completions: 1\n"));
    }

    #[test]
    fn job_template_labels_cleaned_annotations_not() {
        let src = format!(
            "{JOB}spec:\n  template:\n    metadata:\n      labels:\n        controller-uid: x\n        batch.kubernetes.io/controller-uid: x\n        job-name: pi\n      annotations:\n        controller-uid: x\n"
        );
        assert_eq!(
            out(&src),
            format!("{JOB}spec:\n  template:\n    metadata:\n      labels:\n        job-name: pi\n      annotations:\n        controller-uid: x\n")
        );
    }

    #[test]
    fn job_cleaning_skips_null_or_non_map_parts() {
        let src = format!("{JOB}metadata:\n  labels: null\nspec:\n  template: null\n");
        assert_eq!(out(&src), src);
        let src = format!("{JOB}spec: x\n");
        let (o, f) = run(&src);
        assert_eq!(o, src);
        assert_eq!(f.len(), 1);
    }

    #[test]
    fn other_job_versions_and_kinds_untouched() {
        for head in [
            "apiVersion: batch/v2\nkind: Job\n",
            "apiVersion: batch/v1\nkind: CronJob\n",
        ] {
            let src = format!("{head}spec:\n  suspend: true\n  selector: {{}}\n");
            assert_eq!(out(&src), src);
        }
    }

    #[test]
    fn other_kinds_keep_their_controller_uid_labels() {
        let src = "apiVersion: v1\nkind: Pod\nmetadata:\n  labels:\n    controller-uid: x\n";
        assert_eq!(out(src), src);
    }

    // ---- presentation ---------------------------------------------------------------------

    #[test]
    fn comments_order_and_styles_survive() {
        let src = "\
# head comment
apiVersion: v1 # line
kind: Service
metadata:
  name: 'web' # quoted
  uid: abc
  labels:
    # about app
    app: \"web\"
spec:
  # the type
  type: NodePort
  clusterIP: 10.0.0.1
  ports: # ports
  - name: http
    port: 80 # eighty
    nodePort: 30080
status:
  loadBalancer: {}
";
        // The output is the input without the stripped lines, every other byte kept.
        let stripped = [
            "  uid: abc\n",
            "  clusterIP: 10.0.0.1\n",
            "    nodePort: 30080\n",
            "status:\n  loadBalancer: {}\n",
        ];
        let expected = stripped
            .iter()
            .fold(src.to_string(), |s, line| s.replacen(line, "", 1));
        assert_eq!(out(src), expected);
    }
}
