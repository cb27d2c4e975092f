//! Per cluster: which customizations match, whether the cluster is skipped (doNotDeploy),
//! and the merged options (`target/builder.go` `Targets`, `docs/semantics/fleet.md` §2).
//!
//! tailor is given the destination, so there is no GitRepo target list deciding whether the
//! cluster gets the bundle at all: the destination always gets it unless doNotDeploy says
//! otherwise, and a customization only changes options. The GitRepo target's own options are
//! empty, so FirstMatch merges `Merge(root, first)` and AllMatches
//! `Merge(root, fold(Merge, {}, matches))`, exactly as Fleet computes `final`.

use serde_json::{Map, Value};
use tailor_cluster::Cluster;

use crate::config::{Customization, FleetConfig, Mode};
use crate::options::{Extra, Options};
use crate::style::{refusal, Rendering};

/// What to do for one cluster.
// One Decision is made per cluster and matched on at once; boxing the options would only make
// the integrator's pattern matching clumsier.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum Decision<E = ()> {
    /// Deploy with these merged options.
    Deploy {
        /// Names of the customizations that were applied, in order (FirstMatch: at most one).
        matched: Vec<String>,
        options: Options<E>,
    },
    /// Fleet would render this cluster's bundle with Helm or kustomize, which tailor does not
    /// do: an error for the run, naming the field and the pipeline that works.
    Refuse {
        /// Names of the customizations that were applied.
        matched: Vec<String>,
        message: String,
    },
    /// doNotDeploy, or no target selects the cluster: it gets an empty `items:`.
    Skip {
        /// Names of the matching customizations, in order (AllMatches: all of them).
        matched: Vec<String>,
        /// The customization that carries doNotDeploy.
        by: String,
        /// A sentence for the info result.
        reason: String,
    },
}

impl<E: Extra> FleetConfig<E> {
    /// Indices of the customizations whose criteria match `cluster`, in list order. Each entry
    /// counts once even when it matches through several groups.
    pub fn matching(&self, cluster: &Cluster) -> Vec<usize> {
        self.customizations
            .iter()
            .enumerate()
            .filter(|(_, c)| c.criteria.matches(cluster))
            .map(|(i, _)| i)
            .collect()
    }

    /// What of `cluster` [`Self::resolve`] depends on, bar the cluster's name in its
    /// messages: clusters with equal keys get the same decision with the same options. The
    /// matching customizations' indices, after what the bundle's targets say of the cluster.
    pub fn decision_key(&self, cluster: &Cluster) -> Vec<usize> {
        let targets = match &self.override_targets {
            None => 0,
            Some(t) if t.is_empty() => 1 + usize::from(cluster.group("default").is_some()),
            Some(t) => 3 + usize::from(t.iter().any(|t| t.matches(cluster))),
        };
        let mut key = vec![targets];
        key.extend(self.matching(cluster));
        key
    }

    /// Fleet's decision for `cluster` (`docs/semantics/fleet.md` §1c, §2, §3a): whether it
    /// gets the bundle, with which options, and whether tailor can render it (not a Helm chart
    /// or kustomization for this cluster).
    pub fn resolve(&self, cluster: &Cluster) -> Decision<E> {
        match self.resolve_options(cluster) {
            Decision::Deploy { matched, options } => {
                match self.refusal(&options, &matched, cluster) {
                    Some(message) => Decision::Refuse { matched, message },
                    None => Decision::Deploy { matched, options },
                }
            }
            other => other,
        }
    }

    /// Whether `cluster` gets the bundle and with which merged options, whatever renders it
    /// (never [`Decision::Refuse`]): what Fleet computes before its agent renders anything.
    pub fn resolve_options(&self, cluster: &Cluster) -> Decision<E> {
        match &self.override_targets {
            Some(targets) if targets.is_empty() => self.resolve_unrestricted(cluster),
            Some(targets) if !targets.iter().any(|t| t.matches(cluster)) => Decision::Skip {
                matched: Vec::new(),
                by: "overrideTargets".into(),
                reason: format!(
                    "cluster {:?} gets nothing: none of fleet.yaml's overrideTargets selects it (they replace the GitRepo's targets)",
                    cluster.name
                ),
            },
            _ => self.resolve_customizations(cluster),
        }
    }

