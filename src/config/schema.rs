//! JSON Schemas (draft-07, what yaml-language-server reads) of the functionConfig kinds tailor
//! defines or reads field by field: `Tailor`, `ApplyReplacements`, `CustomTransform` and the
//! Flux `Kustomization`. Property names come from the parsers' own field lists where they keep
//! one (`TAILOR_FIELDS`, `LIMITS`, the Flux, Fleet and cluster lists); `tests/schema.rs` probes
//! the parser with every property, an unknown one beside it and a value of the wrong type, so
//! a schema that drifts from what `tailor` accepts fails the build.

use serde_json::{json, Map, Value};
use tailor_fleet::{CRITERIA_FIELDS, FLEET_OPTION_FIELDS};

use super::tailor::{LIMITS, TAILOR_FIELDS};

/// The kinds with a schema, by the name `tailor schema KIND` takes.
pub const KINDS: &[&str] = &[
    "Tailor",
    "ApplyReplacements",
    "CustomTransform",
    "Kustomization",
];

/// The schema of `kind` (one of [`KINDS`], any case).
pub fn for_kind(kind: &str) -> Option<Value> {
    let kind = KINDS.iter().find(|k| k.eq_ignore_ascii_case(kind))?;
    let (api_version, spec) = match *kind {
        "Tailor" => ("tailor.dev/v1alpha1", Some(tailor_spec())),
        "ApplyReplacements" => ("fn.kpt.dev/v1alpha1", None),
        "CustomTransform" => (
            "control.kubestellar.io/v1alpha1",
            Some(custom_transform_spec()),
        ),
        _ => (
            "kustomize.toolkit.fluxcd.io/v1",
            Some(flux_kustomization_spec()),
        ),
    };
    let mut props = vec![
        ("apiVersion", json!({"const": api_version})),
        ("kind", json!({"const": kind})),
        (
            "metadata",
            json!({"type": "object", "description": "Kubernetes object metadata; tailor reads name and namespace"}),
        ),
    ];
    let mut required = vec!["apiVersion", "kind"];
    match spec {
        Some(spec) => {
            props.push(("spec", spec));
        }
        None => {
            props.push((
                "replacements",
                list("kustomize replacements, read as kpt's ApplyReplacements does (unknown fields are ignored with a warning)", replacement()),
            ));
            required.push("replacements");
        }
    }
    let body = object(
        &format!("{api_version} {kind}, as tailor reads it"),
        props,
        &required,
    );
    let mut root = Map::new();
    root.insert(
        "$schema".into(),
        json!("http://json-schema.org/draft-07/schema#"),
    );
    root.insert("title".into(), json!(format!("{api_version} {kind}")));
    root.extend(body.as_object()?.clone());
    if *kind != "Tailor" {
        // Objects of other kinds carry fields of their own that tailor does not read.
        root.insert("additionalProperties".into(), json!(true));
    }
    Some(Value::Object(root))
}

/// The `Tailor` spec: every field of `TAILOR_FIELDS`.
fn tailor_spec() -> Value {
    let described: Vec<(&str, Value)> = vec![
        ("cluster", cluster_spec("The destination cluster; a name alone is looked up among the inventory objects of the input")),
        ("clusters", list("Several destinations: one tailored copy each (fan-out), under <cluster>/", cluster_spec("A destination cluster"))),
        ("strip", object("KubeStellar's built-in strip of server-set and cluster-specific fields", vec![("builtin", boolean("Run the built-in strip", true))], &[])),
        ("customTransforms", list("KubeStellar CustomTransform specs: remove paths from every object of a group/resource", custom_transform_spec())),
        ("destinationSelectors", list("Kratix destination selectors: an object goes to a destination when every label matches", kratix_selector())),
        ("targetCustomizationMode", enumeration("How several matching target customizations combine (Fleet)", &["FirstMatch", "AllMatches"], "FirstMatch")),
        ("targetCustomizations", list("Fleet target customizations, each with the Flux fields and replacements", customization())),
        ("targetNamespace", string("Flux targetNamespace: the namespace of every namespaced object", "team-a")),
        ("namePrefix", string("Flux/kustomize namePrefix, with name references updated", "dev-")),
        ("nameSuffix", string("Flux/kustomize nameSuffix, with name references updated", "-v2")),
        ("commonMetadata", common_metadata()),
        ("patches", list("Flux patches: strategic merge or JSON 6902, each with an optional target", patch())),
        ("images", list("kustomize images: new name, tag or digest for matching images", image())),
        ("replacements", list("kustomize replacements, plus sourceValue and source.property (a cluster property)", replacement())),
        ("postBuild", post_build()),
        ("templates", object("KubeStellar template expansion", vec![("enabled", boolean("Expand templates in objects annotated control.kubestellar.io/expand-templates: \"true\"", true))], &[])),
        ("limits", limits()),
        ("namespace", string("Fleet namespace: forced on every namespaced object", "team-a")),
        ("defaultNamespace", string("Fleet defaultNamespace: for namespaced objects without one", "team-a")),
        ("yaml", fleet_yaml()),
        ("overlays", overlays()),
        ("strict", boolean("Warnings are errors (as --strict)", false)),
    ];
    object(
        "What to tailor, and for which clusters",
        in_order(TAILOR_FIELDS, described),
        &[],
    )
}

