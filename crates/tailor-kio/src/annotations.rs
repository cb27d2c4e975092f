//! Annotation keys tailor reads or writes; every other annotation passes through untouched.

pub const PATH: &str = "internal.config.kubernetes.io/path";
pub const LEGACY_PATH: &str = "config.kubernetes.io/path";
pub const INDEX: &str = "internal.config.kubernetes.io/index";
pub const LEGACY_INDEX: &str = "config.kubernetes.io/index";
pub const LOCAL_CONFIG: &str = "config.kubernetes.io/local-config";
pub const SEQ_INDENT: &str = "internal.config.kubernetes.io/seqindent";

/// The comment a fanned-out copy carries above it, `# tailor.dev/cluster: NAME`: it says
/// which destination a document of the output belongs to, `kubectl apply` ignores it, and kpt
/// keeps it in the files it writes, so a later run knows the copy is already tailored.
pub const CLUSTER_MARK: &str = "# tailor.dev/cluster: ";