    /// A bundle without target restrictions (`overrideTargets: []`): no entry is a
    /// customization; the first entry that matches is the cluster's target and supplies its
    /// options (`doNotDeploy` skips), and with no entries the default target
    /// `{clusterGroup: default}` applies (`bundlereader/read.go`, `BundleMatch.Match`).
    fn resolve_unrestricted(&self, cluster: &Cluster) -> Decision<E> {
        if self.customizations.is_empty() {
            return if cluster.group("default").is_some() {
                Decision::Deploy {
                    matched: Vec::new(),
                    options: self.root.clone(),
                }
            } else {
                Decision::Skip {
                    matched: Vec::new(),
                    by: "overrideTargets".into(),
                    reason: format!(
                        "cluster {:?} gets nothing: with an empty overrideTargets the bundle's only target is the cluster group \"default\", which it is not in",
                        cluster.name
                    ),
                }
            };
        }
        match self.customizations.iter().find(|c| c.criteria.matches(cluster)) {
            Some(t) if t.do_not_deploy => Decision::Skip {
                matched: vec![t.name.clone()],
                by: t.name.clone(),
                reason: format!(
                    "cluster {:?} is skipped: its target {:?} ({}) sets doNotDeploy",
                    cluster.name, t.name, t.field_path
                ),
            },
            Some(t) => {
                let mut options = self.root.merge(&t.options);
                self.copy_namespace_metadata(&mut options);
                Decision::Deploy {
                    matched: vec![t.name.clone()],
                    options,
                }
            }
            None => Decision::Skip {
                matched: Vec::new(),
                by: "overrideTargets".into(),
                reason: format!(
                    "cluster {:?} gets nothing: with an empty overrideTargets the fleet.yaml entries are the bundle's targets, and none selects it",
                    cluster.name
                ),
            },
        }
    }

    /// Whether Fleet renders this cluster's bundle with Helm or kustomize (`style.go`), as a
    /// message naming where the deciding field was set.
    fn refusal(
        &self,
        options: &Options<E>,
        matched: &[String],
        cluster: &Cluster,
    ) -> Option<String> {
        let helm_str = |h: &Option<serde_json::Map<String, Value>>, k: &str| -> Option<String> {
            h.as_ref()?
                .get(k)
                .and_then(Value::as_str)
                .filter(|s| !s.is_empty())
                .map(str::to_string)
        };
        if let Some(l) = self.layout.as_ref().filter(|l| l.renders_charts) {
            if let Some(chart) = crate::chart_source::chart_source(options.helm.as_ref(), l) {
                return helm_kustomize_refusal(
                    &chart,
                    options.kustomize_dir.as_deref(),
                    l,
                    &cluster.name,
                );
            }
        }
        let helm = |k: &str| helm_str(&options.helm, k);
        let (repo, chart, version, release) = (
            helm("repo"),
            helm("chart"),
            helm("version"),
            helm("releaseName"),
        );
        let rendering = Rendering {
            helm_repo: repo.as_deref(),
            helm_chart: chart.as_deref(),
            helm_version: version.as_deref(),
            release_name: release.as_deref(),
            kustomize_dir: options.kustomize_dir.as_deref(),
        };
        let in_file = self.layout.is_some();
        let source = |field: &str| -> String {
            // The last applied customization that sets the field (a later one wins), else
            // the bundle's own.
            let set_in = |o: &Options<E>| match field {
                "kustomize.dir" => o.kustomize_dir.is_some(),
                f => helm_str(&o.helm, f.trim_start_matches("helm.")).is_some(),
            };
            let entry = self
                .customizations
                .iter()
                .rev()
                .filter(|c| matched.contains(&c.name))
                .find(|c| set_in(&c.options));
            match (entry, in_file) {
                (Some(c), true) => format!("fleet.yaml {}.{field}", c.field_path),
                (Some(c), false) => format!("{}.{field}", c.field_path),
                (None, true) => format!("fleet.yaml {field}"),
                (None, false) => format!("spec.{field}"),
            }
        };
        refusal(&rendering, self.layout.as_ref(), &source, &cluster.name)
    }

