//! Objects as a cluster exports them. Sizes follow real exports: a Deployment with its
//! managedFields, status and last-applied annotation is about 5 KB, so 10,000 of them make
//! the 50 MB list of the issue.

use std::fmt::Write;

/// The kinds the exported workloads cycle through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ObjectKind {
    Deployment,
    Service,
    ConfigMap,
}

impl ObjectKind {
    /// Deployment, Service, ConfigMap, Deployment, ... so any N has all three kinds.
    pub fn cycle(i: usize) -> ObjectKind {
        match i % 3 {
            0 => ObjectKind::Deployment,
            1 => ObjectKind::Service,
            _ => ObjectKind::ConfigMap,
        }
    }
}

fn namespace(i: usize) -> String {
    format!("team-{}", i % 20)
}

/// A deterministic pseudo-uid so every object differs the way real ones do.
fn uid(i: usize, salt: u64) -> String {
    let mut x = (i as u64)
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(salt);
    x ^= x >> 29;
    let hi = x.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    format!(
        "{:08x}-{:04x}-4{:03x}-a{:03x}-{:012x}",
        (hi >> 32) as u32,
        (hi >> 16) as u16,
        (hi & 0xfff) as u16,
        (x & 0xfff) as u16,
        x & 0xffff_ffff_ffff
    )
}

/// The time object `i` was created (and last applied), at `hour`.
fn timestamp(i: usize, hour: u32) -> String {
    format!("2024-03-{:02}T{hour}:{:02}:07Z", 1 + i % 28, i % 60)
}

/// `kubectl apply`'s managedFields entry up to its `metadata` fields: the last-applied
/// annotation and the `labels` (the entry's other fields follow).
fn client_side_apply_fields(api_version: &str, labels: &[&str]) -> String {
    let mut s = format!(
        r#"  - apiVersion: {api_version}
    fieldsType: FieldsV1
    fieldsV1:
      f:metadata:
        f:annotations:
          .: {{}}
          f:kubectl.kubernetes.io/last-applied-configuration: {{}}
        f:labels:
          .: {{}}
"#
    );
    for l in labels {
        let _ = writeln!(s, "          f:{l}: {{}}");
    }
    s
}

/// The managedFields of a Deployment status condition of type `ty`.
fn condition_fields(ty: &str) -> String {
    let mut s = format!("          k:{{\"type\":\"{ty}\"}}:\n            .: {{}}\n");
    for f in [
        "lastTransitionTime",
        "lastUpdateTime",
        "message",
        "reason",
        "status",
        "type",
    ] {
        let _ = writeln!(s, "            f:{f}: {{}}");
    }
    s
}

/// The end of a managedFields entry written by `manager` when object `i` was created.
fn managed_by(manager: &str, i: usize) -> String {
    format!(
        "    manager: {manager}\n    operation: Update\n    time: \"{}\"\n",
        timestamp(i, 10)
    )
}

/// What every export's metadata ends with: name, namespace, resourceVersion and uid.
fn identity(name: &str, ns: &str, i: usize, salt: u64) -> String {
    format!(
        "  name: {name}\n  namespace: {ns}\n  resourceVersion: \"{}\"\n  uid: {}\n",
        100_000 + i * 7,
        uid(i, salt)
    )
}

/// Object `i` of an export, as one YAML document (no `---`), block style, kubectl's layout.
pub fn exported_object(i: usize) -> String {
    match ObjectKind::cycle(i) {
        ObjectKind::Deployment => exported_deployment(i),
        ObjectKind::Service => exported_service(i),
        ObjectKind::ConfigMap => exported_config_map(i),
    }
}

/// `n` exported objects as a multi-document stream.
pub fn exported_objects(n: usize) -> Vec<String> {
    (0..n).map(exported_object).collect()
}

