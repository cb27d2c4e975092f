//! Whole inputs: ResourceLists with a functionConfig, kustomizations for the same work, and
//! the `Tailor` configs of the full pipeline and of fan-out.

use crate::objects::{exported_deployment, exported_object, ObjectKind};

/// Stages of the `Tailor` pipeline a benchmark can switch on. Each adds its spec fields and,
/// where the stage only acts on marked objects, marks the objects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PipelineStage {
    Strip,
    Overlays,
    Patches,
    Replacements,
    Templates,
    Substitution,
}

/// The stages the full-pipeline benchmarks run: every stage of a `Tailor` config.
pub const FULL_PIPELINE_STAGES: &[PipelineStage] = &[
    PipelineStage::Strip,
    PipelineStage::Overlays,
    PipelineStage::Patches,
    PipelineStage::Replacements,
    PipelineStage::Templates,
    PipelineStage::Substitution,
];

/// Indents one document as an item of a block sequence at column 0 (kpt's layout).
fn push_item(out: &mut String, doc: &str) {
    let mut first = true;
    for line in doc.lines() {
        if first {
            out.push_str("- ");
            first = false;
        } else if !line.is_empty() {
            out.push_str("  ");
        }
        out.push_str(line);
        out.push('\n');
    }
}

/// A ResourceList of `items` (YAML documents) with `function_config` (a YAML mapping).
pub fn resource_list(items: &[String], function_config: &str) -> String {
    let mut out = String::with_capacity(items.iter().map(|s| s.len() + 16 * 4).sum::<usize>());
    out.push_str("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n");
    for item in items {
        push_item(&mut out, item);
    }
    out.push_str("functionConfig:\n");
    for line in function_config.lines() {
        out.push_str("  ");
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// The documents as a multi-document YAML stream.
pub fn stream(items: &[String]) -> String {
    let mut out = String::new();
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push_str("---\n");
        }
        out.push_str(item);
    }
    out
}

/// The replacements workload: `pairs` ConfigMap + Deployment pairs and two replacements that
/// copy ConfigMap data fields into every Deployment. Returns the items and the `replacements:`
/// list (a YAML sequence), usable by tailor and by kustomize alike.
pub fn replacement_pairs(pairs: usize) -> (Vec<String>, String) {
    let mut items = Vec::with_capacity(pairs * 2);
    for i in 0..pairs {
        items.push(format!(
            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app-{i}-config\n  namespace: default\ndata:\n  image: registry.example.com/app-{i}:2.0.{v}\n  LOG_LEVEL: debug\n",
            v = i % 13
        ));
        items.push(format!(
            "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: app-{i}\n  namespace: default\n  labels:\n    app: app-{i}\nspec:\n  replicas: 3\n  selector:\n    matchLabels:\n      app: app-{i}\n  template:\n    metadata:\n      labels:\n        app: app-{i}\n    spec:\n      containers:\n      - name: app\n        image: registry.example.com/app-{i}:1.0.0\n        env:\n        - name: LOG_LEVEL\n          value: info\n        ports:\n        - containerPort: 8080\n"
        ));
    }
    (items, replacements_yaml("app-0-config"))
}

/// [`replacement_pairs`] with one replacement per pair, each selecting its source and target by
/// kind and name (issue 26: R replacements over N objects near R + N, not R x N). Returns the
/// items and the `replacements:` list.
pub fn replacement_per_pair(pairs: usize) -> (Vec<String>, String) {
    let (items, _) = replacement_pairs(pairs);
    let mut repl = String::new();
    for i in 0..pairs {
        repl.push_str(&format!(
            "- source:\n    kind: ConfigMap\n    name: app-{i}-config\n    fieldPath: data.image\n  targets:\n  - select:\n      kind: Deployment\n      name: app-{i}\n    fieldPaths:\n    - spec.template.spec.containers.[name=app].image\n"
        ));
    }
    (items, repl)
}