/// Keeps the entries of `described` in the order of the parser's `names`; a name without an
/// entry is left out, which `tests/schema.rs` reports.
fn in_order<'a>(names: &[&str], described: Vec<(&'a str, Value)>) -> Vec<(&'a str, Value)> {
    let mut out = Vec::with_capacity(described.len());
    let mut described = described;
    for name in names {
        if let Some(i) = described.iter().position(|(n, _)| n == name) {
            out.push(described.remove(i));
        }
    }
    out
}

fn cluster_spec(description: &str) -> Value {
    let described = vec![
        (
            "name",
            string("The cluster's name (also the clusterName property)", "dev"),
        ),
        (
            "labels",
            string_map("Labels selectors match (also properties)", "env", "dev"),
        ),
        (
            "annotations",
            string_map(
                "Annotations (also properties, after labels)",
                "region",
                "eu",
            ),
        ),
        (
            "groups",
            list(
                "Fleet cluster groups the cluster belongs to",
                object(
                    "A cluster group",
                    vec![
                        ("name", string("The group's name", "web")),
                        (
                            "labels",
                            string_map(
                                "The group's labels, for clusterGroupSelector",
                                "tier",
                                "front",
                            ),
                        ),
                    ],
                    &["name"],
                ),
            ),
        ),
        ("properties", properties()),
        (
            "strictMatchLabels",
            boolean(
                "Kratix strictMatchLabels: only selectors naming every label match",
                false,
            ),
        ),
        (
            "kubeVersion",
            string(
                "The cluster's Kubernetes version: a Fleet Helm bundle's chart renders with it as .Capabilities.KubeVersion and its kubeVersion constraint must admit it (default v1.25.0, as fleet deploy --dry-run assumes)",
                "v1.30.2",
            ),
        ),
        (
            "apiVersions",
            list(
                "API versions the cluster serves beyond Helm's default set: a Fleet Helm bundle's chart sees them in .Capabilities.APIVersions (group/version or group/version/Kind)",
                string("An API version", "monitoring.coreos.com/v1"),
            ),
        ),
    ];
    object(
        description,
        in_order(tailor_cluster::CLUSTER_FIELDS, described),
        &["name"],
    )
}

fn properties() -> Value {
    let mut p = string_map(
        "Cluster properties for templates, replacements and substitution (override labels and annotations)",
        "region",
        "eu-west-1",
    );
    if let Some(m) = p.as_object_mut() {
        m.insert(
            "propertyNames".into(),
            json!({"pattern": "^[A-Za-z_][A-Za-z0-9_]*$"}),
        );
    }
    p
}

fn custom_transform_spec() -> Value {
    object(
        "A KubeStellar CustomTransform spec",
        vec![
            (
                "apiGroup",
                string("The API group, \"\" for the core group", "apps"),
            ),
            (
                "resource",
                string(
                    "The lowercase plural resource name, compared exactly",
                    "deployments",
                ),
            ),
            (
                "remove",
                list(
                    "Paths to remove, KubeStellar's JSONPath subset or RFC 9535",
                    string("A path", "$.spec.replicas"),
                ),
            ),
        ],
        &["apiGroup", "resource"],
    )
}

fn kratix_selector() -> Value {
    object(
        "A Kratix destination selector",
        vec![
            (
                "matchLabels",
                string_map("Labels a destination must have", "env", "dev"),
            ),
            (
                "directory",
                string(
                    "The directory the object is written under at that destination",
                    "apps",
                ),
            ),
        ],
        &["matchLabels"],
    )
}

