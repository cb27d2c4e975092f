//! What the command line and a Fleet bundle directory add to a functionConfig's plan:
//! `--strict`, `--explain`, `--cluster`, `--shard`, and the bundle's fleet.yaml and overlay
//! files. They are inputs to building the plan, applied here once, so the run takes a plan
//! nothing changes afterwards (issue 24: the pipeline must not find its plan rewritten
//! between deciding how to read and running).

use tailor_fleet::{BundleFile, FleetConfig};
use tailor_kio::standalone::Refused;
use tailor_kio::KrmResult;

use super::{Plan, Tailoring, TargetFields, Targets};

/// A Fleet bundle directory read in standalone mode: its fleet.yaml and overlay files, and
/// what reading them found worth saying (fields Fleet ignores or tailor does not model, files
/// Fleet does not deploy).
pub struct FleetBundle {
    pub config: FleetConfig<TargetFields>,
    pub overlays: Vec<BundleFile>,
    pub notes: Vec<tailor_kube::Diagnostic>,
}

/// The choices of one standalone run besides its functionConfig.
#[derive(Default)]
pub struct Choices {
    pub strict: bool,
    pub explain: bool,
    /// `--cluster NAME`: only this destination.
    pub cluster: Option<String>,
    /// `--shard K/N` (1-based).
    pub shard: Option<(usize, usize)>,
    pub bundle: Option<FleetBundle>,
}

impl Plan {
    /// The plan with `choices` built in. A shard that holds no destination leaves the bundle
    /// unread, as the run then renders nothing.
    pub fn with(mut self, choices: Choices) -> Result<Plan, Refused> {
        self.strict |= choices.strict;
        if let Some(name) = &choices.cluster {
            self.only_cluster(name).map_err(Refused::Usage)?;
        }
        if let Some((k, n)) = choices.shard {
            self.shard(k, n);
        }
        self.explain = choices.explain;
        match choices.bundle {
            Some(bundle) if self.empty_shard.is_none() => self
                .adopt_bundle(bundle)
                .map(|()| self)
                .map_err(|r| Refused::Results(vec![r])),
            _ => Ok(self),
        }
    }

    /// fleet.yaml takes the place of the Fleet fields of the configuration; setting them in
    /// both is an error. The stages follow the new targets.
    fn adopt_bundle(&mut self, bundle: FleetBundle) -> Result<(), KrmResult> {
        let mut config = bundle.config;
        self.notes.append(&mut config.notes);
        self.notes.extend(bundle.notes);
        let current: &Tailoring = match &self.targets {
            Targets::Fixed(t) => t,
            Targets::Fleet(c) => {
                let fleet_fields_set = !c.customizations.is_empty()
                    || c.root.namespace.is_some()
                    || c.root.default_namespace.is_some()
                    || !c.root.yaml_overlays.is_empty();
                if fleet_fields_set {
                    return Err(KrmResult::error(
                        "the bundle's fleet.yaml and the Tailor spec both set Fleet fields (targetCustomizations, namespace, defaultNamespace, yaml): keep them in one place",
                    )
                    .at_field("spec.targetCustomizations"));
                }
                &c.root
            }
        };
        if config.root.extra.overlay().is_empty() {
            config.root.extra = current.extra.clone();
        }
        let budget = self.run_budget().map_err(KrmResult::from)?;
        self.overlay_files.extend(bundle.overlays);
        self.set_targets(Targets::Fleet(Box::new(config)), &budget);
        Ok(())
    }
}
