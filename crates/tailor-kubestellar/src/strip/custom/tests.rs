use super::*;
use crate::strip::Severity;
use tailor_yaml::{emit_node, parse_stream, EmitOptions};

#[test]
fn paths_with_blanks_inside_member_names_are_refused() {
    for bad in ["$.metadata.labels.x y", "$.spec suspend", "$.a.1b"] {
        assert!(
            parse_remove_path(bad, PathSyntax::Extended).is_err(),
            "{bad}"
        );
    }
    for good in [
        "$.spec.template['x y']",
        "$..status",
        "$.a[?@.b == 'c d']",
        "$.é",
    ] {
        assert!(shorthands_are_rfc9535(good), "{good}");
    }
}

#[test]
fn filter_nesting_is_limited_at_two() {
    assert_eq!(filter_nesting("$.spec.x"), 0);
    assert_eq!(filter_nesting("$..[?@.name == 'a[?b]']"), 1);
    assert_eq!(filter_nesting("$..[?@.a[?@.b == 1]]"), 2);
    assert_eq!(filter_nesting("$[?@[?@[?@.c]]]"), 3);
    assert_eq!(filter_nesting("$[?@.a][?@.b][?@.c]"), 1);
    let two = "$.spec.containers[?@.env[?@.name == 'X']]";
    assert!(parse_remove_path(two, PathSyntax::Extended).is_ok());
    let three = "$[?($[?($[?(@ in $)])])]";
    assert_eq!(
            parse_remove_path(three, PathSyntax::Extended).unwrap_err(),
            "filter selectors are nested 3 deep; at most 2 are allowed (each level multiplies the work by the size of the object)"
        );
}

/// The fuzz finding: nested absolute queries under filters ran for minutes.
#[test]
fn the_nested_filter_fuzz_input_is_refused_quickly() {
    let src = "$.e .e  [  ?   (  $ [  ?   in       (  $ [  ?  $    [?  in       (  $ [  ?   in  ";
    let started = std::time::Instant::now();
    assert!(parse_remove_path(src, PathSyntax::Extended).is_err());
    assert!(started.elapsed() < std::time::Duration::from_secs(1));
}

fn parse(src: &str) -> Node {
    parse_stream(src).unwrap().remove(0).root
}

fn ct(group: &str, resource: &str, paths: &[&str]) -> CustomTransform {
    CustomTransform {
        name: "ct".into(),
        api_group: group.into(),
        resource: resource.into(),
        remove: paths
            .iter()
            .map(|p| parse_remove_path(p, PathSyntax::Extended).unwrap())
            .collect(),
        at: "spec".into(),
    }
}

fn apply(src: &str, transforms: &[CustomTransform]) -> (String, Vec<Finding>) {
    let mut n = parse(src);
    let f = apply_custom_transforms(&mut n, transforms, &ResourceMapper::builtin());
    (emit_node(&n, EmitOptions::default()), f)
}

// ---- parsing the spec ------------------------------------------------------------------

#[test]
fn parses_a_whole_object_and_takes_its_name() {
    let n = parse(
            "apiVersion: control.kubestellar.io/v1alpha1\nkind: CustomTransform\nmetadata:\n  name: drop-label\nspec:\n  apiGroup: rbac.authorization.k8s.io\n  resource: clusterroles\n  remove:\n  - $.metadata.labels[\"test.kubestellar.io/delete-me\"]\n",
        );
    let t = parse_custom_transform(&n, "ignored").unwrap();
    assert_eq!(t.name, "drop-label");
    assert_eq!(t.api_group, "rbac.authorization.k8s.io");
    assert_eq!(t.resource, "clusterroles");
    assert_eq!(
        t.remove,
        vec![RemovePath::Members {
            source: "$.metadata.labels[\"test.kubestellar.io/delete-me\"]".into(),
            members: vec![
                "metadata".into(),
                "labels".into(),
                "test.kubestellar.io/delete-me".into()
            ],
        }]
    );
}

