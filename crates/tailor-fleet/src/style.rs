//! How Fleet renders a bundle for one cluster (`internal/bundlereader/style.go`
//! `DetermineStyle`, run per BundleDeployment with the cluster's merged options): as a Helm
//! chart, through kustomize, or as raw YAML. tailor tailors raw YAML only; for the other two it
//! refuses, naming the field that makes the bundle a chart or a kustomization and the pipeline
//! that works (`docs/semantics/fleet.md` §3a).
//!
//! - **Helm** when `helm.repo` is set (the chart is downloaded), when `helm.chart` names
//!   something not in the bundle directory (a URL, an OCI reference: downloaded too) or a
//!   directory holding a `Chart.yaml`, or, with neither set, when the bundle has a
//!   `Chart.yaml` at its root. (`helm.chart` naming a directory without a `Chart.yaml` leaves
//!   the bundle raw YAML, as in Fleet.)
//! - **kustomize** when the bundle holds `kustomization.yaml` at its root, or at
//!   `kustomize.dir`.
//! - Raw YAML otherwise; files under a top-level `templates/` are then rendered by Helm with
//!   the cluster's values, so one with template actions (`{{`) is refused too.

use std::collections::BTreeSet;

/// What `DetermineStyle` looks at in a bundle directory.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Layout {
    /// The bundle directory as the user gave it (for the commands the messages suggest).
    pub dir: String,
    /// The files Fleet loads from it (relative paths; `.fleetignore`, hidden entries and
    /// values files left out).
    pub files: BTreeSet<String>,
    /// Every path under the directory, loaded or not, files and directories (what `os.Stat`
    /// finds when Fleet decides whether `helm.chart` is local).
    pub on_disk: BTreeSet<String>,
    /// Files under `templates/` with Helm template actions.
    pub templated: Vec<String>,
    /// The caller renders Helm charts itself (tailor's Helm engine): a cluster whose bundle
    /// Fleet renders with Helm is then deployed, not refused.
    pub renders_charts: bool,
    /// Where charts Fleet downloads are read from, laid out as `helm pull --untar` leaves
    /// them (`--chart-dir`, `TAILOR_HELM_CHART_DIR`).
    pub chart_dir: Option<String>,
}

/// Where a field was set, for messages: `fleet.yaml helm.chart`,
/// `fleet.yaml targetCustomizations[1].kustomize.dir`, `spec.targetCustomizations[0].helm.repo`.
pub(crate) type Source<'a> = &'a dyn Fn(&str) -> String;

/// The merged options' Helm and kustomize fields.
pub(crate) struct Rendering<'a> {
    pub helm_repo: Option<&'a str>,
    pub helm_chart: Option<&'a str>,
    pub helm_version: Option<&'a str>,
    pub release_name: Option<&'a str>,
    pub kustomize_dir: Option<&'a str>,
}

/// `joinAndClean(path, file)`.
fn join_clean(path: &str, file: &str) -> String {
    let joined = tailor_go::path::clean(&format!("{path}/{file}"));
    joined.trim_start_matches('/').to_string()
}

