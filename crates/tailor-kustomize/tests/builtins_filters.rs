//! Behaviour of each transformer, one field-spec group at a time, plus golden snapshots of
//! whole outputs (which also show that untouched text, comments and key order survive).

use tailor_kustomize::builtins::{
    add_prefix_suffix, apply_overlay, set_common_metadata, set_images, set_namespace, Image,
    Overlay,
};
use tailor_testkit::yaml::docs;
use tailor_yaml::{emit_document, parse_stream, EmitOptions, Node};

fn emit(nodes: &[Node]) -> String {
    nodes
        .iter()
        .map(|n| {
            let mut d = parse_stream("{}").unwrap().remove(0);
            d.root = n.clone();
            emit_document(&d, EmitOptions::default())
        })
        .collect::<Vec<_>>()
        .join("---\n")
}

fn path<'a>(n: &'a Node, p: &str) -> Option<&'a str> {
    let mut cur = n;
    for seg in p.split('.') {
        cur = match seg.parse::<usize>() {
            Ok(i) => cur.items()?.get(i)?,
            Err(_) => cur.get(seg)?,
        };
    }
    cur.as_scalar()
}

fn image(name: &str, new_name: &str, tag: &str, digest: &str) -> Image {
    Image {
        name: name.into(),
        new_name: new_name.into(),
        new_tag: tag.into(),
        digest: digest.into(),
    }
}

// ---- namespace ------------------------------------------------------------------------

#[test]
fn namespace_goes_on_namespaced_kinds_only() {
    let mut r = docs(
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  namespace: old\n---\n\
         apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: cr\n---\n\
         apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n---\n\
         kind: NoMetadata\napiVersion: v1\n",
    );
    set_namespace(&mut r, "target").unwrap();
    assert_eq!(path(&r[0], "metadata.namespace"), Some("target"));
    assert_eq!(path(&r[1], "metadata.namespace"), None);
    // kustomize does not know the CRD's scope, so custom resources count as namespaced
    assert_eq!(path(&r[2], "metadata.namespace"), Some("target"));
    assert_eq!(path(&r[3], "metadata.namespace"), Some("target"));
}

#[test]
fn namespace_renames_v1_namespace_objects_only() {
    let mut r = docs(
        "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: old\n---\n\
         apiVersion: v2\nkind: Namespace\nmetadata:\n  name: other\n",
    );
    set_namespace(&mut r, "target").unwrap();
    assert_eq!(path(&r[0], "metadata.name"), Some("target"));
    assert_eq!(path(&r[0], "metadata.namespace"), None);
    assert_eq!(path(&r[1], "metadata.name"), Some("other"));
    assert_eq!(path(&r[1], "metadata.namespace"), Some("target"));
}

#[test]
fn namespace_sets_default_subjects_and_moves_referenced_service_accounts() {
    let mut r = docs(
        "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata:\n  name: crb\n\
         roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: view}\n\
         subjects:\n- kind: ServiceAccount\n  name: default\n- kind: Group\n  name: default\n\
         - kind: ServiceAccount\n  name: sa\n  namespace: old\n\
         - kind: ServiceAccount\n  name: elsewhere\n  namespace: other\n---\n\
         apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: sa\n  namespace: old\n",
    );
    set_namespace(&mut r, "target").unwrap();
    assert_eq!(path(&r[0], "subjects.0.namespace"), Some("target"));
    assert_eq!(path(&r[0], "subjects.1.namespace"), Some("target"));
    // moved by the name reference to the ServiceAccount in the bundle
    assert_eq!(path(&r[0], "subjects.2.namespace"), Some("target"));
    // not in the bundle: left alone
    assert_eq!(path(&r[0], "subjects.3.namespace"), Some("other"));
}

#[test]
fn namespace_fills_apiservice_and_crd_webhook_services() {
    let mut r = docs(
        "apiVersion: apiregistration.k8s.io/v1\nkind: APIService\nmetadata:\n  name: v1.x\nspec:\n  group: x\n---\n\
         apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: a.x\n\
         spec:\n  conversion:\n    webhook:\n      clientConfig:\n        service:\n          name: s\n          namespace: old\n---\n\
         apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: b.x\n\
         spec:\n  conversion:\n    webhook:\n      clientConfig:\n        service:\n          name: s\n",
    );
    set_namespace(&mut r, "target").unwrap();
    // created, as the APIService field spec says `create: true`
    assert_eq!(path(&r[0], "spec.service.namespace"), Some("target"));
    assert_eq!(
        path(
            &r[1],
            "spec.conversion.webhook.clientConfig.service.namespace"
        ),
        Some("target")
    );
    // not created for CRDs
    assert_eq!(
        path(
            &r[2],
            "spec.conversion.webhook.clientConfig.service.namespace"
        ),
        None
    );
}

