//! tailor as a guest of kpt (`docs/host-contract.md`): `kpt fn render` writes back exactly the
//! items a function returns, so every test renders a package twice through the real kpt and
//! asserts that no file was deleted or moved, that the second render leaves the package
//! byte-identical to the first, and the exact results. Each test skips loudly when kpt is
//! missing.
mod common;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use common::*;

const LOCAL: &str = "  annotations:\n    config.kubernetes.io/local-config: \"true\"\n";

/// Where every refusal in place says to render instead (`src/run/in_place.rs`).
const ELSEWHERE: &str = "tailor the sources into another place: kpt fn source SRC | tailor ... | kpt fn sink OUT, or tailor CONFIG SRC --output-dir OUT; to stdout: kpt fn source SRC | tailor ..., or tailor CONFIG SRC (kpt fn render -o stdout and kpt fn eval -o stdout hand tailor what an in-place render does, and are refused alike)";

/// A package of `files` whose Kptfile runs tailor with the config at `config_path`.
fn package(tag: &str, config_path: &str, files: &[(&str, &str)]) -> common::TempDir {
    let dir = temp_dir(tag);
    common::write_files(&dir, files);
    std::fs::write(
        dir.join("Kptfile"),
        format!("apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: pkg\n{LOCAL}pipeline:\n  mutators:\n  - exec: {}\n    configPath: {config_path}\n", tailor_bin()),
    )
    .expect("Kptfile");
    dir
}

fn render(kpt: &Path, dir: &Path) -> Run {
    run_command(
        Command::new(kpt)
            .args(["fn", "render", "--allow-exec", "--truncate-output=false"])
            .arg(dir),
        "",
    )
}

/// What two renders of a package did.
struct Twice {
    before: BTreeMap<String, Vec<u8>>,
    first: Run,
    after_first: BTreeMap<String, Vec<u8>>,
    second: Run,
}

impl Twice {
    fn file(&self, name: &str) -> String {
        String::from_utf8(self.after_first[name].clone()).expect("UTF-8")
    }

    /// The file as it was written before any render.
    fn unchanged(&self, name: &str) {
        assert_eq!(
            String::from_utf8_lossy(&self.after_first[name]),
            String::from_utf8_lossy(&self.before[name]),
            "{name} changed"
        );
    }
}

/// Renders `dir` twice; asserts every file is still where it was and the second render
/// changed no byte.
fn render_twice(kpt: &Path, dir: &Path) -> Twice {
    let before = read_tree(dir);
    let first = render(kpt, dir);
    let after_first = read_tree(dir);
    let names = |t: &BTreeMap<String, Vec<u8>>| t.keys().cloned().collect::<Vec<_>>();
    assert_eq!(
        names(&after_first),
        names(&before),
        "files deleted, moved or added by the first render:\n{}",
        first.stderr
    );
    let second = render(kpt, dir);
    let after_second = read_tree(dir);
    for (name, bytes) in &after_first {
        assert_eq!(
            String::from_utf8_lossy(&after_second[name]),
            String::from_utf8_lossy(bytes),
            "{name} changed on the second render:\n{}",
            second.stderr
        );
    }
    assert_eq!(names(&after_second), names(&after_first));
    assert_eq!(
        first.code, second.code,
        "{}\n{}",
        first.stderr, second.stderr
    );
    Twice {
        before,
        first,
        after_first,
        second,
    }
}

const INVENTORY: &str = "# The destination, as KubeStellar describes it.\napiVersion: cluster.open-cluster-management.io/v1\nkind: ManagedCluster\nmetadata:\n  name: virgo\n  labels:\n    region: eu-west-1\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: virgo\n  namespace: customization-properties\n  annotations:\n    config.kubernetes.io/local-config: \"true\"\ndata:\n  tier: gold\n";

const CUSTOM_TRANSFORM: &str = "apiVersion: control.kubestellar.io/v1alpha1\nkind: CustomTransform\nmetadata:\n  name: unbind\n  annotations:\n    config.kubernetes.io/local-config: \"true\"\nspec:\n  apiGroup: \"\"\n  resource: persistentvolumeclaims\n  remove:\n  - $.spec.volumeName\n";

