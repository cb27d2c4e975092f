//! Cluster properties as KubeStellar builds them for template expansion
//! (`docs/semantics/kubestellar.md` §3.5): which keys become properties and which source wins.

use tailor_go::unicode::is_identifier;
use tailor_kube::StringMap;

/// KubeStellar's `collectPropertiesForDestination` (`docs/semantics/kubestellar.md` §3.5):
/// successive writes into one map, later writes win:
/// 1. `clusterName` = the inventory name;
/// 2. labels whose key is a Go identifier;
/// 3. annotations whose key is a Go identifier;
/// 4. each of `later` in order (ConfigMap `data`, then decoded `binaryData`; an inline cluster's
///    `properties` take the place of `data`), again only identifier keys.
///
/// So the precedence, highest first, is binaryData > data > annotations > labels > clusterName,
/// and `clusterName` itself can be overridden by any of them.
pub fn collect(
    cluster_name: &str,
    labels: &StringMap,
    annotations: &StringMap,
    later: &[&StringMap],
) -> StringMap {
    let mut props = StringMap::new();
    props.insert("clusterName".to_string(), cluster_name.to_string());
    for source in [labels, annotations]
        .into_iter()
        .chain(later.iter().copied())
    {
        for (k, v) in source {
            if is_identifier(k) {
                props.insert(k.clone(), v.clone());
            }
        }
    }
    props
}

#[cfg(test)]
mod tests {
    use super::collect as collect_properties;

    use tailor_testkit::string_map as m;

    #[test]
    fn precedence_each_level_overrides_the_previous() {
        let labels = m(&[
            ("a", "label"),
            ("b", "label"),
            ("c", "label"),
            ("d", "label"),
            ("clusterName", "from-label"),
        ]);
        let annotations = m(&[
            ("b", "annotation"),
            ("c", "annotation"),
            ("d", "annotation"),
        ]);
        let data = m(&[("c", "data"), ("d", "data")]);
        let binary = m(&[("d", "binary")]);
        let p = collect_properties("virgo", &labels, &annotations, &[&data, &binary]);
        assert_eq!(p["a"], "label");
        assert_eq!(p["b"], "annotation");
        assert_eq!(p["c"], "data");
        assert_eq!(p["d"], "binary");
        // clusterName is the lowest level: a label overrides it.
        assert_eq!(p["clusterName"], "from-label");
        let p = collect_properties("virgo", &m(&[]), &m(&[]), &[]);
        assert_eq!(p, m(&[("clusterName", "virgo")]));
    }

    #[test]
    fn precedence_skips_non_identifier_keys_at_every_level() {
        let labels = m(&[
            ("kubernetes.io/os", "linux"),
            ("location-group", "x"),
            ("region", "eu"),
        ]);
        let annotations = m(&[("foo.bar", "y"), ("func", "z")]);
        let data = m(&[("1a", "w"), ("_", "u")]);
        let p = collect_properties("v", &labels, &annotations, &[&data]);
        assert_eq!(p, m(&[("_", "u"), ("clusterName", "v"), ("region", "eu")]));
    }
}
