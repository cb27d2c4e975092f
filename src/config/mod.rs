//! functionConfig kinds → the [`Plan`] they ask for, decoded once: the stages in
//! `docs/design.md`'s order, each holding its typed configuration, the destinations, and the
//! limits. Each single-purpose kind plans just its stage; `Tailor` configures all of them.
//!
//! Adding a stage means writing its module in `stages/` and one line where a kind builds its
//! plan: how items are read, what runs once before a fan-out, and what a deferred object keeps
//! are derived from what the stages declare.

mod apart;
pub(crate) mod budget;
mod choices;
mod config_map;
mod flux;
mod in_place;
mod job;
mod replacements;
mod resubstitution;
pub mod schema;
mod tailor;

use serde_json::Value as Json;
use tailor_cluster::CompactSpec;
use tailor_fleet::{BundleFile, FleetConfig};
use tailor_kube::Diagnostic;
use tailor_yaml::{Handed, Node, ParseOptions};

use crate::stages::strip::Strip;
use crate::stages::Stage;
use tailor_kio::KrmResult;

pub use crate::stages::{Tailoring, TargetFields};
pub use choices::{Choices, FleetBundle};
pub use tailor::TAILOR_FIELDS;

/// Which options each destination gets.
#[derive(Debug)]
pub enum Targets {
    /// The same for every destination.
    Fixed(Box<Tailoring>),
    /// Fleet's target customizations decide per destination.
    Fleet(Box<FleetConfig<TargetFields>>),
}

impl Targets {
    /// Whether destinations can get different options.
    pub fn vary(&self) -> bool {
        matches!(self, Targets::Fleet(c) if !c.customizations.is_empty())
    }

    /// Every option set a destination may get: the root and each customization's.
    pub fn all(&self) -> Vec<&Tailoring> {
        match self {
            Targets::Fixed(t) => vec![t],
            Targets::Fleet(c) => std::iter::once(&c.root)
                .chain(c.customizations.iter().map(|c| &c.options))
                .collect(),
        }
    }

    /// Whether any destination's options satisfy `pred`.
    pub fn any(&self, pred: impl Fn(&Tailoring) -> bool) -> bool {
        self.all().into_iter().any(pred)
    }
}

/// What a run does, decided by the functionConfig.
pub struct Plan {
    /// Which functionConfig kind asked for this (for messages).
    pub source: &'static str,
    /// Destinations: one tailored copy per entry. Empty means "no destination named".
    pub clusters: Vec<CompactSpec>,
    /// `spec.clusters` was used: paths get a `<cluster>/` prefix.
    pub fan_out: bool,
    /// The stages, in order.
    pub stages: Vec<Box<dyn Stage<Tailoring>>>,
    pub targets: Targets,
    /// Fleet overlay files written in the functionConfig (`spec.overlays`).
    pub overlay_files: Vec<BundleFile>,
    /// Largest number of tailored copies (clusters × items) one run may produce.
    pub max_fan_out_items: usize,
    /// `spec.limits.maxHeldOutputBytes`: most output bytes a held fan-out may hold.
    pub max_held_output_bytes: Option<u64>,
    /// The run's budget, when the configuration set it up for stages that evaluate templates
    /// ([`Plan::run_budget`] makes it for the others).
    budget: Option<tailor_go::Budget>,
    /// Where the stages that apply the targets' options go (after the schedule and strip), how
    /// many there are, and how many of them come last (after substitution): a Fleet bundle's
    /// targets replace them.
    tailoring_at: usize,
    tailoring_len: usize,
    last_len: usize,
    /// What reading the configuration found worth saying (warnings, infos); they lead the
    /// run's results.
    pub notes: Vec<Diagnostic>,
    /// Warnings are errors (`spec.strict`, `--strict`): for CI.
    pub strict: bool,
    /// `--shard K/N` left this run none of the destinations: it renders nothing (rather than
    /// an untailored copy), and says so.
    pub empty_shard: Option<String>,
    /// `--explain`: report what each destination's run does instead of the objects.
    pub explain: bool,
    /// `--cluster` or `--shard` left some destinations out: whether a rule matches none of
    /// them says nothing about the whole set.
    pub narrowed: bool,
}

/// The shard (0-based, of `n`) a destination named `name` belongs to: FNV-1a of the name, so
/// the answer is the same on every machine and in every release.
fn shard_of(name: &str, n: usize) -> usize {
    let hash = name.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    });
    (hash % n.max(1) as u64) as usize
}

