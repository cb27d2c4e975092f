//! A fan-out whose whole answer is held until the end (a ResourceList, `-o resource-list`,
//! `tailor diff`, an in-place render): the copies are held as each destination is finished,
//! and their output bytes counted. Past the limit the run stops with an error result that
//! names it, rather than growing until the allocator aborts.

use std::sync::Arc;

use super::sink::{FanOutSink, Prepare};
use crate::write::Rendering;
use crate::Resource;

/// The most output held as trees by default (an in-place render, `tailor diff`): 256 MiB, as
/// much as the run's budget of generated text (`tailor_go::budget::DEFAULT_MAX_RUN_OUTPUT_BYTES`).
/// Copies held as trees take five to eight times their output bytes in memory (200 objects x
/// 1,500 clusters: 250 MB counted, a 1.58 GB peak), so this is about 1.5 GB, which a CI runner
/// holds; less where the process may take less ([`default_limit`]).
pub const DEFAULT_MAX_HELD_OUTPUT_BYTES: u64 = 256 << 20;

/// The most output held as its text by default (a ResourceList answer, `-o resource-list`):
/// 384 MiB. Held as text a copy takes about 2.2 times its bytes (the same fan-out: 304 MB of
/// ResourceList, a 680 MB peak), so this is about 900 MB, less than trees took at 256 MiB.
pub const DEFAULT_MAX_HELD_TEXT_BYTES: u64 = 384 << 20;

/// What a held copy is kept as until the answer is written.
#[derive(Clone, Copy)]
pub enum HeldForm {
    /// Its tree, for a consumer that reads or changes the copies (an in-place render, whose
    /// answer the run checks; `tailor diff`, which writes files of its own): its bytes are
    /// counted as a stream would write them.
    Trees,
    /// The text the answer's writer writes for it in `rendering` (a ResourceList's item),
    /// made once, after `ready` recorded what the writer's caller records (kpt's path
    /// annotations): exactly these bytes are counted, and held with a header for the few
    /// questions the run still asks.
    Text {
        rendering: Rendering,
        ready: fn(&mut Resource),
    },
}

impl HeldForm {
    /// Memory held per byte of held output, with room to spare for writing the answer (and
    /// for what an address-space limit counts beyond what is resident).
    fn memory_per_output_byte(self) -> u64 {
        match self {
            HeldForm::Trees => 8,
            HeldForm::Text { .. } => 4,
        }
    }

    fn default_max(self) -> u64 {
        match self {
            HeldForm::Trees => DEFAULT_MAX_HELD_OUTPUT_BYTES,
            HeldForm::Text { .. } => DEFAULT_MAX_HELD_TEXT_BYTES,
        }
    }
}

/// The default limit for copies held as `form`: its default maximum, or what the process may
/// still allocate divided by the memory a held byte takes when that is less (a small machine,
/// a cgroup, `ulimit -v`).
pub fn default_limit(form: HeldForm) -> u64 {
    let per_byte = form.memory_per_output_byte();
    let fits = crate::memory::available().map_or(u64::MAX, |n| n / per_byte);
    form.default_max().min(fits).max(1)
}

/// Holds a fan-out's copies, counting their output bytes against a limit.
pub(super) struct HeldSink {
    /// `spec.limits.maxHeldOutputBytes`, if given.
    spec: Option<u64>,
    form: HeldForm,
    limit: u64,
    bytes: u64,
    destinations: usize,
    finished: usize,
    /// The copies come rendered as text from the threads that made them ([`HeldSink::on_worker`]).
    rendered_on_workers: bool,
    copies: Vec<Resource>,
}

impl HeldSink {
    pub fn new(spec: Option<u64>, form: HeldForm) -> HeldSink {
        HeldSink {
            spec,
            form,
            limit: u64::MAX,
            bytes: 0,
            destinations: 0,
            finished: 0,
            rendered_on_workers: false,
            copies: Vec::new(),
        }
    }

    /// The copies held, in destination order.
    pub fn into_copies(self) -> Vec<Resource> {
        self.copies
    }

