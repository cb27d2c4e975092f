//! Deterministic workloads for tailor's benchmarks (`benches/`) and the `scripts/bench-*.sh`
//! scripts: objects as `kubectl get -o yaml` exports them (managedFields, status,
//! last-applied-configuration), replacement pairs, fan-out configs, and ordinary small
//! manifests in every shape tools hand them over (block, flow, JSON, a directory). Everything is plain
//! text so the same bytes feed tailor in-process, the binary, and `kubectl kustomize`.

mod fleet_helm;
mod fleet_values;
mod objects;
mod pipeline;
mod shapes;

pub use fleet_helm::{fleet_helm_bundle, fleet_helm_config, fleet_helm_template};
pub use fleet_values::{fleet_values_bundle, fleet_values_config, fleet_values_file};
pub use objects::{clean_deployment, exported_object, exported_objects, ObjectKind};
pub use pipeline::{
    fan_out_config, fan_out_groups_config, fan_out_regions_config, full_pipeline_config,
    kustomization_for, noop_config, patches_yaml, replacement_pairs, replacement_per_pair,
    resource_list, stream, PipelineStage, FULL_PIPELINE_STAGES,
};
pub use shapes::{small_dir, small_list, Shape};
