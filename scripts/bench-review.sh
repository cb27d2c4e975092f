#!/usr/bin/env bash
# Time and peak memory of a change review (`tailor diff --base BASE`, issue 29) over a fan-out
# to N clusters (default 1,000) of APPS apps (default 20: a templated Deployment, a Service and
# a ConfigMap each, and one Secret), in every format, beside one plain render of the same
# package for scale.
#
#   scripts/bench-review.sh [N_CLUSTERS [APPS]]
#
# The change: prod's replica patch (a third of the clusters), staging's image tag, one app's
# image in the manifests (every cluster), a template that names the cluster (every cluster
# differently), the Secret's password (masked), and the doNotDeploy set moving (some clusters
# start, some stop receiving the bundle). Then the same change with a template that names only
# the region (`grouped`): clusters with the same change are grouped. Each row is the best of TAILOR_BENCH_RUNS runs
# (default 3) under /usr/bin/time -v: wall seconds, user+sys CPU, peak RSS, output bytes.
set -euo pipefail
. "$(dirname "$0")/bench-lib.sh"

clusters=${1:-1000}
apps=${2:-20}
runs=${TAILOR_BENCH_RUNS:-3}
if [ -z "${TAILOR_BENCH_NO_BUILD:-}" ]; then
  (cd "$ROOT" && cargo build --release --quiet -p tailor --bin tailor) || exit 1
fi
[ -x "$TAILOR" ] || { echo "FAIL: $TAILOR missing" >&2; exit 1; }

# package DIR SIDE HOST: writes the before (SIDE=0) or after (SIDE=1) version into DIR, the
# after version's host template HOST.
package() {
  local dir=$1 side=$2 after_host=$3 i env region retired
  mkdir -p "$dir/app"
  {
    echo "apiVersion: tailor.dev/v1alpha1"
    echo "kind: Tailor"
    echo "metadata: {name: bench-review}"
    echo "spec:"
    echo "  clusters:"
    for ((i = 0; i < clusters; i++)); do
      env=$(( i % 3 )); env=$([ $env = 0 ] && echo dev || { [ $env = 1 ] && echo staging || echo prod; })
      region=$([ $(( i % 2 )) = 0 ] && echo eu || echo us)
      retired=$([ $(( i % (side ? 40 : 50) )) = 7 ] && echo true || echo false)
      echo "  - {name: c-$i, labels: {env: $env, region: $region, retired: \"$retired\"}}"
    done
    cat <<YAML
  targetCustomizationMode: FirstMatch
  targetCustomizations:
  - name: retired
    clusterSelector: {matchLabels: {retired: "true"}}
    doNotDeploy: true
  - name: prod
    clusterSelector: {matchLabels: {env: prod}}
    patches:
    - target: {kind: Deployment}
      patch: |
        - {op: replace, path: /spec/replicas, value: $(( 3 + side ))}
  - name: staging
    clusterSelector: {matchLabels: {env: staging}}
    images: [{name: ghcr.io/example/app, newTag: "1.$(( 4 + side )).0"}]
  replacements:
  - source: {property: clusterName}
    targets:
    - select: {kind: ConfigMap}
      fieldPaths: [data.cluster]
YAML
  } >"$dir/tailor.yaml"
  for ((i = 0; i < apps; i++)); do
    local image="ghcr.io/example/app:1.0.$(( i == 0 ? side : 0 ))"
    local host=$([ "$side" = 1 ] && echo "$after_host" || echo '{{.region}}')
    cat >"$dir/app/app-$i.yaml" <<YAML
apiVersion: apps/v1
kind: Deployment
metadata:
  name: app-$i
  namespace: apps
  labels: {app: app-$i}
  annotations:
    control.kubestellar.io/expand-templates: "true"
spec:
  replicas: 1
  selector:
    matchLabels: {app: app-$i}
  template:
    metadata:
      labels: {app: app-$i}
    spec:
      containers:
      - name: app
        image: $image
        env:
        - {name: PUBLIC_HOST, value: "app-$i.$host.example.com"}
        ports:
        - containerPort: 8080
        resources:
          requests: {cpu: 100m, memory: 128Mi}
---
apiVersion: v1
kind: Service
metadata:
  name: app-$i
  namespace: apps
spec:
  selector: {app: app-$i}
  ports:
  - port: 80
    targetPort: 8080
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: app-$i
  namespace: apps
data:
  cluster: unknown
  LOG_LEVEL: info
YAML
  done
  cat >"$dir/app/secret.yaml" <<YAML
apiVersion: v1
kind: Secret
metadata:
  name: credentials
  namespace: apps
data:
  username: YWRtaW4=
  password: $([ "$side" = 1 ] && echo czNjcjN0IQ== || echo aHVudGVyMg==)
YAML
}

row() {
  local name=$1; shift
  best_of "$runs" "$WORK/out.txt" -- "$@" || true
  printf '%-24s %8s %8s %9.1f %11s\n' "$name" "$BEST_WALL" "$BEST_CPU" \
    "$(awk -v k="$PEAK_KB" 'BEGIN {print k / 1024}')" "$(wc -c <"$WORK/out.txt")"
}
objects=$(( apps * 3 + 1 ))
echo "review of $clusters clusters x $objects objects (best of $runs; $(nproc) CPUs, load $(cut -d' ' -f1 /proc/loadavg))"
for scenario in distinct grouped; do
  host=$([ $scenario = distinct ] && echo '{{.clusterName}}.{{.region}}' || echo 'www.{{.region}}')
  rm -rf "$WORK/before" "$WORK/after"
  package "$WORK/before" 0 "$host"
  package "$WORK/after" 1 "$host"
  cd "$WORK/after"
  echo "== $scenario: $("$TAILOR" diff --base ../before tailor.yaml app 2>/dev/null | head -1)"
  echo "   $("$TAILOR" diff --base ../before tailor.yaml app --format json 2>/dev/null | grep -c '"clusters": \[') groups"
  printf '%-24s %8s %8s %9s %11s\n' run wall_s cpu_s peak_MB out_bytes
  [ $scenario = distinct ] && row "render (one side)" "$TAILOR" tailor.yaml app
  for format in text markdown json html; do
    row "review --format $format" "$TAILOR" diff --base ../before tailor.yaml app --format "$format"
  done
done