pub const ACCEPTED_KINDS: &str = "tailor.dev/v1alpha1 Tailor, v1 ConfigMap, fn.kpt.dev/v1alpha1 ApplyReplacements, builtin ReplacementTransformer, control.kubestellar.io/v1alpha1 CustomTransform, kustomize.toolkit.fluxcd.io/v1 Kustomization";

const DEFAULT_MAX_FAN_OUT_ITEMS: usize = 10_000_000;

impl Plan {
    /// A plan of `stages`, whose tailoring stages (if any) go at `tailoring_at`.
    fn new(
        source: &'static str,
        stages: Vec<Box<dyn Stage<Tailoring>>>,
        tailoring_at: usize,
    ) -> Plan {
        Plan {
            source,
            clusters: Vec::new(),
            fan_out: false,
            stages,
            targets: Targets::Fixed(Box::default()),
            overlay_files: Vec::new(),
            max_fan_out_items: DEFAULT_MAX_FAN_OUT_ITEMS,
            max_held_output_bytes: None,
            budget: None,
            tailoring_at,
            tailoring_len: 0,
            last_len: 0,
            notes: Vec::new(),
            strict: false,
            empty_shard: None,
            explain: false,
            narrowed: false,
        }
    }

    /// Keeps only the destination `name` of the plan's clusters (`--cluster`); its copy is
    /// laid out as in the whole fan-out.
    fn only_cluster(&mut self, name: &str) -> Result<(), String> {
        if !self.clusters.iter().any(|c| c.name() == name) {
            let known: Vec<&str> = self.clusters.iter().map(CompactSpec::name).collect();
            let near = tailor_kube::json::suggest(name, &known)
                .map(|n| format!(" (did you mean {n:?}?)"))
                .unwrap_or_default();
            return Err(if known.is_empty() {
                format!("--cluster {name}: the configuration names no destinations")
            } else {
                format!(
                    "--cluster {name}: not a destination of this configuration{near}; its destinations are {}",
                    known.join(", ")
                )
            });
        }
        self.narrowed |= self.clusters.len() > 1;
        self.clusters.retain(|c| c.name() == name);
        Ok(())
    }

    /// Keeps the destinations of shard `k` of `n` (`--shard K/N`, 1-based): a destination
    /// belongs to the shard its name hashes to, so the shards are disjoint, together they are
    /// the whole set, and a destination stays in its shard when others are added or removed.
    fn shard(&mut self, k: usize, n: usize) {
        let before = self.clusters.len();
        self.clusters.retain(|c| shard_of(c.name(), n) == k - 1);
        self.narrowed |= self.clusters.len() < before;
        if self.clusters.is_empty() {
            self.empty_shard = Some(format!(
                "shard {k}/{n} holds none of the {before} destinations: nothing to render"
            ));
        }
    }

    /// The run's budget: the configuration's, else the environment's (a configuration kind
    /// that evaluates no template of its own may still render a Fleet bundle's).
    pub fn run_budget(&mut self) -> Result<tailor_go::Budget, Diagnostic> {
        if let Some(budget) = &self.budget {
            return Ok(budget.clone());
        }
        let budget = budget::run_budget(budget::BudgetLimits::default(), self.clusters.len())?;
        self.budget = Some(budget.clone());
        Ok(budget)
    }

    /// Replaces the targets (a Fleet bundle's fleet.yaml brings its own), and with them the
    /// stages that apply their options, which spend `budget`.
    fn set_targets(&mut self, targets: Targets, budget: &tailor_go::Budget) {
        let at = self.tailoring_at.min(self.stages.len());
        let end = (at + self.tailoring_len).min(self.stages.len());
        self.stages.drain(at..end);
        let kept = self.stages.len().saturating_sub(self.last_len);
        self.stages.truncate(kept);
        let (tailoring, last) = tailoring_stages(&targets, &self.overlay_files, budget);
        self.tailored_by(tailoring.len(), last.len());
        self.stages.splice(at..at, tailoring);
        self.stages.extend(last);
        self.targets = targets;
    }

    /// Records how many stages apply the targets' options at `tailoring_at`, and how many
    /// come last.
    fn tailored_by(&mut self, tailoring: usize, last: usize) {
        self.tailoring_len = tailoring;
        self.last_len = last;
    }

    /// Whether items under `overlays/` are overlay input rather than objects: some
    /// destination's options name overlay sets.
    pub fn takes_overlay_files(&self) -> bool {
        self.targets.any(|t| !t.yaml_overlays.is_empty())
    }
}

