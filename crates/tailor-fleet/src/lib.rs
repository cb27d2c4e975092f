//! Rancher Fleet, as tailor follows it (`docs/semantics/fleet.md`): which customization a
//! cluster gets and what it changes.
//!
//! - [`FleetConfig`]: `targetCustomizationMode`, `targetCustomizations` and bundle-level options
//!   from a `Tailor` spec ([`FleetConfig::from_tailor_spec`]) or a `fleet.yaml`
//!   ([`parse_fleet_yaml`]); [`FleetConfig::resolve`] gives the per-cluster [`Decision`]
//!   (doNotDeploy, or the merged [`Options`] under FirstMatch/AllMatches). A caller may let
//!   each entry carry fields of its own ([`Extra`]), merged along.
//! - [`overlay`]: yaml overlays planned per bundle file ([`plan_overlays`]) and run with a
//!   caller-supplied patch engine ([`apply_overlays`]); [`fleet_patch_kind`] chooses the patch
//!   type as Fleet does.
//! - [`namespace`]: Fleet's `namespace` / `defaultNamespace` rules over `Node`s.
//!
//! ```
//! use serde_json::json;
//! use tailor_cluster::Cluster;
//! use tailor_fleet::{Decision, FleetConfig};
//!
//! let spec = json!({
//!     "targetCustomizationMode": "AllMatches",
//!     "targetCustomizations": [
//!         {"name": "prod", "clusterSelector": {"matchLabels": {"env": "prod"}},
//!          "yaml": {"overlays": ["scale3"]}, "namespace": "prod"},
//!         {"name": "eu", "clusterSelector": {"matchLabels": {"region": "eu"}},
//!          "yaml": {"overlays": ["eu"]}},
//!     ],
//! });
//! let config = FleetConfig::<()>::from_tailor_spec(&spec, "spec").map_err(|e| e[0].clone())?;
//! let cluster = Cluster::from_json(
//!     &json!({"name": "virgo", "labels": {"env": "prod", "region": "eu"}}), "spec.cluster")?;
//! let Decision::Deploy { matched, options } = config.resolve(&cluster) else { panic!() };
//! assert_eq!(matched, ["prod", "eu"]);
//! assert_eq!(options.yaml_overlays, ["scale3", "eu"]);
//! assert_eq!(options.namespace.as_deref(), Some("prod"));
//! # Ok::<(), tailor_cluster::FieldError>(())
//! ```

pub mod bundle;
pub mod chart_source;
mod config;
mod fleetyaml;
mod json;
pub mod matching;
pub mod merge;
pub mod namespace;
mod options;
pub mod overlay;
mod patch_kind;
mod resolve;
pub mod style;
pub mod values;
pub mod values_from;

pub use config::{
    parse_customization, parse_fleet_yaml, Customization, FleetConfig, Mode, CRITERIA_FIELDS,
};
pub use matching::{target_matches, TargetCriteria};
pub use namespace::{apply_namespaces, default_namespace, force_namespace, NamespaceError, Scopes};
pub use options::{Extra, Options, FLEET_OPTION_FIELDS};
pub use overlay::{
    apply_overlays, group_by_path, is_overlay_path, is_under_overlays, item_path, patch_target,
    plan_overlays, reread_as_raw_yaml, split_overlay_files, BundleFile, OverlayError, OverlayOp,
    OverlayStep,
};
pub use patch_kind::{fleet_patch_kind, fleet_patch_kind_for, is_builtin_gvk, PatchKind};
pub use resolve::Decision;
pub use tailor_cluster::FieldError;

/// How configuration keys are matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// The `Tailor` spec: exact field names.
    Tailor,
    /// A `fleet.yaml`: field names matched case-insensitively, as Fleet's `encoding/json`
    /// decoding does.
    FleetYaml,
}

/// A caller's own entry fields, for the tests: `namePrefix` and `nameSuffix`, a later value
/// winning.
#[cfg(test)]
pub(crate) mod testing {
    use serde_json::{Map, Value};
    use tailor_kube::json;
    use tailor_kube::FieldError;

    #[derive(Clone, Debug, Default, PartialEq)]
    pub struct Names {
        pub prefix: Option<String>,
        pub suffix: Option<String>,
    }

    impl crate::Extra for Names {
        fn fields() -> &'static [&'static str] {
            &["namePrefix", "nameSuffix"]
        }

        fn read(m: &Map<String, Value>, path: &str) -> Result<Names, Vec<FieldError>> {
            let at = |k: &str| json::join(path, k);
            Ok(Names {
                prefix: json::nonempty_string(m.get("namePrefix"), &at("namePrefix"))
                    .map_err(|e| vec![e])?,
                suffix: json::nonempty_string(m.get("nameSuffix"), &at("nameSuffix"))
                    .map_err(|e| vec![e])?,
            })
        }

        fn merge(&self, later: &Names) -> Names {
            Names {
                prefix: later.prefix.clone().or_else(|| self.prefix.clone()),
                suffix: later.suffix.clone().or_else(|| self.suffix.clone()),
            }
        }
    }
}

/// No input may panic: the parsers and the resolver are fed pseudo-random JSON.
#[cfg(test)]
mod robustness {
    use serde_json::json;
    use tailor_cluster::Cluster;
    use tailor_testkit::json::random_value;
    use tailor_testkit::Rng;

    use crate::*;

    const KEYS: &[&str] = &[
        "name",
        "clusterName",
        "clusterSelector",
        "clusterGroup",
        "clusterGroupSelector",
        "doNotDeploy",
        "namespace",
        "defaultNamespace",
        "yaml",
        "overlays",
        "helm",
        "values",
        "valuesFrom",
        "timeoutSeconds",
        "force",
        "templateValues",
        "kustomize",
        "dir",
        "diff",
        "comparePatches",
        "matchLabels",
        "matchExpressions",
        "key",
        "operator",
        "targetCustomizations",
        "targetCustomizationMode",
        "targets",
        "namePrefix",
        "commonMetadata",
        "patches",
        "namespaceLabels",
        "correctDrift",
        "downstreamResources",
        "kind",
    ];
    const STRINGS: &[&str] = &[
        "",
        "x",
        "In",
        "Exists",
        "AllMatches",
        "FirstMatch",
        "a/b",
        "-",
        "é",
    ];

    #[test]
    fn random_configs_never_panic() {
        let mut rng = Rng::xorshift64(0x9E37_79B9_7F4A_7C15);
        let clusters = [
            Cluster::named("x"),
            Cluster::from_json(
                &json!({"name": "y", "labels": {"x": "x"}, "groups": [{"name": "x"}]}),
                "c",
            )
            .unwrap(),
        ];
        for _ in 0..20_000 {
            let v = random_value(&mut rng, KEYS, STRINGS);
            for c in [
                FleetConfig::<()>::from_tailor_spec(&v, "spec"),
                FleetConfig::<()>::from_fleet_yaml(&v),
            ]
            .into_iter()
            .flatten()
            {
                for cl in &clusters {
                    let _ = c.resolve(cl);
                }
            }
        }
    }
}