    /// Fleet's decision among the customizations (the GitRepo's targets select the cluster).
    fn resolve_customizations(&self, cluster: &Cluster) -> Decision<E> {
        let hits: Vec<&Customization<E>> = self
            .matching(cluster)
            .into_iter()
            .map(|i| &self.customizations[i])
            .collect();
        let names =
            |cs: &[&Customization<E>]| cs.iter().map(|c| c.name.clone()).collect::<Vec<_>>();
        let decision = match self.mode {
            Mode::FirstMatch => match hits.first() {
                Some(first) if first.do_not_deploy => Decision::Skip {
                    matched: vec![first.name.clone()],
                    by: first.name.clone(),
                    reason: format!(
                        "cluster {:?} is skipped: the first matching customization {:?} ({}) sets doNotDeploy (targetCustomizationMode FirstMatch)",
                        cluster.name, first.name, first.field_path
                    ),
                },
                Some(first) => Decision::Deploy {
                    matched: vec![first.name.clone()],
                    options: self.root.merge(&first.options),
                },
                None => Decision::Deploy {
                    matched: Vec::new(),
                    options: self.root.clone(),
                },
            },
            Mode::AllMatches => match hits.iter().find(|c| c.do_not_deploy) {
                Some(stopper) => Decision::Skip {
                    matched: names(&hits),
                    by: stopper.name.clone(),
                    reason: format!(
                        "cluster {:?} is skipped: matching customization {:?} ({}) sets doNotDeploy (targetCustomizationMode AllMatches)",
                        cluster.name, stopper.name, stopper.field_path
                    ),
                },
                None => {
                    let target = hits
                        .iter()
                        .fold(Options::default(), |acc, c| acc.merge(&c.options));
                    Decision::Deploy {
                        matched: names(&hits),
                        options: self.root.merge(&target),
                    }
                }
            },
        };
        match decision {
            Decision::Deploy {
                matched,
                mut options,
            } => {
                self.copy_namespace_metadata(&mut options);
                Decision::Deploy { matched, options }
            }
            skip => skip,
        }
    }

    /// `target.go` `BundleDeployment()`: `namespaceLabels`/`namespaceAnnotations` of **every**
    /// entry, matched or not, are copied in list order (later keys win) over the root's.
    fn copy_namespace_metadata(&self, options: &mut Options<E>) {
        for key in ["namespaceLabels", "namespaceAnnotations"] {
            let mut acc: Option<Map<String, Value>> = options
                .not_merged
                .get(key)
                .and_then(Value::as_object)
                .cloned();
            for c in &self.customizations {
                if let Some(m) = c.options.not_merged.get(key).and_then(Value::as_object) {
                    let target = acc.get_or_insert_with(Map::new);
                    target.extend(m.iter().map(|(k, v)| (k.clone(), v.clone())));
                }
            }
            if let Some(m) = acc {
                options.not_merged.insert(key.to_string(), Value::Object(m));
            }
        }
    }
}

/// A chart the caller renders, in a bundle that also holds a kustomization: Fleet's
/// post-render runs kustomize over the chart's output (`helmdeployer/postrender.go`), which
/// tailor does not do.
fn helm_kustomize_refusal(
    chart: &crate::chart_source::ChartSource,
    kustomize_dir: Option<&str>,
    layout: &crate::style::Layout,
    cluster: &str,
) -> Option<String> {
    let dir = kustomize_dir.unwrap_or(".");
    let at = tailor_go::path::clean(&format!("{dir}/kustomization.yaml"));
    let at = at.trim_start_matches('/');
    layout.files.contains(at).then(|| {
        format!(
            "cluster {cluster:?}: {} makes the bundle a Helm chart and it holds {at}, so Fleet runs kustomize over the rendered chart (post-render), which tailor does not do. Render the chart with `tailor helm template` and build the kustomization over its output",
            chart.named_by()
        )
    })
}

#[cfg(test)]
mod tests;
