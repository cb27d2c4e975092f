//! The overlay fields of a Flux Kustomization (`docs/semantics/flux.md` §3): `targetNamespace`,
//! `namePrefix`, `nameSuffix`, `commonMetadata`, `patches` and `images`, plus the
//! `replacements` tailor lets a `Tailor` spec and its target customizations carry beside them.
//! Each is decoded once, where it is written, so an error names the field the user wrote
//! (`spec.targetCustomizations[2].images[0]: must be a mapping`) and the stages that apply
//! them never decode again.

use std::collections::BTreeMap;

use serde_json::{Map, Value};
use tailor_kube::json::{self, join};
use tailor_kube::Diagnostic;
use tailor_kustomize::builtins::Image;
use tailor_kustomize::patch::{PatchSpec, PatchTarget};
use tailor_kustomize::replacements::{parse_replacements_with, Dialect, Replacement};

/// The fields of a Flux Kustomization's spec that change manifests (Flux's own; tailor's
/// `replacements` is not among them).
pub const FLUX_FIELDS: &[&str] = &FLUX;

const FLUX: [&str; 6] = [
    "targetNamespace",
    "namePrefix",
    "nameSuffix",
    "commonMetadata",
    "patches",
    "images",
];

/// [`FLUX_FIELDS`] and `replacements`: what a `Tailor` spec and each of its target
/// customizations may carry.
pub const TAILOR_FIELDS: &[&str] = &TAILOR;

/// [`TAILOR_FIELDS`] as an array, for field lists built at compile time around it.
pub const TAILOR: [&str; 7] = json::concat_names::<6, 1, 7>(FLUX, ["replacements"]);

/// `commonMetadata`: labels and annotations in the order written.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CommonMetadata {
    pub labels: Vec<(String, String)>,
    pub annotations: Vec<(String, String)>,
}

impl CommonMetadata {
    pub fn is_empty(&self) -> bool {
        self.labels.is_empty() && self.annotations.is_empty()
    }
}

/// The overlay fields of one target or of the spec, decoded.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Overlay {
    pub target_namespace: Option<String>,
    pub name_prefix: Option<String>,
    pub name_suffix: Option<String>,
    /// `None` when not written, so a later target's metadata merges onto an earlier one's.
    pub common_metadata: Option<CommonMetadata>,
    pub patches: Vec<PatchSpec>,
    pub images: Vec<Image>,
    pub replacements: Vec<Replacement>,
}

impl Overlay {
    /// Reads the overlay fields of `map` (a spec, or a target customization) written at `path`.
    /// Other keys are the caller's. Every list that is wrong is reported, each at its own field.
    pub fn read(map: &Map<String, Value>, path: &str) -> Result<Overlay, Vec<Diagnostic>> {
        let f = |k: &str| map.get(k);
        let p = |k: &str| join(path, k);
        let mut errors = Vec::new();
        let mut keep = |r: Result<Option<String>, Diagnostic>| {
            r.unwrap_or_else(|e| {
                errors.push(e);
                None
            })
        };
        let target_namespace = keep(json::nonempty_string(
            f("targetNamespace"),
            &p("targetNamespace"),
        ));
        let name_prefix = keep(json::nonempty_string(f("namePrefix"), &p("namePrefix")));
        let name_suffix = keep(json::nonempty_string(f("nameSuffix"), &p("nameSuffix")));
        let mut overlay = Overlay {
            target_namespace,
            name_prefix,
            name_suffix,
            ..Overlay::default()
        };
        match read_common_metadata(f("commonMetadata"), &p("commonMetadata")) {
            Ok(m) => overlay.common_metadata = m,
            Err(e) => errors.push(e),
        }
        match json::list(f("patches"), &p("patches")).and_then(|l| read_patches(l, &p("patches"))) {
            Ok(v) => overlay.patches = v,
            Err(e) => errors.push(e),
        }
        match json::list(f("images"), &p("images")).and_then(|l| read_images(l, &p("images"))) {
            Ok(v) => overlay.images = v,
            Err(e) => errors.push(e),
        }
        match json::list(f("replacements"), &p("replacements"))
            .and_then(|l| read_replacements(l, &p("replacements")))
        {
            Ok(v) => overlay.replacements = v,
            Err(e) => errors.push(e),
        }
        if errors.is_empty() {
            Ok(overlay)
        } else {
            Err(errors)
        }
    }

