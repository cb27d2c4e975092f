#!/usr/bin/env bash
# Build the static tailor binary and the container image with podman (no base image is pulled).
#
#   scripts/build-image.sh [--no-build] [--bin PATH] [--tag TAG] [--release]
#
#   (default)   cargo build the static binary, then `podman build --target host` from it
#   --no-build  do not run cargo; use the binary that is already there
#   --bin PATH  use this binary (implies --no-build); e.g. a test stub
#   --tag TAG   image tag (default localhost/tailor:dev; keep the localhost/ prefix: kpt rewrites
#               names without a registry to gcr.io/kpt-fn/NAME)
#   --release   the multi-stage build instead (FROM rust:1-bookworm; needs registry access, so not here)
#
# Environment:
#   TAILOR_BIN        binary to package (default $CARGO_TARGET_DIR or <repo>/target, then
#                     x86_64-unknown-linux-gnu/release/tailor)
#   TAILOR_IMAGE      same as --tag
#   CONTAINER_ENGINE  podman (default) or docker; with podman, scripts/podman-env.sh is sourced
# Prints the image reference and its size at the end.
set -euo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TRIPLE=x86_64-unknown-linux-gnu
TARGET_DIR="${CARGO_TARGET_DIR:-$REPO_ROOT/target}"
case "$TARGET_DIR" in /*) ;; *) TARGET_DIR="$REPO_ROOT/$TARGET_DIR" ;; esac
TAILOR_BIN="${TAILOR_BIN:-$TARGET_DIR/$TRIPLE/release/tailor}"
IMAGE="${TAILOR_IMAGE:-localhost/tailor:dev}"
ENGINE="${CONTAINER_ENGINE:-podman}"
build=1; release=0

while [ $# -gt 0 ]; do
  case "$1" in
    --no-build) build=0 ;;
    --bin) TAILOR_BIN="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"; build=0; shift ;;
    --tag) IMAGE="$2"; shift ;;
    --release) release=1 ;;
    -h|--help) sed -n '2,20p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "build-image.sh: unknown argument: $1" >&2; exit 2 ;;
  esac
  shift
done

say() { echo "build-image: $*" >&2; }
die() { echo "build-image: ERROR: $*" >&2; exit 1; }
now() { date +%s.%N; }
took() { awk -v a="$1" -v b="$(now)" 'BEGIN{printf "%.1fs", b-a}'; }

command -v "$ENGINE" >/dev/null 2>&1 || die "$ENGINE not found (run scripts/install-tools.sh)"
if [ "$ENGINE" = podman ]; then
  # shellcheck disable=SC1091
  . "$REPO_ROOT/scripts/podman-env.sh"
fi

if [ "$release" = 1 ]; then
  t0=$(now)
  say "multi-stage build of $IMAGE (pulls rust:1-bookworm)"
  "$ENGINE" build -f "$REPO_ROOT/Dockerfile" -t "$IMAGE" "$REPO_ROOT" >&2
  say "built in $(took "$t0")"
else
  if [ "$build" = 1 ]; then
    t0=$(now)
    say "cargo build --release --target $TRIPLE (static, target dir $TARGET_DIR)"
    (cd "$REPO_ROOT" && RUSTFLAGS="-C target-feature=+crt-static" CARGO_TARGET_DIR="$TARGET_DIR" \
       cargo build --release --bin tailor --target "$TRIPLE" >&2)
    say "cargo build took $(took "$t0")"
  fi
  [ -f "$TAILOR_BIN" ] || die "no binary at $TAILOR_BIN (build it, or pass --bin PATH)"
  # The image has no libc and no loader: a dynamic binary would fail with a confusing
  # "no such file or directory" at run time. Refuse it here.
  if command -v readelf >/dev/null 2>&1; then
    dynamic() { readelf -l "$TAILOR_BIN" 2>/dev/null | grep -q 'program interpreter'; }
  else
    dynamic() { grep -aq '/lib64/ld-linux-x86-64.so' "$TAILOR_BIN"; }
  fi
  if dynamic; then
    die "$TAILOR_BIN is dynamically linked; build with RUSTFLAGS=\"-C target-feature=+crt-static\" --target $TRIPLE"
  fi

  # Stage a tiny build context (binary + passwd/group), so the image build neither sends target/
  # nor depends on where the binary lives. Same Dockerfile, stage `host`.
  ctx="$(mktemp -d "${TMPDIR:-/tmp}/tailor-image-ctx.XXXXXX")"
  trap 'rm -rf "$ctx"' EXIT
  mkdir -p "$ctx/docker"
  cp "$REPO_ROOT/docker/passwd" "$REPO_ROOT/docker/group" "$ctx/docker/"
  cp "$TAILOR_BIN" "$ctx/tailor"
  if command -v strip >/dev/null 2>&1; then strip "$ctx/tailor" 2>/dev/null || true; fi
  chmod 0755 "$ctx/tailor"

  t0=$(now)
  say "$ENGINE build --target host -t $IMAGE (binary: $TAILOR_BIN)"
  "$ENGINE" build --pull=never --target host --build-arg TAILOR_BIN=tailor \
      -f "$REPO_ROOT/Dockerfile" -t "$IMAGE" "$ctx" >&2
  say "image build took $(took "$t0")"
fi

size_bytes="$("$ENGINE" image inspect --format '{{.Size}}' "$IMAGE")"
say "image $IMAGE: $size_bytes bytes ($(awk -v b="$size_bytes" 'BEGIN{printf "%.2f MiB", b/1048576}'))"
echo "$IMAGE"
