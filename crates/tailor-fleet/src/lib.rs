//! Rancher Fleet's per-cluster customization for tailor
//! (`docs/semantics/fleet.md`, `docs/semantics/kratix.md`):
//!
//! - [`FleetConfig`]: `targetCustomizationMode`, `targetCustomizations` and bundle-level options
//!   from a `Tailor` spec ([`FleetConfig::from_tailor_spec`]) or a `fleet.yaml`
//!   ([`parse_fleet_yaml`]); [`FleetConfig::resolve`] gives the per-cluster [`Decision`]
//!   (doNotDeploy, or the merged [`Options`] under FirstMatch/AllMatches).
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
//!          "yaml": {"overlays": ["scale3"]}, "namePrefix": "p-"},
//!         {"name": "eu", "clusterSelector": {"matchLabels": {"region": "eu"}},
//!          "yaml": {"overlays": ["eu"]}},
//!     ],
//! });
//! let config = FleetConfig::from_tailor_spec(&spec, "spec")?;
//! let cluster = Cluster::from_json(
//!     &json!({"name": "virgo", "labels": {"env": "prod", "region": "eu"}}), "spec.cluster")?;
//! let Decision::Deploy { matched, options } = config.resolve(&cluster) else { panic!() };
//! assert_eq!(matched, ["prod", "eu"]);
//! assert_eq!(options.yaml_overlays, ["scale3", "eu"]);
//! assert_eq!(options.flux.name_prefix.as_deref(), Some("p-"));
//! # Ok::<(), tailor_cluster::FieldError>(())
//! ```

mod config;
mod json;
pub mod matching;
pub mod merge;
pub mod namespace;
mod options;
pub mod overlay;
mod patch_kind;
mod resolve;

pub use config::{
    parse_customization, parse_fleet_yaml, Customization, FleetConfig, Mode, CRITERIA_FIELDS,
};
pub use matching::{target_matches, TargetCriteria};
pub use namespace::{apply_namespaces, default_namespace, force_namespace, NamespaceError, Scopes};
pub use options::{FluxOverlay, Options, FLEET_OPTION_FIELDS, FLUX_FIELDS};
pub use overlay::{
    apply_overlays, group_by_path, is_overlay_path, is_under_overlays, item_path, patch_target,
    plan_overlays, split_overlay_files, BundleFile, OverlayError, OverlayOp, OverlayStep,
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
                FleetConfig::from_tailor_spec(&v, "spec"),
                FleetConfig::from_fleet_yaml(&v),
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
