#!/usr/bin/env bash
# Time and peak memory of a pass that changes nothing, over ordinary small manifests (a
# Deployment and a Service per app, about 430 bytes each) in every shape tools hand them over,
# at two sizes, with `kpt fn source | kpt fn sink` over the same objects in the same run.
#
#   scripts/bench-shapes.sh [N_SMALL N_LARGE]        (default 4000 32000 objects)
#
# Shapes: a ResourceList of block YAML items (`small`), of flow items (`small-flow`, what kpt
# sends for .json files), the same objects as the API server serves them written by PyYAML
# (`small-pyyaml`: sorted keys, `- ` lists flush with their key, uid/resourceVersion/status
# scalars, as `kubectl get -o yaml` piped through Python tools hands them over), the same list
# as one line of JSON (`json-line`) and pretty-printed (`json-pretty`); and a directory of YAML files in standalone mode, written back with
# --output-dir (`dir`) and as a stream (`dir-stream`). Each row is the best of
# TAILOR_BENCH_RUNS runs (default 3) under /usr/bin/time; the kpt pipeline (the same objects as
# a directory, `kpt fn source DIR | kpt fn sink OUT`) runs TAILOR_BENCH_KPT_RUNS times
# (default 1). Columns: MB/s is input bytes over wall time; peak/in is peak RSS over input
# bytes (a directory's input is its files' bytes); kpt_s and kpt_MB are the kpt pipeline's
# wall time and peak RSS (its largest process); kpt/tailor is its wall time over tailor's.
#
# TAILOR_BENCH_BASELINE=/path/to/tailor adds that binary's time and peak per row, each of its
# runs alternating with one of the current binary's (this VM's speed drifts by 20-50% over
# minutes, so only runs taken together compare).
#
# Then a strategic merge over a keyed list of 1,000 and 8,000 entries, regular (`env`) and not
# (`ports` with and without `protocol`) (issue 26: growth at most 9x), scripts/bench-bounds.sh (a merged list, replacements by name), and a fan-out of
# 200 objects to 250 / 2,000 / 20,000 clusters with --output-dir (growth at most 9x per 8x
# clusters, peak within 2x of the 250-cluster run), 200 objects to 2,000 clusters in 10
# label groups (one rendering per group, and every destination rendered for comparison), and a
# Fleet Helm bundle's 50-template chart rendered for 125 to 1,000 clusters (issue 28: linear
# growth; a destination costs no more than one `tailor helm template` run), and a bundle with 1 MB
# of values for 100 and 500 clusters (CPU a cluster). Then the goals of issue 19: growth from N_SMALL to N_LARGE objects (at most 9x for 8x the
# objects); one-line JSON within 1.5x of pretty-printed, on a list whose one-line JSON is about
# 16 MB (TAILOR_BENCH_JSON_N objects, default 44,000); at least 100 MB/s on small block, flow
# and PyYAML objects (issue 26 adds the last); standalone peak under 2x the input. Exits 1 when a goal is missed.
# TAILOR_BENCH_SHAPES_ONLY=1 stops after the shapes' goals.
set -euo pipefail
. "$(dirname "$0")/bench-lib.sh"

small_n=${1:-4000}
large_n=${2:-32000}
json_n=${TAILOR_BENCH_JSON_N:-44000}
runs=${TAILOR_BENCH_RUNS:-3}
kruns=${TAILOR_BENCH_KPT_RUNS:-1}
base=${TAILOR_BENCH_BASELINE:-}
KPT=${KPT:-kpt}
build

declare -A wall bytes peak kpt_wall kpt_kb
shapes=(small small-flow small-pyyaml json-line json-pretty dir dir-stream)

header() {
  printf '%-12s %7s %8s %8s %8s %8s %8s %9s' shape N input_MB wall_s cpu_s MB/s peak_MB peak/in
  printf ' %8s %8s %10s' kpt_s kpt_MB kpt/tailor
  [ -z "$base" ] || printf ' %10s %10s' base_wall base_peak
  printf '\n'
}

row() { # shape n input_bytes
  local shape=$1 n=$2 b=$3
  wall[$shape,$n]=$T_WALL; bytes[$shape,$n]=$b; peak[$shape,$n]=$T_KB
  awk -v s="$shape" -v n="$n" -v b="$b" -v t="$T_WALL" -v c="$T_CPU" -v kb="$T_KB" \
      -v k="${kpt_wall[$n]}" -v kk="${kpt_kb[$n]}" -v bw="$B_WALL" -v bk="$B_KB" -v base="$base" 'BEGIN {
    tt = (t < 0.001 ? 0.001 : t)
    printf "%-12s %7d %8.1f %8.3f %8.3f %8.0f %8.1f %9.2f %8.2f %8.0f %10.0fx",
      s, n, b / 1e6, t, c, b / 1e6 / tt, kb / 1024, kb * 1024 / b, k, kk / 1024, k / tt
    if (base != "") printf " %10.3f %10.1f", bw, bk / 1024
    printf "\n" }'
}