/// A list of stages.
type Stages = Vec<Box<dyn Stage<Tailoring>>>;

/// The stages that apply the targets' options, in order: Fleet's Helm charts (spending the
/// run's `budget`), Fleet's yaml overlays, the Flux overlay fields, Fleet's namespaces,
/// replacements; and those that come last (after substitution): Flux's commonMetadata. Only
/// those some destination needs.
fn tailoring_stages(
    targets: &Targets,
    overlay_files: &[BundleFile],
    budget: &tailor_go::Budget,
) -> (Stages, Stages) {
    use crate::stages::common_metadata::CommonMetadata;
    use crate::stages::fleet_namespaces::FleetNamespaces;
    use crate::stages::fleet_overlays::FleetOverlays;
    use crate::stages::flux_overlays::FluxOverlays;
    use crate::stages::replacements::{Replacements, RulesFrom};
    let per_destination = targets.vary();
    let mut stages: Vec<Box<dyn Stage<Tailoring>>> = Vec::new();
    if let Some(helm) = crate::stages::fleet_helm::planned(targets, budget) {
        stages.push(Box::new(helm));
    }
    if targets.any(|t| !t.yaml_overlays.is_empty()) {
        stages.push(Box::new(FleetOverlays {
            per_destination,
            files: overlay_files.to_vec(),
        }));
    }
    if targets.any(|t| t.extra.overlay().builds_objects()) {
        stages.push(Box::new(FluxOverlays { per_destination }));
    }
    let bundle = matches!(targets, Targets::Fleet(c) if c.layout.is_some());
    if bundle || targets.any(|t| t.namespace.is_some() || t.default_namespace.is_some()) {
        stages.push(Box::new(FleetNamespaces {
            per_destination,
            crd_keep: bundle,
        }));
    }
    if targets.any(|t| !t.extra.overlay().replacements.is_empty()) {
        let mut properties: Vec<String> = targets
            .all()
            .into_iter()
            .flat_map(|t| &t.extra.overlay().replacements)
            .filter_map(crate::stages::replacements::property_read)
            .map(str::to_string)
            .collect();
        properties.sort_unstable();
        properties.dedup();
        stages.push(Box::new(Replacements(RulesFrom::Targets { properties })));
    }
    let mut last: Vec<Box<dyn Stage<Tailoring>>> = Vec::new();
    if targets.any(|t| t.extra.overlay().sets_common_metadata()) {
        last.push(Box::new(CommonMetadata { per_destination }));
    }
    (stages, last)
}

/// The built-in strip alone: what tailor does with no functionConfig.
fn strip_only(source: &'static str) -> Plan {
    Plan::new(
        source,
        vec![Box::new(Strip {
            builtin: true,
            transforms: Vec::new(),
        })],
        1,
    )
}

/// Parses the functionConfig; every problem is an error result naming the field.
pub fn parse(fc: Option<&Node>) -> Result<Plan, Vec<KrmResult>> {
    parse_config(fc).map_err(|ds| ds.into_iter().map(KrmResult::from).collect())
}

/// The job a CONFIG file's text asks for (`name` is the file in errors), the text parsed once:
/// a `Tailor`'s `spec.clusters` entries become destinations as each is parsed, so the list's
/// trees are never held together ([`apart::ReadClusters`]). `Err` when the text is no single
/// YAML object. Results and errors are [`parse`]'s of the whole tree.
pub fn parse_text(
    text: &str,
    name: &str,
    opts: &ParseOptions,
) -> Result<Result<Plan, Vec<KrmResult>>, KrmResult> {
    let mut read = apart::ReadClusters::default();
    let mut sink = |h| read.take(h);
    let mut fc = tailor_kio::files::read_config_handing(
        text,
        name,
        opts,
        Handed::TailorClusters,
        &mut sink,
    )?;
    if !read.any() {
        // Nothing was taken: the tree is whole.
        return Ok(parse(Some(&fc)));
    }
    if read.settle(&mut fc) {
        if let Some(parsed) = parse_read(&fc, read) {
            return Ok(parsed.map_err(|ds| ds.into_iter().map(KrmResult::from).collect()));
        }
    }
    // An alias, or no Tailor after all: the entries are read from the whole tree.
    let (fc, _) = tailor_kio::files::read_config_text(text.to_string(), name, opts)?;
    Ok(parse(Some(&fc)))
}