fn replacements_yaml(source: &str) -> String {
    format!(
        "- source:\n    kind: ConfigMap\n    name: {source}\n    fieldPath: data.image\n  targets:\n  - select:\n      kind: Deployment\n    fieldPaths:\n    - spec.template.spec.containers.[name=app].image\n- source:\n    kind: ConfigMap\n    name: {source}\n    fieldPath: data.LOG_LEVEL\n  targets:\n  - select:\n      kind: Deployment\n    fieldPaths:\n    - spec.template.spec.containers.[name=app].env.[name=LOG_LEVEL].value\n"
    )
}

/// The patch workload for kustomize comparisons: a strategic-merge patch and a JSON 6902
/// patch applied to every Deployment. Returns the `patches:` list (a YAML sequence).
pub fn patches_yaml() -> String {
    "- target:\n    kind: Deployment\n  patch: |\n    apiVersion: apps/v1\n    kind: Deployment\n    metadata:\n      name: any\n    spec:\n      replicas: 2\n- target:\n    kind: Deployment\n  patch: |\n    - op: add\n      path: /metadata/labels/patched\n      value: \"true\"\n".to_string()
}

/// A `kustomization.yaml` over `resources` with the given top-level fields (already YAML).
pub fn kustomization_for(resources: &[&str], fields: &[(&str, &str)]) -> String {
    let mut out = String::from(
        "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n",
    );
    for r in resources {
        out.push_str("- ");
        out.push_str(r);
        out.push('\n');
    }
    for (key, value) in fields {
        out.push_str(key);
        out.push_str(":\n");
        out.push_str(value);
    }
    out
}

fn indent(text: &str, by: usize) -> String {
    let pad = " ".repeat(by);
    text.lines()
        .map(|l| {
            if l.is_empty() {
                "\n".to_string()
            } else {
                format!("{pad}{l}\n")
            }
        })
        .collect()
}

/// The `spec:` fields one stage adds to a `Tailor` config.
fn stage_spec(stage: PipelineStage) -> String {
    match stage {
        PipelineStage::Strip => "strip:\n  builtin: true\n".into(),
        PipelineStage::Overlays => "commonMetadata:\n  labels:\n    owner: platform\nimages:\n- name: registry.example.com/app-1\n  newTag: \"9.9\"\n".into(),
        PipelineStage::Patches => format!("patches:\n{}", patches_yaml()),
        PipelineStage::Replacements => format!("replacements:\n{}", replacements_yaml("app-2-config")),
        PipelineStage::Templates => "templates:\n  enabled: true\n".into(),
        PipelineStage::Substitution => "postBuild:\n  substitute:\n    region: eu-west\n".into(),
    }
}

fn cluster_entry(i: usize) -> String {
    format!(
        "name: cluster-{i:03}\nlabels:\n  env: {}\n  region: region-{}\nproperties:\n  clusterHash: {i:04}-beef\n  region: region-{}\n",
        if matches!(i % 3, 0) { "staging" } else { "prod" },
        i % 7,
        i % 7
    )
}

fn tailor_config(name: &str, clusters: usize, stages: &[PipelineStage]) -> String {
    let mut spec = String::new();
    if clusters == 0 {
        spec.push_str("cluster:\n");
        spec.push_str(&indent(&cluster_entry(0), 2));
    } else {
        spec.push_str("clusters:\n");
        for i in 0..clusters {
            let entry = indent(&cluster_entry(i), 2);
            spec.push_str("- ");
            spec.push_str(&entry[2..]);
        }
    }
    if !stages.contains(&PipelineStage::Strip) {
        spec.push_str("strip:\n  builtin: false\n");
    }
    if !stages.contains(&PipelineStage::Templates) {
        spec.push_str("templates:\n  enabled: false\n");
    }
    for &stage in stages {
        spec.push_str(&stage_spec(stage));
    }
    format!(
        "apiVersion: tailor.dev/v1alpha1\nkind: Tailor\nmetadata:\n  name: {name}\nspec:\n{}",
        indent(&spec, 2)
    )
}

