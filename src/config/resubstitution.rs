//! Flux's substitution in place, rendered twice. `$${var}` is Flux's escape for a literal
//! `${var}`: the first `kpt fn render` writes `${var}` into the package, and the next one
//! substitutes it. A variable whose value holds `${...}` does the same. Whether the next
//! render would substitute again is found the only exact way: the substitution stage runs
//! once more, with the same variables, on a copy of the run's output; an object it changes
//! (or fails on) is refused in place, as [`super::in_place`] refuses the other rules that
//! tailor their own output again.

use tailor_kio::host::ELSEWHERE;
use tailor_kio::pipeline::{run_all, Destination, Forked, Log};
use tailor_kio::run::Destinations;
use tailor_kio::{Job, KrmResult, Resource};

use super::Plan;
use crate::stages::substitution::STAGE;

/// The error for an answer `out` that the next in-place render would substitute again;
/// `claimed` the inputs each stage claimed; `None` when the plan substitutes nothing, or the
/// run fanned out (a later render passes a fan-out's copies through as they are).
pub(super) fn substitutes_again(
    plan: &Plan,
    out: &[Resource],
    clusters: &Destinations<'_>,
    claimed: &[Vec<Resource>],
) -> Option<KrmResult> {
    if plan.fan_out || clusters.len() > 1 {
        return None;
    }
    let at = plan
        .stages
        .iter()
        .position(|s| s.declares().name == STAGE)?;
    let cluster = clusters.first();
    let cluster = cluster.as_ref();
    let tailoring = plan.options_for(cluster, &mut Vec::new())?;
    let mut again = out.to_vec();
    let mut results = Vec::new();
    let mut stage = [Forked::new(
        (plan.stages[at].as_ref(), at, &claimed[at]),
        &mut results,
    )];
    let destination = cluster.map(|cluster| Destination {
        cluster,
        more: false,
    });
    let mut log = Log::new(&mut results, None);
    run_all(&mut stage, &mut again, destination, &tailoring, &mut log);
    let failed = results.iter().find(|r| r.is_error());
    let changed = out
        .iter()
        .zip(&again)
        .find(|(before, after)| !before.is_left_alone() && before.node() != after.node());
    let item = match (changed, failed) {
        (Some((item, _)), _) => item,
        (None, Some(error)) => return Some(fails_again(error)),
        (None, None) => return None,
    };
    let place = item.path().map_or_else(String::new, |p| format!(" ({p})"));
    Some(
        KrmResult::error(format!(
            "its substituted text{place} still holds a variable (`$${{var}}` writes `${{var}}`, and a variable's value may hold one), and kpt renders in place: the next `kpt fn render` would substitute it again; {ELSEWHERE}"
        ))
        .about(item),
    )
}

/// The error for an answer whose substitution the next render would fail on (a `${var}`
/// written by `$${var}`, unset under `strict`).
fn fails_again(error: &KrmResult) -> KrmResult {
    let mut refusal = error.clone();
    refusal.message = format!(
        "the next `kpt fn render` would substitute the substituted objects again, and fail: {}; {ELSEWHERE}",
        error.message
    );
    refusal
}

#[cfg(test)]
mod tests {
    use tailor_kio::host::Host;

    use tailor_kio::host::Guest;
    use tailor_kio::run::process;

    /// What an in-place run of a Tailor `spec` over one ConfigMap holding `data` reports.
    fn errors(spec: &str, data: &str, host: Host) -> Vec<String> {
        let text = format!(
            "apiVersion: tailor.dev/v1alpha1\nkind: Tailor\nmetadata: {{name: t}}\nspec:\n{spec}"
        );
        let fc = tailor_yaml::parse_stream(&text).unwrap().remove(0).root;
        let plan = crate::config::parse(Some(&fc)).unwrap_or_else(|r| panic!("{r:?}"));
        let guest = Guest {
            host,
            own_config: None,
        };
        let list = format!("kind: ResourceList\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: web\n    annotations: {{config.kubernetes.io/path: web.yaml, internal.config.kubernetes.io/id: '1'}}\n  data: {data}\n");
        let items = tailor_kio::read_input(&list, &tailor_yaml::ParseOptions::default())
            .unwrap()
            .items;
        let outcome = process(items, &plan, &guest);
        assert_eq!(outcome.failed, outcome.results.iter().any(|r| r.is_error()));
        outcome
            .results
            .iter()
            .filter(|r| r.is_error())
            .map(|r| r.message.clone())
            .collect()
    }

    const VARS: &str = "  postBuild:\n    substitute: {region: eu}\n";

    #[test]
    fn an_escape_that_the_next_render_substitutes_is_refused_in_place() {
        let escaped = errors(VARS, "{a: '$${region}'}", Host::KptInPlace);
        assert_eq!(escaped.len(), 1, "{escaped:?}");
        assert!(
            escaped[0].starts_with("its substituted text (web.yaml) still holds a variable"),
            "{escaped:?}"
        );
        // A value that holds a variable does the same.
        let nested = "  postBuild:\n    substitute: {region: '${zone}', zone: a}\n";
        assert_eq!(
            errors(nested, "{a: '${region}'}", Host::KptInPlace).len(),
            1
        );
        // Strict, the next render would fail on the variable the escape wrote.
        let strict = "  postBuild:\n    strict: true\n    substitute: {region: eu}\n";
        let fails = errors(strict, "{a: '$${zone}'}", Host::KptInPlace);
        assert!(
            fails[0].starts_with("the next `kpt fn render` would substitute the substituted objects again, and fail: "),
            "{fails:?}"
        );
    }

    #[test]
    fn plain_variables_other_hosts_and_no_variables_pass() {
        assert!(errors(VARS, "{a: '${region}'}", Host::KptInPlace).is_empty());
        assert!(errors(VARS, "{a: '$${region}'}", Host::KptPipe).is_empty());
        assert!(errors(VARS, "{a: '$${region}'}", Host::Plain).is_empty());
        // Without a variable Flux does not substitute at all: the escape stays, twice.
        let none = "  postBuild:\n    substitute: {}\n";
        assert!(errors(none, "{a: '$${region}'}", Host::KptInPlace).is_empty());
    }
}