#[test]
fn namespace_conflicts_are_errors() {
    let mut r = docs(
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  namespace: x\n---\n\
         apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  namespace: y\n",
    );
    let e = set_namespace(&mut r, "target").unwrap_err();
    assert!(
        e.to_string()
            .starts_with("namespace transformation produces ID conflict"),
        "{e}"
    );
}

#[test]
fn namespace_errors_name_resource_and_field() {
    let mut r = docs("apiVersion: v1\nkind: ConfigMap\nmetadata: text\n");
    let e = set_namespace(&mut r, "target").unwrap_err();
    assert_eq!(
        e.to_string(),
        "namespace transformation failed: v1 ConfigMap : metadata/namespace: expected sequence or mapping node"
    );
}

// ---- prefix / suffix and name references ----------------------------------------------

#[test]
fn prefix_suffix_skip_crds_apiservices_and_namespaces() {
    let mut r = docs(
        "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: a.x\n---\n\
         apiVersion: apiregistration.k8s.io/v1\nkind: APIService\nmetadata:\n  name: v1.x\n---\n\
         apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ns\n---\n\
         apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n",
    );
    add_prefix_suffix(&mut r, "p-", "-s").unwrap();
    let names: Vec<_> = r
        .iter()
        .map(|n| path(n, "metadata.name").unwrap())
        .collect();
    assert_eq!(names, vec!["a.x", "v1.x", "ns", "p-cm-s"]);
}

#[test]
fn name_references_follow_the_table() {
    let mut r = docs(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  template:\n    spec:\n\
         \x20     serviceAccountName: sa\n      containers:\n      - name: c\n        image: nginx\n\
         \x20       envFrom:\n        - configMapRef:\n            name: cm\n        - secretRef:\n            name: cm\n---\n\
         apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: hpa\n\
         spec:\n  scaleTargetRef:\n    apiVersion: apps/v1\n    kind: Deployment\n    name: web\n---\n\
         apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n---\n\
         apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: sa\n---\n\
         apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata:\n  name: r\n\
         rules:\n- resourceNames: [cm, unknown]\n",
    );
    add_prefix_suffix(&mut r, "p-", "").unwrap();
    assert_eq!(
        path(&r[0], "spec.template.spec.serviceAccountName"),
        Some("p-sa")
    );
    assert_eq!(
        path(
            &r[0],
            "spec.template.spec.containers.0.envFrom.0.configMapRef.name"
        ),
        Some("p-cm")
    );
    // there is no Secret `cm` in the bundle
    assert_eq!(
        path(
            &r[0],
            "spec.template.spec.containers.0.envFrom.1.secretRef.name"
        ),
        Some("cm")
    );
    assert_eq!(path(&r[1], "spec.scaleTargetRef.name"), Some("p-web"));
    assert_eq!(path(&r[4], "rules.0.resourceNames.0"), Some("p-cm"));
    assert_eq!(path(&r[4], "rules.0.resourceNames.1"), Some("unknown"));
}

#[test]
fn role_refs_only_match_the_named_kind() {
    let mut r = docs(
        "apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata:\n  name: r\n---\n\
         apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata:\n  name: to-role\n\
         roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: r}\n---\n\
         apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata:\n  name: to-cluster-role\n\
         roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: r}\n",
    );
    add_prefix_suffix(&mut r, "", "-s").unwrap();
    assert_eq!(path(&r[1], "roleRef.name"), Some("r-s"));
    assert_eq!(path(&r[2], "roleRef.name"), Some("r"));
}

#[test]
fn references_stay_within_the_namespace() {
    let mut r = docs(
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n  namespace: a\n---\n\
         apiVersion: v1\nkind: Pod\nmetadata:\n  name: in-a\n  namespace: a\n\
         spec:\n  volumes:\n  - name: v\n    configMap:\n      name: cm\n---\n\
         apiVersion: v1\nkind: Pod\nmetadata:\n  name: in-b\n  namespace: b\n\
         spec:\n  volumes:\n  - name: v\n    configMap:\n      name: cm\n",
    );
    add_prefix_suffix(&mut r, "p-", "").unwrap();
    assert_eq!(path(&r[1], "spec.volumes.0.configMap.name"), Some("p-cm"));
    assert_eq!(path(&r[2], "spec.volumes.0.configMap.name"), Some("cm"));
}

