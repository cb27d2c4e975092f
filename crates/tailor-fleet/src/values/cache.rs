//! What of Fleet's values templating does not depend on the cluster, computed once per
//! distinct merged `helm.values` in a run: clusters that match the same customizations have
//! the same merged values, and an umbrella chart's values file is often megabytes of which a
//! few lines use `${ }`.
//!
//! Per distinct values ([`Prepared`]): their YAML text, the template parsed from it, and the
//! text cut into its top-level keys ([`Piece`]); the keys whose text has no `${` are read as
//! YAML once. Per cluster the whole template still executes (its output and steps spend the
//! run's budget exactly as before, and its errors are the same), then only the keys with `${`
//! are executed alone and read again; their outputs put together with the constant keys'
//! text must equal the whole output, and each must read as a map on its own lines, or the
//! whole output is read as before ([`Prepared::values`]). The result is always what reading
//! the whole output gives.
//!
//! The cache holds at most [`MAX_ENTRIES`] values and [`MAX_TEXT_BYTES`] of their text; values
//! beyond that are prepared for the one cluster and not kept.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, Mutex, OnceLock};

use serde_json::{Map, Value};
use tailor_go::{Budget, Template};
use tailor_yaml::sigs::v2read::{yaml11_to_json_within, ReadError};

/// Distinct values kept per run.
pub const MAX_ENTRIES: usize = 64;
/// Bytes of values text kept per run: an entry holds some 25 times its text (the values, the
/// template, the constant keys read), so at most about 200 MB.
pub const MAX_TEXT_BYTES: usize = 8 << 20;

/// The prepared values of a run, shared by its destinations (and threads).
#[derive(Default)]
pub struct ValuesCache {
    entries: Mutex<Entries>,
}

#[derive(Default)]
struct Entries {
    slots: Vec<Arc<Slot>>,
    text_bytes: usize,
    /// Values prepared without being kept (the cache was full).
    uncached: usize,
}

struct Slot {
    hash: u64,
    values: Map<String, Value>,
    prepared: OnceLock<Arc<Prepared>>,
}

impl ValuesCache {
    /// The prepared form of `values` (after the cluster-label replacement, which the caller
    /// does only when some string asks for it), prepared the first time it is asked for.
    pub(super) fn prepared(&self, values: &Map<String, Value>) -> Arc<Prepared> {
        let hash = hash_map(values);
        let slot = {
            let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
            let found = entries
                .slots
                .iter()
                .find(|s| s.hash == hash && s.values == *values)
                .cloned();
            match found {
                Some(slot) => slot,
                None if entries.slots.len() < MAX_ENTRIES
                    && entries.text_bytes < MAX_TEXT_BYTES =>
                {
                    let slot = Arc::new(Slot {
                        hash,
                        values: values.clone(),
                        prepared: OnceLock::new(),
                    });
                    entries.slots.push(slot.clone());
                    slot
                }
                None => {
                    entries.uncached += 1;
                    drop(entries);
                    return Arc::new(Prepared::of(values));
                }
            }
        };
        let mut fresh = false;
        let prepared = slot
            .prepared
            .get_or_init(|| {
                fresh = true;
                Arc::new(Prepared::of(values))
            })
            .clone();
        if fresh {
            let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
            entries.text_bytes = entries.text_bytes.saturating_add(prepared.text.len());
        }
        prepared
    }

    /// How many distinct values are kept, and how many were prepared without being kept.
    pub fn counts(&self) -> (usize, usize) {
        let entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        (entries.slots.len(), entries.uncached)
    }
}

/// The cluster-independent work on one values map.
pub(super) struct Prepared {
    /// The values as YAML ([`super::to_yaml`]): the template's text.
    pub(super) text: String,
    /// The template parsed from `text`, or the error that parsing gave.
    pub(super) template: Result<Template, String>,
    /// `text` cut into its top-level keys, when that reading is sound (see [`pieces`]).
    pieces: Option<Vec<Piece>>,
}

/// One top-level key of the values text.
enum Piece {
    /// Without `${`: its lines, read once.
    Constant {
        text: String,
        read: Map<String, Value>,
    },
    /// With `${`: its lines as a template of their own.
    Templated { template: Template },
}

impl Prepared {
    fn of(values: &Map<String, Value>) -> Prepared {
        let text = super::to_yaml(values);
        let template = super::parse_template(&text);
        let pieces = template.as_ref().ok().and_then(|_| pieces(&text));
        Prepared {
            text,
            template,
            pieces,
        }
    }

    /// The values the whole template's `output` reads as: from the pieces when the pieces'
    /// outputs make up `output` and read on their own, else by reading `output` whole.
    pub(super) fn values(
        &self,
        output: &str,
        data: &tailor_go::Value,
        budget: &Budget,
    ) -> Result<Map<String, Value>, String> {
        if let Some(values) = self.read_templated_keys(output, data, budget)? {
            return Ok(values);
        }
        super::read_rendered(output, budget)
    }