fn label_selector(description: &str) -> Value {
    object(
        description,
        vec![
            (
                "matchLabels",
                string_map("Labels that must match", "env", "prod"),
            ),
            (
                "matchExpressions",
                list("Set-based requirements", {
                    let mut r = object(
                        "A requirement",
                        vec![
                            ("key", string("The label key", "env")),
                            (
                                "operator",
                                enumeration(
                                    "The operator",
                                    &["In", "NotIn", "Exists", "DoesNotExist"],
                                    "In",
                                ),
                            ),
                            (
                                "values",
                                list(
                                    "Values for In and NotIn (none for Exists and DoesNotExist)",
                                    string("A value", "prod"),
                                ),
                            ),
                        ],
                        &["key", "operator"],
                    );
                    r["examples"] = json!([{"key": "env", "operator": "In", "values": ["prod"]}]);
                    r
                }),
            ),
        ],
        &[],
    )
}

/// A `targetCustomizations` entry: Fleet's criteria and options, the Flux fields and
/// replacements.
fn customization() -> Value {
    let mut described: Vec<(&str, Value)> = vec![
        (
            "name",
            string(
                "The customization's name, in messages and --explain",
                "prod",
            ),
        ),
        (
            "doNotDeploy",
            boolean("Matching clusters get nothing", false),
        ),
        (
            "clusterName",
            string("Matches the cluster of this name", "prod-1"),
        ),
        (
            "clusterSelector",
            label_selector("Matches clusters by label"),
        ),
        (
            "clusterGroup",
            string("Matches clusters of this group", "web"),
        ),
        (
            "clusterGroupSelector",
            label_selector("Matches clusters of groups selected by label"),
        ),
        (
            "namespace",
            string("Fleet namespace for matching clusters", "team-a"),
        ),
        (
            "defaultNamespace",
            string("Fleet defaultNamespace for matching clusters", "team-a"),
        ),
        ("yaml", fleet_yaml()),
    ];
    described.extend(fleet_agent_options());
    for name in FLEET_OPTION_FIELDS {
        if !described.iter().any(|(n, _)| n == name) {
            described.push((name, json!({"description": AGENT_ONLY})));
        }
    }
    let flux = flux_fields();
    described.extend(flux);
    described.push((
        "replacements",
        list(
            "kustomize replacements for matching clusters",
            replacement(),
        ),
    ));
    let mut names: Vec<&str> = vec!["name", "doNotDeploy"];
    names.extend_from_slice(CRITERIA_FIELDS);
    names.extend_from_slice(FLEET_OPTION_FIELDS);
    names.extend_from_slice(tailor_flux::overlay::TAILOR_FIELDS);
    object(
        "A Fleet target customization",
        in_order(&names, described),
        &[],
    )
}

const AGENT_ONLY: &str =
    "A Fleet option that acts in the agent or in Helm: tailor checks it and does not apply it";

/// The Fleet options a customization may carry that act in Fleet's agent or in Helm, with the
/// types Fleet's decoder requires.
fn fleet_agent_options() -> Vec<(&'static str, Value)> {
    let open = |t: &str| json!({"type": t, "description": AGENT_ONLY});
    vec![
        (
            "serviceAccount",
            json!({"type": "string", "description": AGENT_ONLY}),
        ),
        ("helm", open("object")),
        (
            "kustomize",
            object(
                AGENT_ONLY,
                vec![(
                    "dir",
                    string("The kustomization directory", "overlays/prod"),
                )],
                &[],
            ),
        ),
        (
            "diff",
            object(
                AGENT_ONLY,
                vec![(
                    "comparePatches",
                    json!({"type": "array", "description": "Patches for Fleet's drift comparison"}),
                )],
                &[],
            ),
        ),
        ("forceSyncGeneration", open("integer")),
        ("keepResources", open("boolean")),
        ("correctDrift", open("object")),
        ("downstreamResources", open("array")),
        (
            "namespaceLabels",
            string_map("Labels of the namespace Fleet creates", "team", "web"),
        ),
        (
            "namespaceAnnotations",
            string_map(
                "Annotations of the namespace Fleet creates",
                "owner",
                "platform",
            ),
        ),
    ]
}

