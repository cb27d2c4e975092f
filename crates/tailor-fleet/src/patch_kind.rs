//! Which kind of patch Fleet applies for an overlay `_patch.` file (wrangler `pkg/patch`
//! `apply.go`/`style.go`, `docs/semantics/fleet.md` §3):
//!
//! 1. the patch is a list (its JSON starts with `[`) → RFC 6902 JSON Patch;
//! 2. the base has no apiVersion or no kind → RFC 7386 JSON merge patch;
//! 3. the base's GVK is registered in client-go's `scheme.Scheme` and is not a
//!    CustomResourceDefinition → strategic merge patch;
//! 4. anything else (custom resources, CRDs, aggregated APIs such as APIService) → JSON merge
//!    patch.
//!
//! The scheme table below lists the group-versions and kinds client-go registers (k8s.io/api
//! as vendored by Fleet, v0.3x). `apiextensions.k8s.io` and `apiregistration.k8s.io` are not
//! part of client-go's scheme. `<Kind>List` is registered wherever `<Kind>` is, and every
//! group-version also registers the meta kinds (`Status`, `WatchEvent`, `DeleteOptions`, ...),
//! which never appear as manifests and are left out.

use tailor_kube::json::concat_names;
use tailor_yaml::Node;

/// How a `_patch.` file is applied.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PatchKind {
    /// RFC 6902 JSON Patch (a list of operations).
    Json6902,
    /// Kubernetes strategic merge patch with the built-in type's patch metadata.
    Strategic,
    /// RFC 7386 JSON merge patch.
    MergePatch,
}

impl PatchKind {
    pub fn as_str(self) -> &'static str {
        match self {
            PatchKind::Json6902 => "JSON6902",
            PatchKind::Strategic => "strategic merge",
            PatchKind::MergePatch => "JSON merge",
        }
    }
}

const CORE_V1: &[&str] = &[
    "Binding",
    "ComponentStatus",
    "ConfigMap",
    "Endpoints",
    "Event",
    "LimitRange",
    "List",
    "Namespace",
    "Node",
    "PersistentVolume",
    "PersistentVolumeClaim",
    "Pod",
    "PodTemplate",
    "RangeAllocation",
    "ReplicationController",
    "ResourceQuota",
    "Secret",
    "Service",
    "ServiceAccount",
];
const APPS: &[&str] = &[
    "ControllerRevision",
    "DaemonSet",
    "Deployment",
    "ReplicaSet",
    "StatefulSet",
];
const RBAC: &[&str] = &["ClusterRole", "ClusterRoleBinding", "Role", "RoleBinding"];
const WEBHOOKS: [&str; 4] = [
    "MutatingWebhookConfiguration",
    "ValidatingWebhookConfiguration",
    "ValidatingAdmissionPolicy",
    "ValidatingAdmissionPolicyBinding",
];
const WEBHOOKS_V1BETA1: &[&str] = &concat_names::<4, 2, 6>(
    WEBHOOKS,
    ["MutatingAdmissionPolicy", "MutatingAdmissionPolicyBinding"],
);
const STORAGE_V1: &[&str] = &[
    "CSIDriver",
    "CSINode",
    "CSIStorageCapacity",
    "StorageClass",
    "VolumeAttachment",
    "VolumeAttributesClass",
];
const FLOW_CONTROL: &[&str] = &["FlowSchema", "PriorityLevelConfiguration"];
const DRA: &[&str] = &[
    "DeviceClass",
    "ResourceClaim",
    "ResourceClaimTemplate",
    "ResourceSlice",
];

/// `(apiVersion, kinds)` registered in client-go's `scheme.Scheme`.
const SCHEME: &[(&str, &[&str])] = &[
    ("v1", CORE_V1),
    ("apps/v1", APPS),
    (
        "apps/v1beta1",
        &["ControllerRevision", "Deployment", "StatefulSet"],
    ),
    ("apps/v1beta2", APPS),
    (
        "extensions/v1beta1",
        &[
            "DaemonSet",
            "Deployment",
            "Ingress",
            "NetworkPolicy",
            "ReplicaSet",
        ],
    ),
    ("batch/v1", &["CronJob", "Job"]),
    ("batch/v1beta1", &["CronJob"]),
    ("autoscaling/v1", &["HorizontalPodAutoscaler"]),
    ("autoscaling/v2", &["HorizontalPodAutoscaler"]),
    ("autoscaling/v2beta1", &["HorizontalPodAutoscaler"]),
    ("autoscaling/v2beta2", &["HorizontalPodAutoscaler"]),
    ("policy/v1", &["Eviction", "PodDisruptionBudget"]),
    ("policy/v1beta1", &["Eviction", "PodDisruptionBudget"]),
    (
        "networking.k8s.io/v1",
        &[
            "Ingress",
            "IngressClass",
            "IPAddress",
            "NetworkPolicy",
            "ServiceCIDR",
        ],
    ),
    (
        "networking.k8s.io/v1beta1",
        &["Ingress", "IngressClass", "IPAddress", "ServiceCIDR"],
    ),
    ("rbac.authorization.k8s.io/v1", RBAC),
    ("rbac.authorization.k8s.io/v1beta1", RBAC),
    ("rbac.authorization.k8s.io/v1alpha1", RBAC),
    ("storage.k8s.io/v1", STORAGE_V1),
    ("storage.k8s.io/v1beta1", STORAGE_V1),
    ("scheduling.k8s.io/v1", &["PriorityClass"]),
    ("node.k8s.io/v1", &["RuntimeClass"]),
    ("admissionregistration.k8s.io/v1", &WEBHOOKS),
    ("admissionregistration.k8s.io/v1beta1", WEBHOOKS_V1BETA1),
    ("certificates.k8s.io/v1", &["CertificateSigningRequest"]),
    ("coordination.k8s.io/v1", &["Lease"]),
    ("discovery.k8s.io/v1", &["EndpointSlice"]),
    ("events.k8s.io/v1", &["Event"]),
    ("flowcontrol.apiserver.k8s.io/v1", FLOW_CONTROL),
    ("flowcontrol.apiserver.k8s.io/v1beta3", FLOW_CONTROL),
    ("resource.k8s.io/v1", DRA),
    ("resource.k8s.io/v1beta1", DRA),
    ("resource.k8s.io/v1beta2", DRA),
    (
        "authentication.k8s.io/v1",
        &["SelfSubjectReview", "TokenReview"],
    ),
    (
        "authorization.k8s.io/v1",
        &[
            "LocalSubjectAccessReview",
            "SelfSubjectAccessReview",
            "SelfSubjectRulesReview",
            "SubjectAccessReview",
        ],
    ),
];

