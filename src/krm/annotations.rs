//! Annotation keys tailor reads or writes; every other annotation passes through untouched.

pub const PATH: &str = "internal.config.kubernetes.io/path";
pub const LEGACY_PATH: &str = "config.kubernetes.io/path";
pub const INDEX: &str = "internal.config.kubernetes.io/index";
pub const LEGACY_INDEX: &str = "config.kubernetes.io/index";
pub const LOCAL_CONFIG: &str = "config.kubernetes.io/local-config";
pub const SEQ_INDENT: &str = "internal.config.kubernetes.io/seqindent";