/// The Flux Kustomization fields that change manifests.
fn flux_fields() -> Vec<(&'static str, Value)> {
    let described = vec![
        (
            "targetNamespace",
            string("The namespace of every namespaced object", "team-a"),
        ),
        (
            "namePrefix",
            string("Prefix of every name, with references updated", "dev-"),
        ),
        (
            "nameSuffix",
            string("Suffix of every name, with references updated", "-v2"),
        ),
        ("commonMetadata", common_metadata()),
        (
            "patches",
            list("Strategic merge or JSON 6902 patches", patch()),
        ),
        ("images", list("Image overrides", image())),
    ];
    in_order(tailor_flux::overlay::FLUX_FIELDS, described)
}

fn flux_kustomization_spec() -> Value {
    let mut props = flux_fields();
    props.push(("postBuild", post_build()));
    let mut spec = object("A Flux Kustomization's spec; the controller-only fields (interval, sourceRef, prune, ...) are accepted and mean nothing offline", props, &[]);
    if let Some(m) = spec.as_object_mut() {
        m.insert("additionalProperties".into(), json!(true));
    }
    spec
}

fn common_metadata() -> Value {
    object(
        "Labels and annotations set on every object (not on selectors)",
        vec![
            ("labels", string_map("Labels", "team", "web")),
            (
                "annotations",
                string_map("Annotations", "owner", "platform"),
            ),
        ],
        &[],
    )
}

fn patch() -> Value {
    object(
        "A patch",
        vec![
            (
                "patch",
                json!({
                    "type": ["string", "object", "array"],
                    "description": "A strategic merge patch or a JSON 6902 patch, as YAML text (or written as YAML)",
                    "examples": ["- op: replace\n  path: /spec/replicas\n  value: 3\n"],
                }),
            ),
            (
                "target",
                selector("The objects to patch (fields are anchored regular expressions)"),
            ),
        ],
        &["patch"],
    )
}

fn image() -> Value {
    let scalar = |d: &str, e: &str| json!({"type": ["string", "number", "boolean"], "description": d, "examples": [e]});
    object(
        "An image override",
        vec![
            ("name", string("The image name to match", "nginx")),
            (
                "newName",
                scalar("The new image name", "registry.example.com/nginx"),
            ),
            ("newTag", scalar("The new tag", "1.25")),
            (
                "digest",
                scalar("A digest (replaces the tag)", "sha256:0123"),
            ),
        ],
        &["name"],
    )
}

fn selector(description: &str) -> Value {
    object(
        description,
        vec![
            ("group", string("API group", "apps")),
            ("version", string("API version", "v1")),
            ("kind", string("Kind", "Deployment")),
            ("name", string("Name", "web")),
            ("namespace", string("Namespace", "shop")),
            ("labelSelector", string("A label selector", "app=web")),
            (
                "annotationSelector",
                string("An annotation selector", "team=web"),
            ),
        ],
        &[],
    )
}

fn field_options(description: &str) -> Value {
    object(
        description,
        vec![
            (
                "delimiter",
                string("Split the value at this delimiter", "."),
            ),
            (
                "index",
                json!({"type": "integer", "description": "Which part after splitting", "examples": [0]}),
            ),
            (
                "encoding",
                string("Accepted and ignored, as in kustomize", "base64"),
            ),
            (
                "create",
                boolean("Create the field when it is missing", false),
            ),
        ],
        &[],
    )
}

fn replacement() -> Value {
    let mut source = selector("The object (or cluster property) the value comes from");
    if let Some(props) = source.get_mut("properties").and_then(Value::as_object_mut) {
        props.remove("labelSelector");
        props.remove("annotationSelector");
        props.insert(
            "fieldPath".into(),
            string("The field to read (default metadata.name)", "data.region"),
        );
        props.insert("options".into(), field_options("Take part of the value"));
        props.insert(
            "property".into(),
            string(
                "tailor: the destination cluster's property of this name",
                "region",
            ),
        );
    }
    object(
        "A kustomize replacement",
        vec![
            ("source", source),
            (
                "sourceValue",
                string("A literal value (kustomize v5.7)", "eu-west-1"),
            ),
            (
                "targets",
                list(
                    "Where the value goes",
                    object(
                        "A target",
                        vec![
                            ("select", selector("The objects to write to")),
                            (
                                "reject",
                                list("Objects to leave out", selector("Objects to leave out")),
                            ),
                            (
                                "fieldPaths",
                                list(
                                    "The fields to write",
                                    string("A field path", "spec.template.metadata.labels.region"),
                                ),
                            ),
                            (
                                "options",
                                field_options("Write into part of the value, or create the field"),
                            ),
                        ],
                        &[],
                    ),
                ),
            ),
        ],
        &[],
    )
}

