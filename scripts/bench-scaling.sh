#!/usr/bin/env bash
# Scaling report: time and peak memory (/usr/bin/time -v) of `tailor` against N.
#
#   scripts/bench-scaling.sh [WORKLOAD] [N...]
#
# WORKLOAD: full (default: N exported Deployments/Services/ConfigMaps through the full Tailor
# pipeline), noop (N exported Deployments, nothing changes), pairs (N ConfigMap+Deployment
# pairs, 2 replacements). N defaults to 100 1000 10000 100000. Each size runs
# TAILOR_BENCH_RUNS times (default 3) and the fastest run is reported. The last column is the
# time growth divided by the N growth from the previous row: about 1.0 means linear.
set -euo pipefail
. "$(dirname "$0")/bench-lib.sh"

workload=full
case "${1:-}" in full|noop|pairs) workload=$1; shift ;; esac
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(100 1000 10000 100000)
runs=${TAILOR_BENCH_RUNS:-3}
build

printf '%-8s %9s %9s %9s %10s %10s %9s %9s\n' N input_MB wall_s cpu_s peak_MB us/object peak/in growth
prev_n=""; prev_t=""; worst=0
for n in "${sizes[@]}"; do
  input="$WORK/$workload-$n.yaml"
  "$GEN" "$workload" "$n" >"$input"
  STDIN=$input best_of "$runs" "$WORK/out.yaml" -- "$TAILOR"
  bytes=$(stat -c %s "$input")
  growth="-"
  # Start-up and timer noise: growth is only meaningful from 0.05 s on.
  if [ -n "$prev_n" ] && awk -v pt="$prev_t" 'BEGIN { exit !(pt >= 0.05) }'; then
    growth=$(awk -v t="$BEST_WALL" -v pt="$prev_t" -v n="$n" -v pn="$prev_n" \
      'BEGIN { printf "%.2f", (t / pt) / (n / pn) }')
    worst=$(awk -v g="$growth" -v w="$worst" 'BEGIN { print (g > w ? g : w) }')
  fi
  awk -v n="$n" -v b="$bytes" -v t="$BEST_WALL" -v c="$BEST_CPU" -v kb="$PEAK_KB" -v g="$growth" \
    'BEGIN { printf "%-8d %9.1f %9.3f %9.3f %10.1f %10.1f %9.2f %9s\n",
      n, b / 1e6, t, c, kb / 1024, t * 1e6 / n, kb * 1024 / b, g }'
  prev_n=$n; prev_t=$BEST_WALL
done
echo "largest growth ratio: $worst (1.00 = linear; the target allows 1.10 from 10,000 to 100,000 objects)"
