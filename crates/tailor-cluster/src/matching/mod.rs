//! Which cluster an entry targets: Fleet `targetCustomizations` criteria ([`fleet`]) and Kratix
//! destination selectors ([`kratix`]).

pub mod fleet;
pub mod kratix;

pub use fleet::{target_matches, TargetCriteria, DISPLAY_NAME_LABEL};
pub use kratix::{destination_selected, DestinationSelector, DRY_RUN_LABEL};