/// Marks an exported object for the stages that only act on marked data.
fn mark_for(doc: String, i: usize, stages: &[PipelineStage]) -> String {
    let mut doc = doc;
    if ObjectKind::cycle(i) != ObjectKind::ConfigMap {
        if stages.contains(&PipelineStage::Templates) {
            doc = doc.replacen(
                "metadata:\n  annotations:\n",
                "metadata:\n  annotations:\n    control.kubestellar.io/expand-templates: \"true\"\n    tailor.dev/cluster: '{{ .clusterName }}'\n",
                1,
            );
        }
    } else if stages.contains(&PipelineStage::Substitution) {
        doc = doc.replacen(
            "  LOG_LEVEL: info\n",
            "  LOG_LEVEL: info\n  REGION: ${region}\n",
            1,
        );
    }
    doc
}

/// The replacements read ConfigMap `app-2-config` (object 2): with fewer objects there is no
/// source, and kustomize fails a replacement whose source is missing, so the stage is left out.
fn usable_stages(n: usize, stages: &[PipelineStage]) -> Vec<PipelineStage> {
    stages
        .iter()
        .copied()
        .filter(|&s| n >= 3 || s != PipelineStage::Replacements)
        .collect()
}

/// `n` exported objects with the `Tailor` config of the full pipeline for one cluster.
pub fn full_pipeline_config(n: usize, stages: &[PipelineStage]) -> (Vec<String>, String) {
    let stages = usable_stages(n, stages);
    let items = (0..n)
        .map(|i| mark_for(exported_object(i), i, &stages))
        .collect();
    (items, tailor_config("full-pipeline", 0, &stages))
}

/// `n` exported objects and a `Tailor` config fanning them out to `clusters` destinations.
pub fn fan_out_config(
    n: usize,
    clusters: usize,
    stages: &[PipelineStage],
) -> (Vec<String>, String) {
    let stages = usable_stages(n, stages);
    let items = (0..n)
        .map(|i| mark_for(exported_object(i), i, &stages))
        .collect();
    (items, tailor_config("fan-out", clusters, &stages))
}

/// `n` exported objects fanned out to `clusters` clusters that fall into `groups` label
/// groups, each group with a target customization of its own (FirstMatch), under stages that
/// read nothing of a cluster but its options (no templates, no postBuild, no property source):
/// a fan-out renders one copy per group and copies it for the group's other clusters.
pub fn fan_out_groups_config(n: usize, clusters: usize, groups: usize) -> (Vec<String>, String) {
    let stages = usable_stages(
        n,
        &[
            PipelineStage::Strip,
            PipelineStage::Overlays,
            PipelineStage::Patches,
            PipelineStage::Replacements,
        ],
    );
    let items = (0..n).map(exported_object).collect();
    let mut spec = String::from("clusters:\n");
    for i in 0..clusters {
        spec.push_str(&format!(
            "- name: cluster-{i:05}\n  labels:\n    group: group-{}\n",
            i % groups.max(1)
        ));
    }
    spec.push_str("templates:\n  enabled: false\ntargetCustomizations:\n");
    for g in 0..groups {
        spec.push_str(&format!(
            "- name: group-{g}\n  clusterSelector:\n    matchLabels:\n      group: group-{g}\n  images:\n  - name: registry.example.com/app-0\n    newTag: \"{g}.0\"\n"
        ));
    }
    for &stage in &stages {
        spec.push_str(&stage_spec(stage));
    }
    let config = format!(
        "apiVersion: tailor.dev/v1alpha1\nkind: Tailor\nmetadata:\n  name: fan-out-groups\nspec:\n{}",
        indent(&spec, 2)
    );
    (items, config)
}

