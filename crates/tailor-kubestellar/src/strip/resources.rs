//! Kind → plural resource mapping. KubeStellar gets the resource from API discovery; an
//! offline function needs a table for the built-in API and the CRDs it is given.

use std::collections::HashMap;

use tailor_yaml::Node;

use crate::strip::tree::type_name;
use crate::strip::{Diagnostic, Finding};

/// (group, kind, plural) for every kind served by a Kubernetes API server out of the box
/// (v1.34, alpha and beta included, plus kinds of groups that were removed but still appear
/// in old manifests: `extensions`, `policy` PodSecurityPolicy, `resource.k8s.io` v1alpha2).
/// Subresource kinds (`Scale`, `Eviction`, `TokenRequest`, `Binding` of pods is a resource
/// though) and List kinds are not resources of their own and are left out.
const BUILTIN: &[(&str, &str, &str)] = &[
    // core
    ("", "Binding", "bindings"),
    ("", "ComponentStatus", "componentstatuses"),
    ("", "ConfigMap", "configmaps"),
    ("", "Endpoints", "endpoints"),
    ("", "Event", "events"),
    ("", "LimitRange", "limitranges"),
    ("", "Namespace", "namespaces"),
    ("", "Node", "nodes"),
    ("", "PersistentVolume", "persistentvolumes"),
    ("", "PersistentVolumeClaim", "persistentvolumeclaims"),
    ("", "Pod", "pods"),
    ("", "PodTemplate", "podtemplates"),
    ("", "ReplicationController", "replicationcontrollers"),
    ("", "ResourceQuota", "resourcequotas"),
    ("", "Secret", "secrets"),
    ("", "Service", "services"),
    ("", "ServiceAccount", "serviceaccounts"),
    // admissionregistration.k8s.io
    (
        "admissionregistration.k8s.io",
        "MutatingWebhookConfiguration",
        "mutatingwebhookconfigurations",
    ),
    (
        "admissionregistration.k8s.io",
        "ValidatingWebhookConfiguration",
        "validatingwebhookconfigurations",
    ),
    (
        "admissionregistration.k8s.io",
        "ValidatingAdmissionPolicy",
        "validatingadmissionpolicies",
    ),
    (
        "admissionregistration.k8s.io",
        "ValidatingAdmissionPolicyBinding",
        "validatingadmissionpolicybindings",
    ),
    (
        "admissionregistration.k8s.io",
        "MutatingAdmissionPolicy",
        "mutatingadmissionpolicies",
    ),
    (
        "admissionregistration.k8s.io",
        "MutatingAdmissionPolicyBinding",
        "mutatingadmissionpolicybindings",
    ),
    // apiextensions.k8s.io
    (
        "apiextensions.k8s.io",
        "CustomResourceDefinition",
        "customresourcedefinitions",
    ),
    // apiregistration.k8s.io
    ("apiregistration.k8s.io", "APIService", "apiservices"),
    // apps
    ("apps", "ControllerRevision", "controllerrevisions"),
    ("apps", "DaemonSet", "daemonsets"),
    ("apps", "Deployment", "deployments"),
    ("apps", "ReplicaSet", "replicasets"),
    ("apps", "StatefulSet", "statefulsets"),
    // authentication.k8s.io
    (
        "authentication.k8s.io",
        "SelfSubjectReview",
        "selfsubjectreviews",
    ),
    ("authentication.k8s.io", "TokenReview", "tokenreviews"),
    // authorization.k8s.io
    (
        "authorization.k8s.io",
        "LocalSubjectAccessReview",
        "localsubjectaccessreviews",
    ),
    (
        "authorization.k8s.io",
        "SelfSubjectAccessReview",
        "selfsubjectaccessreviews",
    ),
    (
        "authorization.k8s.io",
        "SelfSubjectRulesReview",
        "selfsubjectrulesreviews",
    ),
    (
        "authorization.k8s.io",
        "SubjectAccessReview",
        "subjectaccessreviews",
    ),
    // autoscaling
    (
        "autoscaling",
        "HorizontalPodAutoscaler",
        "horizontalpodautoscalers",
    ),
    // batch
    ("batch", "CronJob", "cronjobs"),
    ("batch", "Job", "jobs"),
    // certificates.k8s.io
    (
        "certificates.k8s.io",
        "CertificateSigningRequest",
        "certificatesigningrequests",
    ),
    (
        "certificates.k8s.io",
        "ClusterTrustBundle",
        "clustertrustbundles",
    ),
    (
        "certificates.k8s.io",
        "PodCertificateRequest",
        "podcertificaterequests",
    ),
    // coordination.k8s.io
    ("coordination.k8s.io", "Lease", "leases"),
    ("coordination.k8s.io", "LeaseCandidate", "leasecandidates"),
    // discovery.k8s.io
    ("discovery.k8s.io", "EndpointSlice", "endpointslices"),
    // events.k8s.io
    ("events.k8s.io", "Event", "events"),
    // extensions (removed in 1.16–1.22; still found in old manifests)
    ("extensions", "DaemonSet", "daemonsets"),
    ("extensions", "Deployment", "deployments"),
    ("extensions", "Ingress", "ingresses"),
    ("extensions", "NetworkPolicy", "networkpolicies"),
    ("extensions", "PodSecurityPolicy", "podsecuritypolicies"),
    ("extensions", "ReplicaSet", "replicasets"),
    // flowcontrol.apiserver.k8s.io
    ("flowcontrol.apiserver.k8s.io", "FlowSchema", "flowschemas"),
    (
        "flowcontrol.apiserver.k8s.io",
        "PriorityLevelConfiguration",
        "prioritylevelconfigurations",
    ),
    // internal.apiserver.k8s.io
    (
        "internal.apiserver.k8s.io",
        "StorageVersion",
        "storageversions",
    ),
    // networking.k8s.io
    ("networking.k8s.io", "IPAddress", "ipaddresses"),
    ("networking.k8s.io", "Ingress", "ingresses"),
    ("networking.k8s.io", "IngressClass", "ingressclasses"),
    ("networking.k8s.io", "NetworkPolicy", "networkpolicies"),
    ("networking.k8s.io", "ServiceCIDR", "servicecidrs"),
    // node.k8s.io
    ("node.k8s.io", "RuntimeClass", "runtimeclasses"),
    // policy
    ("policy", "PodDisruptionBudget", "poddisruptionbudgets"),
    ("policy", "PodSecurityPolicy", "podsecuritypolicies"),
    // rbac.authorization.k8s.io
    ("rbac.authorization.k8s.io", "ClusterRole", "clusterroles"),
    (
        "rbac.authorization.k8s.io",
        "ClusterRoleBinding",
        "clusterrolebindings",
    ),
    ("rbac.authorization.k8s.io", "Role", "roles"),
    ("rbac.authorization.k8s.io", "RoleBinding", "rolebindings"),
    // resource.k8s.io (DRA; v1beta*/v1 kinds, plus the v1alpha2 kinds of 1.26–1.30)
    ("resource.k8s.io", "DeviceClass", "deviceclasses"),
    ("resource.k8s.io", "DeviceTaintRule", "devicetaintrules"),
    ("resource.k8s.io", "ResourceClaim", "resourceclaims"),
    (
        "resource.k8s.io",
        "ResourceClaimTemplate",
        "resourceclaimtemplates",
    ),
    ("resource.k8s.io", "ResourceSlice", "resourceslices"),
    (
        "resource.k8s.io",
        "PodSchedulingContext",
        "podschedulingcontexts",
    ),
    ("resource.k8s.io", "ResourceClass", "resourceclasses"),
    (
        "resource.k8s.io",
        "ResourceClaimParameters",
        "resourceclaimparameters",
    ),
    (
        "resource.k8s.io",
        "ResourceClassParameters",
        "resourceclassparameters",
    ),
    // scheduling.k8s.io
    ("scheduling.k8s.io", "PriorityClass", "priorityclasses"),
    // storage.k8s.io
    ("storage.k8s.io", "CSIDriver", "csidrivers"),
    ("storage.k8s.io", "CSINode", "csinodes"),
    (
        "storage.k8s.io",
        "CSIStorageCapacity",
        "csistoragecapacities",
    ),
    ("storage.k8s.io", "StorageClass", "storageclasses"),
    ("storage.k8s.io", "VolumeAttachment", "volumeattachments"),
    (
        "storage.k8s.io",
        "VolumeAttributesClass",
        "volumeattributesclasses",
    ),
    // storagemigration.k8s.io
    (
        "storagemigration.k8s.io",
        "StorageVersionMigration",
        "storageversionmigrations",
    ),
];

