#!/usr/bin/env bash
# Fuzzing tailor with cargo-fuzz (libFuzzer). The targets live in fuzz/ (its own workspace).
#
#   scripts/fuzz.sh --short [TARGET...]   a few seconds per target (CI smoke run; default 10s)
#   scripts/fuzz.sh --long  [TARGET...]   minutes per target (default 600s), AddressSanitizer
#                                         when a nightly toolchain is installed
#   scripts/fuzz.sh --seeds [TARGET...]   run each target once over its seeds only, no fuzzing
#   scripts/fuzz.sh --list                the targets
#   options: --time SECONDS (per target), --jobs N (parallel libFuzzer jobs per target)
#
# What runs where: `cargo fuzz` with `--sanitizer none` works on the stable toolchain (cargo-fuzz
# only needs -Z flags for sanitizers), so --short and --seeds use stable; --long uses
# `cargo +nightly fuzz` with ASan when nightly is installed, else stable without a sanitizer.
# Debug assertions (overflow checks) are on in every mode (-a).
#
# Seeds are committed in fuzz/seeds/TARGET; inputs libFuzzer finds go to fuzz/corpus/TARGET and
# crashes to fuzz/artifacts/TARGET (both git-ignored). Reproduce a crash with
#   (cd fuzz && cargo fuzz run -a -s none TARGET artifacts/TARGET/crash-...)
# then add the input as a regression test in the crate it belongs to.
#
# Environment: CARGO_TARGET_DIR (default <repo>/target-fuzz), FUZZ_RSS_LIMIT_MB (default 1024).
# Needs cargo-fuzz (`cargo install cargo-fuzz`; installed here on first use).
# Exit status: 0 when no target crashed, 1 when one did (artifacts listed), 2 on usage errors.
set -euo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
FUZZ_DIR="$REPO_ROOT/fuzz"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$REPO_ROOT/target-fuzz}"
RSS="${FUZZ_RSS_LIMIT_MB:-1024}"

mode=""; seconds=""; jobs=1; targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --short|--long|--seeds|--list) mode="${1#--}" ;;
    --time) seconds="$2"; shift ;;
    --jobs) jobs="$2"; shift ;;
    -h|--help) sed -n '2,25p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "fuzz.sh: unknown option $1" >&2; exit 2 ;;
    *) targets+=("$1") ;;
  esac
  shift
done
[ -n "$mode" ] || { echo "fuzz.sh: say --short, --long, --seeds or --list (see --help)" >&2; exit 2; }

all_targets() { sed -n 's/^name = "\([a-z_]*\)"$/\1/p' "$FUZZ_DIR/Cargo.toml" | grep -v '^tailor-fuzz$'; }
if [ "$mode" = list ]; then all_targets; exit 0; fi
[ ${#targets[@]} -gt 0 ] || mapfile -t targets < <(all_targets)

say() { echo "fuzz: $*" >&2; }
now() { date +%s; }

if ! cargo fuzz --version >/dev/null 2>&1; then
  say "installing cargo-fuzz from crates.io"
  cargo install cargo-fuzz --locked >&2
fi

toolchain=stable; sanitizer=none
if [ "$mode" = long ] && rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
  toolchain=nightly; sanitizer=address
fi
case "$mode" in
  short) seconds="${seconds:-10}" ;;
  long) seconds="${seconds:-600}" ;;
  seeds) seconds=0 ;;
esac
flags=(-a -s "$sanitizer")

cd "$FUZZ_DIR"
t0=$(now)
say "building ${#targets[@]} targets (cargo +$toolchain fuzz build ${flags[*]}, target dir $CARGO_TARGET_DIR)"
cargo "+$toolchain" fuzz build "${flags[@]}" >&2
say "build took $(( $(now) - t0 ))s"

bin_dir="$CARGO_TARGET_DIR/x86_64-unknown-linux-gnu/release"
failed=()
for t in "${targets[@]}"; do
  mkdir -p "corpus/$t" "seeds/$t" "artifacts/$t"
  # libFuzzer flags: a 10s budget per input (a hang is a finding), an RSS cap (unbounded
  # growth is a finding), inputs up to 64 KiB.
  args=(-artifact_prefix="artifacts/$t/" -timeout=10 -rss_limit_mb="$RSS" -max_len=65536
        -print_final_stats=1)
  if [ "$seconds" = 0 ]; then
    args+=(-runs=0)
  elif [ "$mode" = long ]; then
    # Fork mode keeps going after a finding, so one run collects every crash, timeout and
    # out-of-memory input (each becomes an artifact); the exit status still reports them.
    args+=(-max_total_time="$seconds" -fork="$jobs" -ignore_crashes=1 -ignore_timeouts=1
           -ignore_ooms=1)
  else
    # Short runs stop at the first finding.
    args+=(-max_total_time="$seconds")
    [ "$jobs" -gt 1 ] && args+=(-jobs="$jobs" -workers="$jobs")
  fi
  s=$(now)
  stamp="$CARGO_TARGET_DIR/fuzz-$t.stamp"; touch "$stamp"
  log="$CARGO_TARGET_DIR/fuzz-$t.log"
  # The binaries are run directly (not `cargo fuzz run`, which rebuilds whenever a source
  # changed). The outer timeout catches the case where libFuzzer's own timeout handler
  # stalls (seen without a sanitizer runtime while the target was eating memory).
  status=0
  timeout --signal=KILL "$(( seconds + 180 ))" "$bin_dir/$t" "${args[@]}" "corpus/$t" "seeds/$t" >"$log" 2>&1 || status=$?
  found=$(find "artifacts/$t" -type f -newer "$stamp" | wc -l)
  if [ "$status" = 0 ] && [ "$found" = 0 ]; then
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    # fork mode prints progress lines `#N: cov: ...` instead of final stats
    [ -n "$execs" ] || execs=$(sed -n 's/^#\([0-9]*\): cov:.*/\1/p' "$log" | tail -1)
    say "$t: ok in $(( $(now) - s ))s, ${execs:-?} inputs run, corpus $(find "corpus/$t" -type f | wc -l) files"
  else
    say "$t: FAILED (exit $status, $found new artifacts) after $(( $(now) - s ))s; log $log"
    grep -a -m1 -A12 'panicked at\|ALARM\|ERROR: libFuzzer\|SUMMARY:' "$log" >&2 || tail -20 "$log" >&2
    find "artifacts/$t" -type f -newer "$stamp" | sed 's/^/fuzz:   artifact fuzz\//' >&2
    say "  reproduce: (cd fuzz && cargo +$toolchain fuzz run ${flags[*]} $t artifacts/$t/FILE)"
    failed+=("$t")
  fi
done
say "total $(( $(now) - t0 ))s"
if [ ${#failed[@]} -gt 0 ]; then
  say "targets that crashed: ${failed[*]}"
  exit 1
fi