/// `n` exported objects whose Deployments and Services ask for template expansion with a
/// template reading the `region` property, fanned out to `clusters` clusters whose properties
/// put them in `groups` regions (no target customization): a fan-out renders one copy per
/// region, though each cluster's properties hold its own `clusterName`.
pub fn fan_out_regions_config(n: usize, clusters: usize, groups: usize) -> (Vec<String>, String) {
    let items = (0..n)
        .map(|i| {
            exported_object(i).replacen(
                "metadata:\n  annotations:\n",
                "metadata:\n  annotations:\n    control.kubestellar.io/expand-templates: \"true\"\n    tailor.dev/endpoint: 'https://api.{{ .region }}.example.com'\n",
                1,
            )
        })
        .collect();
    let mut spec = String::from("clusters:\n");
    for i in 0..clusters {
        spec.push_str(&format!(
            "- name: cluster-{i:05}\n  properties:\n    region: region-{}\n",
            i % groups.max(1)
        ));
    }
    let config = format!(
        "apiVersion: tailor.dev/v1alpha1\nkind: Tailor\nmetadata:\n  name: fan-out-regions\nspec:\n{}",
        indent(&spec, 2)
    );
    (items, config)
}

/// `n` exported Deployments (about 5 KB each) and a config under which nothing changes:
/// strip off, no stage configured, template expansion on but no object asks for it.
pub fn noop_config(n: usize) -> (Vec<String>, String) {
    let items = (0..n).map(exported_deployment).collect();
    let config = "apiVersion: tailor.dev/v1alpha1\nkind: Tailor\nmetadata:\n  name: noop\nspec:\n  strip:\n    builtin: false\n".to_string();
    (items, config)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_nest_documents_under_items() {
        let list = resource_list(&["a: 1\nb: |\n  x\n\n  y\n".to_string()], "kind: Tailor\n");
        assert_eq!(
            list,
            "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- a: 1\n  b: |\n    x\n\n    y\nfunctionConfig:\n  kind: Tailor\n"
        );
    }

    #[test]
    fn clusters_fall_into_regions_their_objects_templates_read() {
        let (items, cfg) = fan_out_regions_config(3, 5, 2);
        assert!(items[0].contains("'https://api.{{ .region }}.example.com'"));
        assert!(cfg.contains("  - name: cluster-00004\n    properties:\n      region: region-0\n"));
    }

    #[test]
    fn grouped_clusters_each_get_their_group_customization() {
        let (items, cfg) = fan_out_groups_config(4, 5, 2);
        assert_eq!(items.len(), 4);
        assert!(cfg.contains("  - name: cluster-00004\n    labels:\n      group: group-0\n"));
        assert!(cfg.contains("  - name: group-1\n    clusterSelector:\n"));
        assert!(!cfg.contains("group-2"));
        assert!(cfg.contains("  templates:\n    enabled: false\n"));
        assert!(!cfg.contains("postBuild"));
    }

    #[test]
    fn configs_carry_their_stages() {
        let (items, cfg) = fan_out_config(3, 2, FULL_PIPELINE_STAGES);
        assert_eq!(items.len(), 3);
        assert!(cfg.contains("  clusters:\n  - name: cluster-000\n    labels:\n"));
        assert!(cfg.contains("  - name: cluster-001\n"));
        assert!(cfg.contains("  replacements:\n  - source:\n"));
        assert!(cfg.contains("  templates:\n    enabled: true\n"));
        assert!(cfg.contains("  postBuild:\n"));
        assert!(cfg.contains("  patches:\n"));
        let (_, cfg) = fan_out_config(3, 2, &[PipelineStage::Replacements]);
        assert!(cfg.contains("  templates:\n    enabled: false\n"));
        let (items, cfg) =
            full_pipeline_config(3, &[PipelineStage::Templates, PipelineStage::Substitution]);
        assert!(items[0].contains("expand-templates"));
        assert!(items[2].contains("${region}"));
        assert!(cfg.contains("  strip:\n    builtin: false\n"));
        assert!(cfg.contains("  cluster:\n    name: cluster-000\n"));
        let (_, cfg) = full_pipeline_config(1, FULL_PIPELINE_STAGES);
        assert!(!cfg.contains("replacements"));
    }
}