/// A `Tailor` whose `spec.clusters` entries were `read` as it was parsed, `rest` the tree
/// without them; `None` when it is no `Tailor` after all.
fn parse_read(rest: &Node, read: apart::ReadClusters) -> Option<Result<Plan, Vec<Diagnostic>>> {
    let json = match to_json(rest) {
        Ok(json) => json,
        Err(e) => return Some(Err(e)),
    };
    let entries = tailor::ClustersApart::Read(read);
    is_tailor(&json).then(|| tailor::parse(&json, rest, Some(entries)))
}

fn to_json(node: &Node) -> Result<Json, Vec<Diagnostic>> {
    node.to_json()
        .map_err(|e| vec![Diagnostic::error(format!("functionConfig: {e}"))])
}

/// Whether `json` is a `Tailor` functionConfig.
fn is_tailor(json: &Json) -> bool {
    json.get("apiVersion").and_then(Json::as_str) == Some("tailor.dev/v1alpha1")
        && json.get("kind").and_then(Json::as_str) == Some("Tailor")
}

fn parse_config(fc: Option<&Node>) -> Result<Plan, Vec<Diagnostic>> {
    let Some(fc) = fc else {
        return Ok(strip_only("no functionConfig"));
    };
    // A Tailor's `spec.clusters` entries are read one at a time (`apart`).
    let mut apart = apart::clusters_apart(fc);
    let mut json = to_json(apart.as_ref().map_or(fc, |a| &a.rest))?;
    if apart.is_some() && !is_tailor(&json) {
        apart = None;
        json = to_json(fc)?;
    }
    let api_version = json.get("apiVersion").and_then(Json::as_str).unwrap_or("");
    let kind = json.get("kind").and_then(Json::as_str).unwrap_or("");
    match (api_version, kind) {
        ("tailor.dev/v1alpha1", "Tailor") => tailor::parse(
            &json,
            fc,
            apart.map(|a| tailor::ClustersApart::Yaml(a.clusters)),
        ),
        ("v1", "ConfigMap") => config_map::parse(fc).map_err(|e| vec![e]),
        ("fn.kpt.dev/v1alpha1", "ApplyReplacements") => {
            replacements::parse(fc, replacements::Kind::ApplyReplacements).map_err(|e| vec![e])
        }
        ("builtin", "ReplacementTransformer") | ("", "ReplacementTransformer") => {
            replacements::parse(fc, replacements::Kind::ReplacementTransformer).map_err(|e| vec![e])
        }
        ("control.kubestellar.io/v1alpha1", "CustomTransform") => {
            // Paths read from the functionConfig's root: `spec.remove[0]`.
            let t = tailor_kubestellar::strip::parse_custom_transform_at(
                fc,
                "functionConfig",
                tailor_kubestellar::strip::PathSyntax::Extended,
                "",
            )?;
            Ok(Plan::new(
                "CustomTransform",
                vec![Box::new(Strip {
                    builtin: true,
                    transforms: vec![t],
                })],
                1,
            ))
        }
        ("kustomize.toolkit.fluxcd.io/v1", "Kustomization") => flux::parse(&json),
        _ => Err(vec![Diagnostic::new(
            "functionConfig",
            format!(
                "unsupported functionConfig {} {}; accepted kinds: {ACCEPTED_KINDS}",
                if api_version.is_empty() {
                    "<no apiVersion>"
                } else {
                    api_version
                },
                if kind.is_empty() { "<no kind>" } else { kind },
            ),
        )]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tailor_kio::job::{header_annotations, reads_every_object, shared_stages, stage_at_read};

    fn plan(text: &str) -> Plan {
        let fc = tailor_yaml::parse_stream(text).unwrap().remove(0).root;
        parse(Some(&fc)).unwrap_or_else(|e| panic!("{e:?}"))
    }

    /// `text` read as a CONFIG file, its `spec.clusters` entries read as they are parsed, and
    /// read from its whole tree: the same destinations and stages, or the same errors.
    fn read_both_ways(text: &str) -> Result<Vec<CompactSpec>, Vec<String>> {
        let opts = tailor_yaml::ParseOptions::default();
        let read = parse_text(text, "cfg.yaml", &opts).map_err(|e| vec![e.message]);
        let whole = tailor_kio::files::read_config_text(text.to_string(), "cfg.yaml", &opts)
            .map(|(fc, _)| parse(Some(&fc)))
            .map_err(|e| vec![e.message]);
        let outcome = |p: Result<Result<Plan, Vec<KrmResult>>, Vec<String>>| {
            p.and_then(|plan| plan.map_err(|rs| rs.iter().map(|r| format!("{r:?}")).collect()))
                .map(|plan| {
                    let stages: Vec<_> = plan.stages.iter().map(|s| s.declares().name).collect();
                    (plan.clusters, plan.fan_out, stages)
                })
        };
        let (read, whole) = (outcome(read), outcome(whole));
        assert_eq!(read, whole, "{text}");
        read.map(|(clusters, _, _)| clusters)
    }

    fn tailor_with(entries: &str) -> String {
        format!("apiVersion: tailor.dev/v1alpha1\nkind: Tailor\nmetadata:\n  name: t\nspec:\n  namePrefix: p-\n  clusters:\n{entries}  postBuild: {{substitute: {{a: b}}}}\n")
    }

    #[test]
    fn clusters_read_as_parsed_are_the_whole_trees_destinations() {
        let entries = "  - name: a # a\n    labels: {env: dev}\n  - name: b\n    properties:\n      zone: |\n        z\n    groups: [{name: g, labels: {x: y}}]\n  - name: c\n";
        let clusters = read_both_ways(&tailor_with(entries)).unwrap();
        let names: Vec<_> = clusters.iter().map(CompactSpec::name).collect();
        assert_eq!(names, ["a", "b", "c"]);
        // Not read as parsed (the whole tree is): an alias, a kind after spec, another kind.
        let aliased =
            entries.replace("{env: dev}", "&l {env: dev}") + "  - name: d\n    labels: *l\n";
        assert_eq!(read_both_ways(&tailor_with(&aliased)).unwrap().len(), 4);
        let late =
            "apiVersion: tailor.dev/v1alpha1\nspec:\n  clusters:\n  - name: a\nkind: Tailor\n";
        assert_eq!(read_both_ways(late).unwrap().len(), 1);
        let other = tailor_with(entries).replace("tailor.dev/v1alpha1", "example.com/v1");
        assert!(read_both_ways(&other).is_err());
        assert!(read_both_ways(&tailor_with("")).is_ok());
    }

    #[test]
    fn errors_of_clusters_read_as_parsed_are_the_whole_trees() {
        let big_key = format!("[{}]", vec!["x".repeat(100); 700].join(","));
        for entries in [
            "  - name: a\n  - name: b\n  - name: c\n    labels: 5\n".to_string(),
            "  - name: a\n  - name: a\n  - labels: {}\n".to_string(),
            "  - name: a\n  - name: b\n  - name: c\n    name: d\n".to_string(),
            "  - name: a\n  - name: b\n  - name: [c\n".to_string(),
            format!("  - name: a\n    labels: {{? {big_key} : v}}\n  - name: b\n    labels: 5\n"),
            "  - name: a\n  - 7\n".to_string(),
        ] {
            let text = tailor_with(&entries);
            assert!(read_both_ways(&text).is_err(), "{text}");
            let both = text.replace("  namePrefix: p-\n", "  namePrefx: p-\n");
            assert!(read_both_ways(&both).is_err(), "{both}");
        }
        assert!(read_both_ways(
            &tailor_with("").replace("kind: Tailor\n", "kind: Tailor\n---\nx: 1\n")
        )
        .is_err());
    }

    #[test]
    fn stages_follow_the_functionconfig() {
        let names = |p: &Plan| {
            p.stages
                .iter()
                .map(|s| s.declares().name)
                .collect::<Vec<_>>()
        };
        assert_eq!(
            names(&plan("apiVersion: v1\nkind: ConfigMap\n")),
            ["strip", "templates"]
        );
        let p = plan("apiVersion: tailor.dev/v1alpha1\nkind: Tailor\nspec:\n  destinationSelectors: [{matchLabels: {a: b}}]\n  namePrefix: p-\n  postBuild: {substitute: {a: b}}\n");
        assert_eq!(
            names(&p),
            [
                "schedule",
                "strip",
                "flux overlay fields",
                "templates",
                "substitution"
            ]
        );
        // Past the schedule, only the per-object strip runs before the copies.
        assert_eq!(shared_stages(&p), [false, true, false, false, false]);
        assert!(reads_every_object(&p));
        let p = plan(
            "apiVersion: tailor.dev/v1alpha1\nkind: Tailor\nspec:\n  strip: {builtin: false}\n",
        );
        assert!(!reads_every_object(&p));
        assert_eq!(
            header_annotations(&p),
            ["control.kubestellar.io/expand-templates"]
        );
        assert!(stage_at_read(&p).is_none());
        assert!(stage_at_read(&plan("apiVersion: v1\nkind: ConfigMap\n")).is_some());
    }
}