    /// `None` when the pieces cannot stand for the whole output.
    fn read_templated_keys(
        &self,
        output: &str,
        data: &tailor_go::Value,
        budget: &Budget,
    ) -> Result<Option<Map<String, Value>>, String> {
        let Some(pieces) = &self.pieces else {
            return Ok(None);
        };
        let mut rest = output;
        let mut outputs: Vec<Option<String>> = Vec::with_capacity(pieces.len());
        for piece in pieces {
            let out = match piece {
                Piece::Constant { text, .. } => {
                    rest = match rest.strip_prefix(text.as_str()) {
                        Some(r) => r,
                        None => return Ok(None),
                    };
                    outputs.push(None);
                    continue;
                }
                // The whole template ran within the run's budget with the same data: the
                // piece does part of that work again, and is not charged twice.
                Piece::Templated { template } => {
                    match super::execute(template, data, &Budget::unlimited()) {
                        Ok(out) => out,
                        Err(_) => return Ok(None),
                    }
                }
            };
            rest = match rest.strip_prefix(out.as_str()) {
                Some(r) => r,
                None => return Ok(None),
            };
            outputs.push(Some(out));
        }
        if !rest.is_empty() {
            return Ok(None);
        }
        self.read_pieces(pieces, &outputs, budget)
    }

    fn read_pieces(
        &self,
        pieces: &[Piece],
        outputs: &[Option<String>],
        budget: &Budget,
    ) -> Result<Option<Map<String, Value>>, String> {
        let mut values = Map::new();
        for (piece, out) in pieces.iter().zip(outputs) {
            let read = match (piece, out) {
                (Piece::Constant { read, .. }, _) => read.clone(),
                (Piece::Templated { .. }, Some(out)) if stands_alone(out) => {
                    match yaml11_to_json_within(out, budget) {
                        Ok(Value::Object(m)) if !m.is_empty() => m,
                        Err(ReadError::Budget(e)) => return Err(e.to_string()),
                        _ => return Ok(None),
                    }
                }
                _ => return Ok(None),
            };
            for (k, v) in read {
                // A key twice: reading the whole lets the later win in the first's place.
                if values.insert(k, v).is_some() {
                    return Ok(None);
                }
            }
        }
        Ok(Some(values))
    }
}

/// The values text cut before each line that starts a top-level key (at column 0, not a
/// list item, comment or document marker), when reading the pieces one by one gives what
/// reading the text whole gives; `None` when no piece has `${` (nothing to save) or the text
/// does not read as a map on its own.
fn pieces(text: &str) -> Option<Vec<Piece>> {
    let cut = cut_top_level(text);
    if !cut.iter().any(|p| p.contains("${")) {
        return None;
    }
    let whole = match yaml11_to_json_within(text, &Budget::unlimited()) {
        Ok(Value::Object(m)) => m,
        _ => return None,
    };
    let mut out = Vec::with_capacity(cut.len());
    let mut together = Map::new();
    for piece in cut {
        if !stands_alone(piece) {
            return None;
        }
        let read = match yaml11_to_json_within(piece, &Budget::unlimited()) {
            Ok(Value::Object(m)) if !m.is_empty() => m,
            _ => return None,
        };
        for (k, v) in &read {
            if together.insert(k.clone(), v.clone()).is_some() {
                return None;
            }
        }
        out.push(if piece.contains("${") {
            Piece::Templated {
                template: super::parse_template(piece).ok()?,
            }
        } else {
            Piece::Constant {
                text: piece.to_string(),
                read,
            }
        });
    }
    (together == whole && together.keys().eq(whole.keys())).then_some(out)
}

/// `text` cut before each line that starts at column 0 with neither `- `, `#`, nor a space.
fn cut_top_level(text: &str) -> Vec<&str> {
    let mut pieces = Vec::new();
    let mut start = 0;
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        if at > start && starts_key(line) {
            pieces.push(&text[start..at]);
            start = at;
        }
        at += line.len();
    }
    if start < text.len() {
        pieces.push(&text[start..]);
    }
    pieces
}

fn starts_key(line: &str) -> bool {
    !(line.starts_with([' ', '\t', '\n', '\r', '#']) || line.starts_with('-'))
}

/// Whether a piece's text reads the same alone as within the whole: one top-level key on its
/// first line (not a template action, directive or document marker), no later line that
/// starts another, and no alias (go-yaml bounds aliases per document).
fn stands_alone(piece: &str) -> bool {
    let mut lines = piece.split_inclusive('\n');
    let first_ok = lines.next().is_some_and(|l| {
        starts_key(l) && !l.starts_with("${") && !l.starts_with('%') && !l.starts_with("...")
    });
    first_ok && !lines.any(starts_key) && !piece.contains('*')
}

/// A hash of a JSON map, for finding equal values without comparing every entry.
fn hash_map(m: &Map<String, Value>) -> u64 {
    let mut h = DefaultHasher::new();
    hash_object(m, &mut h);
    h.finish()
}

fn hash_object(m: &Map<String, Value>, h: &mut DefaultHasher) {
    m.len().hash(h);
    for (k, v) in m {
        k.hash(h);
        hash_value(v, h);
    }
}

fn hash_value(v: &Value, h: &mut DefaultHasher) {
    std::mem::discriminant(v).hash(h);
    match v {
        Value::Null => {}
        Value::Bool(b) => b.hash(h),
        // As `Number` compares: no text made per number of megabytes of values.
        Value::Number(n) => n.hash(h),
        Value::String(s) => s.hash(h),
        Value::Array(a) => {
            a.len().hash(h);
            a.iter().for_each(|v| hash_value(v, h));
        }
        Value::Object(m) => hash_object(m, h),
    }
}

#[cfg(test)]
mod tests;
