//! A Kubernetes version as Helm takes it (`--kube-version`, `chartutil.ParseKubeVersion`):
//! `v1.29.3` or `1.29`, an optional `v`, then numeric major and minor components. It is
//! printed back with a `v` and the components as written (apimachinery's generic versions
//! keep their number of components), which is what `.Capabilities.KubeVersion.Version` shows.

/// A parsed Kubernetes version.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KubeVersion {
    /// `v` and the version as written (`v1.29`, `v1.29.3-gke.1`).
    pub version: String,
    pub major: String,
    pub minor: String,
}

/// Parses `v`; the error is Helm's reason (`invalid kube version 'V': ` goes before it).
pub fn parse(v: &str) -> Result<KubeVersion, String> {
    let bare = v.strip_prefix('v').unwrap_or(v);
    let mut parts = bare.split('.');
    let (major, minor) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
    if major.parse::<u64>().is_err() || minor.parse::<u64>().is_err() {
        return Err("Invalid Semantic Version".to_string());
    }
    Ok(KubeVersion {
        version: format!("v{bare}"),
        major: major.to_string(),
        minor: minor.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_keep_their_components_and_gain_a_v() {
        let v = parse("1.29").unwrap();
        assert_eq!(
            (v.version.as_str(), v.major.as_str(), v.minor.as_str()),
            ("v1.29", "1", "29")
        );
        assert_eq!(parse("v1.30.2").unwrap().version, "v1.30.2");
    }

    #[test]
    fn a_version_needs_numeric_major_and_minor() {
        for bad in ["", "1", "v1", "abc", "1.x", "x.1"] {
            assert_eq!(
                parse(bad),
                Err("Invalid Semantic Version".to_string()),
                "{bad}"
            );
        }
    }
}