#[test]
fn webhook_services_get_name_and_namespace() {
    let mut r = docs(
        "apiVersion: v1\nkind: Service\nmetadata:\n  name: hook\n  namespace: sys\n---\n\
         apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingWebhookConfiguration\n\
         metadata:\n  name: v\nwebhooks:\n- name: w.x\n  clientConfig:\n    service:\n      name: hook\n      namespace: sys\n",
    );
    let tracker = tailor_kustomize::builtins::apply_transformers(
        &mut r,
        &Overlay {
            namespace: "target".into(),
            name_prefix: "p-".into(),
            ..Default::default()
        },
    )
    .unwrap();
    // before fixing, the webhook still names the old service
    assert_eq!(
        path(&r[1], "webhooks.0.clientConfig.service.name"),
        Some("hook")
    );
    tracker.fix_name_references(&mut r).unwrap();
    assert_eq!(
        path(&r[1], "webhooks.0.clientConfig.service.name"),
        Some("p-hook")
    );
    assert_eq!(
        path(&r[1], "webhooks.0.clientConfig.service.namespace"),
        Some("target")
    );
}

#[test]
fn ambiguous_references_are_errors() {
    let mut r = docs(
        "apiVersion: v1\nkind: Service\nmetadata:\n  name: s\n  namespace: a\n---\n\
         apiVersion: v1\nkind: Service\nmetadata:\n  name: s\n  namespace: b\n---\n\
         apiVersion: admissionregistration.k8s.io/v1\nkind: MutatingWebhookConfiguration\n\
         metadata:\n  name: m\nwebhooks:\n- name: w.x\n  clientConfig:\n    service:\n      name: s\n",
    );
    let e = add_prefix_suffix(&mut r, "p-", "").unwrap_err();
    assert!(
        e.to_string().contains("found multiple possible referrals"),
        "{e}"
    );
}

#[test]
fn subject_without_name_is_an_error() {
    let mut r = docs(
        "apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: sa\n---\n\
         apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata:\n  name: rb\n\
         subjects:\n- kind: ServiceAccount\n",
    );
    let e = add_prefix_suffix(&mut r, "p-", "").unwrap_err();
    assert_eq!(
        e.to_string(),
        "updating name reference in 'subjects' field of rbac.authorization.k8s.io/v1 RoleBinding p-rb: path config error; no 'name' field in node"
    );
}

#[test]
fn tracker_refuses_a_changed_resource_list() {
    let mut r = docs("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n");
    let tracker = tailor_kustomize::builtins::apply_transformers(
        &mut r,
        &Overlay {
            name_prefix: "p-".into(),
            ..Default::default()
        },
    )
    .unwrap();
    r.push(Node::mapping());
    assert!(tracker.fix_name_references(&mut r).is_err());
}

// ---- images ---------------------------------------------------------------------------

#[test]
fn images_cover_containers_anywhere_but_not_ephemeral_or_crds() {
    let mut r = docs(
        "apiVersion: batch/v1\nkind: CronJob\nmetadata:\n  name: cj\nspec:\n  jobTemplate:\n    spec:\n\
         \x20     template:\n        spec:\n          containers:\n          - name: a\n            image: nginx:1\n\
         \x20         initContainers:\n          - name: i\n            image: nginx\n\
         \x20         ephemeralContainers:\n          - name: e\n            image: nginx:1\n---\n\
         apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n  deep:\n    containers:\n    - image: nginx\n---\n\
         apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: a.x\n\
         spec:\n  containers:\n  - image: nginx\n",
    );
    set_images(&mut r, &[image("nginx", "reg/nginx", "2", "")]).unwrap();
    let pod = "spec.jobTemplate.spec.template.spec";
    assert_eq!(
        path(&r[0], &format!("{pod}.containers.0.image")),
        Some("reg/nginx:2")
    );
    assert_eq!(
        path(&r[0], &format!("{pod}.initContainers.0.image")),
        Some("reg/nginx:2")
    );
    assert_eq!(
        path(&r[0], &format!("{pod}.ephemeralContainers.0.image")),
        Some("nginx:1")
    );
    assert_eq!(
        path(&r[1], "spec.deep.containers.0.image"),
        Some("reg/nginx:2")
    );
    assert_eq!(path(&r[2], "spec.containers.0.image"), Some("nginx"));
}

#[test]
fn images_apply_in_order() {
    let mut r = docs(
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: a\n    image: a:1\n",
    );
    set_images(
        &mut r,
        &[image("a", "b", "", ""), image("b", "", "", "sha256:ff")],
    )
    .unwrap();
    assert_eq!(path(&r[0], "spec.containers.0.image"), Some("b@sha256:ff"));
}

#[test]
fn non_scalar_images_are_errors() {
    let mut r = docs(
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: a\n    image: {x: 1}\n",
    );
    let e = set_images(&mut r, &[image("a", "b", "", "")]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "v1 Pod p: image a: wrong node kind: expected a scalar image"
    );
}

// ---- commonMetadata -------------------------------------------------------------------

