//! A Fleet Helm bundle whose values are large, for the cost of building each cluster's values:
//! an umbrella chart's values file of `components` entries (nested maps and lists, about 520
//! bytes each) named in `helm.valuesFiles`, a few `${ }` cluster values in `helm.values`, two
//! target customizations overriding some components, and a small chart (four templates that
//! read a few components through `include` with the root data, as umbrella charts' helpers
//! do). The values dominate: per cluster the chart renders a few kilobytes.

use std::fmt::Write as _;
use std::path::Path;

use crate::fleet_helm::fleet_helm_config;

const CHART_YAML: &str = "apiVersion: v2\nname: umbrella\nversion: 1.0.0\nappVersion: \"7.1.0\"\n";

const VALUES_YAML: &str = "cluster: none\nenv: none\nregion: none\ncomponents: {}\n";

const HELPERS: &str = r#"{{- define "umbrella.labels" -}}
app.kubernetes.io/instance: {{ .Release.Name }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
env: {{ .Values.env }}
{{- end -}}
{{- define "umbrella.cluster" -}}
{{ .Values.cluster }}-{{ .Values.region }}
{{- end -}}
"#;

/// The fleet.yaml: the values file, the cluster values, and customizations for prod clusters
/// (bigger replicas and resources of some components) and eu clusters (another registry).
const FLEET_YAML: &str = r#"defaultNamespace: platform
helm:
  chart: chart
  releaseName: umbrella
  valuesFiles:
  - values/components.yaml
  values:
    cluster: "${ .ClusterName }"
    env: "${ .ClusterLabels.env }"
    region: "${ get .ClusterLabels \"region\" }"
    global:
      clusterName: "${ .ClusterName }"
      tier: standard
targetCustomizations:
- name: prod
  clusterSelector: {matchLabels: {env: prod}}
  helm:
    values:
      global: {tier: premium}
      components:
        c0000: {replicas: 5, resources: {requests: {cpu: "2", memory: 4Gi}}}
        c0001: {replicas: 5}
- name: eu
  clusterSelector: {matchLabels: {region: eu}}
  helm:
    values:
      components:
        c0002: {image: {registry: registry.eu.example.com}}
"#;

/// Component `i` of the values file: about 520 bytes of nested maps and lists.
fn component(i: usize, out: &mut String) {
    let _ = write!(
        out,
        r#"  c{i:04}:
    enabled: {enabled}
    replicas: {replicas}
    image:
      registry: registry.example.com
      repository: platform/component-{i:04}
      tag: "1.{minor}.{i}"
      pullPolicy: IfNotPresent
    resources:
      requests: {{cpu: {cpu}m, memory: {mem}Mi}}
      limits: {{memory: {lim}Mi}}
    env:
    - name: LOG_LEVEL
      value: info
    - name: COMPONENT_ID
      value: "{i}"
    ports:
    - {{name: http, containerPort: 8080, protocol: TCP}}
    - {{name: metrics, containerPort: 9090, protocol: TCP}}
    config:
      timeout: 30s
      retries: {retries}
      endpoints: [a.example.com, b.example.com]
"#,
        enabled = !i.is_multiple_of(7),
        replicas = 1 + i % 3,
        minor = i % 10,
        cpu = 100 + (i % 5) * 50,
        mem = 128 << (i % 3),
        lim = 256 << (i % 3),
        retries = i % 4,
    );
}

/// The values file of `components` components.
pub fn fleet_values_file(components: usize) -> String {
    let mut out = String::with_capacity(components * 560);
    out.push_str("components:\n");
    for i in 0..components {
        component(i, &mut out);
    }
    out
}

/// Template `i` of the chart: a ConfigMap reading component `i` through the helpers.
fn template(i: usize) -> String {
    format!(
        r#"{{{{- $c := index .Values.components "c{i:04}" }}}}
apiVersion: v1
kind: ConfigMap
metadata:
  name: component-{i:04}
  labels:
    {{{{- include "umbrella.labels" $ | nindent 4 }}}}
data:
  cluster: {{{{ include "umbrella.cluster" $ | quote }}}}
  tier: {{{{ .Values.global.tier | quote }}}}
  image: "{{{{ $c.image.registry }}}}/{{{{ $c.image.repository }}}}:{{{{ $c.image.tag }}}}"
  replicas: {{{{ $c.replicas | quote }}}}
  resources: {{{{ toJson $c.resources | quote }}}}
"#
    )
}

/// The `fleet-helm` config with a run budget for the values: each destination's `${ }`
/// templating writes the whole values text again (1.3 MB for 2,000 components), past the
/// default 1 MiB a destination.
pub fn fleet_values_config(clusters: usize) -> String {
    fleet_helm_config(clusters) + "  limits:\n    maxRunOutputBytes: 68719476736\n"
}

/// Writes `DIR/tailor.yaml` (`clusters` destinations, labelled as for `fleet-helm`) and the
/// bundle `DIR/bundle/` whose values file has `components` components (about 520 bytes each:
/// 2,000 make a 1 MB file).
pub fn fleet_values_bundle(components: usize, clusters: usize, dir: &Path) -> std::io::Result<()> {
    let bundle = dir.join("bundle");
    let chart = bundle.join("chart");
    std::fs::create_dir_all(chart.join("templates"))?;
    std::fs::create_dir_all(bundle.join("values"))?;
    std::fs::write(dir.join("tailor.yaml"), fleet_values_config(clusters))?;
    std::fs::write(bundle.join("fleet.yaml"), FLEET_YAML)?;
    std::fs::write(
        bundle.join("values/components.yaml"),
        fleet_values_file(components),
    )?;
    std::fs::write(chart.join("Chart.yaml"), CHART_YAML)?;
    std::fs::write(chart.join("values.yaml"), VALUES_YAML)?;
    std::fs::write(chart.join("templates/_helpers.tpl"), HELPERS)?;
    for i in 0..components.min(4) {
        std::fs::write(chart.join(format!("templates/c{i}.yaml")), template(i))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_component_is_about_520_bytes_and_components_are_numbered() {
        let file = fleet_values_file(2000);
        let per = file.len() / 2000;
        assert!((450..600).contains(&per), "{per} bytes a component");
        assert!(file.contains("\n  c0000:\n    enabled: false\n"));
        assert!(file.contains("\n  c1999:\n    enabled: true\n"));
        assert_eq!(file.matches("\n    image:\n").count(), 2000);
    }

    #[test]
    fn templates_read_their_component_through_the_helpers() {
        let t = template(3);
        assert!(t.contains(r#"index .Values.components "c0003""#));
        assert!(t.contains(r#"include "umbrella.labels" $"#));
    }
}
