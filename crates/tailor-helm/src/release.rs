//! Manifest order as Helm v3's `pkg/releaseutil` (helm/helm v3.21.4, commit
//! 813176c51bb5c181dbbd7901298ddcc104cd3417): `kind_sorter.go`'s install and
//! uninstall orders and `manifest.go`'s `SplitManifests`.
//!
//! Sorting by kind is stable: known kinds by their place in the order, unknown kinds
//! after all known ones, alphabetically by kind, and manifests of one kind keep the
//! order they came in. (Helm feeds them in by template path, sorted as strings, then
//! by place in the file: `SortManifests`, which is not ported yet.)

use std::cmp::Ordering;

/// Helm's `InstallOrder`.
pub const INSTALL_ORDER: &[&str] = &[
    "PriorityClass",
    "Namespace",
    "NetworkPolicy",
    "ResourceQuota",
    "LimitRange",
    "PodSecurityPolicy",
    "PodDisruptionBudget",
    "ServiceAccount",
    "Secret",
    "SecretList",
    "ConfigMap",
    "StorageClass",
    "PersistentVolume",
    "PersistentVolumeClaim",
    "CustomResourceDefinition",
    "ClusterRole",
    "ClusterRoleList",
    "ClusterRoleBinding",
    "ClusterRoleBindingList",
    "Role",
    "RoleList",
    "RoleBinding",
    "RoleBindingList",
    "Service",
    "DaemonSet",
    "Pod",
    "ReplicationController",
    "ReplicaSet",
    "Deployment",
    "HorizontalPodAutoscaler",
    "StatefulSet",
    "Job",
    "CronJob",
    "IngressClass",
    "Ingress",
    "APIService",
];

/// Helm's `UninstallOrder`.
pub const UNINSTALL_ORDER: &[&str] = &[
    "APIService",
    "Ingress",
    "IngressClass",
    "Service",
    "CronJob",
    "Job",
    "StatefulSet",
    "HorizontalPodAutoscaler",
    "Deployment",
    "ReplicaSet",
    "ReplicationController",
    "Pod",
    "DaemonSet",
    "RoleBindingList",
    "RoleBinding",
    "RoleList",
    "Role",
    "ClusterRoleBindingList",
    "ClusterRoleBinding",
    "ClusterRoleList",
    "ClusterRole",
    "CustomResourceDefinition",
    "PersistentVolumeClaim",
    "PersistentVolume",
    "StorageClass",
    "ConfigMap",
    "SecretList",
    "Secret",
    "ServiceAccount",
    "PodDisruptionBudget",
    "PodSecurityPolicy",
    "LimitRange",
    "ResourceQuota",
    "NetworkPolicy",
    "Namespace",
    "PriorityClass",
];

/// `sortManifestsByKind` / `sortHooksByKind`: a stable sort of `items` by the kind
/// `kind_of` gives each, in `order` (Helm's `lessByKind`).
pub fn sort_by_kind<T>(items: &mut [T], kind_of: impl Fn(&T) -> &str, order: &[&str]) {
    let rank = |kind: &str| order.iter().position(|k| *k == kind);
    items.sort_by(|a, b| {
        let (ka, kb) = (kind_of(a), kind_of(b));
        match (rank(ka), rank(kb)) {
            (Some(x), Some(y)) => x.cmp(&y),
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (None, None) => ka.cmp(kb),
        }
    });
}

/// `SplitManifests`: a rendered template's text cut into its YAML documents, each
/// trimmed, in file order (Helm names the i-th `manifest-i`; see [`manifest_name`]).
///
/// The separator is Helm's regexp `(?:^|\s*\n)---\s*` (RE2: `\s` is ASCII
/// `[\t\n\f\r ]`), so any line starting with `---` separates, whatever follows it.
pub fn split_manifests(big_file: &str) -> Vec<String> {
    let text = big_file.trim();
    let mut docs = Vec::new();
    let (mut beg, mut end) = (0, 0);
    for (start, stop) in separators(text) {
        end = start;
        if stop != 0 {
            docs.push(&text[beg..end]);
        }
        beg = stop;
    }
    if end != text.len() {
        docs.push(&text[beg..]);
    }
    docs.into_iter()
        .filter(|d| !d.is_empty())
        .map(|d| d.trim().to_string())
        .collect()
}

/// The key Helm's `SplitManifests` gives the `index`-th document.
pub fn manifest_name(index: usize) -> String {
    format!("manifest-{index}")
}

fn is_re2_space(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | b'\x0c' | b'\r' | b' ')
}

fn skip_space(b: &[u8], mut at: usize) -> usize {
    while at < b.len() && is_re2_space(b[at]) {
        at += 1;
    }
    at
}

/// The leftmost-first matches of `(?:^|\s*\n)---\s*`, as byte ranges. A match other
/// than at the start begins where a run of spaces begins whose last byte is a newline
/// followed by `---`.
fn separators(text: &str) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let mut found = Vec::new();
    let mut at = 0;
    if b.starts_with(b"---") {
        at = skip_space(b, 3);
        found.push((0, at));
    }
    while at < b.len() {
        if !is_re2_space(b[at]) {
            at += 1;
            continue;
        }
        let run_end = skip_space(b, at);
        if b[run_end - 1] == b'\n' && b[run_end..].starts_with(b"---") {
            let stop = skip_space(b, run_end + 3);
            found.push((at, stop));
            at = stop;
        } else {
            at = run_end;
        }
    }
    found
}

#[cfg(test)]
mod tests;
