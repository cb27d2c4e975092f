//! One example per stage of the pipeline (`src/stages/`), in the spirit of kustomize's
//! `example_test.go`: objects in, the stage built as a value and run in-process with a
//! `tailor::stages::Context`, the objects written out. Each shows what the stage is for, in
//! the order `docs/design.md` runs them: schedule → strip → Fleet overlays → Flux overlay fields
//! → Fleet namespaces → replacements → templates → substitution → SOPS check → owner labels →
//! commonMetadata.

use serde_json::{json, Value};
use tailor::krm::{read_input, write::write_stream};
use tailor::run::parse_options;
use tailor::stages::common_metadata::CommonMetadata;
use tailor::stages::fleet_namespaces::FleetNamespaces;
use tailor::stages::fleet_overlays::FleetOverlays;
use tailor::stages::flux_overlays::FluxOverlays;
use tailor::stages::owner_labels::OwnerLabels;
use tailor::stages::replacements::{Replacements, Source};
use tailor::stages::schedule::Schedule;
use tailor::stages::sops::SopsSecrets;
use tailor::stages::strip::Strip;
use tailor::stages::substitution::Substitution;
use tailor::stages::templates::Templates;
use tailor::stages::{Context, Stage, Tailoring, TargetFields};
use tailor_cluster::Cluster;
use tailor_fleet::BundleFile;
use tailor_flux::kustomization::read_post_build;
use tailor_flux::overlay::Overlay;
use tailor_kratix::KratixSchedule;

/// What a stage runs with besides the objects.
#[derive(Default)]
struct Setup {
    cluster: Option<Cluster>,
    tailoring: Tailoring,
    overlay_files: Vec<BundleFile>,
}

/// Runs `stage` on the objects of `input` (a YAML stream): the objects as it leaves them,
/// written as a stream (untouched ones verbatim), and its results as kpt prints them.
fn run(stage: &dyn Stage, input: &str, setup: &Setup) -> (String, Vec<String>) {
    let mut items = read_input(input, &parse_options())
        .expect("the example input reads")
        .items;
    let mut results = Vec::new();
    let mut ctx = Context {
        cluster: setup.cluster.as_ref(),
        tailoring: &setup.tailoring,
        transforms: &[],
        overlay_files: &setup.overlay_files,
        inputs: &[],
        results: &mut results,
        memo: None,
        explain: None,
    };
    stage.run(&mut items, &mut ctx);
    let results = results.iter().map(|r| r.summary_line()).collect();
    (write_stream(&items), results)
}

/// The destination `virgo`, as an inline `spec.cluster`.
fn virgo(labels: Value, properties: Value) -> Option<Cluster> {
    let spec = json!({"name": "virgo", "labels": labels, "properties": properties});
    Some(Cluster::from_json(&spec, "spec.cluster").unwrap())
}

/// The Flux overlay fields and replacements of a `Tailor` spec written as `fields`.
fn tailoring(fields: Value) -> Tailoring {
    let overlay = Overlay::read(fields.as_object().unwrap(), "spec").unwrap();
    Tailoring {
        extra: TargetFields(overlay),
        ..Tailoring::default()
    }
}

#[test]
fn schedule_keeps_the_objects_whose_destination_selectors_match() {
    let schedule = KratixSchedule::from_json(
        &json!([
            {"matchLabels": {"env": "prod"}},
            {"directory": "db", "matchLabels": {"tier": "data"}},
        ]),
        "spec.destinationSelectors",
    )
    .unwrap();
    let input = "\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  annotations:
    config.kubernetes.io/path: web/deployment.yaml
---
apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: db
  annotations:
    config.kubernetes.io/path: db/statefulset.yaml
";
    let setup = Setup {
        cluster: virgo(json!({"env": "prod"}), json!({})),
        ..Setup::default()
    };
    let (out, results) = run(
        &Schedule {
            selectors: schedule,
            written: true,
        },
        input,
        &setup,
    );
    // virgo is `env: prod` but not `tier: data`: the `db/` group does not go there.
    assert_eq!(
        out,
        "\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  annotations:
    config.kubernetes.io/path: web/deployment.yaml
"
    );
    assert_eq!(
        results,
        ["[info] 1 object(s) not scheduled to cluster \"virgo\": its labels do not match their destinationSelectors"]
    );
}