    /// True when no field is set.
    pub fn is_empty(&self) -> bool {
        *self == Overlay::default()
    }

    /// Whether any field the kustomize build applies is set (all but `commonMetadata`, which
    /// Flux applies after substitution, and `replacements`).
    pub fn builds_objects(&self) -> bool {
        self.target_namespace.is_some()
            || self.name_prefix.is_some()
            || self.name_suffix.is_some()
            || !self.patches.is_empty()
            || !self.images.is_empty()
    }

    /// The `images` entries as Flux's generator hands them to kustomize
    /// (`docs/semantics/flux.md` §3.1): entries of one exact `name` fold into the first one
    /// in order, a later `newName` replacing the earlier, and a later `newTag` or `digest`
    /// replacing **both** (they pick the version together, so setting one clears the other).
    /// kustomize would apply repeated entries one after another, and after the first renames
    /// the image the later ones would match nothing.
    pub fn kustomize_images(&self) -> Vec<Image> {
        fold_images(&self.images)
    }

    /// Whether `commonMetadata` sets any label or annotation.
    pub fn sets_common_metadata(&self) -> bool {
        self.common_metadata.as_ref().is_some_and(|m| !m.is_empty())
    }

    /// This overlay with a later one merged over it, as Fleet merges a target's options onto
    /// the base: a later string wins, lists accumulate, `commonMetadata` is merged key by key.
    pub fn then(&self, later: &Overlay) -> Overlay {
        let s = |l: &Option<String>, b: &Option<String>| l.clone().or_else(|| b.clone());
        Overlay {
            target_namespace: s(&later.target_namespace, &self.target_namespace),
            name_prefix: s(&later.name_prefix, &self.name_prefix),
            name_suffix: s(&later.name_suffix, &self.name_suffix),
            common_metadata: match (&self.common_metadata, &later.common_metadata) {
                (Some(b), Some(l)) => Some(CommonMetadata {
                    labels: merge_pairs(&b.labels, &l.labels),
                    annotations: merge_pairs(&b.annotations, &l.annotations),
                }),
                (b, l) => l.clone().or_else(|| b.clone()),
            },
            patches: cat(&self.patches, &later.patches),
            images: cat(&self.images, &later.images),
            replacements: cat(&self.replacements, &later.replacements),
        }
    }
}

/// Flux's merge of `spec.images` into the kustomization's own `images`
/// (fluxcd/pkg `kustomize/kustomize_generator.go`, commit
/// e2cfd1a2d1815a81b3e77ef750e6528282ccccd6, the loop over `g.getImages()`), starting from none.
fn fold_images(images: &[Image]) -> Vec<Image> {
    let mut out: Vec<Image> = Vec::with_capacity(images.len());
    for image in images {
        let Some(slot) = out.iter_mut().find(|o| o.name == image.name) else {
            out.push(image.clone());
            continue;
        };
        if !image.new_name.is_empty() {
            slot.new_name.clone_from(&image.new_name);
        }
        if !image.new_tag.is_empty() || !image.digest.is_empty() {
            slot.new_tag.clone_from(&image.new_tag);
            slot.digest.clone_from(&image.digest);
        }
    }
    out
}

/// `a` then `b`.
fn cat<T: Clone>(a: &[T], b: &[T]) -> Vec<T> {
    a.iter().chain(b).cloned().collect()
}

/// `base` with `later`'s pairs set over it: an existing key keeps its place.
fn merge_pairs(base: &[(String, String)], later: &[(String, String)]) -> Vec<(String, String)> {
    let mut out = base.to_vec();
    for (k, v) in later {
        match out.iter_mut().find(|(ok, _)| ok == k) {
            Some(slot) => slot.1 = v.clone(),
            None => out.push((k.clone(), v.clone())),
        }
    }
    out
}

