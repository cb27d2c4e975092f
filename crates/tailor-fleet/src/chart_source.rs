//! Where a Helm bundle's chart comes from for one cluster (`internal/bundlereader/style.go`
//! `DetermineStyle`, the same reading as [`crate::style`]'s refusal), for a caller that
//! renders charts: a directory of the bundle, or a chart Fleet downloads (`helm.repo`, an OCI
//! or https `helm.chart`), which tailor reads from a local directory laid out as
//! `helm pull --untar` leaves it.

use serde_json::{Map, Value};

use crate::style::Layout;

/// The chart a cluster's merged `helm` options name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChartSource {
    // An OCI `helm.repo` without `helm.chart` is the chart's reference itself.
    /// A directory of the bundle holding a `Chart.yaml` (`""` for the bundle's root).
    Local(String),
    /// A chart Fleet downloads: `helm.repo` (a repository URL) and `helm.chart` (a name), or
    /// `helm.chart` alone (`oci://…`, `https://…/x.tgz`), with `helm.version`.
    Remote {
        repo: Option<String>,
        chart: String,
        version: Option<String>,
    },
}

impl ChartSource {
    /// The directory `helm pull --untar` leaves the chart in: the chart's name, the last
    /// segment of a repository chart or OCI reference, an archive URL's file name without its
    /// `-VERSION.tgz`.
    pub fn pulled_name(&self) -> Option<String> {
        let chart = self.reference()?;
        let last = chart.trim_end_matches('/').rsplit('/').next()?;
        let last = last.split(':').next().unwrap_or(last);
        let stem = last.strip_suffix(".tgz").unwrap_or(last);
        if stem.len() == last.len() {
            return Some(stem.to_string());
        }
        // `name-1.2.3.tgz`: the name is what comes before the dash that starts the version.
        let cut = stem
            .char_indices()
            .filter(|&(i, c)| c == '-' && stem[i + 1..].starts_with(|d: char| d.is_ascii_digit()))
            .map(|(i, _)| i)
            .next();
        Some(cut.map_or(stem, |i| &stem[..i]).to_string())
    }

    /// The fleet.yaml field that names the chart, with its value, for messages.
    pub fn named_by(&self) -> String {
        match self {
            ChartSource::Local(p) if p.is_empty() => "the Chart.yaml at the bundle's root".into(),
            ChartSource::Local(p) => format!("helm.chart {p:?}"),
            ChartSource::Remote {
                repo: Some(r),
                chart,
                ..
            } => format!("helm.repo {r:?} (chart {chart:?})"),
            ChartSource::Remote { chart, .. } => format!("helm.chart {chart:?}"),
        }
    }

    /// What `helm pull` pulls: the chart's name, or an OCI `helm.repo` given without one.
    fn reference(&self) -> Option<&str> {
        match self {
            ChartSource::Local(_) => None,
            ChartSource::Remote {
                repo: Some(r),
                chart,
                ..
            } if chart.is_empty() && r.starts_with("oci://") => Some(r),
            ChartSource::Remote { chart, .. } => Some(chart),
        }
    }

    /// The `helm pull` command that puts the chart into `dir`.
    pub fn pull_command(&self, dir: &str) -> String {
        match self {
            ChartSource::Local(p) => format!("(the bundle's {p:?})"),
            ChartSource::Remote { repo, version, .. } => {
                let chart = self.reference().unwrap_or_default();
                let repo = repo
                    .as_ref()
                    .filter(|r| *r != chart)
                    .map(|r| format!(" --repo {r}"))
                    .unwrap_or_default();
                let version = version
                    .as_ref()
                    .map(|v| format!(" --version {v}"))
                    .unwrap_or_default();
                format!("helm pull {chart}{repo}{version} --untar --untardir {dir}")
            }
        }
    }
}

fn nonempty<'a>(helm: Option<&'a Map<String, Value>>, key: &str) -> Option<&'a str> {
    helm?
        .get(key)
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
}

/// The chart of a cluster whose merged options carry `helm`, in the bundle `layout`; `None`
/// when Fleet deploys the bundle as raw YAML (or through kustomize) instead.
pub fn chart_source(helm: Option<&Map<String, Value>>, layout: &Layout) -> Option<ChartSource> {
    let version = nonempty(helm, "version").map(str::to_string);
    if let Some(repo) = nonempty(helm, "repo") {
        return Some(ChartSource::Remote {
            repo: Some(repo.to_string()),
            chart: nonempty(helm, "chart").unwrap_or_default().to_string(),
            version,
        });
    }
    match nonempty(helm, "chart") {
        Some(chart) => {
            let dir = tailor_go::path::clean(&format!("{chart}/."));
            let dir = dir.trim_start_matches('/').trim_start_matches("./");
            let dir = if dir == "." { "" } else { dir };
            let chart_yaml = if dir.is_empty() {
                "Chart.yaml".to_string()
            } else {
                format!("{dir}/Chart.yaml")
            };
            if layout.files.contains(&chart_yaml) {
                return Some(ChartSource::Local(dir.to_string()));
            }
            let local = tailor_go::path::clean(chart);
            if layout.on_disk.contains(local.trim_start_matches('/')) {
                return None; // a directory without a Chart.yaml: raw YAML, as in Fleet
            }
            Some(ChartSource::Remote {
                repo: None,
                chart: chart.to_string(),
                version,
            })
        }
        None if layout.files.contains("Chart.yaml") => Some(ChartSource::Local(String::new())),
        None => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::style::tests::layout;
    use serde_json::json;

    fn src(helm: Value, l: &Layout) -> Option<ChartSource> {
        chart_source(helm.as_object(), l)
    }

    #[test]
    fn local_remote_or_raw() {
        let l = layout(&["app/Chart.yaml", "cm.yaml"], &["app", "plain"]);
        assert_eq!(
            src(json!({"chart": "./app"}), &l),
            Some(ChartSource::Local("app".into()))
        );
        assert_eq!(src(json!({"chart": "plain"}), &l), None);
        assert_eq!(src(json!({}), &l), None);
        let root = layout(&["Chart.yaml"], &[]);
        assert_eq!(
            src(json!({}), &root),
            Some(ChartSource::Local(String::new()))
        );
        let repo = src(
            json!({"repo": "https://charts.example.com", "chart": "web", "version": "1.2.0"}),
            &l,
        )
        .unwrap();
        assert_eq!(repo.pulled_name().as_deref(), Some("web"));
        assert_eq!(
            repo.pull_command("charts"),
            "helm pull web --repo https://charts.example.com --version 1.2.0 --untar --untardir charts"
        );
        let oci = src(json!({"chart": "oci://ghcr.io/org/charts/api"}), &l).unwrap();
        assert_eq!(oci.pulled_name().as_deref(), Some("api"));
        let oci_repo = src(
            json!({"repo": "oci://ghcr.io/org/api", "version": "1.0.0"}),
            &l,
        )
        .unwrap();
        assert_eq!(oci_repo.pulled_name().as_deref(), Some("api"));
        assert_eq!(
            oci_repo.pull_command("c"),
            "helm pull oci://ghcr.io/org/api --version 1.0.0 --untar --untardir c"
        );
        let tgz = src(json!({"chart": "https://x.io/guestbook-0.1.0.tgz"}), &l).unwrap();
        assert_eq!(tgz.pulled_name().as_deref(), Some("guestbook"));
    }
}
