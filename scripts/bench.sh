#!/usr/bin/env bash
# All benchmark suites: `scripts/bench.sh [criterion args]`, e.g. `scripts/bench.sh fan_out`.
# TAILOR_BENCH_MAX_N caps the scaling groups (default up to 100,000 objects).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo bench --bench pipeline --bench yaml -- "$@"