fn read_common_metadata(v: Option<&Value>, at: &str) -> Result<Option<CommonMetadata>, Diagnostic> {
    let Some(m) = json::object(v, at)? else {
        return Ok(None);
    };
    let mut out = CommonMetadata::default();
    for (key, value) in m {
        let field = join(at, key);
        let slot = match key.as_str() {
            "labels" => &mut out.labels,
            "annotations" => &mut out.annotations,
            _ => {
                return Err(Diagnostic::new(
                    field,
                    format!("unknown field {key:?} in {at}; accepted fields: labels, annotations"),
                ))
            }
        };
        match value {
            Value::Null => {}
            Value::Object(entries) => {
                for (k, v) in entries {
                    match v {
                        Value::String(s) => slot.push((k.clone(), s.clone())),
                        other => {
                            return Err(Diagnostic::new(
                                join(&field, k),
                                format!("{field}.{k} must be a string, found {other}"),
                            ))
                        }
                    }
                }
            }
            other => {
                return Err(Diagnostic::new(
                    field.clone(),
                    format!("{field} must be a map of strings, found {other}"),
                ))
            }
        }
    }
    Ok(Some(out))
}

/// `[{patch, target}]` entries written at `path`.
fn read_patches(list: &[Value], path: &str) -> Result<Vec<PatchSpec>, Diagnostic> {
    let mut specs = Vec::new();
    for (i, entry) in list.iter().enumerate() {
        let at = format!("{path}[{i}]");
        let map = entry.as_object().ok_or_else(|| {
            Diagnostic::new(&at, format!("{at} must be a mapping {{patch, target}}"))
        })?;
        for key in map.keys() {
            if key != "patch" && key != "target" {
                return Err(Diagnostic::new(
                    join(&at, key),
                    format!("unknown field {key:?} in {at}; accepted fields: patch, target"),
                ));
            }
        }
        let target = match map.get("target") {
            None | Some(Value::Null) => None,
            Some(t) => Some(read_target(t, &join(&at, "target"))?),
        };
        let patch_at = join(&at, "patch");
        let spec = match map.get("patch") {
            Some(Value::String(text)) => PatchSpec::from_text(text, target),
            // A patch written as YAML instead of a string is taken as that YAML.
            Some(other) if !other.is_null() => PatchSpec::from_node(
                &tailor_yaml::from_json(other),
                target,
                &serde_json::to_string(other).unwrap_or_default(),
            ),
            _ => {
                return Err(Diagnostic::new(
                    &patch_at,
                    format!("{at}.patch is required"),
                ))
            }
        };
        specs.push(spec.map_err(|e| Diagnostic::new(&patch_at, format!("{patch_at}: {e}")))?);
    }
    Ok(specs)
}

/// A patch `target`: kustomize ignores unknown fields of it, tailor names them (a misspelt
/// `kinds:` would otherwise patch every object).
fn read_target(t: &Value, at: &str) -> Result<PatchTarget, Diagnostic> {
    let map = json::as_object(t, at)?;
    json::check_fields(map, at, PatchTarget::FIELDS)?;
    for (key, value) in map {
        json::string(Some(value), &join(at, key))?;
    }
    PatchTarget::from_node(&tailor_yaml::from_json(t))
        .map_err(|e| Diagnostic::new(at, format!("{at}: {e}")))
}

fn read_images(list: &[Value], path: &str) -> Result<Vec<Image>, Diagnostic> {
    let node = tailor_yaml::Node::sequence(list.iter().map(tailor_yaml::from_json).collect());
    Image::list_from_node(Some(&node), path).map_err(|e| {
        let field = e.field().unwrap_or(path).to_string();
        Diagnostic::new(field, e.to_string())
    })
}