# Ends the line of a run best_pair just timed: the baseline's wall (with DIGITS decimals) and
# peak, when there is a baseline.
baseline_end() { # digits
  [ -z "$base" ] || printf ' (baseline %.*f s, %.1f MB)' "$1" "$B_WALL" "$(awk -v k="$B_KB" 'BEGIN { print k / 1024 }')"
  printf '\n'
}

measure() { # n
  local n=$1 shape input dir="$WORK/dir-$1"
  rm -rf "$dir"
  "$GEN" small-dir "$n" "$dir"
  STDIN= best_of "$kruns" /dev/null -- sh -c \
    "rm -rf '$WORK/kpt-out' && $KPT fn source '$dir/manifests' | $KPT fn sink '$WORK/kpt-out'"
  kpt_wall[$n]=$BEST_WALL; kpt_kb[$n]=$PEAK_KB
  for shape in small small-flow small-pyyaml json-line json-pretty; do
    input="$WORK/$shape-$n.txt"
    "$GEN" "$shape" "$n" >"$input"
    STDIN=$input best_pair "$runs" --
    row "$shape" "$n" "$(stat -c %s "$input")"
    rm -f "$input"
  done
  local in_bytes
  in_bytes=$(find "$dir/manifests" -type f -printf '%s\n' | awk '{ s += $1 } END { print s }')
  STDIN= best_pair "$runs" -- "$dir/tailor.yaml" "$dir/manifests" --output-dir "$WORK/outdir"
  # Every file written back, byte for byte (nothing changes).
  if ! diff -r -q "$dir/manifests" "$WORK/outdir" >/dev/null; then
    echo "FAIL: --output-dir did not write the files back unchanged" >&2
    exit 1
  fi
  row dir "$n" "$in_bytes"
  STDIN= best_pair "$runs" -- "$dir/tailor.yaml" "$dir/manifests"
  row dir-stream "$n" "$in_bytes"
  rm -rf "$dir" "$WORK/kpt-out" "$WORK/outdir"
}

header
measure "$small_n"
measure "$large_n"

echo
for shape in "${shapes[@]}"; do
  g=$(awk -v a="${wall[$shape,$small_n]}" -v b="${wall[$shape,$large_n]}" \
    'BEGIN { a = (a < 0.01 ? 0.01 : a); printf "%.1f", b / a }')
  goal "$shape: growth ${small_n} -> ${large_n} objects ${g}x (<= 9x)" \
    "$(awk -v g="$g" 'BEGIN { print (g <= 9) }')"
done
for shape in small small-flow small-pyyaml; do
  r=$(awk -v b="${bytes[$shape,$large_n]}" -v t="${wall[$shape,$large_n]}" 'BEGIN { printf "%.0f", b / 1e6 / t }')
  goal "$shape: $r MB/s at $large_n objects (>= 100 MB/s)" "$(awk -v r="$r" 'BEGIN { print (r >= 100) }')"
done
for shape in dir dir-stream; do
  r=$(awk -v kb="${peak[$shape,$large_n]}" -v b="${bytes[$shape,$large_n]}" 'BEGIN { printf "%.2f", kb * 1024 / b }')
  goal "$shape: peak ${r}x the input at $large_n objects (< 2x)" "$(awk -v r="$r" 'BEGIN { print (r < 2) }')"
done
# TAILOR_BENCH_SHAPES_ONLY=1: the shapes above and their goals only (a minute, against the
# half hour of the fan-outs and bundles below), for a change to the reading and writing path.
if [ -n "${TAILOR_BENCH_SHAPES_ONLY:-}" ]; then
  exit "$status"
fi

# One-line against pretty-printed JSON, the same list, one-line about 16 MB.
for shape in json-line json-pretty; do
  input="$WORK/$shape-$json_n.txt"
  "$GEN" "$shape" "$json_n" >"$input"
  STDIN=$input best_of "$runs" /dev/null -- "$TAILOR"
  wall[$shape,$json_n]=$BEST_WALL; bytes[$shape,$json_n]=$(stat -c %s "$input")
  rm -f "$input"