#[test]
fn parses_a_bare_spec_with_core_group_and_no_remove() {
    let t = parse_custom_transform(&parse("apiGroup: \"\"\nresource: services\n"), "x").unwrap();
    assert_eq!(
        (t.name.as_str(), t.api_group.as_str(), t.remove.len()),
        ("x", "", 0)
    );
}

#[test]
fn spec_errors_name_the_field() {
    let e =
        parse_custom_transform(&parse("resource: 1\nremove: x\nextra: 1\n"), "bad").unwrap_err();
    let paths: Vec<_> = e.iter().map(|f| f.field.clone()).collect();
    assert_eq!(
        paths,
        [
            "spec.apiGroup",
            "spec.resource",
            "spec.remove",
            "spec.extra"
        ]
    );
    assert!(e.iter().all(
        |f| f.severity == Severity::Error && f.message.starts_with("CustomTransform \"bad\": ")
    ));
    assert!(e[0].message.ends_with("spec.apiGroup is required"));
    assert!(parse_custom_transform(&parse("[1]\n"), "x").is_err());
}

#[test]
fn errors_name_the_place_the_transform_is_written() {
    let spec = parse("apiGroup: apps\nresource: deployments\nremove: [x]\n");
    let e = parse_custom_transform_at(
        &spec,
        "customTransforms[2]",
        PathSyntax::Extended,
        "spec.customTransforms[2]",
    )
    .unwrap_err();
    assert_eq!(e[0].field.as_str(), "spec.customTransforms[2].remove[0]");
    assert!(e[0].message.starts_with(
        "CustomTransform \"customTransforms[2]\": Error in spec.customTransforms[2].remove[0]: "
    ));
    let obj = parse("apiVersion: control.kubestellar.io/v1alpha1\nkind: CustomTransform\nmetadata: {name: ct}\nspec: {apiGroup: apps, resource: 7}\n");
    let e = parse_custom_transform_at(&obj, "x", PathSyntax::Extended, "items[4]").unwrap_err();
    assert_eq!(e[0].field.as_str(), "items[4].spec.resource");
    assert_eq!(
        e[0].message,
        "CustomTransform \"ct\": items[4].spec.resource must be a string, not an integer"
    );
}

#[test]
fn bad_paths_report_kubestellar_text_with_index() {
    let n = parse(
        "apiGroup: apps\nresource: deployments\nremove:\n- $.ok\n- \"\"\n- $\n- x\n- $.a-b\n- 7\n",
    );
    let e = parse_custom_transform_with(&n, "t1", PathSyntax::KubeStellar).unwrap_err();
    let msgs: Vec<_> = e.iter().map(|f| f.message.as_str()).collect();
    assert_eq!(
            msgs,
            [
                "CustomTransform \"t1\": Error in spec.remove[1]: EOF",
                "CustomTransform \"t1\": Invalid spec.remove[2]: it identifies the whole object",
                "CustomTransform \"t1\": Error in spec.remove[3]: syntax error at 0: missing root identifier (dollar sign)",
                "CustomTransform \"t1\": Error in spec.remove[4]: syntax error at 3: extra junk '-' after last segment",
                "CustomTransform \"t1\": Error in spec.remove[5]: must be a string, not an integer",
            ]
        );
    assert_eq!(e[0].field.as_str(), "spec.remove[1]");
}

#[test]
fn strict_syntax_rejects_rfc_only_paths_extended_accepts_them() {
    for p in [
        "$.a[0]",
        "$.a[*]",
        "$['a']",
        "$..a",
        "$.a[?@.b=='c']",
        "$.a[1:3]",
    ] {
        assert!(
            parse_remove_path(p, PathSyntax::KubeStellar).is_err(),
            "{p}"
        );
        assert!(
            matches!(
                parse_remove_path(p, PathSyntax::Extended),
                Ok(RemovePath::JsonPath { .. })
            ),
            "{p}"
        );
    }
    assert_eq!(
        parse_remove_path("$.a[0]", PathSyntax::KubeStellar).unwrap_err(),
        "syntax error at 4: expected open quote, got '0'"
    );
}

