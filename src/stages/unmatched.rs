//! What a rule that matched nothing is told: the selector as written and, when an object of
//! the run is a near miss, the kind or name it probably meant (`Ingres` → `Ingress`).

use std::collections::BTreeSet;

/// A selector's fields that are set, as written: `{kind: Ingres, name: web}`.
pub fn selector_text(fields: &[(&str, &str)]) -> String {
    let set: Vec<String> = fields
        .iter()
        .filter(|(_, v)| !v.is_empty())
        .map(|(k, v)| format!("{k}: {v}"))
        .collect();
    format!("{{{}}}", set.join(", "))
}

/// ` (did you mean kind "Ingress"?)` when `kind` is absent from the objects (`present`, their
/// kinds and names) but one is close to it; else the same for `name`; else nothing. Selectors
/// that are patterns rather than names get no suggestion.
pub fn near_miss<'a>(
    kind: &str,
    name: &str,
    present: impl Iterator<Item = (&'a str, &'a str)>,
) -> String {
    let (kinds, names): (BTreeSet<&str>, BTreeSet<&str>) = present.unzip();
    let near = |wanted: &str, among: &BTreeSet<&str>| {
        let plain = wanted
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '-' | '.' | '_'));
        if wanted.is_empty() || !plain || among.contains(wanted) {
            return None;
        }
        let among: Vec<&str> = among.iter().copied().collect();
        tailor_kube::json::suggest(wanted, &among).map(str::to_string)
    };
    if let Some(k) = near(kind, &kinds) {
        format!(" (did you mean kind {k:?}?)")
    } else if let Some(n) = near(name, &names) {
        format!(" (did you mean name {n:?}?)")
    } else {
        String::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_the_near_kind_then_the_near_name() {
        let objects = [("Ingress", "web"), ("Service", "web")];
        assert_eq!(
            near_miss("Ingres", "web", objects.into_iter()),
            " (did you mean kind \"Ingress\"?)"
        );
        assert_eq!(
            near_miss("Service", "wbe", objects.into_iter()),
            " (did you mean name \"web\"?)"
        );
        assert_eq!(near_miss("Secret", "", objects.into_iter()), "");
        assert_eq!(near_miss("Ingres.*", "", objects.into_iter()), "");
    }

    #[test]
    fn selector_text_shows_what_is_set() {
        assert_eq!(
            selector_text(&[("kind", "Ingres"), ("name", ""), ("namespace", "shop")]),
            "{kind: Ingres, namespace: shop}"
        );
    }
}