/// Maps (group, kind) to the plural resource name that CustomTransforms are keyed by.
/// kubectl's short names of built-in resources (`kubectl api-resources`), which a
/// CustomTransform does not accept but a user may write.
const SHORT_NAMES: &[(&str, &str)] = &[
    ("cs", "componentstatuses"),
    ("cm", "configmaps"),
    ("ep", "endpoints"),
    ("ev", "events"),
    ("limits", "limitranges"),
    ("ns", "namespaces"),
    ("no", "nodes"),
    ("pvc", "persistentvolumeclaims"),
    ("pv", "persistentvolumes"),
    ("po", "pods"),
    ("rc", "replicationcontrollers"),
    ("quota", "resourcequotas"),
    ("sa", "serviceaccounts"),
    ("svc", "services"),
    ("crd", "customresourcedefinitions"),
    ("crds", "customresourcedefinitions"),
    ("ds", "daemonsets"),
    ("deploy", "deployments"),
    ("rs", "replicasets"),
    ("sts", "statefulsets"),
    ("hpa", "horizontalpodautoscalers"),
    ("cj", "cronjobs"),
    ("csr", "certificatesigningrequests"),
    ("ing", "ingresses"),
    ("netpol", "networkpolicies"),
    ("pdb", "poddisruptionbudgets"),
    ("psp", "podsecuritypolicies"),
    ("pc", "priorityclasses"),
    ("sc", "storageclasses"),
];