#[test]
fn kubestellar_valid_paths_always_use_its_engine() {
    for p in ["$.a", "$[\"a\"].b", "$[\"\\q\"]", "$[\"\"]"] {
        assert!(
            matches!(
                parse_remove_path(p, PathSyntax::Extended),
                Ok(RemovePath::Members { .. })
            ),
            "{p}"
        );
    }
}

#[test]
fn invalid_in_both_grammars_gives_kubestellar_text() {
    assert_eq!(
        parse_remove_path("$.a-b", PathSyntax::Extended).unwrap_err(),
        "syntax error at 3: extra junk '-' after last segment"
    );
    assert_eq!(
        parse_remove_path("", PathSyntax::Extended).unwrap_err(),
        "EOF"
    );
    assert_eq!(
        parse_remove_path("$", PathSyntax::Extended).unwrap_err(),
        "it identifies the whole object"
    );
}

// ---- binding ---------------------------------------------------------------------------

const CR: &str = "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: r\n  labels:\n    l1: v1\n    test.kubestellar.io/delete-me: you\n    test.kubestellar.io/dont-delete-me: thank\n";

// §4.4: only ClusterRoles lose the delete-me label.
#[test]
fn kubestellar_controller_test_binding() {
    let t = [ct(
        "rbac.authorization.k8s.io",
        "clusterroles",
        &["$.metadata.labels[\"test.kubestellar.io/delete-me\"]"],
    )];
    let (o, f) = apply(CR, &t);
    assert!(f.is_empty());
    assert!(
        !o.contains("delete-me: you") && o.contains("dont-delete-me: thank"),
        "{o}"
    );
    for other in [
        "apiVersion: v1\nkind: ConfigMap\n",
        "apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\n",
        "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\n",
        "apiVersion: v1\nkind: Namespace\n",
    ] {
        let src = format!("{other}metadata:\n  labels:\n    test.kubestellar.io/delete-me: you\n");
        assert_eq!(apply(&src, &t).0, src);
    }
}

#[test]
fn matching_is_exact_and_ignores_version() {
    let dep = "apiVersion: apps/v1beta2\nkind: Deployment\nmetadata:\n  labels:\n    x: y\n";
    assert_eq!(
        apply(dep, &[ct("apps", "deployments", &["$.metadata.labels.x"])]).0,
        "apiVersion: apps/v1beta2\nkind: Deployment\nmetadata:\n  labels: {}\n"
    );
    assert_eq!(
        apply(dep, &[ct("apps", "Deployments", &["$.metadata.labels.x"])]).0,
        dep
    );
    assert_eq!(
        apply(dep, &[ct("", "deployments", &["$.metadata.labels.x"])]).0,
        dep
    );
}

#[test]
fn core_group_is_empty_string() {
    let svc = "apiVersion: v1\nkind: Service\nspec:\n  x: 1\n";
    assert_eq!(
        apply(svc, &[ct("", "services", &["$.spec.x"])]).0,
        "apiVersion: v1\nkind: Service\nspec: {}\n"
    );
}

#[test]
fn unknown_resource_is_a_warning_not_a_silent_skip() {
    let src = "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n";
    let (o, f) = apply(src, &[ct("example.com", "widgets", &["$.metadata.name"])]);
    assert_eq!(o, src);
    assert_eq!(f.len(), 1);
    assert_eq!(f[0].severity, Severity::Warning);
    assert!(f[0].message.contains("Widget"), "{}", f[0].message);
    // No transforms: nothing to say.
    assert!(apply(src, &[]).1.is_empty());
}

