//! The `Tailor` kind: the whole pipeline in one object.

use crate::stages::Tailoring;
use serde_json::{Map, Value as Json};
use tailor_cluster::{ClusterSpec, CompactSpec};
use tailor_fleet::FleetConfig;
use tailor_kube::json::concat_names;
use tailor_kube::Diagnostic;
use tailor_yaml::Node;

use super::apart::{Outcome, ReadClusters};
use super::budget::{run_budget, BudgetLimits};
use super::{Plan, TargetFields, Targets};
use crate::stages::schedule::Schedule;
use crate::stages::strip::Strip;
use crate::stages::substitution::Substitution;
use crate::stages::templates::Templates;
use crate::stages::Stage;

pub const TAILOR_FIELDS: &[&str] = &concat_names::<14, 8, 22>(
    concat_names::<7, 7, 14>(
        [
            "cluster",
            "clusters",
            "strip",
            "customTransforms",
            "destinationSelectors",
            "targetCustomizationMode",
            "targetCustomizations",
        ],
        // The Flux overlay fields and replacements, also per target customization.
        tailor_flux::overlay::TAILOR,
    ),
    [
        "postBuild",
        "templates",
        "limits",
        "namespace",
        "defaultNamespace",
        "yaml",
        "overlays",
        "strict",
    ],
);

pub const LIMITS: &[&str] = &[
    "maxFanOutItems",
    "maxTemplateOutputBytes",
    "maxTemplateRangeIterations",
    "maxRunOutputBytes",
    "maxRunEvaluationSteps",
    "maxHeldOutputBytes",
];

/// What a `Tailor` spec says, decoded; [`Spec::plan`] turns it into stages.
#[derive(Default)]
struct Spec {
    clusters: Vec<CompactSpec>,
    fan_out: bool,
    strip_builtin: bool,
    custom_transforms: Vec<tailor_kubestellar::strip::CustomTransform>,
    templates: bool,
    template_limits: tailor_go::ExecOptions,
    targets: Option<FleetConfig<TargetFields>>,
    schedule: Option<tailor_kratix::KratixSchedule>,
    overlay_files: Vec<tailor_fleet::BundleFile>,
    post_build: Option<tailor_flux::kustomization::PostBuild>,
    namespace: Option<String>,
    max_fan_out_items: Option<usize>,
    max_held_output_bytes: Option<u64>,
    budget_limits: BudgetLimits,
    strict: bool,
    /// Warnings about the spec itself.
    notes: Vec<Diagnostic>,
}

impl Spec {
    /// The stages the spec asks for, in `docs/design.md`'s order.
    fn plan(self, budget: tailor_go::Budget) -> Plan {
        let targets = match self.targets {
            Some(c) => Targets::Fleet(Box::new(c)),
            None => Targets::Fixed(Box::default()),
        };
        let mut stages: Vec<Box<dyn Stage<Tailoring>>> = Vec::new();
        // Kratix schedules a workload without destinationSelectors too: a strict destination
        // with labels of its own does not get it.
        let strict = self
            .clusters
            .iter()
            .any(|c| c.strict_match_labels() == Some(true));
        if self.schedule.is_some() || strict {
            stages.push(Box::new(Schedule {
                written: self.schedule.is_some(),
                selectors: self.schedule.unwrap_or_default(),
            }));
        }
        stages.push(Box::new(Strip {
            builtin: self.strip_builtin,
            transforms: self.custom_transforms,
        }));
        let tailoring_at = stages.len();
        let (tailoring, last) = super::tailoring_stages(&targets, &self.overlay_files, &budget);
        let counts = (tailoring.len(), last.len());
        stages.extend(tailoring);
        if self.templates {
            stages.push(Box::new(Templates {
                limits: tailor_go::ExecOptions {
                    budget: budget.clone(),
                    ..self.template_limits
                },
            }));
        }
        if let Some(post_build) = self.post_build {
            let substitution = Substitution::new(post_build, self.namespace);
            stages.push(Box::new(substitution.within(budget.clone())));
        }
        stages.extend(last);
        let mut plan = Plan::new("Tailor", stages, tailoring_at);
        plan.tailored_by(counts.0, counts.1);
        plan.clusters = self.clusters;
        plan.fan_out = self.fan_out;
        plan.targets = targets;
        plan.overlay_files = self.overlay_files;
        if let Some(n) = self.max_fan_out_items {
            plan.max_fan_out_items = n;
        }
        plan.max_held_output_bytes = self.max_held_output_bytes;
        plan.budget = Some(budget);
        plan.strict = self.strict;
        plan.notes = self.notes;
        plan
    }
}

