#!/usr/bin/env bash
# tailor against `kubectl kustomize` on the same replacement and patch workloads.
#
#   scripts/bench-compare.sh [PAIRS] [replacements|patches]   (default: 2000 pairs, both)
#
# Replacements: two replacements copy ConfigMap data into every Deployment. Patches: a
# strategic-merge and a JSON 6902 patch on every Deployment. Prints both times (best of
# TAILOR_BENCH_RUNS, default 3 for tailor, 1 for kustomize) and the ratio. Skips, with a
# message, when kubectl is missing or tailor does not have the stage yet.
set -euo pipefail
. "$(dirname "$0")/bench-lib.sh"

pairs=${1:-2000}
only=${2:-}
KUBECTL=${KUBECTL:-kubectl}
if ! command -v "$KUBECTL" >/dev/null; then
  echo "SKIPPED: $KUBECTL not found; install kubectl (scripts/install-tools.sh) to compare" >&2
  exit 0
fi
build
runs=${TAILOR_BENCH_RUNS:-3}
kruns=${TAILOR_BENCH_KUSTOMIZE_RUNS:-1}

compare() {
  local name=$1 gen=$2 kgen=$3 check=$4
  if [ -n "$only" ] && [ "$only" != "$name" ]; then
    return 0
  fi
  local input="$WORK/$name.yaml" kdir="$WORK/k-$name"
  "$GEN" "$gen" "$pairs" >"$input"
  "$GEN" "$kgen" "$pairs" "$kdir"
  if ! STDIN=$input best_of "$runs" "$WORK/$name.tailor.out" -- "$TAILOR"; then
    echo "SKIPPED: $name: tailor failed on this workload (stage not in this build?)"
    return 0
  fi
  local t=$BEST_WALL
  STDIN= best_of "$kruns" "$WORK/$name.kustomize.out" -- "$KUBECTL" kustomize "$kdir"
  local k=$BEST_WALL
  local tn kn
  # Only the items count: the echoed functionConfig holds the patch text too.
  tn=$(sed '/^functionConfig:/,$d' "$WORK/$name.tailor.out" | grep -c -- "$check" || true)
  kn=$(grep -c -- "$check" "$WORK/$name.kustomize.out" || true)
  if [ "$tn" != "$kn" ]; then
    echo "FAIL: $name: outputs differ ($tn vs $kn lines matching '$check')" >&2
    exit 1
  fi
  awk -v n="$name" -v p="$pairs" -v t="$t" -v k="$k" 'BEGIN {
    tt = (t < 0.001 ? 0.001 : t)
    printf "%-13s %6d pairs   tailor %8.3f s   kubectl kustomize %8.3f s   ratio %7.0fx\n", n, p, t, k, k / tt }'
}

compare replacements pairs kustomize-pairs "image: registry.example.com/app-0:2.0.0"
compare patches patches kustomize-patches "replicas: 2"
