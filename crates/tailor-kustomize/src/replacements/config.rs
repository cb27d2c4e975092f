//! Reading replacement configs from a node, with the decoding rules (and Go `encoding/json`
//! error texts) of each place kustomize or kpt reads them.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::{Map, Value as Json};
use tailor_kube::json::go_type_name;
use tailor_kube::Diagnostic;
use tailor_yaml::Node;

use crate::replacements::types::{FieldOptions, ResId, Selector, Source, TargetSelector};
use crate::replacements::{Error, Replacement};

/// Which reader's rules apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Dialect {
    /// `replacements:` of a kustomization.yaml (v5.5.0): unknown fields are errors
    /// (`invalid Kustomization: json: unknown field "x"`), `targets: []` counts as absent, `path:`
    /// entries load files, no `sourceValue`.
    Kustomization,
    /// A `builtin` `ReplacementTransformer` config file: unknown fields ignored, `path:` entries.
    ReplacementTransformer,
    /// kpt's `fn.kpt.dev/v1alpha1 ApplyReplacements`: unknown fields (and `path:`) ignored.
    ApplyReplacements,
    /// tailor: the kustomization rules plus `sourceValue` and `source.property`.
    Tailor,
}

impl Dialect {
    fn strict(self) -> bool {
        matches!(self, Dialect::Kustomization | Dialect::Tailor)
    }
    fn root_struct(self) -> &'static str {
        match self {
            Dialect::Kustomization => "Kustomization",
            Dialect::ReplacementTransformer => "ReplacementTransformerPlugin",
            Dialect::ApplyReplacements => "Replacements",
            Dialect::Tailor => "Tailor",
        }
    }
    /// The reader, as a user knows it.
    fn reader(self) -> &'static str {
        match self {
            Dialect::Kustomization => "a kustomization",
            Dialect::ReplacementTransformer => "kustomize's ReplacementTransformer",
            Dialect::ApplyReplacements => "kpt's ApplyReplacements",
            Dialect::Tailor => "tailor",
        }
    }
    fn element_struct(self) -> &'static str {
        match self {
            Dialect::ApplyReplacements => "Replacement",
            _ => "ReplacementField",
        }
    }
    fn wrap(self, e: String) -> String {
        match self {
            Dialect::Kustomization => format!("invalid Kustomization: {e}"),
            Dialect::ReplacementTransformer => {
                format!("error unmarshaling JSON: while decoding JSON: {e}")
            }
            Dialect::ApplyReplacements => {
                format!("unable to convert functionConfig to replacements:\n{e}")
            }
            Dialect::Tailor => e,
        }
    }
}

/// The kind of a functionConfig that carries replacements.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum ConfigKind {
    /// `fn.kpt.dev/v1alpha1 ApplyReplacements` (kpt catalog `apply-replacements`).
    ApplyReplacements,
    /// `builtin ReplacementTransformer` (kustomize).
    ReplacementTransformer,
    /// `kustomize.config.k8s.io/* Kustomization` or `Component`.
    Kustomization,
    /// `tailor.dev/v1alpha1 Tailor` (`spec.replacements`).
    Tailor,
}

/// Parses a `replacements:` list with tailor's rules (kustomize's schema and messages, plus
/// `sourceValue` and `source.property`). `path:` entries are reported as unsupported.
pub fn parse_replacements(node: &Node) -> Result<Vec<Replacement>, Error> {
    parse_replacements_with(node, Dialect::Tailor, &BTreeMap::new())
}

/// Parses a `replacements:` list with a given reader's rules. `files` holds the content of
/// files that `path:` entries name; a path not in it is an error.
pub fn parse_replacements_with(
    node: &Node,
    dialect: Dialect,
    files: &BTreeMap<String, String>,
) -> Result<Vec<Replacement>, Error> {
    let json = node
        .to_json()
        .map_err(|e| Error::new(format!("replacements: {e}")))?;
    decode_list(&json, dialect, files)
}