/// `clusters`: the `spec.clusters` entries when they were kept apart from `json`
/// ([`super::apart`]).
pub fn parse(
    json: &Json,
    fc: &Node,
    clusters: Option<ClustersApart>,
) -> Result<Plan, Vec<Diagnostic>> {
    let mut p = Spec {
        strip_builtin: true,
        templates: true,
        ..Spec::default()
    };
    let spec = match json.get("spec") {
        None | Some(Json::Null) => {
            return Ok(p.plan(run_budget(BudgetLimits::default(), 1).map_err(|e| vec![e])?))
        }
        Some(Json::Object(m)) => m,
        Some(_) => {
            return Err(vec![Diagnostic::new(
                "spec",
                "Tailor spec must be a mapping",
            )])
        }
    };
    let mut errors = Vec::new();
    unknown_fields(spec, &mut errors);
    p.read_clusters(spec, clusters, &mut errors)
        .map_err(|e| vec![e])?;
    p.read_strip(spec, fc, &mut errors);
    p.read_templates(spec, &mut errors);
    p.read_sources(json, spec, &mut errors);
    p.read_options(spec, &mut errors);
    let budget = run_budget(p.budget_limits, p.clusters.len())
        .map_err(|e| errors.push(e))
        .ok();
    if let (true, Some(budget)) = (errors.is_empty(), budget) {
        Ok(p.plan(budget))
    } else {
        Err(errors)
    }
}

/// The `spec.clusters` entries kept apart from the functionConfig's JSON ([`super::apart`]).
pub enum ClustersApart<'a> {
    /// Their trees, each turned into JSON when it is read.
    Yaml(&'a [Node]),
    /// Read already, as the text was parsed.
    Read(ReadClusters),
}

/// The entries of `spec.clusters`: JSON, or kept apart.
enum Entries<'a> {
    Json(&'a [Json]),
    Apart(ClustersApart<'a>),
}

impl<'a> Entries<'a> {
    fn len(&self) -> usize {
        match self {
            Entries::Json(list) => list.len(),
            Entries::Apart(ClustersApart::Yaml(list)) => list.len(),
            Entries::Apart(ClustersApart::Read(read)) => read.len(),
        }
    }

    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Each entry as a destination, in order (see [`Outcome`]).
    fn outcomes(self) -> Box<dyn Iterator<Item = Outcome> + 'a> {
        match self {
            Entries::Json(list) => Box::new(
                list.iter()
                    .enumerate()
                    .map(|(i, c)| Ok(super::apart::destination(i, c))),
            ),
            Entries::Apart(ClustersApart::Yaml(list)) => Box::new(
                list.iter()
                    .enumerate()
                    .map(|(i, c)| super::apart::cluster_entry(i, c)),
            ),
            Entries::Apart(ClustersApart::Read(read)) => Box::new(read.outcomes()),
        }
    }
}

/// An error for each field of `spec` a `Tailor` spec does not have, with the nearest one.
fn unknown_fields(spec: &Map<String, Json>, errors: &mut Vec<Diagnostic>) {
    for key in spec.keys() {
        if !TAILOR_FIELDS.contains(&key.as_str()) {
            let hint = tailor_kube::json::suggest(key, TAILOR_FIELDS)
                .map(|near| format!(" (did you mean {near:?}?)"))
                .unwrap_or_default();
            errors.push(err(
                key,
                format!(
                    "unknown field {key:?} in Tailor spec{hint}; accepted fields: {}",
                    TAILOR_FIELDS.join(", ")
                ),
            ));
        }
    }
}

/// An error about `spec.FIELD`.
fn err(field: &str, msg: String) -> Diagnostic {
    Diagnostic::new(format!("spec.{field}"), msg)
}

/// Each part of a `Tailor` spec, decoded into the [`Spec`]; errors are collected, in the
/// order of the fields, so every problem is reported at once.
impl Spec {
    /// `spec.cluster` and `spec.clusters`: the destinations.
    fn read_clusters(
        &mut self,
        spec: &Map<String, Json>,
        apart: Option<ClustersApart>,
        errors: &mut Vec<Diagnostic>,
    ) -> Result<(), Diagnostic> {
        if let Some(c) = spec.get("cluster").filter(|c| !c.is_null()) {
            match ClusterSpec::from_json(c, "spec.cluster") {
                Ok(s) => self.clusters.push(s.into()),
                Err(e) => errors.push(e),
            }
        }
        let entries = match (apart, spec.get("clusters")) {
            (Some(apart), _) => Some(Entries::Apart(apart)),
            (None, Some(Json::Array(list))) => Some(Entries::Json(list)),
            _ => None,
        };
        match (spec.get("clusters"), entries) {
            (None | Some(Json::Null), _) => {}
            (_, Some(list)) => {
                if !self.clusters.is_empty() && !list.is_empty() {
                    errors.push(err(
                        "clusters",
                        "set either spec.cluster or spec.clusters, not both".into(),
                    ));
                }
                let empty = list.is_empty();
                self.read_entries(list, errors)?;
                self.fan_out = !empty;
                if empty && self.clusters.is_empty() {
                    self.notes.push(
                        Diagnostic::warning(
                            "spec.clusters is empty: there is no destination, so nothing is tailored per cluster (name the clusters, or drop the field)",
                        )
                        .at("spec.clusters"),
                    );
                }
            }
            (Some(_), None) => errors.push(err(
                "clusters",
                "spec.clusters must be a list of clusters".into(),
            )),
        }
        Ok(())
    }