/// Why Fleet would not deploy this cluster's bundle as raw YAML, as a message for `cluster`;
/// `None` when it would.
pub(crate) fn refusal(
    r: &Rendering<'_>,
    layout: Option<&Layout>,
    source: Source<'_>,
    cluster: &str,
) -> Option<String> {
    let dir = layout.map_or("DIR", |l| l.dir.as_str());
    let release = r.release_name.unwrap_or("RELEASE");
    let values = format!(
        "`tailor fleet-values CONFIG {dir} --cluster {cluster} > values.yaml` prints the values Fleet would pass"
    );
    let helm = |why: String, chart: String| {
        format!(
            "cluster {cluster:?}: {why}, so Fleet renders this bundle with Helm, which tailor does not do. Render the chart and tailor its output: `helm template {release} {chart} -f values.yaml | tailor CONFIG -` ({values})"
        )
    };
    if let Some(repo) = r.helm_repo {
        let chart = r.helm_chart.unwrap_or("CHART");
        let version = r
            .helm_version
            .map(|v| format!(" --version {v}"))
            .unwrap_or_default();
        return Some(helm(
            format!("{} {repo:?} names a chart repository", source("helm.repo")),
            format!("{chart} --repo {repo}{version}"),
        ));
    }
    if let Some(chart) = r.helm_chart {
        match layout {
            Some(l) => {
                let chart_yaml = join_clean(chart, "Chart.yaml");
                if l.files.contains(&chart_yaml) {
                    return Some(helm(
                        format!(
                            "{} {chart:?} names the chart {chart_yaml}",
                            source("helm.chart")
                        ),
                        format!("{dir}/{}", join_clean(chart, ".")),
                    ));
                }
                let local = tailor_go::path::clean(chart);
                if !l.on_disk.contains(local.trim_start_matches('/')) {
                    return Some(helm(
                        format!(
                            "{} {chart:?} names a chart to download",
                            source("helm.chart")
                        ),
                        chart.to_string(),
                    ));
                }
                // A local directory without a Chart.yaml: raw YAML, as in Fleet.
            }
            None => {
                return Some(helm(
                    format!("{} {chart:?} names a Helm chart", source("helm.chart")),
                    chart.to_string(),
                ))
            }
        }
    } else if layout.is_some_and(|l| l.files.contains("Chart.yaml")) {
        return Some(helm(
            "the bundle has a Chart.yaml at its root".to_string(),
            dir.to_string(),
        ));
    }
    let kustomization = match r.kustomize_dir {
        Some(d) => join_clean(d, "kustomization.yaml"),
        None => "kustomization.yaml".to_string(),
    };
    let kustomize = match (layout, r.kustomize_dir) {
        (Some(l), _) => l.files.contains(&kustomization),
        (None, dir) => dir.is_some(),
    };
    if kustomize {
        let why = match r.kustomize_dir {
            Some(d) => format!(
                "{} {d:?} names the kustomization {kustomization}",
                source("kustomize.dir")
            ),
            None => "the bundle has a kustomization.yaml at its root".to_string(),
        };
        let build_dir = match r.kustomize_dir {
            Some(d) => format!("{dir}/{}", join_clean(d, ".")),
            None => dir.to_string(),
        };
        return Some(format!(
            "cluster {cluster:?}: {why}, so Fleet runs kustomize on this bundle, which tailor does not do. Build it and tailor the output: `kustomize build {build_dir} | tailor CONFIG -`"
        ));
    }
    if let Some(t) = layout.and_then(|l| l.templated.first()) {
        return Some(format!(
            "cluster {cluster:?}: {t} is a Helm template ({{{{ }}}} actions under templates/), which Fleet renders with Helm and this cluster's values; tailor does not render Helm templates. Render them with Helm (a chart of {dir}/templates with a Chart.yaml: `helm template {release} CHARTDIR -f values.yaml | tailor CONFIG -`; {values})"
        ));
    }
    None
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The layout of a bundle directory holding `files` and the directories `dirs` (relative
    /// paths), for the tests here and in `chart_source`.
    pub(crate) fn layout(files: &[&str], dirs: &[&str]) -> Layout {
        Layout {
            dir: "bundle".into(),
            files: files.iter().map(|s| s.to_string()).collect(),
            on_disk: files.iter().chain(dirs).map(|s| s.to_string()).collect(),
            ..Layout::default()
        }
    }

    fn r<'a>(
        repo: Option<&'a str>,
        chart: Option<&'a str>,
        kdir: Option<&'a str>,
    ) -> Rendering<'a> {
        Rendering {
            helm_repo: repo,
            helm_chart: chart,
            helm_version: None,
            release_name: None,
            kustomize_dir: kdir,
        }
    }

    fn why(ren: &Rendering<'_>, l: Option<&Layout>) -> Option<String> {
        refusal(ren, l, &|f: &str| format!("fleet.yaml {f}"), "c")
    }

    #[test]
    fn helm_by_repo_chart_directory_download_or_root_chart_yaml() {
        let l = layout(&["app/Chart.yaml", "cm.yaml"], &["app", "plain"]);
        assert!(why(&r(Some("https://x"), Some("a"), None), Some(&l))
            .unwrap()
            .contains("fleet.yaml helm.repo \"https://x\""));
        assert!(why(&r(None, Some("./app"), None), Some(&l))
            .unwrap()
            .contains("helm template RELEASE bundle/app -f values.yaml"));
        assert!(why(&r(None, Some("oci://r/c"), None), Some(&l))
            .unwrap()
            .contains("helm.chart \"oci://r/c\" names a chart to download"));
        // A local directory without Chart.yaml stays raw YAML.
        assert_eq!(why(&r(None, Some("plain"), None), Some(&l)), None);
        let root = layout(&["Chart.yaml", "templates/x.yaml"], &[]);
        assert!(why(&r(None, None, None), Some(&root))
            .unwrap()
            .contains("Chart.yaml at its root"));
    }

    #[test]
    fn kustomize_by_root_or_dir() {
        let l = layout(
            &["kustomization.yaml", "overlays/dev/kustomization.yaml"],
            &[],
        );
        assert!(why(&r(None, None, None), Some(&l))
            .unwrap()
            .contains("kustomize build bundle |"));
        assert!(why(&r(None, None, Some("overlays/dev")), Some(&l))
            .unwrap()
            .contains("kustomize build bundle/overlays/dev |"));
        // kustomize.dir without a kustomization.yaml there: raw YAML.
        let none = layout(&["cm.yaml"], &[]);
        assert_eq!(why(&r(None, None, Some("x")), Some(&none)), None);
        // Without a directory to look at (a Tailor spec), the field decides.
        assert!(why(&r(None, None, Some("x")), None).is_some());
        assert!(why(&r(None, Some("c"), None), None).is_some());
    }

    #[test]
    fn templates_with_actions() {
        let mut l = layout(&["templates/cm.yaml"], &[]);
        assert_eq!(why(&r(None, None, None), Some(&l)), None);
        l.templated.push("templates/cm.yaml".into());
        assert!(why(&r(None, None, None), Some(&l))
            .unwrap()
            .contains("templates/cm.yaml is a Helm template"));
    }
}