/// Recognises a functionConfig that carries replacements and parses them: `ApplyReplacements`,
/// `ReplacementTransformer`, a kustomization, or a `Tailor` (`spec.replacements`).
pub fn parse_config(
    config: &Node,
    files: &BTreeMap<String, String>,
) -> Result<(ConfigKind, Vec<Replacement>), Error> {
    let api = config
        .get("apiVersion")
        .and_then(Node::as_scalar)
        .unwrap_or("");
    let kind = config.get("kind").and_then(Node::as_scalar).unwrap_or("");
    let (ck, dialect, list) = match kind {
        "ApplyReplacements" => {
            if api != "fn.kpt.dev/v1alpha1" {
                return Err(Error::new(format!("received functionConfig of kind {kind} and apiVersion {api}, only functionConfig of kind ApplyReplacements and apiVersion fn.kpt.dev/v1alpha1 is supported")));
            }
            (
                ConfigKind::ApplyReplacements,
                Dialect::ApplyReplacements,
                config.get("replacements"),
            )
        }
        "ReplacementTransformer" => (
            ConfigKind::ReplacementTransformer,
            Dialect::ReplacementTransformer,
            config.get("replacements"),
        ),
        "Kustomization" | "Component" if api.starts_with("kustomize.config.k8s.io/") || api.is_empty() => (
            ConfigKind::Kustomization,
            Dialect::Kustomization,
            config.get("replacements"),
        ),
        "Tailor" if api == "tailor.dev/v1alpha1" => (
            ConfigKind::Tailor,
            Dialect::Tailor,
            config.get("spec").and_then(|s| s.get("replacements")),
        ),
        _ => {
            return Err(Error::new(format!(
                "functionConfig {api}/{kind} does not carry replacements; expected fn.kpt.dev/v1alpha1 ApplyReplacements, builtin ReplacementTransformer, a Kustomization or tailor.dev/v1alpha1 Tailor"
            )))
        }
    };
    let Some(list) = list else {
        return Ok((ck, Vec::new()));
    };
    Ok((ck, parse_replacements_with(list, dialect, files)?))
}

// ---- a small Go encoding/json --------------------------------------------------------------

struct Dec<'f> {
    dialect: Dialect,
    files: &'f BTreeMap<String, String>,
    first: Option<String>,
    /// The list entry being decoded, and the one the first error came from.
    index: Option<usize>,
    first_at: Option<usize>,
    /// Fields a lenient reader skipped, with the names it accepts there.
    ignored: Vec<(String, Vec<&'static str>)>,
}

/// Go's case-insensitive field lookup: exact key first, then any case.
fn known<'k>(key: &str, fields: &[&'k str]) -> Option<&'k str> {
    fields
        .iter()
        .find(|f| **f == key)
        .or_else(|| fields.iter().find(|f| f.eq_ignore_ascii_case(key)))
        .copied()
}

