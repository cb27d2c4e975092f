//! A Fleet Helm bundle for the per-cluster rendering benchmark (issue 28): a chart of
//! `templates` templates (Deployments, Services and ConfigMaps in turn, each using the chart's
//! helpers, `toYaml`, `range` and `quote` as ordinary charts do), a fleet.yaml whose values use
//! Fleet's `${ }` templating and whose customizations differ per environment, and a `Tailor`
//! config naming `clusters` destinations.

use std::path::Path;

const CHART_YAML: &str = "apiVersion: v2\nname: bench\nversion: 1.0.0\nappVersion: \"2.4.1\"\n";

const VALUES_YAML: &str = "replicas: 1\ncluster: none\nenv: none\nimage:\n  repository: registry.example.com/shop/web\n  tag: \"2.4.1\"\nresources:\n  requests: {cpu: 100m, memory: 128Mi}\n  limits: {memory: 256Mi}\nsettings:\n  LOG_LEVEL: info\n  FEATURE_X: \"on\"\n  TIMEOUT: \"30s\"\nport: 8080\n";

const HELPERS: &str = r#"{{- define "bench.fullname" -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- define "bench.labels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
env: {{ .Values.env }}
{{- end -}}
"#;

const FLEET_YAML: &str = "defaultNamespace: shop\nhelm:\n  chart: chart\n  releaseName: bench\n  values:\n    cluster: \"${ .ClusterName }\"\n    env: \"${ .ClusterLabels.env }\"\ntargetCustomizations:\n- name: prod\n  clusterSelector: {matchLabels: {env: prod}}\n  helm:\n    values:\n      replicas: 3\n      resources: {requests: {cpu: 500m, memory: 512Mi}, limits: {memory: 1Gi}}\n- name: eu\n  clusterSelector: {matchLabels: {region: eu}}\n  helm:\n    values:\n      settings: {LOG_LEVEL: warn}\n";

fn deployment(i: usize) -> String {
    format!(
        r#"apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{{{ include "bench.fullname" . }}}}-{i:03}
  labels:
    {{{{- include "bench.labels" . | nindent 4 }}}}
    app: app-{i:03}
spec:
  replicas: {{{{ .Values.replicas }}}}
  selector:
    matchLabels:
      app: app-{i:03}
  template:
    metadata:
      labels:
        app: app-{i:03}
      annotations:
        cluster: {{{{ .Values.cluster | quote }}}}
    spec:
      containers:
      - name: app
        image: "{{{{ .Values.image.repository }}}}:{{{{ .Values.image.tag }}}}"
        ports:
        - containerPort: {{{{ .Values.port }}}}
        resources:
          {{{{- toYaml .Values.resources | nindent 10 }}}}
        env:
        {{{{- range $k, $v := .Values.settings }}}}
        - name: {{{{ $k }}}}
          value: {{{{ $v | quote }}}}
        {{{{- end }}}}
"#
    )
}

fn service(i: usize) -> String {
    format!(
        r#"apiVersion: v1
kind: Service
metadata:
  name: {{{{ include "bench.fullname" . }}}}-{i:03}
  labels:
    {{{{- include "bench.labels" . | nindent 4 }}}}
spec:
  selector:
    app: app-{i:03}
  ports:
  - port: 80
    targetPort: {{{{ .Values.port }}}}
"#
    )
}

fn config_map(i: usize) -> String {
    format!(
        r#"apiVersion: v1
kind: ConfigMap
metadata:
  name: {{{{ include "bench.fullname" . }}}}-{i:03}
  labels:
    {{{{- include "bench.labels" . | nindent 4 }}}}
data:
  cluster: {{{{ .Values.cluster | quote }}}}
  {{{{- range $k, $v := .Values.settings }}}}
  {{{{ $k }}}}: {{{{ $v | quote }}}}
  {{{{- end }}}}
"#
    )
}

/// Template `i` of the chart: a Deployment, a Service and a ConfigMap in turn.
pub fn fleet_helm_template(i: usize) -> String {
    match i % 3 {
        0 => deployment(i),
        1 => service(i),
        _ => config_map(i),
    }
}

/// The `Tailor` config naming `clusters` destinations, labelled env (dev, test, prod in turn)
/// and region (us, eu in turn).
pub fn fleet_helm_config(clusters: usize) -> String {
    let mut cfg = String::from(
        "apiVersion: tailor.dev/v1alpha1\nkind: Tailor\nmetadata:\n  name: fleet-helm\nspec:\n  clusters:\n",
    );
    for c in 0..clusters {
        let env = ["dev", "test", "prod"][c % 3];
        let region = ["us", "eu"][c % 2];
        cfg.push_str(&format!(
            "  - name: cluster-{c:04}\n    labels: {{env: {env}, region: {region}}}\n"
        ));
    }
    cfg
}

/// Writes `DIR/tailor.yaml` and the bundle `DIR/bundle/` (fleet.yaml and the chart in
/// `DIR/bundle/chart/`).
pub fn fleet_helm_bundle(templates: usize, clusters: usize, dir: &Path) -> std::io::Result<()> {
    let chart = dir.join("bundle/chart");
    std::fs::create_dir_all(chart.join("templates"))?;
    std::fs::write(dir.join("tailor.yaml"), fleet_helm_config(clusters))?;
    std::fs::write(dir.join("bundle/fleet.yaml"), FLEET_YAML)?;
    std::fs::write(chart.join("Chart.yaml"), CHART_YAML)?;
    std::fs::write(chart.join("values.yaml"), VALUES_YAML)?;
    std::fs::write(chart.join("templates/_helpers.tpl"), HELPERS)?;
    for i in 0..templates {
        std::fs::write(
            chart.join(format!("templates/t{i:03}.yaml")),
            fleet_helm_template(i),
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_config_names_each_cluster_with_its_labels() {
        let cfg = fleet_helm_config(4);
        assert!(cfg.contains("  - name: cluster-0000\n    labels: {env: dev, region: us}\n"));
        assert!(cfg.contains("  - name: cluster-0003\n    labels: {env: dev, region: eu}\n"));
        assert_eq!(cfg.matches("- name: cluster-").count(), 4);
    }

    #[test]
    fn templates_take_turns_and_keep_helm_actions() {
        assert!(fleet_helm_template(0).contains("kind: Deployment"));
        assert!(fleet_helm_template(1).contains("kind: Service"));
        assert!(fleet_helm_template(2).contains("kind: ConfigMap"));
        assert!(fleet_helm_template(3).contains("name: {{ include \"bench.fullname\" . }}-003"));
    }
}