/// An exported Deployment (about 5 KB) named `app-<i>`.
pub fn exported_deployment(i: usize) -> String {
    let ns = namespace(i);
    let name = format!("app-{i}");
    let last_applied = format!(
        r#"{{"apiVersion":"apps/v1","kind":"Deployment","metadata":{{"annotations":{{}},"labels":{{"app":"{name}","tier":"backend"}},"name":"{name}","namespace":"{ns}"}},"spec":{{"replicas":3,"selector":{{"matchLabels":{{"app":"{name}"}}}},"template":{{"metadata":{{"labels":{{"app":"{name}","tier":"backend"}}}},"spec":{{"containers":[{{"env":[{{"name":"LOG_LEVEL","value":"info"}},{{"name":"PORT","value":"8080"}}],"image":"registry.example.com/{name}:1.4.{v}","name":"app","ports":[{{"containerPort":8080,"name":"http"}}],"resources":{{"limits":{{"cpu":"500m","memory":"256Mi"}},"requests":{{"cpu":"100m","memory":"128Mi"}}}}}}]}}}}}}}}"#,
        v = i % 17
    );
    let mut s = String::with_capacity(5600);
    let _ = write!(
        s,
        r#"apiVersion: apps/v1
kind: Deployment
metadata:
  annotations:
    deployment.kubernetes.io/revision: "3"
    kubectl.kubernetes.io/last-applied-configuration: |
      {last_applied}
  creationTimestamp: "2024-03-{day:02}T10:{min:02}:07Z"
  generation: 3
  labels:
    app: {name}
    tier: backend
  managedFields:
{apply_fields}      f:spec:
        f:progressDeadlineSeconds: {{}}
        f:replicas: {{}}
        f:revisionHistoryLimit: {{}}
        f:selector: {{}}
        f:strategy:
          f:rollingUpdate:
            .: {{}}
            f:maxSurge: {{}}
            f:maxUnavailable: {{}}
          f:type: {{}}
        f:template:
          f:metadata:
            f:labels:
              .: {{}}
              f:app: {{}}
              f:tier: {{}}
          f:spec:
            f:containers:
              k:{{"name":"app"}}:
                .: {{}}
                f:env:
                  .: {{}}
                  k:{{"name":"LOG_LEVEL"}}:
                    .: {{}}
                    f:name: {{}}
                    f:value: {{}}
                  k:{{"name":"PORT"}}:
                    .: {{}}
                    f:name: {{}}
                    f:value: {{}}
                f:image: {{}}
                f:imagePullPolicy: {{}}
                f:name: {{}}
                f:ports:
                  .: {{}}
                  k:{{"containerPort":8080,"protocol":"TCP"}}:
                    .: {{}}
                    f:containerPort: {{}}
                    f:name: {{}}
                    f:protocol: {{}}
                f:resources:
                  .: {{}}
                  f:limits:
                    .: {{}}
                    f:cpu: {{}}
                    f:memory: {{}}
                  f:requests:
                    .: {{}}
                    f:cpu: {{}}
                    f:memory: {{}}
                f:terminationMessagePath: {{}}
                f:terminationMessagePolicy: {{}}
            f:dnsPolicy: {{}}
            f:restartPolicy: {{}}
            f:schedulerName: {{}}
            f:securityContext: {{}}
            f:terminationGracePeriodSeconds: {{}}
{applied_by}  - apiVersion: apps/v1
    fieldsType: FieldsV1
    fieldsV1:
      f:metadata:
        f:annotations:
          f:deployment.kubernetes.io/revision: {{}}
      f:status:
        f:availableReplicas: {{}}
        f:conditions:
          .: {{}}
{conditions}        f:observedGeneration: {{}}
        f:readyReplicas: {{}}
        f:replicas: {{}}
        f:updatedReplicas: {{}}
    manager: kube-controller-manager
    operation: Update
    subresource: status
    time: "2024-03-{day:02}T11:{min:02}:41Z"
{identity}spec:
  progressDeadlineSeconds: 600
  replicas: 3
  revisionHistoryLimit: 10
  selector:
    matchLabels:
      app: {name}
  strategy:
    rollingUpdate:
      maxSurge: 25%
      maxUnavailable: 25%
    type: RollingUpdate
  template:
    metadata:
      creationTimestamp: null
      labels:
        app: {name}
        tier: backend
    spec:
      containers:
      - env:
        - name: LOG_LEVEL
          value: info
        - name: PORT
          value: "8080"
        image: registry.example.com/{name}:1.4.{v}
        imagePullPolicy: IfNotPresent
        name: app
        ports:
        - containerPort: 8080
          name: http
          protocol: TCP
        resources:
          limits:
            cpu: 500m
            memory: 256Mi
          requests:
            cpu: 100m
            memory: 128Mi
        terminationMessagePath: /dev/termination-log
        terminationMessagePolicy: File
      dnsPolicy: ClusterFirst
      restartPolicy: Always
      schedulerName: default-scheduler
      securityContext: {{}}
      terminationGracePeriodSeconds: 30
status:
  availableReplicas: 3
  conditions:
  - lastTransitionTime: "2024-03-{day:02}T10:{min:02}:09Z"
    lastUpdateTime: "2024-03-{day:02}T10:{min:02}:09Z"
    message: Deployment has minimum availability.
    reason: MinimumReplicasAvailable
    status: "True"
    type: Available
  - lastTransitionTime: "2024-03-{day:02}T10:{min:02}:07Z"
    lastUpdateTime: "2024-03-{day:02}T11:{min:02}:41Z"
    message: ReplicaSet "{name}-7d9c{rs:05x}" has successfully progressed.
    reason: NewReplicaSetAvailable
    status: "True"
    type: Progressing
  observedGeneration: 3
  readyReplicas: 3
  replicas: 3
  updatedReplicas: 3
"#,
        day = 1 + i % 28,
        min = i % 60,
        v = i % 17,
        rs = i % 0xfffff,
        conditions = ["Available", "Progressing"].map(condition_fields).concat(),
        apply_fields = client_side_apply_fields("apps/v1", &["app", "tier"]),
        applied_by = managed_by("kubectl-client-side-apply", i),
        identity = identity(&name, &ns, i, 1),
    );
    s
}

