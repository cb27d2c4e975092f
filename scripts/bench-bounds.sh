#!/usr/bin/env bash
# Time and peak memory (/usr/bin/time -v) of the paths issue 26 found superlinear, at two
# sizes each, with the growth goal (at most 9x for 8x the input):
#
# - a strategic merge on a list the patch touches: a Fleet bundle whose yaml overlay patches
#   one container of a Deployment with 1,000 / 8,000 containers (apimachinery's merge, in
#   standalone mode);
# - replacements selecting by kind and name: 500 / 4,000 ConfigMap+Deployment pairs with one
#   replacement per pair (`tailor-bench-gen pairs-each N`, 4,000 replacements over 8,000
#   objects at the large size).
#
#   scripts/bench-bounds.sh
#
# TAILOR_BENCH_BASELINE=/path/to/tailor times that binary too, each of its runs alternating
# with one of the current binary's, and checks that both write the same bytes. Runs
# TAILOR_BENCH_RUNS times each (default 3). Exits 1 when a goal is missed.
set -euo pipefail
. "$(dirname "$0")/bench-lib.sh"

runs=${TAILOR_BENCH_RUNS:-3}
base=${TAILOR_BENCH_BASELINE:-}
build
declare -A wall

report() { # label
  printf '%s: %.3f s, peak %.1f MB' "$1" "$T_WALL" "$(awk -v k="$T_KB" 'BEGIN { print k / 1024 }')"
  [ -z "$base" ] || printf ' (baseline %.3f s, %.1f MB)' "$B_WALL" "$(awk -v k="$B_KB" 'BEGIN { print k / 1024 }')"
  printf '\n'
}

growth_goal() { # what small large key
  local g
  g=$(awk -v a="${wall[$4,$2]}" -v b="${wall[$4,$3]}" 'BEGIN { a = (a < 0.01 ? 0.01 : a); printf "%.1f", b / a }')
  goal "$1: growth $2 -> $3 ${g}x (<= 9x)" "$(awk -v g="$g" 'BEGIN { print (g <= 9) }')"
}

# A Fleet bundle: fleet.yaml picks overlay `one` for the cluster, whose deployment_patch.yaml
# changes the image of the middle container.
fleet_bundle() { # dir n
  mkdir -p "$1/bundle/overlays/one"
  printf '%s\n' 'apiVersion: tailor.dev/v1alpha1' 'kind: Tailor' 'metadata: {name: t}' 'spec:' \
    '  cluster: {name: c1, labels: {env: x}}' >"$1/tailor.yaml"
  printf '%s\n' 'targetCustomizations:' '- name: all' '  clusterSelector: {matchLabels: {env: x}}' \
    '  yaml: {overlays: [one]}' >"$1/bundle/fleet.yaml"
  awk -v n="$2" 'BEGIN {
    print "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 1"
    print "  template:\n    spec:\n      containers:"
    for (i = 0; i < n; i++) printf "      - name: c%d\n        image: nginx\n", i }' >"$1/bundle/deployment.yaml"
  printf 'spec:\n  template:\n    spec:\n      containers:\n      - name: c%d\n        image: patched\n' \
    $(($2 / 2)) >"$1/bundle/overlays/one/deployment_patch.yaml"
}

for n in 1000 8000; do
  dir="$WORK/fleet-$n"
  fleet_bundle "$dir" "$n"
  STDIN= best_pair "$runs" -- "$dir/tailor.yaml" "$dir/bundle"
  wall[fleet,$n]=$T_WALL
  report "$(printf 'strategic merge (Fleet overlay), %5d containers' "$n")"
  rm -rf "$dir"
done
growth_goal "strategic merge on a merged list (containers)" 1000 8000 fleet

for n in 500 4000; do
  input="$WORK/pairs-each-$n.yaml"
  "$GEN" pairs-each "$n" >"$input"
  STDIN="$input" best_pair "$runs" --
  wall[repl,$n]=$T_WALL
  report "$(printf 'replacements by name, %4d replacements over %5d objects' "$n" $((2 * n)))"
  rm -f "$input"
done
growth_goal "replacements by name (pairs)" 500 4000 repl
exit $status