/// Is `apiVersion`/`kind` a type client-go's scheme knows (so wrangler can look up its
/// strategic-merge metadata)?
pub fn is_builtin_gvk(api_version: &str, kind: &str) -> bool {
    let Some((_, kinds)) = SCHEME.iter().find(|(gv, _)| *gv == api_version) else {
        return false;
    };
    let base_kind = kind
        .strip_suffix("List")
        .filter(|k| !k.is_empty())
        .unwrap_or(kind);
    kinds.contains(&kind) || kinds.contains(&base_kind)
}

/// Fleet's choice of patch type for `patch` against a base with this apiVersion and kind.
pub fn fleet_patch_kind(patch: &Node, target_api_version: &str, target_kind: &str) -> PatchKind {
    if patch.is_sequence() {
        return PatchKind::Json6902;
    }
    if target_api_version.is_empty() || target_kind.is_empty() {
        return PatchKind::MergePatch;
    }
    if target_kind != "CustomResourceDefinition" && is_builtin_gvk(target_api_version, target_kind)
    {
        PatchKind::Strategic
    } else {
        PatchKind::MergePatch
    }
}

/// [`fleet_patch_kind`] reading apiVersion and kind from the base document itself.
pub fn fleet_patch_kind_for(patch: &Node, base: &Node) -> PatchKind {
    fleet_patch_kind(
        patch,
        base.get_str("apiVersion").unwrap_or(""),
        base.get_str("kind").unwrap_or(""),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(src: &str) -> Node {
        tailor_yaml::parse_stream(src).unwrap().remove(0).root
    }

    #[test]
    fn a_list_is_json6902_whatever_the_base() {
        let p = node("- {op: replace, path: /spec/replicas, value: 3}\n");
        assert_eq!(
            fleet_patch_kind(&p, "apps/v1", "Deployment"),
            PatchKind::Json6902
        );
        assert_eq!(fleet_patch_kind(&p, "", ""), PatchKind::Json6902);
        assert_eq!(
            fleet_patch_kind(&p, "example.com/v1", "Foo"),
            PatchKind::Json6902
        );
    }

    /// A strategic-merge-looking patch gets `expected` for each (apiVersion, kind).
    fn assert_kinds(cases: &[(&str, &str)], expected: PatchKind) {
        let p = node("spec: {replicas: 3}\n");
        for (av, k) in cases {
            assert_eq!(fleet_patch_kind(&p, av, k), expected, "{av} {k}");
        }
    }

    #[test]
    fn built_in_kinds_get_strategic_merge() {
        assert_kinds(
            &[
                ("apps/v1", "Deployment"),
                ("v1", "Service"),
                ("v1", "ConfigMap"),
                ("batch/v1", "CronJob"),
                ("networking.k8s.io/v1", "Ingress"),
                ("rbac.authorization.k8s.io/v1", "ClusterRole"),
                ("apps/v1beta2", "StatefulSet"),
                ("extensions/v1beta1", "Deployment"),
                ("v1", "List"),
                ("apps/v1", "DeploymentList"),
            ],
            PatchKind::Strategic,
        );
    }

    #[test]
    fn everything_else_gets_json_merge_patch() {
        assert_kinds(
            &[
                ("", "Deployment"),
                ("apps/v1", ""),
                ("apiextensions.k8s.io/v1", "CustomResourceDefinition"),
                ("apiregistration.k8s.io/v1", "APIService"),
                ("fleet.cattle.io/v1alpha1", "Bundle"),
                ("apps/v2", "Deployment"),
                ("apps/v1", "Service"),
                ("v1", "Deployment"),
                ("v1", "Lis"),
                ("apps/v1", "List"),
            ],
            PatchKind::MergePatch,
        );
    }

    #[test]
    fn reads_the_base_document() {
        let base = node("apiVersion: v1\nkind: Service\nmetadata: {name: s}\n");
        let cr = node("apiVersion: x.io/v1\nkind: Thing\n");
        let p = node("spec: {}\n");
        assert_eq!(fleet_patch_kind_for(&p, &base), PatchKind::Strategic);
        assert_eq!(fleet_patch_kind_for(&p, &cr), PatchKind::MergePatch);
        // A scalar patch (odd, but possible) is not a list: decided by the base like a map.
        assert_eq!(
            fleet_patch_kind_for(&node("x\n"), &base),
            PatchKind::Strategic
        );
    }
}
