# Shared by scripts/bench-*.sh: build the release binaries once, time commands.
# Sourced, not run.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
TAILOR="$CARGO_TARGET_DIR/release/tailor"
GEN="$CARGO_TARGET_DIR/release/tailor-bench-gen"
WORK="${TAILOR_BENCH_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/tailor-bench.XXXXXX")}"
mkdir -p "$WORK"

build() {
  if [ -z "${TAILOR_BENCH_NO_BUILD:-}" ]; then
    (cd "$ROOT" && cargo build --release --quiet -p tailor -p tailor-bench) || exit 1
  fi
  [ -x "$TAILOR" ] && [ -x "$GEN" ] || { echo "FAIL: $TAILOR or $GEN missing" >&2; exit 1; }
}

# What starting a command under /usr/bin/time and timeout costs (the fastest of five runs of
# /bin/true): taken off each wall time below, which bash measures to the microsecond
# (/usr/bin/time's own wall clock counts in 10 ms steps, a tenth of a small run).
WRAP_OVERHEAD=""
wrap_overhead() {
  local i s e best=""
  for ((i = 0; i < 5; i++)); do
    s=$EPOCHREALTIME
    /usr/bin/time -v -o /dev/null timeout 900 /bin/true
    e=$EPOCHREALTIME
    best=$(awk -v s="$s" -v e="$e" -v b="$best" 'BEGIN { d = e - s; print (b == "" || d < b ? d : b) }')
  done
  WRAP_OVERHEAD=$best
}

# best_of RUNS OUT_FILE -- CMD...: runs CMD (stdin from $STDIN if set) RUNS times under
# /usr/bin/time -v; sets BEST_WALL (s), BEST_CPU (user+sys s) and PEAK_KB of the fastest run.
best_of() {
  local runs=$1 out=$2; shift 3
  BEST_WALL=""; BEST_CPU=""; PEAK_KB=""
  [ -n "$WRAP_OVERHEAD" ] || wrap_overhead
  local i stats="$WORK/time.txt" start end
  for ((i = 0; i < runs; i++)); do
    start=$EPOCHREALTIME
    if ! /usr/bin/time -v -o "$stats" timeout "${TAILOR_BENCH_TIMEOUT:-900}" "$@" \
        <"${STDIN:-/dev/null}" >"$out" 2>"$WORK/stderr.txt"; then
      echo "FAIL: $* exited non-zero:" >&2
      head -5 "$WORK/stderr.txt" >&2
      return 1
    fi
    end=$EPOCHREALTIME
    local wall cpu kb
    wall=$(awk -v s="$start" -v e="$end" -v o="$WRAP_OVERHEAD" 'BEGIN {
      d = e - s - o; printf "%.4f", (d < 0.0001 ? 0.0001 : d) }')
    cpu=$(awk -F': ' '/User time/ {u = $2} /System time/ {s = $2} END {printf "%.3f", u + s}' "$stats")
    kb=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$stats")
    if [ -z "$BEST_WALL" ] || awk -v a="$wall" -v b="$BEST_WALL" 'BEGIN {exit !(a < b)}'; then
      BEST_WALL=$wall; BEST_CPU=$cpu; PEAK_KB=$kb
    fi
  done
}

# best_pair RUNS -- CMD...: runs "$TAILOR" CMD... and, with a baseline ($base, from
# TAILOR_BENCH_BASELINE), "$base" CMD...
# alternately, RUNS times each; sets T_WALL/T_CPU/T_KB (current) and B_WALL/B_KB (baseline).
best_pair() {
  local n=$1; shift 2
  local i
  T_WALL=""; B_WALL=""; B_KB=""
  for ((i = 0; i < n; i++)); do
    if [ -n "$base" ]; then
      clean_out
      best_of 1 "$WORK/out.b" -- "$base" "$@"
      if [ -z "$B_WALL" ] || awk -v a="$BEST_WALL" -v b="$B_WALL" 'BEGIN {exit !(a < b)}'; then
        B_WALL=$BEST_WALL; B_KB=$PEAK_KB
      fi
    fi
    clean_out
    best_of 1 "$WORK/out.t" -- "$TAILOR" "$@"
    if [ -z "$T_WALL" ] || awk -v a="$BEST_WALL" -v b="$T_WALL" 'BEGIN {exit !(a < b)}'; then
      T_WALL=$BEST_WALL; T_CPU=$BEST_CPU; T_KB=$PEAK_KB
    fi
  done
  if [ -n "$base" ] && ! cmp -s "$WORK/out.b" "$WORK/out.t"; then
    echo "FAIL: the baseline's output differs from the current binary's ($*)" >&2
    exit 1
  fi
}

# --output-dir must not exist (or be empty) for each run.
clean_out() { rm -rf "$WORK/outdir"; }

# goal TEXT OK: prints a goal met (OK = 1) or missed, which sets status=1.
status=0
goal() {
  if [ "$2" = 1 ]; then echo "met:    $1"; else echo "MISSED: $1"; status=1; fi
}