    /// The destinations `list` names, after any of `spec.cluster`; an entry that cannot be
    /// JSON fails the parse as converting the whole document would.
    fn read_entries(
        &mut self,
        list: Entries,
        errors: &mut Vec<Diagnostic>,
    ) -> Result<(), Diagnostic> {
        // Names seen so far: a set, so 20,000 destinations are checked in linear time.
        let mut names: std::collections::HashSet<String> =
            self.clusters.iter().map(|c| c.name().to_string()).collect();
        self.clusters.reserve(list.len());
        for (i, outcome) in list.outcomes().enumerate() {
            match outcome? {
                Ok(s) => {
                    if !names.insert(s.name().to_string()) {
                        errors.push(err(
                            &format!("clusters[{i}].name"),
                            format!("cluster {:?} is listed twice", s.name()),
                        ));
                    }
                    self.clusters.push(s);
                }
                Err(e) => errors.push(e),
            }
        }
        Ok(())
    }

    /// `spec.strip`, `spec.customTransforms` and the shape of `spec.replacements`.
    fn read_strip(&mut self, spec: &Map<String, Json>, fc: &Node, errors: &mut Vec<Diagnostic>) {
        match spec.get("strip") {
            None | Some(Json::Null) => {}
            Some(Json::Object(m)) => {
                for (k, v) in m {
                    match (k.as_str(), v) {
                        ("builtin", Json::Bool(b)) => self.strip_builtin = *b,
                        ("builtin", _) => errors.push(err(
                            "strip.builtin",
                            "strip.builtin must be true or false".into(),
                        )),
                        _ => errors.push(err(
                            &format!("strip.{k}"),
                            format!("unknown field {k:?} in spec.strip; accepted fields: builtin"),
                        )),
                    }
                }
            }
            Some(_) => errors.push(err(
                "strip",
                "spec.strip must be a mapping like {builtin: true}".into(),
            )),
        }
        if let Some(list) = fc.get_path(&["spec", "customTransforms"]) {
            match list.items() {
                Some(items) => {
                    for (i, t) in items.iter().enumerate() {
                        match tailor_kubestellar::strip::parse_custom_transform_at(
                            t,
                            &format!("customTransforms[{i}]"),
                            tailor_kubestellar::strip::PathSyntax::Extended,
                            &format!("spec.customTransforms[{i}]"),
                        ) {
                            Ok(t) => self.custom_transforms.push(t),
                            Err(findings) => errors.extend(findings),
                        }
                    }
                }
                None if list.is_null() => {}
                None => errors.push(err(
                    "customTransforms",
                    "spec.customTransforms must be a list".into(),
                )),
            }
        }
        // Replacements are decoded with the other per-target fields (`TargetFields`).
        if let Some(r) = fc.get_path(&["spec", "replacements"]) {
            if !r.is_sequence() && !r.is_null() {
                errors.push(err(
                    "replacements",
                    "spec.replacements must be a list".into(),
                ));
            }
        }
    }

    /// `spec.templates`.
    fn read_templates(&mut self, spec: &Map<String, Json>, errors: &mut Vec<Diagnostic>) {
        match spec.get("templates") {
            None | Some(Json::Null) => {}
            Some(Json::Object(m)) => {
                for (k, v) in m {
                    match (k.as_str(), v) {
                        ("enabled", Json::Bool(b)) => self.templates = *b,
                        _ => errors.push(err(
                            &format!("templates.{k}"),
                            format!("spec.templates accepts only enabled: true|false, found {k:?}"),
                        )),
                    }
                }
            }
            Some(_) => errors.push(err(
                "templates",
                "spec.templates must be a mapping like {enabled: true}".into(),
            )),
        }
    }