#[test]
fn strip_removes_what_the_source_cluster_filled_in() {
    let input = "\
apiVersion: v1
kind: Service
metadata:
  name: web # the frontend
  namespace: shop
  uid: 5f2c6f0e-8a47-4c1b-9f1e-2d3c4b5a6978
  resourceVersion: \"48211\"
  creationTimestamp: \"2024-03-01T10:00:07Z\"
  annotations:
    kubectl.kubernetes.io/last-applied-configuration: |
      {\"apiVersion\":\"v1\",\"kind\":\"Service\"}
spec:
  type: NodePort
  clusterIP: 10.96.12.7
  clusterIPs:
  - 10.96.12.7
  ipFamilies:
  - IPv4
  ports:
  - port: 80
    nodePort: 30080
status:
  loadBalancer: {}
";
    let strip = Strip {
        builtin: true,
        transforms: vec![],
    };
    let (out, results) = run(&strip, input, &Setup::default());
    assert_eq!(
        out,
        "\
apiVersion: v1
kind: Service
metadata:
  name: web # the frontend
  namespace: shop
  creationTimestamp: \"2024-03-01T10:00:07Z\"
  annotations: {}
spec:
  type: NodePort
  ports:
  - port: 80
"
    );
    assert!(results.is_empty(), "{results:?}");
}

#[test]
fn fleet_overlays_patch_the_bundle_files_the_destination_names() {
    let input = "\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  annotations:
    config.kubernetes.io/path: deployment.yaml
spec:
  replicas: 1
";
    let patch = tailor_yaml::parse_stream("spec:\n  replicas: 3\n").unwrap();
    let setup = Setup {
        tailoring: Tailoring {
            yaml_overlays: vec!["prod".into()],
            ..Tailoring::default()
        },
        overlay_files: vec![BundleFile {
            path: "overlays/prod/deployment_patch.yaml".into(),
            docs: patch.into_iter().map(|d| d.root).collect(),
        }],
        ..Setup::default()
    };
    let stage = FleetOverlays {
        per_destination: false,
    };
    let (out, results) = run(&stage, input, &setup);
    assert_eq!(
        out,
        "\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  annotations:
    config.kubernetes.io/path: deployment.yaml
spec:
  replicas: 3
"
    );
    assert!(results.is_empty(), "{results:?}");
}

#[test]
fn flux_overlay_fields_rename_relabel_and_retag() {
    let input = "\
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
data:
  mode: fast
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  template:
    spec:
      containers:
      - name: app
        image: nginx:1.25
        envFrom:
        - configMapRef:
            name: settings
";
    let setup = Setup {
        tailoring: tailoring(json!({
            "targetNamespace": "shop",
            "namePrefix": "prod-",
            "images": [{"name": "nginx", "newTag": "1.27"}],
        })),
        ..Setup::default()
    };
    let stage = FluxOverlays {
        per_destination: false,
    };
    let (out, results) = run(&stage, input, &setup);
    // The ConfigMap is renamed, and the Deployment's reference to it follows.
    assert_eq!(
        out,
        "\
apiVersion: v1
kind: ConfigMap
metadata:
  name: prod-settings
  namespace: shop
data:
  mode: fast
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: prod-web
  namespace: shop
spec:
  template:
    spec:
      containers:
      - name: app
        image: nginx:1.27
        envFrom:
        - configMapRef:
            name: prod-settings
"
    );
    assert!(results.is_empty(), "{results:?}");
}

#[test]
fn fleet_namespaces_fill_in_the_default_namespace() {
    let input = "\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  namespace: shared
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: reader
";
    let setup = Setup {
        tailoring: Tailoring {
            default_namespace: Some("team-a".into()),
            ..Tailoring::default()
        },
        ..Setup::default()
    };
    let stage = FleetNamespaces {
        per_destination: false,
        crd_keep: false,
    };
    let (out, results) = run(&stage, input, &setup);
    // Only the namespaced object without a namespace gets one.
    assert_eq!(
        out,
        "\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: team-a
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  namespace: shared
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: reader
"
    );
    assert!(results.is_empty(), "{results:?}");
}

#[test]
fn replacements_copy_fields_and_cluster_properties() {
    let input = "\
apiVersion: v1
kind: Service
metadata:
  name: db
spec:
  ports:
  - port: 5432
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  template:
    spec:
      containers:
      - name: app
        env:
        - name: DB_PORT
          value: \"0\"
";
    let setup = Setup {
        cluster: virgo(json!({}), json!({"region": "eu-west"})),
        tailoring: tailoring(json!({"replacements": [
            {"source": {"kind": "Service", "name": "db", "fieldPath": "spec.ports.0.port"},
             "targets": [{"select": {"kind": "Deployment"},
                          "fieldPaths": ["spec.template.spec.containers.[name=app].env.[name=DB_PORT].value"]}]},
            {"source": {"property": "region"},
             "targets": [{"select": {"kind": "Deployment"},
                          "fieldPaths": ["metadata.labels.region"],
                          "options": {"create": true}}]},
        ]})),
        ..Setup::default()
    };
    let (out, results) = run(&Replacements(Source::Targets), input, &setup);
    assert_eq!(
        out,
        "\
apiVersion: v1
kind: Service
metadata:
  name: db
spec:
  ports:
  - port: 5432
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels:
    region: eu-west
spec:
  template:
    spec:
      containers:
      - name: app
        env:
        - name: DB_PORT
          value: \"5432\"
"
    );
    assert!(results.is_empty(), "{results:?}");
}

#[test]
fn templates_expand_with_the_destination_properties() {
    let input = "\
apiVersion: v1
kind: ConfigMap
metadata:
  name: endpoints
  annotations:
    control.kubestellar.io/expand-templates: \"true\"
data:
  api: https://api.{{.region}}.example.com # per region
  cluster: '{{.clusterName}}'
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: literal
data:
  text: '{{.region}} stays, this object is not annotated'
";
    let setup = Setup {
        cluster: virgo(json!({"env": "prod"}), json!({"region": "eu-west"})),
        ..Setup::default()
    };
    let stage = Templates {
        limits: Default::default(),
    };
    let (out, results) = run(&stage, input, &setup);
    assert_eq!(
        out,
        "\
apiVersion: v1
kind: ConfigMap
metadata:
  name: endpoints
  annotations:
    control.kubestellar.io/expand-templates: \"true\"
data:
  api: https://api.eu-west.example.com # per region
  cluster: 'virgo'
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: literal
data:
  text: '{{.region}} stays, this object is not annotated'
"
    );
    assert!(results.is_empty(), "{results:?}");
}

#[test]
fn substitution_fills_in_flux_post_build_variables() {
    let input = "\
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings # kept
data:
  env: ${cluster_env}
  region: ${region}
  tier: ${tier:=gold}
  price: $$5
";
    let post_build = read_post_build(
        &json!({"substitute": {"cluster_env": "prod"}}),
        "spec.postBuild",
    )
    .unwrap();
    let setup = Setup {
        // The destination's properties are variables too (the inline ones win).
        cluster: virgo(
            json!({}),
            json!({"region": "eu-west", "cluster_env": "dev"}),
        ),
        ..Setup::default()
    };
    let stage = Substitution::new(post_build, None);
    let (out, results) = run(&stage, input, &setup);
    assert_eq!(
        out,
        "\
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings # kept
data:
  env: prod
  region: eu-west
  tier: gold
  price: $5
"
    );
    assert!(results.is_empty(), "{results:?}");
}

#[test]
fn sops_check_refuses_an_encrypted_secret() {
    let input = "\
apiVersion: v1
kind: Secret
metadata:
  name: db
data:
  password: ENC[AES256_GCM,data:abc=,type:str]
sops:
  version: 3.8.1
---
apiVersion: v1
kind: Secret
metadata:
  name: plain
data:
  password: cGxhaW4=
";
    let (_, results) = run(&SopsSecrets, input, &Setup::default());
    // tailor holds no keys: the encrypted Secret is an error, the plain one passes.
    assert_eq!(
        results,
        ["[error] v1/Secret/db sops: v1/Secret/db is encrypted with SOPS and spec.decryption asks to decrypt it: tailor holds no keys and cannot; decrypt it before tailor (sops --decrypt) or leave it out"]
    );
}

#[test]
fn owner_labels_name_the_kustomization() {
    let input = "\
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
data:
  mode: fast
";
    let stage = OwnerLabels {
        name: "apps".into(),
        namespace: "flux-system".into(),
    };
    let (out, results) = run(&stage, input, &Setup::default());
    assert_eq!(
        out,
        "\
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  labels:
    kustomize.toolkit.fluxcd.io/name: apps
    kustomize.toolkit.fluxcd.io/namespace: flux-system
data:
  mode: fast
"
    );
    assert!(results.is_empty(), "{results:?}");
}

#[test]
fn common_metadata_labels_objects_not_their_templates() {
    let input = "\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  template:
    metadata:
      labels:
        app: web
";
    let setup = Setup {
        tailoring: tailoring(json!({
            "commonMetadata": {"labels": {"team": "web"}, "annotations": {"owner": "platform"}},
        })),
        ..Setup::default()
    };
    let stage = CommonMetadata {
        per_destination: false,
    };
    let (out, results) = run(&stage, input, &setup);
    // Unlike kustomize's commonLabels, Flux's commonMetadata labels the object itself only.
    assert_eq!(
        out,
        "\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels:
    team: web
  annotations:
    owner: platform
spec:
  template:
    metadata:
      labels:
        app: web
"
    );
    assert!(results.is_empty(), "{results:?}");
}
