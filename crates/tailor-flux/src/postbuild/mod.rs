//! Flux `postBuild` substitution for one resource, as kustomize-controller performs it, over a
//! [`tailor_yaml::Node`] tree.
//!
//! Flux never substitutes the file an author wrote: it prints the resource the way
//! `Resource.AsYAML()` does (yaml.v2: keys sorted, its own quoting, lines folded at 80 columns,
//! comments gone), runs envsubst on that text, reads the result back as YAML 1.1 and through
//! JSON (every number a float64). The quirks users rely on or trip over (`${quote}`, `"on"`
//! becoming `true`, `$$` collapsing, big integers rounding) all come from that round trip, so
//! this crate performs exactly it (sigs.k8s.io/yaml's printing and reading, from
//! [`tailor_yaml::sigs`]) and then writes only the values
//! that changed back into the original tree ([`merge`]), so comments, key order and quoting
//! of everything else stay as the author wrote them.

pub mod merge;
pub mod unchanged;

use crate::envsubst::{flux::yaml_to_json_error, Options, Vars};
use serde_json::Value as Json;
use tailor_kube::json::go_unmarshal_error;
use tailor_yaml::sigs::{numbers, v2print, v2read};
use tailor_yaml::Node;

/// The data a resource had and the data Flux's substitution gives it.
#[derive(Debug)]
pub struct Change {
    pub before: Json,
    pub after: Json,
}

impl Change {
    /// Writes the new data into the resource's tree, touching only what changed.
    pub fn apply(&self, resource: &mut Node) {
        merge::apply(resource, &self.before, &self.after);
    }
}

/// Substitutes `vars` into `resource` as Flux does. `None` when the data does not change; on
/// error the message is Flux's `envsubst error: ...` text (the caller adds the
/// `post build failed for ...` wrapper, which names the resource).
pub fn substitute_resource(
    resource: &Node,
    vars: &Vars,
    opts: &Options,
) -> Result<Option<Change>, String> {
    substitute_resource_outcome(resource, vars, opts).map(|o| o.change)
}

/// What [`substitute_resource`] gives, and whether the variables could have played a part.
#[derive(Debug)]
pub struct Substituted {
    pub change: Option<Change>,
    /// False when the printed resource has no `$`: then envsubst has nothing to do, and the
    /// outcome (the round trip's own changes, such as big integers rounding) is the same for
    /// any variables. Callers tailoring one resource for many destinations reuse it.
    pub used_variables: bool,
}

/// The variables substituting `resource` can look up: those its printed text names. `None`
/// when that cannot be told (the resource does not convert, or its text does not parse).
pub fn variables_read(resource: &Node) -> Option<std::collections::BTreeSet<String>> {
    if unchanged::tree_keeps(resource) {
        return Some(Default::default());
    }
    let before = resource.to_json().ok()?;
    if unchanged::round_trip_keeps(&before) {
        return Some(Default::default());
    }
    crate::envsubst::variable_names(&v2print::to_yaml_v2(&before))
}

/// [`substitute_resource`], telling also whether the variables mattered.
pub fn substitute_resource_outcome(
    resource: &Node,
    vars: &Vars,
    opts: &Options,
) -> Result<Substituted, String> {
    let unchanged = Substituted {
        change: None,
        used_variables: false,
    };
    // Flux checks every variable name for every resource it substitutes, whatever the text;
    // converting the resource comes first, as Flux prints it first.
    let check_names = || {
        vars.validate_names()
            .map_err(|e| crate::envsubst::flux::SubstituteError::InvalidVarName(e).to_string())
    };
    if unchanged::tree_keeps(resource) {
        check_names()?;
        return Ok(unchanged);
    }
    let before = resource.to_json().map_err(|e| e.to_string())?;
    check_names()?;
    if unchanged::round_trip_keeps(&before) {
        return Ok(unchanged);
    }
    let text = v2print::to_yaml_v2(&before);
    let used_variables = text.contains('$');
    let substituted = vars
        .substitute_text(&text, opts)
        .map_err(|e| e.to_string())?;
    // The substituted text is read once per object and destination: what its aliases expand
    // to spends the run's budget.
    let after = match v2read::yaml11_to_json_within(&substituted, &opts.budget) {
        Ok(after) => after,
        Err(v2read::ReadError::Budget(e)) => return Err(e.to_string()),
        Err(v2read::ReadError::Yaml(e)) => return Err(yaml_to_json_error(&e)),
    };
    let after = numbers::as_float64(after);
    if !after.is_object() {
        // kustomize's UnmarshalJSON into a map fails the same way.
        return Err(format!(
            "UnmarshalJSON: {}",
            go_unmarshal_error(&after, "map[string]interface {}")
        ));
    }
    Ok(Substituted {
        change: (!merge::same_data(&before, &after)).then_some(Change { before, after }),
        used_variables,
    })
}
