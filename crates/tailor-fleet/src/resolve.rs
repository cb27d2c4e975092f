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
    /// doNotDeploy: the cluster gets an empty `items:`.
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

    /// Fleet's decision for `cluster` (`docs/semantics/fleet.md` §2).
    pub fn resolve(&self, cluster: &Cluster) -> Decision<E> {
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

#[cfg(test)]
mod tests;