    /// Fleet's fields, `spec.destinationSelectors`, `spec.overlays`, `spec.postBuild` and the
    /// namespace substitution falls back to.
    fn read_sources(
        &mut self,
        json: &Json,
        spec: &Map<String, Json>,
        errors: &mut Vec<Diagnostic>,
    ) {
        match FleetConfig::from_tailor_spec(json.get("spec").unwrap_or(&Json::Null), "spec") {
            Ok(mut cfg) => {
                self.notes.append(&mut cfg.notes);
                self.targets = Some(cfg);
            }
            Err(e) => errors.extend(e),
        }
        match spec.get("destinationSelectors") {
            None | Some(Json::Null) => {}
            Some(v) => {
                match tailor_kratix::KratixSchedule::from_json(v, "spec.destinationSelectors") {
                    Ok(s) => self.schedule = Some(s),
                    Err(e) => errors.push(e),
                }
            }
        }
        match spec.get("overlays") {
            None | Some(Json::Null) => {}
            Some(v) => match inline_overlays(v) {
                Ok(files) => self.overlay_files.extend(files),
                Err((field, msg)) => errors.push(Diagnostic::new(field, msg)),
            },
        }
        match spec.get("postBuild") {
            None | Some(Json::Null) => {}
            Some(v) => match tailor_flux::kustomization::read_post_build(v, "spec.postBuild") {
                Ok(pb) => self.post_build = Some(pb),
                Err(e) => errors.push(e),
            },
        }
        self.namespace = json
            .pointer("/metadata/namespace")
            .and_then(Json::as_str)
            .map(str::to_string);
    }

    /// `spec.strict` and `spec.limits`.
    fn read_options(&mut self, spec: &Map<String, Json>, errors: &mut Vec<Diagnostic>) {
        match spec.get("strict") {
            None | Some(Json::Null) => {}
            Some(Json::Bool(b)) => self.strict = *b,
            Some(_) => errors.push(err("strict", "spec.strict must be true or false".into())),
        }
        match spec.get("limits") {
            None | Some(Json::Null) => {}
            Some(Json::Object(m)) => {
                for (k, v) in m {
                    match (k.as_str(), v.as_u64()) {
                        ("maxFanOutItems", Some(n)) if n > 0 => self.max_fan_out_items = Some(n as usize),
                        ("maxTemplateOutputBytes", Some(n)) if n > 0 => {
                            self.template_limits.max_output_bytes = n as usize
                        }
                        ("maxRunOutputBytes", Some(n)) if n > 0 => self.budget_limits.output_bytes = Some(n),
                        ("maxRunEvaluationSteps", Some(n)) if n > 0 => self.budget_limits.steps = Some(n),
                        ("maxHeldOutputBytes", Some(n)) if n > 0 => self.max_held_output_bytes = Some(n),
                        ("maxTemplateRangeIterations", Some(n)) if n > 0 => {
                            self.template_limits.max_range_iterations = n as usize
                        }
                        _ => errors.push(err(&format!("limits.{k}"), format!("spec.limits: unknown or invalid limit {k:?} (accepted: {}, each a positive integer)", LIMITS.join(", ")))),
                    }
                }
            }
            Some(_) => errors.push(err("limits", "spec.limits must be a mapping".into())),
        }
    }
}

/// `spec.overlays`: Fleet overlay sets written inline, `{SET: {RELATIVE/PATH.yaml: TEXT}}`,
/// exactly as the files would be under `overlays/SET/` (an empty text is Fleet's empty
/// replacement file: the base file is not deployed).
fn inline_overlays(v: &Json) -> Result<Vec<tailor_fleet::BundleFile>, (String, String)> {
    let sets = v.as_object().ok_or_else(|| {
        (
            "spec.overlays".to_string(),
            "spec.overlays must map overlay set names to {path: file text}".to_string(),
        )
    })?;
    let mut files = Vec::new();
    for (set, content) in sets {
        let at = format!("spec.overlays.{set}");
        // Fleet looks for files under `overlays/<name>/`, so a name may be a path
        // (`team/dev`), but one that stays inside `overlays/`.
        if set.is_empty()
            || set.starts_with('/')
            || set.ends_with('/')
            || set
                .split('/')
                .any(|s| s.is_empty() || s == "." || s == "..")
        {
            return Err((
                at,
                format!("spec.overlays: invalid overlay set name {set:?} (a name or a relative path such as team/dev, as under overlays/ in a bundle)"),
            ));
        }
        let paths = content
            .as_object()
            .ok_or_else(|| (at.clone(), format!("{at} must map file paths to file text")))?;
        for (rel, text) in paths {
            let field = format!("{at}.{rel}");
            let text = match text {
                Json::String(t) => t.as_str(),
                Json::Null => "",
                _ => {
                    return Err((
                        field.clone(),
                        format!("{field} must be the file's text (a string; empty means remove)"),
                    ))
                }
            };
            let docs = tailor_yaml::parse_stream(text)
                .map_err(|e| (field.clone(), format!("{field}: {e}")))?
                .into_iter()
                .filter(|d| !d.empty)
                .map(|d| d.root)
                .collect();
            files.push(tailor_fleet::BundleFile {
                path: tailor_go::path::clean(&format!("overlays/{set}/{rel}")),
                docs,
            });
        }
    }
    Ok(files)
}