#[derive(Clone, Debug, Default)]
pub struct ResourceMapper {
    map: HashMap<(String, String), String>,
}

/// The group of an `apiVersion` (`""` for the core `v1`).
fn group_of(api_version: &str) -> &str {
    match api_version.rsplit_once('/') {
        Some((group, _)) => group,
        None => "",
    }
}

impl ResourceMapper {
    /// An empty mapper (no kinds known).
    pub fn new() -> Self {
        Self::default()
    }

    /// Every built-in Kubernetes kind.
    pub fn builtin() -> Self {
        let mut m = Self::new();
        for (g, k, r) in BUILTIN {
            m.add(g, k, r);
        }
        m
    }

    /// Adds or replaces one mapping.
    pub fn add(&mut self, group: &str, kind: &str, plural: &str) {
        self.map
            .insert((group.to_string(), kind.to_string()), plural.to_string());
    }

    /// Adds the kind a `CustomResourceDefinition` object defines (`spec.group`,
    /// `spec.names.kind`, `spec.names.plural`); it replaces a built-in entry for the same
    /// (group, kind). Problems are returned as findings naming the field.
    pub fn add_crd(&mut self, crd: &Node) -> Vec<Finding> {
        let name = crd
            .get_path(&["metadata", "name"])
            .and_then(Node::as_str)
            .unwrap_or("");
        let mut findings = Vec::new();
        let mut field = |path: &[&str], what: &str| -> Option<String> {
            match crd.get_path(path) {
                Some(v) => match v.as_str() {
                    Some(s) if !s.is_empty() => Some(s.to_string()),
                    _ => {
                        findings.push(Diagnostic::error(format!(
                                "CustomResourceDefinition {name:?}: {what} must be a non-empty string, not {}",
                                type_name(v)
                            )).at_opt(Some(path.join("."))));
                        None
                    }
                },
                None => {
                    findings.push(
                        Diagnostic::error(format!(
                            "CustomResourceDefinition {name:?}: {what} is missing"
                        ))
                        .at_opt(Some(path.join("."))),
                    );
                    None
                }
            }
        };
        let group = field(&["spec", "group"], "spec.group");
        let kind = field(&["spec", "names", "kind"], "spec.names.kind");
        let plural = field(&["spec", "names", "plural"], "spec.names.plural");
        if let (Some(g), Some(k), Some(p)) = (group, kind, plural) {
            self.add(&g, &k, &p);
        }
        findings
    }

    /// The lowercase plural of `group` that `written` probably means, when it is not one: the
    /// kind (`PersistentVolumeClaim`), the singular (`deployment`), kubectl's short name
    /// (`pvc`) or a near spelling (`deploymnets`). `Some(written)` when it is a plural of the
    /// group.
    pub fn suggest_resource(&self, group: &str, written: &str) -> Option<String> {
        let plurals: Vec<(&str, &str)> = self
            .map
            .iter()
            .filter(|((g, _), _)| g == group)
            .map(|((_, k), p)| (k.as_str(), p.as_str()))
            .collect();
        if plurals.iter().any(|(_, p)| *p == written) {
            return Some(written.to_string());
        }
        let lower = written.to_lowercase();
        if let Some((_, p)) = plurals
            .iter()
            .find(|(k, p)| k.eq_ignore_ascii_case(written) || p.eq_ignore_ascii_case(written))
        {
            return Some(p.to_string());
        }
        if let Some((_, p)) = SHORT_NAMES
            .iter()
            .find(|(short, p)| *short == lower && plurals.iter().any(|(_, q)| q == p))
        {
            return Some(p.to_string());
        }
        let candidates: Vec<&str> = plurals.iter().map(|(_, p)| *p).collect();
        tailor_kube::json::suggest(&lower, &candidates).map(str::to_string)
    }