#[test]
fn crds_supply_the_resource() {
    let mut m = ResourceMapper::builtin();
    let crd = parse("apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: widgets.example.com\nspec:\n  group: example.com\n  names:\n    kind: Widget\n    plural: widgets\n");
    assert!(m.add_crd(&crd).is_empty());
    let mut n =
        parse("apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n  labels: {a: b}\n");
    let f = apply_custom_transforms(
        &mut n,
        &[ct("example.com", "widgets", &["$.metadata.labels"])],
        &m,
    );
    assert!(f.is_empty());
    assert_eq!(
        emit_node(&n, EmitOptions::default()),
        "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n"
    );
}

#[test]
fn several_transforms_all_apply_with_a_warning() {
    let mut a = ct(
        "rbac.authorization.k8s.io",
        "clusterroles",
        &["$.metadata.labels.l1"],
    );
    a.name = "zeta".into();
    let mut b = ct(
        "rbac.authorization.k8s.io",
        "clusterroles",
        &["$.metadata.labels[\"test.kubestellar.io/delete-me\"]"],
    );
    b.name = "alpha".into();
    let (o, f) = apply(CR, &[a.clone(), b.clone()]);
    assert!(!o.contains("l1:") && !o.contains("delete-me: you"), "{o}");
    assert_eq!(f.len(), 1);
    assert_eq!(
            f[0].message,
            "several CustomTransforms name resource \"clusterroles\" of group \"rbac.authorization.k8s.io\": \"alpha\", \"zeta\"; all of them apply, in order"
        );
    assert_eq!(duplicate_transform_warnings(&[a, b]), f);
}

// ---- §2.4 evaluation of KubeStellar paths ----------------------------------------------

#[test]
fn missing_paths_are_silent_no_ops() {
    let (o, f) = apply(
        CR,
        &[ct(
            "rbac.authorization.k8s.io",
            "clusterroles",
            &["$.spec.nothing.here", "$.metadata.labels.absent"],
        )],
    );
    assert_eq!((o.as_str(), f.len()), (CR, 0));
}

#[test]
fn paths_do_not_go_into_lists_or_scalars() {
    let src = "apiVersion: v1\nkind: Service\nspec:\n  ports:\n  - nodePort: 1\n  type: X\n";
    let t = [ct(
        "",
        "services",
        &["$.spec.ports.nodePort", "$.spec.type.x"],
    )];
    assert_eq!(apply(src, &t).0, src);
}

#[test]
fn emptied_parents_are_kept() {
    let src = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  labels:\n    only: one\n";
    assert_eq!(
        apply(src, &[ct("", "configmaps", &["$.metadata.labels.only"])]).0,
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  labels: {}\n"
    );
}

#[test]
fn anything_can_be_removed_even_kind() {
    let src = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n";
    assert_eq!(
        apply(src, &[ct("", "configmaps", &["$.metadata", "$.kind"])]).0,
        "apiVersion: v1\n"
    );
}

#[test]
fn eval_test_document() {
    // §4.2's document: removing what the queries select.
    let src = "apiVersion: v1\nkind: ConfigMap\nabc: 1\ndef: {x: yz, abc: true}\nghi: null\n";
    assert_eq!(
        apply(src, &[ct("", "configmaps", &["$.abc"])]).0,
        "apiVersion: v1\nkind: ConfigMap\ndef: {x: yz, abc: true}\nghi: null\n"
    );
    assert_eq!(
        apply(src, &[ct("", "configmaps", &["$[\"def\"].abc"])]).0,
        "apiVersion: v1\nkind: ConfigMap\nabc: 1\ndef: {x: yz}\nghi: null\n"
    );
    assert_eq!(
        apply(src, &[ct("", "configmaps", &["$.def"])]).0,
        "apiVersion: v1\nkind: ConfigMap\nabc: 1\nghi: null\n"
    );
    // A null intermediate stops silently.
    assert_eq!(apply(src, &[ct("", "configmaps", &["$.ghi.x"])]).0, src);
}

