//! §1 of the reference: the transport controller's `TransformObject` before CustomTransforms.
//!
//! Order (KubeStellar's): the eight `metadata` fields, the last-applied annotation, `status`,
//! then the per-kind cleaning looked up by exact GVK (`v1 Service`, `batch/v1 Job`).

use tailor_yaml::Node;

use crate::tree::{remove_key, type_name};
use crate::Finding;

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

/// Applies KubeStellar's WEC-independent cleaning (reference §1.1–§1.3) to one object.
///
/// Differences from KubeStellar's code, decided by tailor: Service `nodePort` is removed
/// (not set to null, and not added to ports without one), the older preserve annotation
/// `kubestellar.io/annotations/preserve: nodeport` is honoured as well, and Job
/// `spec.suspended` is removed along with `spec.suspend`.
pub fn strip_builtin(obj: &mut Node) -> Vec<Finding> {
    let mut findings = Vec::new();
    if !obj.is_mapping() {
        findings.push(Finding::warning(
            format!("object is {}, not a mapping; nothing stripped", type_name(obj)),
            None,
        ));
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

/// §1.1 steps 1 and 2.
fn strip_metadata(obj: &mut Node, findings: &mut Vec<Finding>) {
    let Some(meta) = obj.get_mut("metadata") else {
        return;
    };
    if !meta.is_mapping() {
        // RemoveNestedField/SetAnnotations do nothing when metadata is not a map.
        if !meta.is_null() {
            findings.push(Finding::warning(
                format!(
                    "metadata is {}, not a mapping; metadata fields not stripped",
                    type_name(meta)
                ),
                Some("metadata".into()),
            ));
        }
        return;
    }
    for field in METADATA_FIELDS {
        remove_key(meta, field);
    }
    let Some(annotations) = meta.get("annotations") else {
        return;
    };
    // GetAnnotations (NestedStringMap) is nil for null, a non-map, or any non-string value;
    // SetAnnotations(nil) then removes the key.
    match string_map_problem(annotations) {
        None => {
            if let Some(a) = meta.get_mut("annotations") {
                remove_key(a, LAST_APPLIED_ANNOTATION);
            }
        }
        Some(problem) => {
            if !annotations.is_null() {
                findings.push(Finding::warning(
                    format!(
                        "metadata.annotations {problem}; as KubeStellar does, the whole annotations field is removed"
                    ),
                    Some("metadata.annotations".into()),
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
    let Some(spec) = obj.get_mut("spec") else {
        return;
    };
    if !spec.is_mapping() {
        if !spec.is_null() {
            findings.push(Finding::warning(
                format!(
                    "Service spec is {}, not a mapping; not cleaned",
                    type_name(spec)
                ),
                Some("spec".into()),
            ));
        }
        return;
    }
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
            findings.push(Finding::warning(
                format!(
                    "spec.clusterIP is {}, not a string; left as it is",
                    type_name(ip)
                ),
                Some("spec.clusterIP".into()),
            ));
        }
    }

    // clusterIPs: only a list of strings counts; keep its "None" entries.
    let mut drop_ips = false;
    if let Some(ips) = spec.get_mut("clusterIPs") {
        let is_null = ips.is_null();
        let ty = type_name(ips);
        match ips.items_mut() {
            Some(items) if items.iter().all(|i| i.as_str().is_some()) => {
                items.retain(|i| i.as_str() == Some("None"));
                drop_ips = items.is_empty();
            }
            Some(_) => findings.push(Finding::warning(
                "spec.clusterIPs has an element that is not a string; left as it is",
                Some("spec.clusterIPs".into()),
            )),
            None if is_null => {}
            None => findings.push(Finding::warning(
                format!("spec.clusterIPs is {ty}, not a list; left as it is"),
                Some("spec.clusterIPs".into()),
            )),
        }
    }
    if drop_ips {
        remove_key(spec, "clusterIPs");
    }

    if preserve_node_port {
        return;
    }
    if let Some(ports) = spec.get_mut("ports") {
        let is_null = ports.is_null();
        let ty = type_name(ports);
        match ports.items_mut() {
            Some(items) => {
                for port in items.iter_mut() {
                    remove_key(port, "nodePort");
                }
            }
            None if is_null => {}
            None => findings.push(Finding::warning(
                format!("spec.ports is {ty}, not a list; nodePorts not removed"),
                Some("spec.ports".into()),
            )),
        }
    }
}

/// §1.3: `filtering/job.go`, plus `spec.suspended`.
fn clean_job(obj: &mut Node, findings: &mut Vec<Finding>) {
    if let Some(meta) = obj.get_mut("metadata") {
        if let Some(a) = meta.get_mut("annotations") {
            remove_key(a, JOB_TRACKING_ANNOTATION);
        }
        if let Some(labels) = meta.get_mut("labels") {
            for l in CONTROLLER_UID_LABELS {
                remove_key(labels, l);
            }
        }
    }
    if let Some(spec) = obj.get_mut("spec") {
        if !spec.is_mapping() {
            if !spec.is_null() {
                findings.push(Finding::warning(
                    format!("Job spec is {}, not a mapping; not cleaned", type_name(spec)),
                    Some("spec".into()),
                ));
            }
        } else {
            remove_key(spec, "selector");
            remove_key(spec, "suspend");
            remove_key(spec, "suspended");
            if let Some(labels) = spec.get_path_mut(&["template", "metadata", "labels"]) {
                for l in CONTROLLER_UID_LABELS {
                    remove_key(labels, l);
                }
            }
        }
    }
    remove_key(obj, "status");
}