fn post_build() -> Value {
    object(
        "Flux postBuild variable substitution",
        vec![
            ("substitute", {
                let mut m = string_map("Variables, after the cluster's properties and substituteFrom", "region", "eu-west-1");
                if let Some(o) = m.as_object_mut() {
                    o.insert("propertyNames".into(), json!({"pattern": "^[_a-zA-Z][_a-zA-Z0-9]*$"}));
                }
                m
            }),
            ("substituteFrom", list("ConfigMaps and Secrets among the input whose data are variables", object("A variables source", vec![
                ("kind", enumeration("The source's kind", &["ConfigMap", "Secret"], "ConfigMap")),
                ("name", string("The source's name", "cluster-vars")),
                ("optional", boolean("A missing source is not an error", false)),
            ], &["kind", "name"]))),
            ("strict", boolean("An unset variable without a default is an error (Flux's StrictPostBuildSubstitutions)", true)),
            ("substituteStrategy", enumeration("Always substitutes even with no variables", &["WithVariables", "Always"], "WithVariables")),
        ],
        &[],
    )
}

fn limits() -> Value {
    let described = vec![
        (
            "maxFanOutItems",
            positive("The most tailored items a fan-out may produce (clusters x items)"),
        ),
        (
            "maxTemplateOutputBytes",
            positive("The most bytes one template may write"),
        ),
        (
            "maxTemplateRangeIterations",
            positive("The most iterations of one template's range actions"),
        ),
        (
            "maxRunOutputBytes",
            positive("The most bytes of text all templates and postBuild substitutions of a run may generate"),
        ),
        (
            "maxRunEvaluationSteps",
            positive("The most template actions and range iterations a run may evaluate"),
        ),
        (
            "maxHeldOutputBytes",
            positive("The most bytes of output a fan-out may hold until the end (a ResourceList answer, -o resource-list, diff); stream output and --output-dir hold a few destinations at a time"),
        ),
    ];
    object(
        "Limits on what one run may produce",
        in_order(LIMITS, described),
        &[],
    )
}

fn fleet_yaml() -> Value {
    object(
        "Fleet yaml options",
        vec![(
            "overlays",
            list(
                "Overlay sets to apply, from overlays/<name>/ or spec.overlays",
                string("An overlay set name", "prod"),
            ),
        )],
        &[],
    )
}

fn overlays() -> Value {
    json!({
        "type": "object",
        "description": "Fleet overlay sets written inline: {SET: {RELATIVE/PATH.yaml: file text}}; an empty text removes the base file",
        "additionalProperties": {
            "type": "object",
            "additionalProperties": {"type": ["string", "null"]},
        },
        "examples": [{"prod": {"deployment_patch.yaml": "spec:\n  replicas: 3\n"}}],
    })
}

// ---- building blocks ---------------------------------------------------------------------

/// A closed object: properties in the order given, no others.
fn object(description: &str, props: Vec<(&str, Value)>, required: &[&str]) -> Value {
    let properties: Map<String, Value> =
        props.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
    let mut o = json!({
        "type": "object",
        "description": description,
        "properties": properties,
        "additionalProperties": false,
    });
    if !required.is_empty() {
        o["required"] = json!(required);
    }
    o
}

fn string(description: &str, example: &str) -> Value {
    json!({"type": "string", "description": description, "examples": [example]})
}

fn boolean(description: &str, default: bool) -> Value {
    json!({"type": "boolean", "description": description, "default": default})
}

fn positive(description: &str) -> Value {
    json!({"type": "integer", "minimum": 1, "description": description, "examples": [100]})
}

fn enumeration(description: &str, values: &[&str], default: &str) -> Value {
    json!({"type": "string", "enum": values, "description": description, "default": default})
}

fn list(description: &str, items: Value) -> Value {
    json!({"type": "array", "description": description, "items": items})
}

fn string_map(description: &str, key: &str, value: &str) -> Value {
    json!({
        "type": "object",
        "description": description,
        "additionalProperties": {"type": "string"},
        "examples": [{key: value}],
    })
}