impl Dec<'_> {
    fn fail(&mut self, e: String) {
        if self.first.is_none() {
            self.first = Some(e);
            self.first_at = self.index;
        }
    }

    fn type_err(&mut self, v: &Json, strukt: &str, stack: &str, ty: &str) {
        let what = match v {
            Json::Number(n) if ty == "int" => format!("number {n}"),
            _ => go_type_name(v).to_string(),
        };
        self.fail(format!(
            "json: cannot unmarshal {what} into Go struct field {strukt}.{stack} of type {ty}"
        ));
    }

    /// Visits an object's fields by their canonical names; reports unknown ones if strict
    /// (tailor's own reader naming where, the near name and the accepted ones, as its other
    /// unknown-field errors do; kustomize's with Go's bare `json: unknown field "x"`).
    fn fields<'v>(
        &mut self,
        obj: &'v Map<String, Json>,
        names: &[&'static str],
        stack: &str,
    ) -> Vec<(&'static str, &'v Json)> {
        let mut out = Vec::new();
        for (k, v) in obj {
            match known(k, names) {
                Some(f) => out.push((f, v)),
                None => {
                    if self.dialect == Dialect::Tailor {
                        let near = tailor_kube::json::suggest(k, names)
                            .map(|n| format!(" (did you mean {n:?}?)"))
                            .unwrap_or_default();
                        let mut sorted = names.to_vec();
                        sorted.sort_unstable();
                        let at = stack.strip_prefix("replacements").unwrap_or(stack);
                        let at = at.strip_prefix('.').unwrap_or(at);
                        let within = if at.is_empty() {
                            String::new()
                        } else {
                            format!(" in {at}")
                        };
                        self.fail(format!(
                            "unknown field {k:?}{within}{near}; accepted fields: {}",
                            sorted.join(", ")
                        ));
                    } else if self.dialect.strict() {
                        self.fail(format!(
                            "json: unknown field {}",
                            tailor_go::strconv::quote(k)
                        ));
                    } else {
                        self.ignored.push((k.clone(), names.to_vec()));
                    }
                }
            }
        }
        out
    }

    fn string(&mut self, v: &Json, strukt: &str, stack: &str, into: &mut String) {
        match v {
            Json::Null => {}
            Json::String(s) => *into = s.clone(),
            _ => self.type_err(v, strukt, stack, "string"),
        }
    }

    fn options(&mut self, v: &Json, stack: &str) -> Option<FieldOptions> {
        let obj = match v {
            Json::Null => return None,
            Json::Object(o) => o,
            _ => {
                let parent = if stack.ends_with("source.options") {
                    "SourceSelector"
                } else {
                    "TargetSelector"
                };
                self.type_err(v, parent, stack, "types.FieldOptions");
                return None;
            }
        };
        let mut o = FieldOptions::default();
        for (f, v) in self.fields(obj, &["delimiter", "index", "encoding", "create"], stack) {
            let st = join(stack, f);
            match f {
                "delimiter" => self.string(v, "FieldOptions", &st, &mut o.delimiter),
                "encoding" => self.string(v, "FieldOptions", &st, &mut o.encoding),
                "index" => match v {
                    Json::Null => {}
                    Json::Number(n) => match n.as_i64() {
                        Some(i) => o.index = i,
                        None => self.type_err(v, "FieldOptions", &st, "int"),
                    },
                    _ => self.type_err(v, "FieldOptions", &st, "int"),
                },
                _ => match v {
                    Json::Null => {}
                    Json::Bool(b) => o.create = *b,
                    _ => self.type_err(v, "FieldOptions", &st, "bool"),
                },
            }
        }
        Some(o)
    }

    fn resid_field(
        &mut self,
        f: &str,
        v: &Json,
        strukt: &str,
        stack: &str,
        id: &mut ResId,
    ) -> bool {
        let st = join(stack, f);
        let slot = match f {
            "group" => &mut id.gvk.group,
            "version" => &mut id.gvk.version,
            "kind" => &mut id.gvk.kind,
            "name" => &mut id.name,
            "namespace" => &mut id.namespace,
            _ => return false,
        };
        self.string(v, strukt, &st, slot);
        true
    }

    fn source(&mut self, v: &Json, stack: &str) -> Option<Source> {
        let obj = match v {
            Json::Null => return None,
            Json::Object(o) => o,
            _ => {
                let s = self.dialect.element_struct();
                self.type_err(v, s, stack, "types.SourceSelector");
                return None;
            }
        };
        let mut names = vec![
            "group",
            "version",
            "kind",
            "name",
            "namespace",
            "fieldPath",
            "options",
        ];
        if self.dialect == Dialect::Tailor {
            names.push("property");
        }
        let mut s = Source::default();
        for (f, v) in self.fields(obj, &names, stack) {
            if self.resid_field(f, v, "SourceSelector", stack, &mut s.id) {
                continue;
            }
            let st = join(stack, f);
            match f {
                "fieldPath" => self.string(v, "SourceSelector", &st, &mut s.field_path),
                "options" => s.options = self.options(v, &st),
                _ => {
                    let mut p = String::new();
                    self.string(v, "SourceSelector", &st, &mut p);
                    if !v.is_null() {
                        s.property = Some(p);
                    }
                }
            }
        }
        if let Some(p) = &s.property {
            if !s.id.is_empty() || !s.field_path.is_empty() {
                self.fail(format!(
                    "source.property {} cannot be combined with a resource selector or fieldPath",
                    tailor_go::strconv::quote(p)
                ));
            }
        }
        Some(s)
    }

    fn selector(&mut self, v: &Json, parent: &str, stack: &str, ty: &str) -> Option<Selector> {
        let obj = match v {
            Json::Null => return None,
            Json::Object(o) => o,
            _ => {
                self.type_err(v, parent, stack, ty);
                return None;
            }
        };
        let mut s = Selector::default();
        // kustomize's one types.Selector, shared with patch targets.
        let names = crate::patch::PatchTarget::FIELDS;
        for (f, v) in self.fields(obj, names, stack) {
            if self.resid_field(f, v, "Selector", stack, &mut s.id) {
                continue;
            }
            let st = join(stack, f);
            if f == "labelSelector" {
                self.string(v, "Selector", &st, &mut s.label_selector);
            } else {
                self.string(v, "Selector", &st, &mut s.annotation_selector);
            }
        }
        Some(s)
    }

    fn target(&mut self, v: &Json, stack: &str) -> TargetSelector {
        let mut t = TargetSelector::default();
        let obj = match v {
            Json::Null => return t,
            Json::Object(o) => o,
            _ => {
                let s = self.dialect.element_struct();
                self.type_err(v, s, stack, "types.TargetSelector");
                return t;
            }
        };
        for (f, v) in self.fields(obj, &["select", "reject", "fieldPaths", "options"], stack) {
            let st = join(stack, f);
            match f {
                "select" => t.select = self.selector(v, "TargetSelector", &st, "types.Selector"),
                "reject" => match v {
                    Json::Null => {}
                    Json::Array(items) => {
                        for item in items {
                            // a null entry is a nil *Selector: it rejects nothing
                            if let Some(s) =
                                self.selector(item, "TargetSelector", &st, "types.Selector")
                            {
                                t.reject.push(s);
                            }
                        }
                    }
                    _ => self.type_err(v, "TargetSelector", &st, "[]*types.Selector"),
                },
                "fieldPaths" => match v {
                    Json::Null => {}
                    Json::Array(items) => {
                        for item in items {
                            let mut s = String::new();
                            self.string(item, "TargetSelector", &st, &mut s);
                            t.field_paths.push(s);
                        }
                    }
                    _ => self.type_err(v, "TargetSelector", &st, "[]string"),
                },
                _ => t.options = self.options(v, &st),
            }
        }
        t
    }

    /// One element of `replacements:`; a `path:` entry expands to the file's replacements.
    fn replacement(&mut self, v: &Json, stack: &str, out: &mut Vec<Replacement>) {
        let elem = self.dialect.element_struct();
        let obj = match v {
            Json::Null => {
                out.push(Replacement::default());
                return;
            }
            Json::Object(o) => o,
            _ => {
                let root = self.dialect.root_struct();
                let ty = format!("types.{elem}");
                self.type_err(v, root, stack, &ty);
                return;
            }
        };
        let mut names = vec!["source", "targets"];
        if self.dialect != Dialect::ApplyReplacements {
            names.push("path");
        }
        if self.dialect == Dialect::Tailor {
            names.push("sourceValue");
        }
        let mut r = Replacement::default();
        let mut path = String::new();
        for (f, v) in self.fields(obj, &names, stack) {
            let st = join(stack, f);
            match f {
                "source" => r.source = self.source(v, &st),
                "targets" => match v {
                    Json::Null => r.targets = None,
                    Json::Array(items) => {
                        let ts = items.iter().map(|i| self.target(i, &st)).collect();
                        r.targets = Some(ts);
                    }
                    _ => self.type_err(v, elem, &st, "[]*types.TargetSelector"),
                },
                "path" => self.string(v, elem, &st, &mut path),
                _ => match v {
                    Json::Null => {}
                    Json::String(s) => r.source_value = Some(s.clone()),
                    // tailor reads a YAML scalar as its text (`sourceValue: 2` is "2"), as
                    // kustomize's own unit tests decode it.
                    Json::Number(n) if self.dialect == Dialect::Tailor => {
                        r.source_value = Some(n.to_string())
                    }
                    Json::Bool(b) if self.dialect == Dialect::Tailor => {
                        r.source_value = Some(b.to_string())
                    }
                    _ => self.type_err(v, elem, &st, "string"),
                },
            }
        }
        // kustomize re-marshals the kustomization's list with omitempty: `targets: []` is gone.
        if matches!(self.dialect, Dialect::Kustomization | Dialect::Tailor)
            && r.targets.as_ref().is_some_and(Vec::is_empty)
        {
            r.targets = None;
        }
        if path.is_empty() {
            out.push(r);
            return;
        }
        if r.source.is_some() || r.targets.as_ref().is_some_and(|t| !t.is_empty()) {
            self.fail("cannot specify both path and inline replacement".into());
            return;
        }
        self.load(&path, out);
    }

    fn load(&mut self, path: &str, out: &mut Vec<Replacement>) {
        let Some(content) = self.files.get(path) else {
            self.fail(format!(
                "replacements: path {} names a file beside a kustomization, which a function cannot read: write its replacements inline",
                tailor_go::strconv::quote(path)
            ));
            return;
        };
        let json = match tailor_yaml::parse_stream(content) {
            Ok(docs) => match docs.into_iter().find(|d| !d.empty) {
                Some(d) => match d.root.to_json() {
                    Ok(j) => j,
                    Err(e) => return self.fail(format!("{path}: {e}")),
                },
                None => Json::Null,
            },
            Err(e) => return self.fail(format!("{path}: {e}")),
        };
        // The file is read with sigs.k8s.io/yaml: lenient, as a Replacement or a list of them.
        let saved = self.dialect;
        self.dialect = Dialect::ApplyReplacements;
        match &json {
            Json::Array(items) => {
                for item in items {
                    self.replacement(item, "", out);
                }
            }
            Json::Object(_) => self.replacement(&json, "", out),
            other => {
                let kind = match other {
                    Json::Null => "invalid",
                    Json::Bool(_) => "bool",
                    Json::Number(_) => "float64",
                    _ => "string",
                };
                self.fail(format!(
                    "unsupported replacement type encountered within replacement path: {kind}"
                ));
            }
        }
        self.dialect = saved;
    }
}

