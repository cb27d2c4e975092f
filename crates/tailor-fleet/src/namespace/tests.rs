use super::*;

fn items(src: &str) -> Vec<Node> {
    tailor_yaml::parse_stream(src)
        .unwrap()
        .into_iter()
        .map(|d| d.root)
        .collect()
}

fn namespaces(items: &[Node]) -> Vec<Option<&str>> {
    items
        .iter()
        .map(|i| {
            i.get_path(&["metadata", "namespace"])
                .and_then(Node::as_str)
        })
        .collect()
}

const MIXED: &str = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\n---\n\
apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  namespace: other # keep me\n---\n\
apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: r}\n---\n\
apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\n";

#[test]
fn default_namespace_fills_only_namespaced_objects_without_one() {
    let mut v = items(MIXED);
    let scopes = Scopes::from_items(&v);
    default_namespace(&mut v, "dflt", &scopes);
    assert_eq!(
        namespaces(&v),
        [Some("dflt"), Some("other"), None, Some("dflt")]
    );
}

#[test]
fn forced_namespace_rejects_cluster_scoped_objects() {
    let mut v = items(MIXED);
    let before = v.clone();
    let errs = force_namespace(&mut v, "forced", &Scopes::default()).unwrap_err();
    assert_eq!(errs.len(), 1);
    assert_eq!(errs[0].index, 2);
    assert_eq!(
        errs[0].to_string(),
        "rbac.authorization.k8s.io/v1 ClusterRole/r: invalid cluster scoped object [name=r kind=ClusterRole apiVersion=rbac.authorization.k8s.io/v1] found, consider using \"defaultNamespace\", not \"namespace\" (namespace \"forced\" forbids cluster-scoped resources)"
    );
    assert_eq!(v, before, "nothing changes when there is an error");
}

#[test]
fn forced_namespace_overwrites_every_namespace_and_keeps_comments() {
    let mut v = items(&MIXED.replace(
        "---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: r}\n",
        "",
    ));
    force_namespace(&mut v, "forced", &Scopes::default()).unwrap();
    assert_eq!(
        namespaces(&v),
        [Some("forced"), Some("forced"), Some("forced")]
    );
    let out = tailor_yaml::emit_node(&v[1], Default::default());
    assert!(out.contains("namespace: forced # keep me"), "{out}");
}

#[test]
fn crds_in_the_input_decide_the_scope_of_their_kinds() {
    let crd = "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: widgets.example.com}\n\
spec:\n  group: example.com\n  scope: Cluster\n  names: {kind: Widget, plural: widgets}\n";
    let src = format!("{MIXED}---\n{crd}");
    let v = items(&src);
    let scopes = Scopes::from_items(&v);
    assert!(scopes.is_cluster_scoped("example.com/v1", "Widget"));
    assert!(scopes.is_cluster_scoped("example.com/v2", "Widget"));
    assert!(!scopes.is_cluster_scoped("other.com/v1", "Widget"));
    // The CRD itself is cluster-scoped too.
    let mut v2 = v.clone();
    let errs = force_namespace(&mut v2, "n", &scopes).unwrap_err();
    assert_eq!(
        errs.iter().map(|e| e.kind.as_str()).collect::<Vec<_>>(),
        ["ClusterRole", "Widget", "CustomResourceDefinition"]
    );
    let mut v3 = v.clone();
    default_namespace(&mut v3, "d", &scopes);
    assert_eq!(
        namespaces(&v3),
        [Some("d"), Some("other"), None, None, None]
    );
    // A Namespaced CRD keeps its kind namespaced.
    let ns_crd = crd.replace("scope: Cluster", "scope: Namespaced");
    assert!(!Scopes::from_items(&items(&ns_crd)).is_cluster_scoped("example.com/v1", "Widget"));
}

#[test]
fn builtin_scopes() {
    let s = Scopes::default();
    for (av, k) in [
        ("v1", "Namespace"),
        ("v1", "PersistentVolume"),
        ("storage.k8s.io/v1", "StorageClass"),
        (
            "admissionregistration.k8s.io/v1",
            "ValidatingWebhookConfiguration",
        ),
        ("apiextensions.k8s.io/v1", "CustomResourceDefinition"),
        ("scheduling.k8s.io/v1", "PriorityClass"),
    ] {
        assert!(s.is_cluster_scoped(av, k), "{av} {k}");
    }
    for (av, k) in [
        ("v1", "Service"),
        ("apps/v1", "Deployment"),
        ("rbac.authorization.k8s.io/v1", "Role"),
        ("v1", "ClusterRole"),
    ] {
        assert!(!s.is_cluster_scoped(av, k), "{av} {k}");
    }
}

#[test]
fn apply_namespaces_precedence() {
    let mut v = items("apiVersion: v1\nkind: Service\nmetadata: {name: s, namespace: keep}\n---\napiVersion: v1\nkind: Service\nmetadata: {name: t}\n");
    let before = v.clone();
    apply_namespaces(&mut v, None, None, &Scopes::default()).unwrap();
    assert_eq!(v, before);
    apply_namespaces(&mut v, None, Some("d"), &Scopes::default()).unwrap();
    assert_eq!(namespaces(&v), [Some("keep"), Some("d")]);
    apply_namespaces(&mut v, Some("n"), Some("d"), &Scopes::default()).unwrap();
    assert_eq!(namespaces(&v), [Some("n"), Some("n")]);
}

#[test]
fn odd_metadata_does_not_panic() {
    let mut v =
        items("kind: ConfigMap\nmetadata: null\n---\nkind: ConfigMap\n---\n- a\n---\nplain\n");
    default_namespace(&mut v, "d", &Scopes::default());
    assert_eq!(namespaces(&v)[..2], [Some("d"), Some("d")]);
    force_namespace(&mut v, "n", &Scopes::default()).unwrap();
}