#[test]
fn removing_expand_templates_annotation_is_possible() {
    let src = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  annotations:\n    control.kubestellar.io/expand-templates: \"true\"\n";
    let t = [ct(
        "",
        "configmaps",
        &["$.metadata.annotations[\"control.kubestellar.io/expand-templates\"]"],
    )];
    assert_eq!(
        apply(src, &t).0,
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  annotations: {}\n"
    );
}

#[test]
fn alias_in_the_way_is_a_warning() {
    let src = "apiVersion: v1\nkind: ConfigMap\nbase: &b {x: 1}\nother: *b\n";
    let (o, f) = apply(src, &[ct("", "configmaps", &["$.other.x"])]);
    assert_eq!(o, src);
    assert_eq!(f.len(), 1);
}

#[test]
fn merge_key_in_the_way_is_a_warning_only_when_it_may_supply_the_member() {
    let src = "apiVersion: v1\nkind: ConfigMap\ndata:\n  <<: {a: 1}\n  b: 2\n";
    let (o, f) = apply(src, &[ct("", "configmaps", &["$.data.a"])]);
    assert_eq!((o.as_str(), f.len()), (src, 1));
    let (o, f) = apply(src, &[ct("", "configmaps", &["$.data.zz"])]);
    assert_eq!((o.as_str(), f.len()), (src, 0));
}

// ---- RFC 9535 paths --------------------------------------------------------------------

