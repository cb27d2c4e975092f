//! sigs.k8s.io/yaml as Flux and Fleet call it: [`v2read`] decodes text as yaml.v2 does (YAML
//! 1.1) and converts it to JSON as `encoding/json` does, [`v2print`] prints JSON as
//! `JSONToYAML` (yaml.v2) does, and [`numbers`] prints the float64 values that round trip
//! leaves. Flux's `postBuild` substitution runs on that printed text, and Fleet decodes
//! `fleet.yaml` and Helm values files with the same library, so both upstream crates take it
//! from here rather than from each other.

pub mod numbers;
pub mod v2print;
pub mod v2read;
pub mod v2resolve;
