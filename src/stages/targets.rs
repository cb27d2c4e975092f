//! What a `Tailor` spec lets every target customization (and the spec itself) carry besides
//! Fleet's own fields: the Flux overlay fields and replacements, merged per destination by
//! Fleet's rules (a later string wins, lists accumulate).

use serde_json::{Map, Value};
use tailor_flux::overlay::{Overlay, TAILOR_FIELDS};
use tailor_kube::FieldError;

/// The options one destination is tailored with: Fleet's (yaml overlays, namespaces) and the
/// Flux overlay fields and replacements, merged from the destination's target customizations.
pub type Tailoring = tailor_fleet::Options<TargetFields>;

/// The Flux overlay fields and replacements of one entry, decoded.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TargetFields(pub Overlay);

impl TargetFields {
    /// The Flux overlay fields and replacements (one name for them, not a tuple index at every
    /// use).
    pub fn overlay(&self) -> &Overlay {
        &self.0
    }
}

impl tailor_fleet::Extra for TargetFields {
    fn fields() -> &'static [&'static str] {
        TAILOR_FIELDS
    }

    fn read(map: &Map<String, Value>, path: &str) -> Result<TargetFields, Vec<FieldError>> {
        Overlay::read(map, path).map(TargetFields)
    }

    fn merge(&self, later: &TargetFields) -> TargetFields {
        TargetFields(self.0.then(&later.0))
    }
}
