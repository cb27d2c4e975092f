#!/usr/bin/env bash
# Step 1 of action.yml: makes `tailor` available to the later steps.
#
# A tailor already on PATH (built or installed by an earlier step) is used as it is.
# Otherwise the static release binary of INPUT_VERSION (default: the action's own tag,
# TAILOR_ACTION_REF, without its leading v) is downloaded for the runner's architecture,
# checked against the release's SHA256SUMS, installed under RUNNER_TEMP and added to
# GITHUB_PATH. TAILOR_RELEASE_URL overrides where releases are downloaded from (a mirror;
# the tests use a file:// directory).
set -euo pipefail

if [ -z "${INPUT_VERSION:-}" ] && command -v tailor >/dev/null 2>&1; then
  echo "tailor: using $(command -v tailor) ($(tailor --version))"
  exit 0
fi

version=${INPUT_VERSION:-${TAILOR_ACTION_REF:-}}
version=${version#v}
if ! [[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.-]+)?$ ]]; then
  echo "::error title=tailor::no tailor on PATH and no release version to install (the action's ref is ${TAILOR_ACTION_REF:-unset}): set the action's 'version' input, e.g. version: 0.1.0"
  exit 1
fi

case "${RUNNER_ARCH:-$(uname -m)}" in
  X64 | x86_64 | amd64) target=x86_64-unknown-linux-musl ;;
  ARM64 | aarch64 | arm64) target=aarch64-unknown-linux-musl ;;
  *) echo "::error title=tailor::no release binary for the architecture ${RUNNER_ARCH:-$(uname -m)}"; exit 1 ;;
esac
case "${RUNNER_OS:-Linux}" in
  Linux) ;;
  *) echo "::error title=tailor::release binaries are for Linux runners; on ${RUNNER_OS} install tailor in an earlier step (cargo install --locked tailor)"; exit 1 ;;
esac

base_url=${TAILOR_RELEASE_URL:-https://github.com/tailor-dev/tailor/releases/download}
asset="tailor-$target"
dir="${RUNNER_TEMP:?RUNNER_TEMP is not set}/tailor-$version"
mkdir -p "$dir"
curl --fail --silent --show-error --location --retry 3 -o "$dir/$asset" "$base_url/v$version/$asset"
curl --fail --silent --show-error --location --retry 3 -o "$dir/SHA256SUMS" "$base_url/v$version/SHA256SUMS"
want=$(awk -v f="$asset" '$2 == f || $2 == "*" f { print $1 }' "$dir/SHA256SUMS")
got=$(sha256sum "$dir/$asset" | cut -d' ' -f1)
if [ -z "$want" ] || [ "$want" != "$got" ]; then
  echo "::error title=tailor::$asset of release v$version does not match its SHA256SUMS entry (${want:-none}; downloaded $got)"
  rm -f "$dir/$asset"
  exit 1
fi
mv "$dir/$asset" "$dir/tailor"
chmod +x "$dir/tailor"
echo "$dir" >>"${GITHUB_PATH:?GITHUB_PATH is not set}"
echo "tailor: installed release v$version ($target) at $dir/tailor"
