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