#[test]
fn common_metadata_sets_metadata_only_and_overrides() {
    let mut r = docs(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\n  labels:\n    app: x\n    team: old\n\
         spec:\n  selector:\n    matchLabels:\n      app: x\n  template:\n    metadata:\n      labels:\n        app: x\n---\n\
         apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: a.x\n",
    );
    set_common_metadata(
        &mut r,
        &[("team".into(), "new".into()), ("env".into(), "prod".into())],
        &[("note".into(), "true".into())],
    )
    .unwrap();
    assert_eq!(path(&r[0], "metadata.labels.team"), Some("new"));
    assert_eq!(path(&r[0], "metadata.labels.env"), Some("prod"));
    assert_eq!(path(&r[0], "spec.selector.matchLabels.env"), None);
    assert_eq!(path(&r[0], "spec.template.metadata.labels.env"), None);
    assert_eq!(path(&r[1], "metadata.labels.env"), Some("prod"));
    assert_eq!(path(&r[1], "metadata.annotations.note"), Some("true"));
    // "true" is a string, so it must come out quoted
    assert!(emit(&r[1..]).contains("note: \"true\""));
}

#[test]
fn common_metadata_rejects_non_mapping_labels() {
    let mut r = docs("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  labels: [a]\n");
    let e = set_common_metadata(&mut r, &[("a".into(), "b".into())], &[]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "v1 ConfigMap c: metadata.labels: not a mapping"
    );
}

// ---- goldens --------------------------------------------------------------------------

const BUNDLE: &str = "\
# the app
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web # the web tier
  labels: {app: web}
spec:
  template:
    spec:
      serviceAccountName: web
      containers:
      - name: web
        image: 'ghcr.io/acme/web:1.0' # pinned
        envFrom:
        - configMapRef: {name: web-config}
      volumes:
      - name: tls
        secret:
          secretName: web-tls
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: web-config
data:
  LOG_LEVEL: \"debug\"   # kept as written
  PORT: '8080'
---
apiVersion: v1
kind: ServiceAccount
metadata:
  name: web
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: web
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: ClusterRole
  name: view
subjects:
- kind: ServiceAccount
  name: web
  namespace: default
---
apiVersion: v1
kind: Namespace
metadata:
  name: apps
";

#[test]
fn golden_full_overlay() {
    let mut r = docs(BUNDLE);
    apply_overlay(
        &mut r,
        &Overlay {
            namespace: "team-a".into(),
            name_prefix: "a-".into(),
            name_suffix: "-v2".into(),
            images: vec![image("ghcr.io/acme/web", "", "1.1", "")],
        },
    )
    .unwrap();
    set_common_metadata(
        &mut r,
        &[("tenant".into(), "a".into())],
        &[("owner".into(), "platform".into())],
    )
    .unwrap();
    insta::assert_snapshot!(emit(&r));
}

#[test]
fn golden_images_only_leaves_everything_else_as_written() {
    let mut r = docs(BUNDLE);
    set_images(&mut r, &[image("ghcr.io/acme/web", "", "", "sha256:0123")]).unwrap();
    insta::assert_snapshot!(emit(&r));
}

// ---- robustness -----------------------------------------------------------------------

/// Odd shapes must give a result or an error, never a panic.
#[test]
fn odd_inputs_do_not_panic() {
    const ODD: &[&str] = &[
        "just a scalar\n",
        "- a\n- b\n",
        "{}\n",
        "apiVersion: v1\nkind: ConfigMap\nmetadata: null\n",
        "apiVersion: v1\nkind: ConfigMap\nmetadata: [x]\n",
        "apiVersion: [v1]\nkind: {a: b}\nmetadata:\n  name: [x]\n  namespace: {y: 1}\n",
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\nspec: 5\n",
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\nspec:\n  template:\n    spec:\n      containers: [a, 1, null, [x]]\n      volumes: [{configMap: 5}, {configMap: {name: [a]}}]\n",
        "apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata:\n  name: rb\nsubjects: x\nroleRef: 5\n",
        "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata:\n  name: crb\nsubjects: [a, [b], {name: default}, {name: [x]}]\nroleRef: {kind: [x]}\n",
        "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingWebhookConfiguration\nmetadata:\n  name: v\nwebhooks: [{clientConfig: {service: x}}, {clientConfig: {service: {name: a, namespace: [x]}}}]\n",
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - image: &img nginx\n  - image: *img\n",
        "apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: a\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n",
        "apiVersion: v1\nkind: Namespace\nmetadata: {}\n",
        "apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata:\n  name: r\nrules: [{resourceNames: [[a], {b: c}, 5, null]}]\n",
    ];
    for text in ODD {
        for overlay in [
            Overlay {
                namespace: "n".into(),
                name_prefix: "p-".into(),
                name_suffix: "-s".into(),
                images: vec![image("nginx", "x", "1", "sha256:0")],
            },
            Overlay {
                name_prefix: "p-".into(),
                ..Default::default()
            },
        ] {
            let mut r = docs(text);
            let _ = apply_overlay(&mut r, &overlay);
            let _ = set_common_metadata(&mut r, &[("a".into(), "b".into())], &[]);
        }
    }
}