done
r=$(awk -v a="${wall[json-line,$json_n]}" -v b="${wall[json-pretty,$json_n]}" 'BEGIN { printf "%.2f", a / b }')
goal "$(awk -v n="$json_n" -v lb="${bytes[json-line,$json_n]}" -v l="${wall[json-line,$json_n]}" \
  -v pb="${bytes[json-pretty,$json_n]}" -v p="${wall[json-pretty,$json_n]}" -v r="$r" 'BEGIN {
  printf "json: %d objects, one line (%.1f MB) %.3f s, pretty (%.1f MB) %.3f s: %sx (<= 1.5x)",
    n, lb / 1e6, l, pb / 1e6, p, r }')" "$(awk -v r="$r" 'BEGIN { print (r <= 1.5) }')"
# Strategic merge over a keyed list the patch does not touch (issue 26): a Deployment with N
# `env` entries patched on `replicas` in standalone mode, at 1,000 and 8,000 entries.
smp_dir="$WORK/smp"
mkdir -p "$smp_dir"
printf '%s\n' 'apiVersion: tailor.dev/v1alpha1' 'kind: Tailor' 'metadata: {name: t}' 'spec:' \
  '  patches:' '  - patch: |' '      apiVersion: apps/v1' '      kind: Deployment' \
  '      metadata: {name: web}' '      spec: {replicas: 3}' >"$smp_dir/tailor.yaml"
for n in 1000 8000; do
  awk -v n="$n" 'BEGIN {
    print "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 1"
    print "  template:\n    spec:\n      containers:\n      - name: web\n        image: nginx\n        env:"
    for (i = 0; i < n; i++) printf "        - name: V%d\n          value: \"%d\"\n", i, i }' >"$smp_dir/web-$n.yaml"
  STDIN= best_pair "$runs" -- "$smp_dir/tailor.yaml" "$smp_dir/web-$n.yaml"
  wall[smp,$n]=$T_WALL
  printf 'strategic merge, %5d env entries: %.3f s, peak %.1f MB' "$n" "$T_WALL" "$(awk -v k="$T_KB" 'BEGIN { print k / 1024 }')"
  baseline_end 3
  # The same patch on a list that is not regular: N `ports`, one in three with a `protocol`
  # (merge keys containerPort and protocol; kustomize's element algorithm, through indexes).
  awk -v n="$n" 'BEGIN {
    print "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 1"
    print "  template:\n    spec:\n      containers:\n      - name: web\n        image: nginx\n        ports:"
    for (i = 0; i < n; i++) { printf "        - containerPort: %d\n", i; if (i % 3 == 0) print "          protocol: TCP" } }' >"$smp_dir/ports-$n.yaml"
  STDIN= best_pair "$runs" -- "$smp_dir/tailor.yaml" "$smp_dir/ports-$n.yaml"
  wall[smp-ports,$n]=$T_WALL
  printf 'strategic merge, %5d ports (irregular): %.3f s, peak %.1f MB' "$n" "$T_WALL" "$(awk -v k="$T_KB" 'BEGIN { print k / 1024 }')"
  baseline_end 3