    /// (group, plural) for an object's `apiVersion` and `kind`; the version is ignored.
    pub fn resource_for(&self, api_version: &str, kind: &str) -> Option<(String, String)> {
        if api_version.is_empty() || kind.is_empty() {
            return None;
        }
        let group = group_of(api_version);
        self.map
            .get(&(group.to_string(), kind.to_string()))
            .map(|plural| (group.to_string(), plural.clone()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tailor_yaml::parse_stream;

    fn r(api_version: &str, kind: &str) -> Option<(String, String)> {
        ResourceMapper::builtin().resource_for(api_version, kind)
    }

    fn pair(g: &str, p: &str) -> Option<(String, String)> {
        Some((g.into(), p.into()))
    }

    #[test]
    fn suggests_the_plural_meant() {
        let m = ResourceMapper::builtin();
        let s = |g: &str, w: &str| m.suggest_resource(g, w);
        assert_eq!(
            s("", "PersistentVolumeClaim").as_deref(),
            Some("persistentvolumeclaims")
        );
        assert_eq!(s("", "pvc").as_deref(), Some("persistentvolumeclaims"));
        assert_eq!(s("apps", "deployment").as_deref(), Some("deployments"));
        assert_eq!(s("apps", "deploymnets").as_deref(), Some("deployments"));
        assert_eq!(s("apps", "deployments").as_deref(), Some("deployments"));
        assert_eq!(s("apps", "pvc"), None);
        assert_eq!(s("example.com", "widgets"), None);
    }

    #[test]
    fn builtin_kinds_across_groups() {
        assert_eq!(r("v1", "Service"), pair("", "services"));
        assert_eq!(r("v1", "Endpoints"), pair("", "endpoints"));
        assert_eq!(r("apps/v1", "Deployment"), pair("apps", "deployments"));
        assert_eq!(r("batch/v1", "CronJob"), pair("batch", "cronjobs"));
        assert_eq!(
            r("networking.k8s.io/v1", "NetworkPolicy"),
            pair("networking.k8s.io", "networkpolicies")
        );
        assert_eq!(
            r("networking.k8s.io/v1", "IngressClass"),
            pair("networking.k8s.io", "ingressclasses")
        );
        assert_eq!(
            r("policy/v1", "PodDisruptionBudget"),
            pair("policy", "poddisruptionbudgets")
        );
        assert_eq!(
            r("autoscaling/v2", "HorizontalPodAutoscaler"),
            pair("autoscaling", "horizontalpodautoscalers")
        );
        assert_eq!(
            r("storage.k8s.io/v1", "CSIStorageCapacity"),
            pair("storage.k8s.io", "csistoragecapacities")
        );
        assert_eq!(
            r("scheduling.k8s.io/v1", "PriorityClass"),
            pair("scheduling.k8s.io", "priorityclasses")
        );
        assert_eq!(
            r("flowcontrol.apiserver.k8s.io/v1", "FlowSchema"),
            pair("flowcontrol.apiserver.k8s.io", "flowschemas")
        );
        assert_eq!(
            r("resource.k8s.io/v1beta1", "ResourceClaimTemplate"),
            pair("resource.k8s.io", "resourceclaimtemplates")
        );
        assert_eq!(
            r("events.k8s.io/v1", "Event"),
            pair("events.k8s.io", "events")
        );
        assert_eq!(
            r("apiextensions.k8s.io/v1", "CustomResourceDefinition"),
            pair("apiextensions.k8s.io", "customresourcedefinitions")
        );
    }

    #[test]
    fn table_has_no_duplicates_and_plurals_are_lowercase() {
        let mut seen = std::collections::HashSet::new();
        for (g, k, p) in BUILTIN {
            assert!(seen.insert((g, k)), "duplicate {g} {k}");
            assert_eq!(p.to_lowercase(), *p);
            assert!(p.ends_with('s'), "{p}");
        }
    }

    #[test]
    fn kind_and_group_must_match_exactly() {
        assert_eq!(r("v1", "service"), None);
        assert_eq!(r("apps/v1", "Service"), None);
        assert_eq!(r("example.com/v1", "Widget"), None);
        assert_eq!(r("", "Service"), None);
        assert_eq!(r("v1", ""), None);
    }

    #[test]
    fn crd_errors_name_the_field() {
        let crd = parse_stream("kind: CustomResourceDefinition\nmetadata: {name: x}\nspec:\n  group: 5\n  names: {kind: W}\n")
            .unwrap()
            .remove(0)
            .root;
        let mut m = ResourceMapper::new();
        let f = m.add_crd(&crd);
        let paths: Vec<_> = f
            .iter()
            .map(|f| f.field.clone())
            .filter(|f| !f.is_empty())
            .collect();
        assert_eq!(paths, ["spec.group", "spec.names.plural"]);
        assert_eq!(m.resource_for("example.com/v1", "W"), None);
    }
}