fn read_replacements(list: &[Value], path: &str) -> Result<Vec<Replacement>, Diagnostic> {
    if list.is_empty() {
        return Ok(Vec::new());
    }
    let node = tailor_yaml::Node::sequence(list.iter().map(tailor_yaml::from_json).collect());
    // The field is the entry that is wrong (kustomize's own decoder names only the list).
    parse_replacements_with(&node, Dialect::Tailor, &BTreeMap::new()).map_err(|e| {
        let field = e
            .replacement()
            .map_or_else(|| path.to_string(), |i| format!("{path}[{i}]"));
        Diagnostic::new(field, e.to_string())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn read(v: Value, path: &str) -> Result<Overlay, Vec<(String, String)>> {
        Overlay::read(v.as_object().unwrap(), path)
            .map_err(|e| e.into_iter().map(|d| (d.field, d.message)).collect())
    }

    /// The Flux docs' podinfo example (fluxcd/kustomize-controller
    /// `docs/spec/v1/kustomizations.md`, "Images") and fluxcd/pkg `Test_Images` cases
    /// (`kustomize/kustomize_generator_test.go` at e2cfd1a2d1815a81b3e77ef750e6528282ccccd6).
    #[test]
    fn repeated_images_fold_as_flux_folds_them() {
        let img = |name: &str, new_name: &str, tag: &str, digest: &str| Image {
            name: name.into(),
            new_name: new_name.into(),
            new_tag: tag.into(),
            digest: digest.into(),
        };
        let folded = fold_images(&[
            img("podinfo", "my-registry/podinfo", "v1", ""),
            img("podinfo", "", "1.8.0", ""),
            img("podinfo", "my-podinfo", "", ""),
            img("podinfo", "", "", "sha256:24a0c4b4"),
            img("other", "", "2", ""),
        ]);
        assert_eq!(
            folded,
            [
                img("podinfo", "my-podinfo", "", "sha256:24a0c4b4"),
                img("other", "", "2", "")
            ]
        );
        // a digest is cleared by a later tag; a name-only entry keeps the digest
        let folded = fold_images(&[img("a", "", "", "sha256:aa"), img("a", "", "v2", "")]);
        assert_eq!(folded, [img("a", "", "v2", "")]);
        let folded = fold_images(&[img("a", "", "", "sha256:aa"), img("a", "r/a", "", "")]);
        assert_eq!(folded, [img("a", "r/a", "", "sha256:aa")]);
    }

    #[test]
    fn errors_name_the_entry_where_it_is_written() {
        let at = "spec.targetCustomizations[1]";
        let e = read(
            json!({"images": [{"name": "b"}, "x"], "patches": [{"patch": "x"}], "replacements": ["x"]}),
            at,
        )
        .unwrap_err();
        assert_eq!(e.len(), 3, "{e:?}");
        assert_eq!(e[0].0, "spec.targetCustomizations[1].patches[0].patch");
        assert_eq!(e[1].0, "spec.targetCustomizations[1].images[1]");
        assert_eq!(
            e[1].1,
            "spec.targetCustomizations[1].images[1]: must be a mapping"
        );
        assert_eq!(e[2].0, "spec.targetCustomizations[1].replacements[0]");
        assert!(e[2].1.contains("cannot unmarshal string"), "{}", e[2].1);
        let e = read(json!({"commonMetadata": {"labels": {"a": 1}}}), "spec").unwrap_err();
        assert_eq!(e[0].0, "spec.commonMetadata.labels.a");
    }

    #[test]
    fn valid_fields_decode_and_merge_like_fleet() {
        let base = read(
            json!({"namePrefix": "a-", "images": [{"name": "x", "newTag": "1"}],
                   "commonMetadata": {"labels": {"team": "a", "tier": "1"}},
                   "patches": [{"patch": {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}}}]}),
            "spec",
        )
        .unwrap();
        let later = read(
            json!({"namePrefix": "b-", "images": [{"name": "y", "newTag": "2"}],
                   "commonMetadata": {"labels": {"tier": "2", "zone": "z"}}}),
            "spec.targetCustomizations[0]",
        )
        .unwrap();
        let m = base.then(&later);
        assert_eq!(m.name_prefix.as_deref(), Some("b-"));
        assert_eq!(m.images.len(), 2);
        assert_eq!(m.patches.len(), 1);
        let labels = &m.common_metadata.as_ref().unwrap().labels;
        assert_eq!(
            labels,
            &[
                ("team".into(), "a".into()),
                ("tier".into(), "2".into()),
                ("zone".into(), "z".into())
            ]
        );
        assert!(m.builds_objects() && m.sets_common_metadata());
        assert!(Overlay::default().is_empty());
    }
}
