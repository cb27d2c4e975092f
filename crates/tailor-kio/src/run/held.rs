//! A fan-out whose whole answer is held until the end (a ResourceList, `-o resource-list`,
//! `tailor diff`, an in-place render): the copies are held as each destination is finished,
//! and their output bytes counted. Past the limit the run stops with an error result that
//! names it, rather than growing until the allocator aborts.

use super::sink::FanOutSink;
use crate::Resource;

/// The most output held by default: 256 MiB, as much as the run's budget of generated text
/// (`tailor_go::budget::DEFAULT_MAX_RUN_OUTPUT_BYTES`). Held copies take about five times
/// their output bytes in memory (200 objects × 3,000 clusters: 306 MB of output, a 1.6 GB
/// peak), so this is about 1.5 GB, which a CI runner holds; less where the process may take
/// less ([`default_limit`]).
pub const DEFAULT_MAX_HELD_OUTPUT_BYTES: u64 = 256 << 20;

/// Memory held per byte of held output, with room to spare for writing the answer.
const MEMORY_PER_OUTPUT_BYTE: u64 = 8;

/// The default limit: [`DEFAULT_MAX_HELD_OUTPUT_BYTES`], or an eighth of what the process may
/// still allocate when that is less (a small machine, a cgroup, `ulimit -v`).
pub fn default_limit() -> u64 {
    let fits = crate::memory::available().map_or(u64::MAX, |n| n / MEMORY_PER_OUTPUT_BYTE);
    DEFAULT_MAX_HELD_OUTPUT_BYTES.min(fits).max(1)
}

/// Holds a fan-out's copies, counting their output bytes against a limit.
pub(super) struct HeldSink {
    /// `spec.limits.maxHeldOutputBytes`, if given.
    spec: Option<u64>,
    limit: u64,
    bytes: u64,
    destinations: usize,
    finished: usize,
    copies: Vec<Resource>,
}

impl HeldSink {
    pub fn new(spec: Option<u64>) -> HeldSink {
        HeldSink {
            spec,
            limit: u64::MAX,
            bytes: 0,
            destinations: 0,
            finished: 0,
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
        self.limit = self.spec.or(variable).unwrap_or_else(default_limit);
        self.destinations = destinations.len();
        Ok(true)
    }

    fn destination(&mut self, _destination: &str, copies: Vec<Resource>) -> Result<(), String> {
        self.bytes = self
            .bytes
            .saturating_add(crate::write::stream_bytes(&copies));
        if self.bytes > self.limit {
            return Err(self.exceeded());
        }
        self.finished += 1;
        self.copies.extend(copies);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn copies(n: usize) -> Vec<Resource> {
        let text = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n";
        let one = crate::read::read_stream(text, &Default::default()).unwrap();
        (0..n).flat_map(|_| one.clone()).collect()
    }

    #[test]
    fn copies_are_held_until_their_bytes_pass_the_limit() {
        let mut held = HeldSink::new(Some(200));
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

    #[test]
    fn the_default_is_one_the_process_can_hold() {
        let limit = default_limit();
        assert!(limit > 0 && limit <= DEFAULT_MAX_HELD_OUTPUT_BYTES);
        if let Some(available) = crate::memory::available() {
            assert!(limit <= available / MEMORY_PER_OUTPUT_BYTE);
        }
    }
}