done
rm -rf "$smp_dir"
for what in smp:env smp-ports:ports; do
  key=${what%%:*} label=${what#*:}
  g=$(awk -v a="${wall[$key,1000]}" -v b="${wall[$key,8000]}" 'BEGIN { a = (a < 0.01 ? 0.01 : a); printf "%.1f", b / a }')
  goal "strategic merge: growth 1,000 -> 8,000 $label entries ${g}x (<= 9x)" "$(awk -v g="$g" 'BEGIN { print (g <= 9) }')"
done
# Strategic merge on a list the patch touches, replacements by name: scripts/bench-bounds.sh.
TAILOR_BENCH_NO_BUILD=1 TAILOR_BENCH_DIR="$WORK/bounds" "$(dirname "$0")/bench-bounds.sh" || status=1
# Fan-out of 200 objects to 250 / 2,000 / 20,000 clusters with --output-dir and to stdout (issue 26): the
# destinations are written as they are finished, so time grows at most 9x per 8x clusters and
# peak memory stays within 2x of the 250-cluster run. TAILOR_BENCH_FANOUT sets the counts (the
# first is the reference); the generator's ResourceList is split into CONFIG and objects.
fan_dir="$WORK/fanout"
split_list() { # the generator's ResourceList, into CONFIG and objects
  awk -v cfg="$fan_dir/tailor.yaml" -v objs="$fan_dir/objects.yaml" '
    /^items:/ { part = "items"; next }
    /^functionConfig:/ { part = "config"; next }
    /^[^ -]/ { part = ""; next }
    part == "items" && /^- / { if (n++) print "---" > objs; print substr($0, 3) > objs; next }
    part == "items" { print substr($0, 3) > objs; next }
    part == "config" { print substr($0, 3) > cfg }'
}
# One line for the run best_pair just timed: LABEL: wall, peak (and the baseline's).
timed_line() {
  printf '%s: %.2f s, peak %.1f MB' "$1" "$T_WALL" "$(awk -v k="$T_KB" 'BEGIN { print k / 1024 }')"
  baseline_end 2
}
mkdir -p "$fan_dir"
read -r -a fan_counts <<<"${TAILOR_BENCH_FANOUT:-250 2000 20000}"
for c in "${fan_counts[@]}"; do
  "$GEN" fanout 200 "$c" | split_list
  STDIN= best_pair 1 -- "$fan_dir/tailor.yaml" "$fan_dir/objects.yaml" --output-dir "$WORK/outdir"
  wall[fan,$c]=$T_WALL; peak[fan,$c]=$T_KB
  timed_line "$(printf 'fan-out, 200 objects to %5d clusters, --output-dir' "$c")"
  # The same fan-out as a stream on stdout (written to a file: 1.8 GB at 20,000 clusters).
  STDIN= best_pair 1 -- "$fan_dir/tailor.yaml" "$fan_dir/objects.yaml"
  wall[fanout_stdout,$c]=$T_WALL; peak[fanout_stdout,$c]=$T_KB
  timed_line "$(printf 'fan-out, 200 objects to %5d clusters, stdout' "$c")"
  rm -f "$WORK/out.t" "$WORK/out.b"
  rm -f "$fan_dir/tailor.yaml" "$fan_dir/objects.yaml"
  clean_out
done
# The same 200 objects to 2,000 clusters in 10 label groups, each group with a target
# customization (issue 26: render once per distinct destination): deduplicated, and with
# TAILOR_FAN_OUT_DEDUP=0 (every destination rendered on its own) for comparison.
"$GEN" fanout 200 2000 10 | split_list
for dedup in 1 0; do
  STDIN= TAILOR_FAN_OUT_DEDUP=$dedup best_pair 1 -- "$fan_dir/tailor.yaml" "$fan_dir/objects.yaml" --output-dir "$WORK/outdir"
  timed_line "fan-out, 200 objects to 2000 clusters in 10 groups, --output-dir, TAILOR_FAN_OUT_DEDUP=$dedup"
  clean_out
done
# The same 200 objects with a template reading the `region` property, to 2,000 clusters in 10
# regions and no target customization: each cluster's properties hold its own clusterName,
# yet the fan-out renders once per region (only the properties the templates name count).
"$GEN" fanout 200 2000 10 properties | split_list
for dedup in 1 0; do
  STDIN= TAILOR_FAN_OUT_DEDUP=$dedup best_pair 1 -- "$fan_dir/tailor.yaml" "$fan_dir/objects.yaml" --output-dir "$WORK/outdir"
  timed_line "fan-out, 200 templated objects to 2000 clusters in 10 regions, --output-dir, TAILOR_FAN_OUT_DEDUP=$dedup"
  clean_out
done
rm -rf "$fan_dir"
first=${fan_counts[0]}
for ((k = 1; k < ${#fan_counts[@]}; k++)); do
  prev=${fan_counts[k - 1]} c=${fan_counts[k]}
  g=$(awk -v a="${wall[fan,$prev]}" -v b="${wall[fan,$c]}" -v p="$prev" -v c="$c" 'BEGIN {
    a = (a < 0.01 ? 0.01 : a); printf "%.1f", (b / a) * 8 / (c / p) }')
  goal "fan-out: time growth $prev -> $c clusters ${g}x per 8x (<= 9x)" "$(awk -v g="$g" 'BEGIN { print (g <= 9) }')"
  r=$(awk -v a="${peak[fan,$first]}" -v b="${peak[fan,$c]}" 'BEGIN { printf "%.2f", b / a }')
  goal "fan-out: peak at $c clusters ${r}x the $first-cluster run (<= 2x)" "$(awk -v r="$r" 'BEGIN { print (r <= 2) }')"
  g=$(awk -v a="${wall[fanout_stdout,$prev]}" -v b="${wall[fanout_stdout,$c]}" -v p="$prev" -v c="$c" 'BEGIN {
    a = (a < 0.01 ? 0.01 : a); printf "%.1f", (b / a) * 8 / (c / p) }')
  goal "fan-out to stdout: time growth $prev -> $c clusters ${g}x per 8x (<= 9x)" "$(awk -v g="$g" 'BEGIN { print (g <= 9) }')"
  r=$(awk -v a="${peak[fanout_stdout,$first]}" -v b="${peak[fanout_stdout,$c]}" 'BEGIN { printf "%.2f", b / a }')
  goal "fan-out to stdout: peak at $c clusters ${r}x the $first-cluster run (<= 2x)" "$(awk -v r="$r" 'BEGIN { print (r <= 2) }')"
done
# A Fleet Helm bundle (issue 28): a 50-template chart (tailor-bench-gen fleet-helm: Deployments,
# Services and ConfigMaps using the chart's helpers, toYaml, range) rendered per cluster for
# 125 / 250 / 500 / 1,000 clusters, written as a stream. Time grows linearly in clusters (at
# most 2.5x per doubling), peak memory at most linearly, and one destination costs no more
# than one `tailor helm template` run of the same chart. TAILOR_BENCH_FLEET_HELM sets the
# counts.
fh_dir="$WORK/fleet-helm"
read -r -a fh_counts <<<"${TAILOR_BENCH_FLEET_HELM:-125 250 500 1000}"
for c in "${fh_counts[@]}"; do
  rm -rf "$fh_dir"
  "$GEN" fleet-helm 50 "$c" "$fh_dir"
  STDIN= best_pair "$runs" -- "$fh_dir/tailor.yaml" "$fh_dir/bundle"
  wall[fh,$c]=$T_WALL; peak[fh,$c]=$T_KB
  printf 'fleet helm, 50 templates to %4d clusters: %.2f s (%.2f ms a cluster), peak %.1f MB' \
    "$c" "$T_WALL" "$(awk -v t="$T_WALL" -v c="$c" 'BEGIN { print t * 1000 / c }')" \
    "$(awk -v k="$T_KB" 'BEGIN { print k / 1024 }')"
  baseline_end 2
done
# A Fleet Helm bundle whose values are large (tailor-bench-gen fleet-values: a 1 MB values file
# of 2,000 components of nested maps and lists, `${ }` cluster values, two customizations; a
# 4-template chart): what building each cluster's values costs, CPU a cluster at 100 and 500
# clusters. TAILOR_BENCH_FLEET_VALUES sets the counts.
fv_dir="$WORK/fleet-values"
read -r -a fv_counts <<<"${TAILOR_BENCH_FLEET_VALUES:-100 500}"
for c in "${fv_counts[@]}"; do
  rm -rf "$fv_dir"
  "$GEN" fleet-values 2000 "$c" "$fv_dir"
  STDIN= best_pair "$runs" -- "$fv_dir/tailor.yaml" "$fv_dir/bundle"
  printf 'fleet helm, 1 MB of values to %4d clusters: %.2f s, %.1f ms of CPU a cluster, peak %.1f MB' \
    "$c" "$T_WALL" "$(awk -v t="$T_CPU" -v c="$c" 'BEGIN { print t * 1000 / c }')" \
    "$(awk -v k="$T_KB" 'BEGIN { print k / 1024 }')"
  baseline_end 2
done
rm -rf "$fv_dir"
STDIN= best_pair "$runs" -- helm template bench "$fh_dir/bundle/chart"
fh_one=$T_WALL
printf 'tailor helm template, the same chart once: %.4f s\n' "$fh_one"
rm -rf "$fh_dir"
for ((k = 1; k < ${#fh_counts[@]}; k++)); do
  prev=${fh_counts[k - 1]} c=${fh_counts[k]}
  g=$(awk -v a="${wall[fh,$prev]}" -v b="${wall[fh,$c]}" -v p="$prev" -v c="$c" 'BEGIN {
    a = (a < 0.01 ? 0.01 : a); printf "%.2f", (b / a) * 2 / (c / p) }')
  goal "fleet helm: time growth $prev -> $c clusters ${g}x per doubling (<= 2.5x)" "$(awk -v g="$g" 'BEGIN { print (g <= 2.5) }')"
done
first=${fh_counts[0]} last=${fh_counts[${#fh_counts[@]} - 1]}
r=$(awk -v a="${peak[fh,$first]}" -v b="${peak[fh,$last]}" 'BEGIN { printf "%.2f", b / a }')
goal "fleet helm: peak at $last clusters ${r}x the $first-cluster run (<= $((last / first))x, linear)" \
  "$(awk -v r="$r" -v l="$((last / first))" 'BEGIN { print (r <= l) }')"
per=$(awk -v t="${wall[fh,$last]}" -v c="$last" 'BEGIN { printf "%.4f", t / c }')
goal "fleet helm: $per s a cluster at $last clusters (<= one helm template run, $fh_one s)" \
  "$(awk -v p="$per" -v o="$fh_one" 'BEGIN { print (p <= o) }')"
exit $status