fn decode_list(
    json: &Json,
    dialect: Dialect,
    files: &BTreeMap<String, String>,
) -> Result<Vec<Replacement>, Error> {
    decode_noting(json, dialect, files).map(|(list, _)| list)
}

/// Decodes, and says which fields a lenient reader skipped.
fn decode_noting(
    json: &Json,
    dialect: Dialect,
    files: &BTreeMap<String, String>,
) -> Result<(Vec<Replacement>, Vec<Diagnostic>), Error> {
    let mut d = Dec {
        dialect,
        files,
        first: None,
        index: None,
        first_at: None,
        ignored: Vec::new(),
    };
    let mut out = Vec::new();
    match json {
        Json::Null => {}
        Json::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                d.index = Some(i);
                d.replacement(item, "replacements", &mut out);
            }
        }
        other => {
            let root = dialect.root_struct();
            let ty = format!("[]types.{}", dialect.element_struct());
            d.type_err(other, root, "replacements", &ty);
        }
    }
    let located = |e: Error| match d.first_at {
        Some(i) => e.in_replacement(i),
        None => e,
    };
    match d.first.clone() {
        Some(e) if e.starts_with("json: ") => Err(located(Error::new(dialect.wrap(e)))),
        Some(e) => Err(located(Error::new(e))),
        None => {
            let notes = d
                .ignored
                .iter()
                .map(|(key, names)| {
                    let near = tailor_kube::json::suggest(key, names)
                        .map(|n| format!(" (did you mean {n:?}?)"))
                        .unwrap_or_default();
                    Diagnostic::warning(format!(
                        "unknown field {key:?} is ignored, as {} does{near}; accepted there: {}",
                        dialect.reader(),
                        names.join(", ")
                    ))
                })
                .collect();
            Ok((out, notes))
        }
    }
}

/// [`parse_replacements_with`], also returning a warning for each field a lenient reader
/// (ApplyReplacements, ReplacementTransformer) ignores, as its upstream does: a misspelt
/// option (`creat:`) then does not pass unnoticed.
pub fn parse_replacements_noting(
    node: &Node,
    dialect: Dialect,
    files: &BTreeMap<String, String>,
) -> Result<(Vec<Replacement>, Vec<Diagnostic>), Error> {
    let json = node
        .to_json()
        .map_err(|e| Error::new(format!("replacements: {e}")))?;
    decode_noting(&json, dialect, files)
}

fn join(stack: &str, f: &str) -> String {
    if stack.is_empty() {
        f.to_string()
    } else {
        format!("{stack}.{f}")
    }
}