    fn exceeded(&self) -> String {
        format!(
            "the fan-out's output, held whole until the end, exceeds its limit of {} bytes after {} of {} destinations (spec.limits.maxHeldOutputBytes); raise it with spec.limits.maxHeldOutputBytes or the environment variable TAILOR_MAX_HELD_OUTPUT_BYTES, or write a stream or --output-dir (tailor CONFIG DIR), which hold a few destinations at a time",
            self.limit, self.finished, self.destinations
        )
    }
}

impl FanOutSink for HeldSink {
    fn begin(&mut self, destinations: &[&str], _staying: &[&Resource]) -> Result<bool, String> {
        // An invalid variable is an error even when spec.limits overrides it.
        let variable = crate::env::max_held_output_bytes()?;
        self.limit = self
            .spec
            .or(variable)
            .unwrap_or_else(|| default_limit(self.form));
        self.destinations = destinations.len();
        Ok(true)
    }

    fn on_worker(&mut self) -> Option<Prepare> {
        let HeldForm::Text { rendering, ready } = self.form else {
            return None;
        };
        self.rendered_on_workers = true;
        Some(Box::new(move |copies| as_text(copies, rendering, ready)))
    }

    fn destination(&mut self, _destination: &str, copies: Vec<Resource>) -> Result<(), String> {
        let (copies, bytes) = match self.form {
            HeldForm::Trees => {
                let bytes = crate::write::stream_bytes(&copies);
                (copies, bytes)
            }
            HeldForm::Text { rendering, ready } => {
                let copies = if self.rendered_on_workers {
                    copies
                } else {
                    as_text(copies, rendering, ready)
                };
                let bytes = copies.iter().map(crate::write::rendered_len).sum::<usize>();
                (copies, bytes as u64)
            }
        };
        self.bytes = self.bytes.saturating_add(bytes);
        if self.bytes > self.limit {
            return Err(self.exceeded());
        }
        self.finished += 1;
        if self.copies.is_empty() {
            // Destinations mostly get as many copies, as many bytes, as the first: room for
            // all those the limit lets in spares the list's doublings (half as much again).
            let fit = self.limit / bytes.max(1);
            let held = fit.min(self.destinations as u64) as usize;
            self.copies.reserve_exact(copies.len().saturating_mul(held));
        }
        self.copies.extend(copies);
        Ok(())
    }
}