const TAILOR: &str = "apiVersion: tailor.dev/v1alpha1\nkind: Tailor\nmetadata:\n  name: t\n  annotations:\n    config.kubernetes.io/local-config: \"true\"\nspec:\n  cluster:\n    name: virgo\n  replacements:\n  - source: {property: region}\n    targets:\n    - select: {kind: ConfigMap, name: shop}\n      fieldPaths: [data.REGION]\n";

const SHOP: &str =
    "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: shop\ndata:\n  REGION: unset\n";

const CLAIM: &str = "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: data\nspec:\n  volumeName: pv-1\n  resources:\n    requests: {storage: 1Gi}\n";

/// Inventory objects and CustomTransforms come back as they were read: kpt keeps their files,
/// and the second render reads the same inputs and gives the same answer. The inventory
/// object not marked local-config is warned about.
#[test]
fn inputs_come_back_and_the_second_render_changes_nothing() {
    let Some(kpt) = tool("kpt") else { return };
    let dir = package(
        "kpt-guest-inputs",
        "tailor.yaml",
        &[
            ("inventory.yaml", INVENTORY),
            ("ct.yaml", CUSTOM_TRANSFORM),
            ("tailor.yaml", TAILOR),
            ("shop.yaml", SHOP),
            ("claim.yaml", CLAIM),
        ],
    );
    let twice = render_twice(&kpt, &dir);
    assert_eq!(twice.first.code, 0, "{}", twice.first.stderr);
    for input in ["inventory.yaml", "ct.yaml", "tailor.yaml", "Kptfile"] {
        twice.unchanged(input);
    }
    assert!(twice.file("shop.yaml").contains("REGION: eu-west-1"));
    assert!(!twice.file("claim.yaml").contains("volumeName"));
    let warning = "[warning] cluster.open-cluster-management.io/v1/ManagedCluster/virgo: an inventory object tailor reads (inventory.yaml): it comes back unchanged, but it is not marked `config.kubernetes.io/local-config: \"true\"`, so `kpt live apply` and kustomize would deploy it";
    for run in [&twice.first, &twice.second] {
        assert!(run.stderr.contains(warning), "{}", run.stderr);
        // Only the one not marked.
        assert_eq!(
            run.stderr.matches("comes back unchanged").count(),
            2,
            "{}",
            run.stderr
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

const FLUX: &str = "apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n  name: app\n  namespace: flux-system\nspec:\n  targetNamespace: apps\n  postBuild:\n    substituteFrom:\n    - kind: ConfigMap\n      name: vars\n";

const VARS: &str = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: vars\n  namespace: flux-system\n  annotations:\n    config.kubernetes.io/local-config: \"true\"\ndata:\n  region: eu\n";

const DEPLOY: &str =
    "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\ndata:\n  region: ${region}\n";

/// A Flux Kustomization as `configPath` (not local-config) is the function's own config: it
/// is not tailored (today it went to namespace `apps`), and its `substituteFrom` source comes
/// back too.
#[test]
fn the_own_config_and_substitute_from_sources_are_never_tailored() {
    let Some(kpt) = tool("kpt") else { return };
    let dir = package(
        "kpt-guest-flux",
        "ks.yaml",
        &[("ks.yaml", FLUX), ("vars.yaml", VARS), ("web.yaml", DEPLOY)],
    );
    let twice = render_twice(&kpt, &dir);
    assert_eq!(twice.first.code, 0, "{}", twice.first.stderr);
    twice.unchanged("ks.yaml");
    twice.unchanged("vars.yaml");
    assert_eq!(
        twice.file("web.yaml"),
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\n  namespace: apps\n  labels:\n    kustomize.toolkit.fluxcd.io/name: app\n    kustomize.toolkit.fluxcd.io/namespace: flux-system\ndata:\n  region: eu\n"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// KubeStellar removes the whole annotations map when one value is not a string; kpt's
/// path and the user's `config.kubernetes.io/*` annotations survive it (the file stayed in
/// `qa/` instead of moving to `configmap_foo.yaml`).
#[test]
fn host_annotations_survive_the_strip() {
    let Some(kpt) = tool("kpt") else { return };
    let foo = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: foo\n  annotations:\n    replicas: 3\n    config.kubernetes.io/depends-on: /namespaces/qa\ndata: {a: b}\n";
    let config = "apiVersion: tailor.dev/v1alpha1\nkind: Tailor\nmetadata:\n  name: t\nspec: {}\n";
    let dir = package(
        "kpt-guest-annotations",
        "tailor.yaml",
        &[("qa/foo.yaml", foo), ("tailor.yaml", config)],
    );
    let twice = render_twice(&kpt, &dir);
    assert_eq!(twice.first.code, 0, "{}", twice.first.stderr);
    assert_eq!(
        twice.file("qa/foo.yaml"),
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: foo\n  annotations:\n    config.kubernetes.io/depends-on: /namespaces/qa\ndata: {a: b}\n"
    );
    assert!(twice
        .first
        .stderr
        .contains("the whole annotations field is removed"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The error kpt shows for a rule that would tailor its own output again.
fn refusal(field: &str, what: &str) -> String {
    format!("[error] {field}: {field} {what} each time it runs, and kpt renders in place: the next `kpt fn render` would tailor the tailored objects again; {ELSEWHERE}")
}

/// namePrefix gave `p-p-cm` on the second render, a JSON 6902 `add` to a list a second
/// entry: in place they are refused, and the package stays as it was.
#[test]
fn rules_that_repeat_are_refused_in_place() {
    let Some(kpt) = tool("kpt") else { return };
    let cm = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\ndata:\n  list: x\n";
    let cases = [
        (
            "  namePrefix: p-\n",
            refusal("spec.namePrefix", "adds its prefix to every name"),
        ),
        (
            "  patches:\n  - target: {kind: ConfigMap}\n    patch: |\n      - op: add\n        path: /metadata/finalizers/-\n        value: x\n",
            refusal(
                "spec.patches[0]",
                "inserts a list entry (a JSON 6902 `add` to `/-` or an index)",
            ),
        ),
    ];
    for (spec, error) in cases {
        let config = format!("apiVersion: tailor.dev/v1alpha1\nkind: Tailor\nmetadata:\n  name: t\n{LOCAL}spec:\n{spec}");
        let dir = package(
            "kpt-guest-repeat",
            "tailor.yaml",
            &[("cm.yaml", cm), ("tailor.yaml", &config)],
        );
        let twice = render_twice(&kpt, &dir);
        assert_ne!(twice.first.code, 0);
        assert!(
            twice.first.stderr.contains(&error),
            "{}",
            twice.first.stderr
        );
        assert!(twice.second.stderr.contains(&error));
        assert_eq!(twice.after_first, twice.before);
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// Into another directory, the same rule runs: `kpt fn source SRC | tailor | kpt fn sink OUT`
/// renames the object, and the inputs come back to OUT too (kpt fn sink writes files).
#[test]
fn a_pipe_into_another_directory_tailors_with_any_rule() {
    let Some(kpt) = tool("kpt") else { return };
    let cm = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n";
    let config = format!("apiVersion: tailor.dev/v1alpha1\nkind: Tailor\nmetadata:\n  name: t\n{LOCAL}spec:\n  namePrefix: p-\n  cluster: {{name: virgo}}\n");
    let src = package(
        "kpt-guest-pipe",
        "tailor.yaml",
        &[
            ("cm.yaml", cm),
            ("tailor.yaml", &config),
            ("inventory.yaml", INVENTORY),
        ],
    );
    let before = read_tree(&src);
    let list = run_ok(
        Command::new(&kpt)
            .args(["fn", "source"])
            .arg(&src)
            .arg("--fn-config")
            .arg(src.join("tailor.yaml")),
    );
    let tailored = run_tailor(&[], &list);
    assert_eq!(tailored.code, 0, "{}", tailored.stderr);
    let tmp = temp_dir("kpt-guest-pipe-out");
    let out = tmp.join("out");
    let sink = run_command(
        Command::new(&kpt).args(["fn", "sink"]).arg(&out),
        &tailored.stdout,
    );
    assert_eq!(sink.code, 0, "{}", sink.stderr);
    let written = read_tree(&out);
    assert!(String::from_utf8_lossy(&written["cm.yaml"]).contains("name: p-cm"));
    assert_eq!(written["inventory.yaml"], before["inventory.yaml"]);
    assert_eq!(read_tree(&src), before);
    let _ = std::fs::remove_dir_all(&src);
    let _ = std::fs::remove_dir_all(out.parent().expect("parent"));
}

/// The items of a failed run come back as written, whatever is wrong with them: `kpt fn sink`
/// wrote an empty directory, with exit 0, from the `items: []` of an unreadable list.
#[test]
fn an_unreadable_list_comes_back_as_written() {
    let list = "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- foo: bar # kept\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: a}\n";
    let r = run_tailor(&[], list);
    assert_eq!(r.code, 1);
    assert_eq!(
        r.stdout,
        "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- foo: bar # kept\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: a}\nresults:\n- message: 'items[0]: resource must have `apiVersion`'\n  severity: error\n  field:\n    path: items[0].apiVersion\n"
    );
}

/// What a run answers to `list`: exit 1, the items as they were, and this one error.
fn refused_with_items_as_read(list: &str, error: &str) {
    let r = run_tailor(&[], list);
    assert_eq!(r.code, 1, "{}", r.stdout);
    let items = |text: &str| text.split("results:").next().unwrap_or("").to_string();
    let items_in = list.split("functionConfig:").next().unwrap_or("");
    assert!(items(&r.stdout).starts_with(items_in), "{}", r.stdout);
    assert_eq!(r.stderr, format!("[error] {error}\n"));
}

/// A stage that leaves an object without apiVersion, kind or metadata.name is an error
/// naming it, and nothing tailored is emitted.
#[test]
fn an_object_a_rule_leaves_without_its_identity_is_an_error() {
    let config_map = "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: a}\n";
    let custom = format!("{config_map}- apiVersion: control.kubestellar.io/v1alpha1\n  kind: CustomTransform\n  metadata: {{name: drop-kind}}\n  spec:\n    apiGroup: \"\"\n    resource: configmaps\n    remove: [$.kind]\n");
    refused_with_items_as_read(
        &custom,
        "the strip stage (a CustomTransform's `remove`) left an object (items[0]) without kind: every object keeps apiVersion, kind and metadata.name; change the rule",
    );
    let patch = format!("{config_map}functionConfig:\n  apiVersion: tailor.dev/v1alpha1\n  kind: Tailor\n  metadata: {{name: t}}\n  spec:\n    patches:\n    - target: {{kind: ConfigMap}}\n      patch: |\n        - op: remove\n          path: /metadata\n");
    refused_with_items_as_read(
        &patch,
        "the flux overlay fields stage (spec.patches) left an object (items[0]) without metadata.name: every object keeps apiVersion, kind and metadata.name; change the rule",
    );
}

/// A ResourceList followed by other documents was emitted as an item, its functionConfig
/// ignored: it is refused.
#[test]
fn a_resource_list_among_documents_is_refused() {
    let text = "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: a}\nfunctionConfig: {apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {namespace: zz}}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}\n";
    let r = run_tailor(&[], text);
    assert_eq!(r.code, 1);
    assert_eq!(
        r.stderr,
        "[error] document 0 is a ResourceList among 2 documents: a ResourceList must be the whole input (its items and functionConfig); send it alone, or the objects as a stream without it\n"
    );
    assert!(!r.stdout.contains("namespace: zz\n  name"), "{}", r.stdout);
}

/// kustomize deploys what a transformer returns and writes no file: the inventory object and
/// the CustomTransform tailor reads never come back there (kustomize 4.5.4 marks every item
/// with an id and no path, which is how tailor tells it from kpt).
#[test]
fn kustomize_never_gets_the_inputs_back() {
    let Some(kustomize) = tool("kustomize") else {
        return;
    };
    let dir = temp_dir("kustomize-guest");
    let inventory = "apiVersion: cluster.open-cluster-management.io/v1\nkind: ManagedCluster\nmetadata:\n  name: virgo\n  labels: {region: eu-west-1}\n";
    let transform = CUSTOM_TRANSFORM.replace(LOCAL, "");
    let config = TAILOR.replace(
        LOCAL,
        &format!(
            "  annotations:\n    config.kubernetes.io/function: |\n      exec:\n        path: {}\n",
            tailor_bin()
        ),
    );
    for (name, text) in [
        ("inventory.yaml", inventory),
        ("ct.yaml", transform.as_str()),
        ("tailor.yaml", config.as_str()),
        ("shop.yaml", SHOP),
        (
            "kustomization.yaml",
            "resources: [shop.yaml, inventory.yaml, ct.yaml]\ntransformers: [tailor.yaml]\n",
        ),
    ] {
        std::fs::write(dir.join(name), text).expect("write");
    }
    let out = run_ok(
        Command::new(&kustomize)
            .args(["build", "--enable-alpha-plugins", "--enable-exec"])
            .arg(&dir),
    );
    assert_eq!(
        out,
        "apiVersion: v1\ndata:\n  REGION: eu-west-1\nkind: ConfigMap\nmetadata:\n  name: shop\n"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A Fleet overlay file of the package comes back as it was, and the object it patches stays
/// in its own file (the overlay's path annotation moved it into the overlay's file before,
/// and kpt then failed on two objects at one path).
#[test]
fn fleet_overlay_files_come_back_and_patch_in_place() {
    let Some(kpt) = tool("kpt") else { return };
    let shop = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: shop\ndata: {size: small}\n";
    let patch = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: shop\ndata: {size: large}\n";
    let config = format!("apiVersion: tailor.dev/v1alpha1\nkind: Tailor\nmetadata:\n  name: t\n{LOCAL}spec:\n  yaml: {{overlays: [prod]}}\n");
    let dir = package(
        "kpt-guest-overlays",
        "tailor.yaml",
        &[
            ("shop.yaml", shop),
            ("overlays/prod/shop_patch.yaml", patch),
            ("tailor.yaml", &config),
        ],
    );
    let twice = render_twice(&kpt, &dir);
    assert_eq!(twice.first.code, 0, "{}", twice.first.stderr);
    twice.unchanged("overlays/prod/shop_patch.yaml");
    assert_eq!(twice.file("shop.yaml"), patch);
    assert!(twice.first.stderr.contains("[warning] v1/ConfigMap/shop: a Fleet overlay file tailor reads (overlays/prod/shop_patch.yaml): it comes back unchanged, but it is not marked `config.kubernetes.io/local-config: \"true\"`, so `kpt live apply` and kustomize would deploy it"), "{}", twice.first.stderr);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A template whose expansion writes a template (`{{"{{"}}`) would be expanded again by the
/// next render: refused in place, found on the output; one that expands to plain text
/// renders twice to the same package.
#[test]
fn a_template_that_expands_to_a_template_is_refused_in_place() {
    let Some(kpt) = tool("kpt") else { return };
    let cm = |data: &str| {
        format!("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: where\n  annotations:\n    control.kubestellar.io/expand-templates: \"true\"\ndata:\n{data}")
    };
    let kptfile = |dir: &Path| {
        std::fs::write(
            dir.join("Kptfile"),
            format!("apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: pkg\n{LOCAL}pipeline:\n  mutators:\n  - exec: {}\n    configMap:\n      clusterName: virgo\n", tailor_bin()),
        )
        .expect("Kptfile");
    };
    let again = temp_dir("kpt-guest-template-again");
    std::fs::write(
        again.join("cm.yaml"),
        cm("  raw: '{{\"{{\"}}.clusterName}}'\n"),
    )
    .expect("write");
    kptfile(&again);
    let twice = render_twice(&kpt, &again);
    assert_ne!(twice.first.code, 0);
    let error = format!("[error] v1/ConfigMap/where: its expanded templates (cm.yaml) still hold a template, and kpt renders in place: the next `kpt fn render` would expand it again; {ELSEWHERE}");
    assert!(
        twice.first.stderr.contains(&error),
        "{}",
        twice.first.stderr
    );
    assert_eq!(twice.after_first, twice.before);
    let plain = temp_dir("kpt-guest-template-plain");
    std::fs::write(plain.join("cm.yaml"), cm("  at: '{{.clusterName}}'\n")).expect("write");
    kptfile(&plain);
    let twice = render_twice(&kpt, &plain);
    assert_eq!(twice.first.code, 0, "{}", twice.first.stderr);
    assert!(twice.file("cm.yaml").ends_with("  at: 'virgo'\n"));
    let _ = std::fs::remove_dir_all(&again);
    let _ = std::fs::remove_dir_all(&plain);
}

/// A run that returns fewer objects than it read deleted their files in place: a Fleet
/// `doNotDeploy` destination removed every file of the package but the configuration (the
/// Kptfile too), and a `$patch: delete` the document it deletes. In place both are refused:
/// the package stays as it was, and the error names what would be removed and where to
/// render instead.
#[test]
fn a_run_that_would_remove_package_objects_is_refused_in_place() {
    let Some(kpt) = tool("kpt") else { return };
    let app = "# two objects, one file\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app\ndata: {k: v}\n---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: app\n";
    let skip = "  cluster: {name: edge-1, labels: {env: edge}}\n  targetCustomizations:\n  - name: no-edge\n    clusterSelector: {matchLabels: {env: edge}}\n    doNotDeploy: true\n";
    let delete = "  patches:\n  - patch: |\n      apiVersion: v1\n      kind: Secret\n      metadata: {name: app}\n      $patch: delete\n";
    let elsewhere =
        format!("and kpt renders in place: it would delete them from their files; {ELSEWHERE}");
    let cases = [
        (skip, format!("[error] this run would remove 2 objects of the package (v1/ConfigMap/app in app.yaml, v1/Secret/app in app.yaml), {elsewhere}")),
        (delete, format!("[error] this run would remove 1 object of the package (v1/Secret/app in app.yaml), {elsewhere}")),
    ];
    for (spec, error) in cases {
        let config = format!("apiVersion: tailor.dev/v1alpha1\nkind: Tailor\nmetadata:\n  name: t\n{LOCAL}spec:\n{spec}");
        let dir = package(
            "kpt-guest-remove",
            "tailor.yaml",
            &[("app.yaml", app), ("tailor.yaml", &config)],
        );
        let twice = render_twice(&kpt, &dir);
        assert_eq!(twice.first.code, 1, "{}", twice.first.stderr);
        for run in [&twice.first, &twice.second] {
            assert!(run.stderr.contains(&error), "{}", run.stderr);
        }
        assert_eq!(twice.after_first, twice.before);
        let _ = std::fs::remove_dir_all(&dir);
    }
    // Into another directory, the same destination gets no object; the Kptfile and the
    // configuration come back.
    let config = format!(
        "apiVersion: tailor.dev/v1alpha1\nkind: Tailor\nmetadata:\n  name: t\n{LOCAL}spec:\n{skip}"
    );
    let src = package(
        "kpt-guest-remove-pipe",
        "tailor.yaml",
        &[("app.yaml", app), ("tailor.yaml", &config)],
    );
    let list = run_ok(
        Command::new(&kpt)
            .args(["fn", "source"])
            .arg(&src)
            .arg("--fn-config")
            .arg(src.join("tailor.yaml")),
    );
    let tailored = run_tailor(&[], &list);
    assert_eq!(tailored.code, 0, "{}", tailored.stderr);
    let tmp = temp_dir("kpt-guest-remove-out");
    let out = tmp.join("out");
    let sink = run_command(
        Command::new(&kpt).args(["fn", "sink"]).arg(&out),
        &tailored.stdout,
    );
    assert_eq!(sink.code, 0, "{}", sink.stderr);
    let written: Vec<String> = read_tree(&out).into_keys().collect();
    assert_eq!(written, ["Kptfile", "tailor.yaml"]);
    let _ = std::fs::remove_dir_all(&src);
    let _ = std::fs::remove_dir_all(out.parent().expect("parent"));
}

/// Flux's `$${var}` writes `${var}`, which the next render substituted: in place it is
/// refused and the package stays as it was; into another directory the escape is Flux's.
#[test]
fn an_escaped_variable_is_refused_in_place() {
    let Some(kpt) = tool("kpt") else { return };
    let web = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\ndata:\n  region: ${region}\n  literal: $${region}\n";
    let dir = package(
        "kpt-guest-escape",
        "ks.yaml",
        &[("ks.yaml", FLUX), ("vars.yaml", VARS), ("web.yaml", web)],
    );
    let twice = render_twice(&kpt, &dir);
    assert_eq!(twice.first.code, 1, "{}", twice.first.stderr);
    let error = format!("[error] v1/ConfigMap/apps/web: its substituted text (web.yaml) still holds a variable (`$${{var}}` writes `${{var}}`, and a variable's value may hold one), and kpt renders in place: the next `kpt fn render` would substitute it again; {ELSEWHERE}");
    for run in [&twice.first, &twice.second] {
        assert!(run.stderr.contains(&error), "{}", run.stderr);
    }
    assert_eq!(twice.after_first, twice.before);
    let list = run_ok(
        Command::new(&kpt)
            .args(["fn", "source"])
            .arg(&dir)
            .arg("--fn-config")
            .arg(dir.join("ks.yaml")),
    );
    let piped = run_tailor(&[], &list);
    assert_eq!(piped.code, 0, "{}", piped.stderr);
    assert!(
        piped
            .stdout
            .contains("    region: eu\n    literal: ${region}\n"),
        "{}",
        piped.stdout
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `kpt fn render -o stdout` and `kpt fn eval -o stdout` write nothing back, but kpt hands the
/// function the very items (a path and a run id on each) and environment of an in-place
/// render, and decides where the answer goes only after every function ran
/// (`docs/host-contract.md`): tailor cannot tell them apart, refuses a rule that repeats there
/// too, and names the ways to stdout that work, which this test takes.
#[test]
fn render_to_stdout_is_refused_like_in_place_and_the_named_ways_work() {
    let Some(kpt) = tool("kpt") else { return };
    let cm = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n";
    let config = format!("apiVersion: tailor.dev/v1alpha1\nkind: Tailor\nmetadata:\n  name: t\n{LOCAL}spec:\n  namePrefix: p-\n");
    let dir = package(
        "kpt-guest-stdout",
        "tailor.yaml",
        &[("cm.yaml", cm), ("tailor.yaml", &config)],
    );
    let before = read_tree(&dir);
    let error = refusal("spec.namePrefix", "adds its prefix to every name");
    let render = run_command(
        Command::new(&kpt)
            .args([
                "fn",
                "render",
                "--allow-exec",
                "--truncate-output=false",
                "-o",
                "stdout",
            ])
            .arg(&dir),
        "",
    );
    let eval = run_command(
        Command::new(&kpt)
            .args([
                "fn",
                "eval",
                "--truncate-output=false",
                "-o",
                "stdout",
                "--exec",
                tailor_bin(),
            ])
            .arg(&dir)
            .arg("--fn-config")
            .arg(dir.join("tailor.yaml")),
        "",
    );
    for run in [&render, &eval] {
        assert_ne!(run.code, 0);
        assert!(run.stderr.contains(&error), "{}", run.stderr);
        assert!(!run.stdout.contains("p-cm"), "{}", run.stdout);
    }
    assert_eq!(read_tree(&dir), before);
    // The ways the error names: a pipe from kpt fn source, and standalone mode.
    let list = run_ok(
        Command::new(&kpt)
            .args(["fn", "source"])
            .arg(&dir)
            .arg("--fn-config")
            .arg(dir.join("tailor.yaml")),
    );
    let piped = run_tailor(&[], &list);
    assert_eq!(piped.code, 0, "{}", piped.stderr);
    assert!(
        piped.stdout.contains("    name: p-cm\n"),
        "{}",
        piped.stdout
    );
    let config = dir.join("tailor.yaml");
    let cm_path = dir.join("cm.yaml");
    let standalone = run_tailor(
        &[
            config.to_str().expect("path"),
            cm_path.to_str().expect("path"),
        ],
        "",
    );
    assert_eq!(standalone.code, 0, "{}", standalone.stderr);
    assert_eq!(
        standalone.stdout,
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: p-cm\n"
    );
    assert_eq!(read_tree(&dir), before);
    let _ = std::fs::remove_dir_all(&dir);
}