const DEP: &str = "\
apiVersion: apps/v1
kind: Deployment
spec:
  template:
    spec:
      containers:
      - name: app # main
        image: app:1
        env:
        - {name: A, value: a}
        - {name: DEBUG, value: \"1\"}
        - {name: B, value: b}
      - name: debug
        image: busybox
      - name: sidecar
        image: envoy
";

fn dep(paths: &[&str]) -> (String, Vec<Finding>) {
    apply(DEP, &[ct("apps", "deployments", paths)])
}

#[test]
fn filter_removes_a_list_element() {
    let (o, f) = dep(&["$.spec.template.spec.containers[?@.name=='debug']"]);
    assert!(f.is_empty(), "{f:?}");
    assert!(
        !o.contains("debug") && !o.contains("busybox") && o.contains("sidecar"),
        "{o}"
    );
    assert!(o.contains("- name: app # main"), "{o}");
}

#[test]
fn index_and_negative_index() {
    let (o, _) = dep(&["$.spec.template.spec.containers[0].env[1]"]);
    assert!(
        !o.contains("DEBUG")
            && o.contains("{name: A, value: a}")
            && o.contains("{name: B, value: b}"),
        "{o}"
    );
    let (o, _) = dep(&["$.spec.template.spec.containers[-1]"]);
    assert!(!o.contains("sidecar") && o.contains("debug"), "{o}");
}

#[test]
fn fields_inside_lists_via_wildcard() {
    let (o, _) = dep(&["$.spec.template.spec.containers[*].image"]);
    assert!(!o.contains("image:"), "{o}");
    assert_eq!(o.matches("- name:").count(), 3);
}

#[test]
fn slices_delete_from_the_highest_index_down() {
    let (o, _) = dep(&["$.spec.template.spec.containers[1:3]"]);
    assert!(
        !o.contains("debug") && !o.contains("sidecar") && o.contains("app:1"),
        "{o}"
    );
    let (o, _) = dep(&["$.spec.template.spec.containers[0].env[::2]"]);
    assert!(
        !o.contains("name: A") && !o.contains("name: B") && o.contains("DEBUG"),
        "{o}"
    );
}

#[test]
fn descendant_and_nested_selections() {
    // `..name` selects names at every depth; parents and children together are fine.
    let (o, _) = dep(&["$..env"]);
    assert!(!o.contains("env:") && o.contains("envoy"), "{o}");
    let (o, _) = dep(&[
        "$.spec.template.spec.containers[0]",
        "$.spec.template.spec.containers[0].env[*]",
    ]);
    assert!(!o.contains("app:1") && o.contains("debug"), "{o}");
    let (o, _) = dep(&["$.spec..[?@.name=='DEBUG']"]);
    assert!(!o.contains("DEBUG") && o.contains("name: A"), "{o}");
}

#[test]
fn single_quoted_names_and_union() {
    let (o, _) = dep(&["$['spec']['template']['spec']['containers'][0,2]"]);
    assert!(
        !o.contains("app:1") && !o.contains("sidecar") && o.contains("debug"),
        "{o}"
    );
}

#[test]
fn rfc_paths_that_match_nothing_are_silent() {
    let (o, f) = dep(&[
        "$.spec.template.spec.containers[?@.name=='nope']",
        "$.nothing[0]",
    ]);
    assert_eq!((o.as_str(), f.len()), (DEP, 0));
}

#[test]
fn rfc_removal_through_an_alias_is_a_warning() {
    let src = "apiVersion: v1\nkind: ConfigMap\nbase: &b [1, 2]\nother: *b\n";
    let (o, f) = apply(src, &[ct("", "configmaps", &["$.other[0]"])]);
    assert_eq!(o, src);
    assert_eq!(f.len(), 1);
    assert_eq!(f[0].severity, Severity::Warning);
}

#[test]
fn rfc_removal_removes_duplicate_keys() {
    // tailor's reader refuses duplicate keys (go-yaml does when kustomize decodes), but
    // the transform must still cope with a tree that holds them.
    let src = "apiVersion: v1\nkind: ConfigMap\ndata:\n  a: 1\n  b: 2\n  a: 3\n";
    let opts = tailor_yaml::ParseOptions {
        unique_keys: false,
        ..tailor_yaml::ParseOptions::default()
    };
    let mut n = tailor_yaml::parse_stream_with(src, &opts)
        .unwrap()
        .remove(0)
        .root;
    let t = [ct("", "configmaps", &["$.data[?@ == 1]"])];
    apply_custom_transforms(&mut n, &t, &ResourceMapper::builtin());
    let o = emit_node(&n, EmitOptions::default());
    assert_eq!(o, "apiVersion: v1\nkind: ConfigMap\ndata:\n  b: 2\n");
}

#[test]
fn a_deep_filter_nesting_is_counted_in_one_pass() {
    // Counting the open filters at each `?` made this quadratic: 1.2 MB took seconds.
    let src = format!("$[{}", "?@[".repeat(400_000));
    let started = std::time::Instant::now();
    assert_eq!(filter_nesting(&src), 400_000);
    assert!(started.elapsed() < std::time::Duration::from_secs(2));
}

#[test]
fn a_path_over_the_size_limit_is_refused_before_parsing() {
    let long = format!("$[?@.a{}]", "||@.a".repeat(200_000));
    let started = std::time::Instant::now();
    assert_eq!(
        parse_remove_path(&long, PathSyntax::Extended).unwrap_err(),
        format!(
            "the path is {} bytes long; JSONPath paths of at most 4096 bytes are accepted",
            long.len()
        )
    );
    assert!(started.elapsed() < std::time::Duration::from_secs(1));
    let fits = format!("$[?@.a{}]", "||@.a".repeat(800));
    assert!(fits.len() <= MAX_JSONPATH_BYTES);
    assert!(parse_remove_path(&fits, PathSyntax::Extended).is_ok());
    // A KubeStellar path is not a JSONPath the parser reads: any length.
    let members = format!("$.a{}", ".b".repeat(10_000));
    assert!(parse_remove_path(&members, PathSyntax::Extended).is_ok());
}

#[test]
fn deep_grouping_is_refused_before_parsing() {
    let deep = format!("$[?{}@.a{}]", "(".repeat(65), ")".repeat(65));
    assert_eq!(
        parse_remove_path(&deep, PathSyntax::Extended).unwrap_err(),
        "brackets and parentheses are nested 66 deep; at most 64 are allowed in a JSONPath path"
    );
    let fits = format!("$[?{}@.a{}]", "(".repeat(63), ")".repeat(63));
    assert!(parse_remove_path(&fits, PathSyntax::Extended).is_ok());
}