/// `copies` readied and held as their text in `rendering`, each rendered once. The texts of
/// one destination's copies share one allocation: freed trees and held texts do not
/// interleave in the heap, which otherwise leaves the allocator sorting through the holes
/// (glibc's `_int_malloc` was 8% of a held fan-out's samples).
fn as_text(copies: Vec<Resource>, rendering: Rendering, ready: fn(&mut Resource)) -> Vec<Resource> {
    // The header keeps kpt's annotations, all the answer reads of a held copy.
    let keys: crate::resource::HeaderKeys = Arc::new(Vec::new());
    let mut copies = copies;
    copies.iter_mut().for_each(ready);
    let (text, spans) = crate::write::rendered_texts(&copies, rendering);
    let text = Arc::new(text);
    copies
        .into_iter()
        .zip(spans)
        .map(|(copy, span)| copy.into_rendered_at(rendering, keys.clone(), text.clone(), span))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::write::ListSyntax;

    fn copies(n: usize) -> Vec<Resource> {
        let text = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n";
        let one = crate::read::read_stream(text, &Default::default()).unwrap();
        (0..n).flat_map(|_| one.clone()).collect()
    }

    #[test]
    fn copies_are_held_until_their_bytes_pass_the_limit() {
        let mut held = HeldSink::new(Some(200), HeldForm::Trees);
        assert_eq!(held.begin(&["a", "b", "c"], &[]), Ok(true));
        assert_eq!(held.destination("a", copies(2)), Ok(()));
        assert_eq!(held.destination("b", copies(1)), Ok(()));
        let refused = held.destination("c", copies(2)).unwrap_err();
        assert!(
            refused.contains("limit of 200 bytes after 2 of 3 destinations"),
            "{refused}"
        );
        assert!(
            refused.contains("TAILOR_MAX_HELD_OUTPUT_BYTES"),
            "{refused}"
        );
        assert_eq!(held.into_copies().len(), 3);
    }

    /// Copies for `destination` as a fan-out makes them: each under its cluster, one changed
    /// (written from its tree), one as read (its text copied).
    fn fanned_out(destination: &str) -> Vec<Resource> {
        let text = "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n# above\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a # kept\n  data: {k: \"v\"}\n- {\"apiVersion\": \"v1\", \"kind\": \"Secret\", \"metadata\": {\"name\": \"s\"}}\n";
        let mut items = crate::read_input(text, &Default::default()).unwrap().items;
        items[0].set_annotation("changed", destination);
        for item in &mut items {
            item.set_cluster(destination);
        }
        items
    }

    /// The copies held as `form`, prepared on the sink's worker hook when `on_worker`.
    fn held_by(form: HeldForm, on_worker: bool) -> (Vec<Resource>, u64) {
        let mut held = HeldSink::new(None, form);
        assert_eq!(held.begin(&["a", "b"], &[]), Ok(true));
        let prepare = if on_worker { held.on_worker() } else { None };
        for destination in ["a", "b"] {
            let copies = fanned_out(destination);
            let copies = match &prepare {
                Some(prepare) => prepare(copies),
                None => copies,
            };
            assert_eq!(held.destination(destination, copies), Ok(()));
        }
        let bytes = held.bytes;
        (held.into_copies(), bytes)
    }

    fn held(form: HeldForm) -> (Vec<Resource>, u64) {
        held_by(form, false)
    }

    /// Held as the text the ResourceList writes, the copies are written as their trees are,
    /// in YAML and in JSON, and exactly the bytes of their items are counted.
    #[test]
    fn copies_held_as_text_are_written_as_their_trees_are() {
        let header = "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n";
        for syntax in [ListSyntax::Yaml, ListSyntax::Json] {
            let list = |items: &[Resource]| {
                let mut out = Vec::new();
                crate::write::write_resource_list_to(&mut out, items, None, &[], syntax).unwrap();
                String::from_utf8(out).unwrap()
            };
            let (trees, _) = held(HeldForm::Trees);
            let text = HeldForm::Text {
                rendering: Rendering::Item(syntax),
                ready: Resource::record_output_path,
            };
            let (texts, bytes) = held(text);
            assert!(texts.iter().all(|c| c.rendered().is_some()));
            // Rendered on the fan-out's threads, the same copies and the same count.
            let (on_workers, counted) = held_by(text, true);
            assert!(on_workers.iter().all(|c| c.rendered().is_some()));
            assert_eq!((list(&on_workers), counted), (list(&texts), bytes));
            assert!(held_by(HeldForm::Trees, true)
                .0
                .iter()
                .all(|c| c.rendered().is_none()));
            let mut trees = trees;
            trees.iter_mut().for_each(Resource::record_output_path);
            let written = list(&trees);
            assert_eq!(list(&texts), written);
            assert!(written.contains("# tailor.dev/cluster: b\n") || syntax == ListSyntax::Json);
            assert!(
                written.contains("config.kubernetes.io/path: 'b/configmap_a.yaml'")
                    || syntax == ListSyntax::Json
            );
            if syntax == ListSyntax::Yaml {
                assert_eq!(bytes as usize, written.len() - header.len(), "{written}");
            }
        }
    }

    #[test]
    fn the_default_is_one_the_process_can_hold() {
        let text = HeldForm::Text {
            rendering: Rendering::Item(ListSyntax::Yaml),
            ready: Resource::record_output_path,
        };
        for form in [HeldForm::Trees, text] {
            let limit = default_limit(form);
            assert!(limit > 0 && limit <= form.default_max());
            if let Some(available) = crate::memory::available() {
                assert!(limit <= available / form.memory_per_output_byte());
            }
        }
        assert_eq!(HeldForm::Trees.default_max(), 256 << 20);
        assert_eq!(text.default_max(), 384 << 20);
    }
}
