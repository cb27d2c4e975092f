//! The items a run consumes rather than tailors: inventory objects (they describe
//! destinations), CustomTransforms (they configure the strip) and, when the configuration
//! names overlay sets, the Fleet overlay files under `overlays/`. None of them is tailored;
//! they come back as read when the host writes files back (kpt), else they are not emitted.

use std::collections::HashMap;

use super::returned::Returned;
use crate::annotations::LOCAL_CONFIG;
use crate::host::Guest;
use crate::job::{is_inventory, Job};
use crate::pipeline::Claim;
use crate::{KrmResult, Resource};

/// The run's items, sorted.
pub(super) struct Inputs {
    /// The objects to tailor.
    pub work: Vec<Resource>,
    /// Inventory objects, as read: they describe the destinations.
    pub inventory: Vec<Resource>,
    /// What each stage of the plan claimed as its inputs, by the stage's place in the plan.
    pub claimed: Vec<Vec<Resource>>,
    /// The inputs that come back in the answer.
    pub returned: Returned,
}

/// The stage that claims an item (the first that does) and what the item is for it.
type Claimed = Option<(usize, &'static str)>;

/// Which stage claims each item, by the item's index: only the items some stage claims, in
/// order (most runs claim none of thousands of objects). An item claimed as [`Claim::Sole`]
/// alongside others of its identity is the stage's only when it is the one of them marked
/// local-config.
fn claims<J: Job>(items: &[Resource], job: &J) -> Vec<(usize, Claimed)> {
    let mut claimed: Vec<(usize, Claimed)> = Vec::new();
    let mut sole: HashMap<(usize, &str, Option<&str>, &str), Vec<usize>> = HashMap::new();
    for (i, item) in items.iter().enumerate().filter(|(_, r)| !is_inventory(r)) {
        for (at, stage) in job.stages().iter().enumerate() {
            match stage.claims(item) {
                Claim::No => continue,
                Claim::Input(what) => claimed.push((i, Some((at, what)))),
                Claim::Sole(what) => {
                    let id = (at, item.kind(), item.namespace(), item.name());
                    sole.entry(id).or_default().push(claimed.len());
                    claimed.push((i, Some((at, what))));
                }
            }
            break;
        }
    }
    // Each group holds places in `claimed`.
    for group in sole.into_values().filter(|g| g.len() > 1) {
        let marked: Vec<usize> = group
            .iter()
            .copied()
            .filter(|&c| items[claimed[c].0].annotation(LOCAL_CONFIG) == Some("true"))
            .collect();
        for c in group {
            if marked != [c] {
                claimed[c].1 = None;
            }
        }
    }
    claimed
}

/// Separates the objects to tailor from the inputs the run consumes: inventory objects and
/// what the stages claim (CustomTransforms, overlay files, `substituteFrom` sources). When
/// the host writes files back, the inputs and the functionConfig's own item come back as read
/// ([`Returned`]).
pub(super) fn split<J: Job>(
    items: Vec<Resource>,
    job: &J,
    guest: &Guest,
    results: &mut Vec<KrmResult>,
) -> Inputs {
    let returns = guest.host.writes_files_back();
    let own_config =
        |item: &Resource| returns && guest.own_config.as_ref().is_some_and(|c| c.is(item));
    let mut inputs = Inputs {
        work: Vec::new(),
        inventory: Vec::new(),
        claimed: vec![Vec::new(); job.stages().len()],
        returned: Returned::default(),
    };
    let claimed = claims(&items, job);
    let claims_any = claimed.iter().any(|(_, claim)| claim.is_some());
    if !claims_any && !items.iter().any(|i| is_inventory(i) || own_config(i)) {
        // Nothing to take out (the common case): the list is the work, not moved into another.
        inputs.work = items;
        return inputs;
    }
    inputs.work.reserve(items.len());
    let mut claimed = claimed.into_iter().peekable();
    for (i, item) in items.into_iter().enumerate() {
        let claim = claimed.next_if(|(at, _)| *at == i).and_then(|(_, c)| c);
        let before = inputs.work.len();
        // Only what came from a file comes back: another would be written to a new one.
        let comes_back = returns && item.path().is_some();
        let mut keep = |item: &Resource, what: &str| {
            if comes_back {
                let what = format!("{what} tailor reads");
                inputs
                    .returned
                    .keep(before, item.clone(), Some(&what), results);
            }
        };
        if own_config(&item) {
            if comes_back {
                inputs.returned.keep(before, item, None, results);
            }
        } else if is_inventory(&item) {
            keep(&item, "an inventory object");
            inputs.inventory.push(item);
        } else if let Some((at, what)) = claim {
            keep(&item, what);
            inputs.claimed[at].push(item);
        } else {
            inputs.work.push(item);
        }
    }
    inputs
}
