//! One rendering for the destinations of a fan-out that render alike
//! ([`crate::renderings::same_rendering`]): the first of them to be tailored renders, on
//! whichever thread; the others copy what it rendered. The rendering is the same whoever makes
//! it, so the output is the same bytes however many threads ran, and the same as rendering
//! each destination on its own (`TAILOR_FAN_OUT_DEDUP=0`, `tests/fan_out_dedup.rs`).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use super::Destinations;
use crate::job::Job;
use crate::{renderings, KrmResult, Resource};

/// A destination's objects (not yet under its directory) and what its stages reported.
pub(super) type Rendering = (Vec<Resource>, Vec<KrmResult>);

/// Renderings kept at once for destinations still to come. Past it a destination renders on
/// its own (the same bytes, more time), so a streamed fan-out's memory stays bounded whatever
/// order its destinations come in.
const KEPT: usize = 32;

/// Which destinations share a rendering, and the renderings kept for those still to come.
pub(super) struct Alike {
    /// For each destination, the first with the same rendering.
    same: Vec<usize>,
    kept: Mutex<Kept>,
}

#[derive(Default)]
struct Kept {
    /// By first destination: how many of its group are not tailored yet.
    left: HashMap<usize, usize>,
    renderings: HashMap<usize, Arc<OnceLock<Rendering>>>,
}

impl Alike {
    /// The groups of `clusters`, the copies starting from `items`; every destination on its
    /// own when `TAILOR_FAN_OUT_DEDUP=0`.
    pub(super) fn plan<J: Job>(
        job: &J,
        clusters: &Destinations<'_>,
        items: &[Resource],
    ) -> Result<Alike, String> {
        let same = if crate::env::fan_out_dedup()? {
            renderings::same_rendering(job, clusters, items)
        } else {
            (0..clusters.len()).collect()
        };
        let mut kept = Kept::default();
        for &first in &same {
            *kept.left.entry(first).or_default() += 1;
        }
        Ok(Alike {
            same,
            kept: Mutex::new(kept),
        })
    }

    /// Destination `at`'s rendering: `render` makes it unless another destination of its
    /// group made it already (or is making it: this waits for it).
    pub(super) fn rendering(&self, at: usize, render: impl FnOnce() -> Rendering) -> Rendering {
        let first = self.same[at];
        let (slot, last) = {
            // Nothing panics while the lock is held; a poisoned lock still holds counts.
            let mut kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
            let Kept { left, renderings } = &mut *kept;
            let left = left.entry(first).or_insert(1);
            *left = left.saturating_sub(1);
            let last = *left == 0;
            let slot = match renderings.get(&first) {
                Some(slot) => Some(Arc::clone(slot)),
                None if !last && renderings.len() < KEPT => {
                    let slot = Arc::new(OnceLock::new());
                    renderings.insert(first, Arc::clone(&slot));
                    Some(slot)
                }
                None => None,
            };
            if last {
                renderings.remove(&first);
            }
            (slot, last)
        };
        let Some(slot) = slot else {
            return render();
        };
        slot.get_or_init(render);
        // The group's last destination takes the rendering instead of copying it, unless
        // another is still copying.
        let owned = if last {
            Arc::try_unwrap(slot)
        } else {
            Err(slot)
        };
        match owned {
            Ok(lock) => lock.into_inner().unwrap_or_default(),
            Err(slot) => slot.get().cloned().unwrap_or_default(),
        }
    }

    /// How many distinct renderings the fan-out needs.
    pub(super) fn distinct(&self) -> usize {
        renderings::distinct(&self.same)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn alike(same: Vec<usize>) -> Alike {
        let mut kept = Kept::default();
        for &first in &same {
            *kept.left.entry(first).or_default() += 1;
        }
        Alike {
            same,
            kept: Mutex::new(kept),
        }
    }

    fn rendering(n: usize) -> Rendering {
        (Vec::new(), vec![KrmResult::info(format!("rendering {n}"))])
    }

    #[test]
    fn a_group_renders_once_and_lets_go_of_it_after_its_last_destination() {
        let alike = alike(vec![0, 1, 0, 1, 4]);
        let mut rendered = Vec::new();
        let mut get = |at: usize| {
            alike.rendering(at, || {
                rendered.push(at);
                rendering(at)
            })
        };
        let got: Vec<Rendering> = (0..5).map(&mut get).collect();
        assert_eq!(rendered, [0, 1, 4]);
        assert_eq!(got[2].1, rendering(0).1);
        assert_eq!(got[3].1, rendering(1).1);
        let kept = alike.kept.lock().unwrap();
        assert!(kept.renderings.is_empty());
        assert!(kept.left.values().all(|&n| n == 0));
    }

    #[test]
    fn past_the_kept_limit_a_destination_renders_on_its_own() {
        // KEPT + 1 groups of two, interleaved: the last group finds no room and renders twice.
        let groups = KEPT + 1;
        let same: Vec<usize> = (0..2 * groups).map(|i| i % groups).collect();
        let alike = alike(same);
        let mut renders = 0;
        for at in 0..2 * groups {
            let got = alike.rendering(at, || {
                renders += 1;
                rendering(at % groups)
            });
            assert_eq!(got.1, rendering(at % groups).1);
        }
        assert_eq!(renders, groups + 1);
        assert!(alike.kept.lock().unwrap().renderings.is_empty());
    }
}