/// An exported ClusterIP Service named `app-<i>`.
pub fn exported_service(i: usize) -> String {
    let ns = namespace(i);
    let name = format!("app-{i}");
    format!(
        r#"apiVersion: v1
kind: Service
metadata:
  annotations:
    kubectl.kubernetes.io/last-applied-configuration: |
      {{"apiVersion":"v1","kind":"Service","metadata":{{"annotations":{{}},"labels":{{"app":"{name}"}},"name":"{name}","namespace":"{ns}"}},"spec":{{"ports":[{{"name":"http","port":80,"targetPort":"http"}}],"selector":{{"app":"{name}"}}}}}}
  creationTimestamp: "{created}"
  labels:
    app: {name}
  managedFields:
{apply_fields}      f:spec:
        f:internalTrafficPolicy: {{}}
        f:ports:
          .: {{}}
          k:{{"port":80,"protocol":"TCP"}}:
            .: {{}}
            f:name: {{}}
            f:port: {{}}
            f:protocol: {{}}
            f:targetPort: {{}}
        f:selector: {{}}
        f:sessionAffinity: {{}}
        f:type: {{}}
{applied_by}{identity}spec:
  clusterIP: 10.96.{a}.{b}
  clusterIPs:
  - 10.96.{a}.{b}
  internalTrafficPolicy: Cluster
  ipFamilies:
  - IPv4
  ipFamilyPolicy: SingleStack
  ports:
  - name: http
    port: 80
    protocol: TCP
    targetPort: http
  selector:
    app: {name}
  sessionAffinity: None
  type: ClusterIP
status:
  loadBalancer: {{}}
"#,
        created = timestamp(i, 10),
        a = (i / 250) % 250,
        b = 1 + i % 250,
        apply_fields = client_side_apply_fields("v1", &["app"]),
        applied_by = managed_by("kubectl-client-side-apply", i),
        identity = identity(&name, &ns, i, 2),
    )
}

/// An exported ConfigMap named `app-<i>-config`, with a block-scalar file among its data.
pub fn exported_config_map(i: usize) -> String {
    let ns = namespace(i);
    let name = format!("app-{i}-config");
    format!(
        r#"apiVersion: v1
data:
  LOG_LEVEL: info
  image: registry.example.com/app-{i}:2.0.{v}
  port: "8080"
  settings.yaml: |
    server:
      port: 8080
      timeout: 30s
    features:
      tracing: true
      cache: {cache}
kind: ConfigMap
metadata:
  creationTimestamp: "{created}"
  managedFields:
  - apiVersion: v1
    fieldsType: FieldsV1
    fieldsV1:
      f:data:
        .: {{}}
        f:LOG_LEVEL: {{}}
        f:image: {{}}
        f:port: {{}}
        f:settings.yaml: {{}}
{created_by}{identity}"#,
        v = i % 13,
        cache = matches!(i % 2, 0),
        created = timestamp(i, 10),
        created_by = managed_by("kubectl-create", i),
        identity = identity(&name, &ns, i, 3),
    )
}

/// A Deployment as it sits in a repository (no server-side fields): what a pass that
/// changes nothing reads.
pub fn clean_deployment(i: usize) -> String {
    let full = exported_deployment(i);
    // The spec is the part a repository keeps; metadata is rebuilt without server fields.
    let spec_at = full.find("\nspec:\n").map_or(0, |p| p + 1);
    let status_at = full.find("\nstatus:\n").map_or(full.len(), |p| p + 1);
    format!(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  labels:\n    app: app-{i}\n    tier: backend\n  name: app-{i}\n  namespace: {}\n{}",
        namespace(i),
        &full[spec_at..status_at]
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_match_real_exports() {
        let d = exported_deployment(12345);
        assert!((4500..6500).contains(&d.len()), "{}", d.len());
        assert!(exported_service(1).len() > 1200);
        assert!(clean_deployment(7).contains("\nspec:\n  progressDeadlineSeconds"));
        assert!(!clean_deployment(7).contains("status:"));
        assert_ne!(uid(1, 1), uid(2, 1));
    }
}
