#!/usr/bin/env bash
# End-to-end test of the tailor container image under podman, as CI runs it.
#
#   scripts/e2e-container.sh [--no-build] [--bin PATH] [--image IMG]
#
#   --no-build   do not run cargo (use the existing static binary, see build-image.sh)
#   --bin PATH   package this static binary (e.g. a stub) instead of the cargo-built one
#   --image IMG  tag to build and test (default localhost/tailor:e2e; keep the localhost/ prefix)
#
# Steps: build the image (scripts/build-image.sh) -> check its config (user 65534, entrypoint) ->
# `podman run --user nobody --network none --read-only` on a ResourceList -> `kpt fn eval --image`
# with KPT_FN_RUNTIME=podman on a small package -> the result must equal `kpt fn eval --exec` of the
# same binary on a copy of the package -> `kpt fn render` with a Kptfile `image:` pipeline ->
# (if kustomize is installed) a kustomize `container:` transformer through scripts/docker-shim.
#
# Exit codes: 0 = PASS, or SKIP when podman/kpt cannot run containers here (a line starting with
# "SKIP:" says why; the caller decides whether a skip is acceptable); 1 = FAIL.
set -uo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
IMAGE="localhost/tailor:e2e"
build_args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --no-build) build_args+=(--no-build) ;;
    --bin) build_args+=(--bin "$2"); BIN_OVERRIDE="$2"; shift ;;
    --image) IMAGE="$2"; shift ;;
    -h|--help) sed -n '2,18p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "e2e-container.sh: unknown argument: $1" >&2; exit 2 ;;
  esac
  shift
done

T0=$(date +%s)
step() { echo "e2e-container: --- $*"; }
skip() {
  echo
  echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"
  echo "!!! e2e-container: containers cannot run here: $1"
  [ -n "${2:-}" ] && printf '!!!   %s\n' "$2"
  echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"
  echo "SKIP: e2e-container: $1"
  exit 0
}
fail() { echo "FAIL: e2e-container: $*"; exit 1; }

# ---- environment ----------------------------------------------------------------------------------
command -v podman >/dev/null 2>&1 || skip "podman not installed" "run scripts/install-tools.sh (apt-get install podman buildah runc)"
command -v kpt >/dev/null 2>&1 || skip "kpt not installed"
# shellcheck disable=SC1091
. "$REPO_ROOT/scripts/podman-env.sh"
if ! out="$(podman info --format '{{.Store.GraphDriverName}} {{.Host.CgroupManager}} {{.Host.OCIRuntime.Name}}' 2>&1)"; then
  skip "podman info failed" "$out"
fi
echo "e2e-container: podman $(podman --version | awk '{print $3}') ($out), kpt $(kpt version 2>/dev/null)"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/tailor-e2e.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT

# ---- build ------------------------------------------------------------------------------------
step "build image $IMAGE"
TARGET_DIR="${CARGO_TARGET_DIR:-$REPO_ROOT/target}"
case "$TARGET_DIR" in /*) ;; *) TARGET_DIR="$REPO_ROOT/$TARGET_DIR" ;; esac
BIN="${BIN_OVERRIDE:-${TAILOR_BIN:-$TARGET_DIR/x86_64-unknown-linux-gnu/release/tailor}}"
if ! "$REPO_ROOT/scripts/build-image.sh" "${build_args[@]}" --tag "$IMAGE" >"$WORK/build.log" 2>&1; then
  cat "$WORK/build.log"
  if grep -qE '^build-image: (cargo|ERROR: no binary|ERROR: .*dynamically linked)' "$WORK/build.log" \
     && ! grep -q 'build --target host' "$WORK/build.log"; then
    fail "building the binary failed (see above)"
  fi
  skip "podman build failed (see the log above)"
fi
grep -E '^build-image: (cargo build took|image )' "$WORK/build.log"
# Resolved only now: in a fresh clone the binary's directory exists only after the build.
BIN="$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")"
[ -x "$BIN" ] || fail "no binary at $BIN after the build"

step "image config"
cfg="$(podman image inspect --format '{{.Config.User}}|{{json .Config.Entrypoint}}' "$IMAGE")"
[ "$cfg" = '65534:65534|["/tailor"]' ] || fail "image config is '$cfg', want '65534:65534|[\"/tailor\"]'"
echo "ok: user 65534:65534, entrypoint /tailor"

# ---- fixtures -----------------------------------------------------------------------------------
mkdir -p "$WORK/pkg"
cat >"$WORK/pkg/Kptfile" <<'YAML'
apiVersion: kpt.dev/v1
kind: Kptfile
metadata:
  name: e2e
  annotations:
    config.kubernetes.io/local-config: "true"
YAML
cat >"$WORK/pkg/app.yaml" <<'YAML'
# the app
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web # line comment
  namespace: demo
  labels:
    app: web
spec:
  replicas: 2
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
        - name: web
          image: nginx:1.27
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  namespace: demo
data:
  greeting: "hello"
  port: "8080"
YAML
cat >"$WORK/rl.yaml" <<'YAML'
apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: settings
    namespace: demo
  data:
    greeting: hello
functionConfig:
  apiVersion: v1
  kind: ConfigMap
  metadata:
    name: function-input
  data:
    clusterName: virgo
    env: prod
YAML

# ---- podman run, locked down like kpt does it ---------------------------------------------------------
step "podman run --rm -i --user nobody --network none --read-only $IMAGE < rl.yaml"
podman run --rm -i --pull=never --user nobody --network none --read-only \
    --security-opt=no-new-privileges "$IMAGE" <"$WORK/rl.yaml" >"$WORK/run.out" 2>"$WORK/run.err"
rc=$?
if [ $rc -ge 125 ]; then skip "podman run failed with exit $rc (engine error, not the function)" "$(cat "$WORK/run.err")"; fi
[ $rc -eq 0 ] || { cat "$WORK/run.err"; fail "the function exited $rc under podman run"; }
grep -q '^kind: ResourceList' "$WORK/run.out" && grep -q '^items:' "$WORK/run.out" \
  || { cat "$WORK/run.out" "$WORK/run.err"; fail "podman run output is not a ResourceList with items:"; }
"$BIN" <"$WORK/rl.yaml" >"$WORK/run.exec.out" 2>/dev/null
diff -u "$WORK/run.exec.out" "$WORK/run.out" || fail "container output differs from running $BIN directly"
echo "ok: ResourceList in, same ResourceList out as the host binary"

# ---- kpt fn eval --image vs --exec --------------------------------------------------------------
cp -r "$WORK/pkg" "$WORK/pkg-exec"
step "KPT_FN_RUNTIME=podman kpt fn eval --image $IMAGE --image-pull-policy Never pkg -- clusterName=virgo env=prod"
( cd "$WORK" && KPT_FN_RUNTIME=podman kpt fn eval pkg --image "$IMAGE" --image-pull-policy Never \
    --truncate-output=false -- clusterName=virgo env=prod ) >"$WORK/eval.log" 2>&1
rc=$?
cat "$WORK/eval.log" | sed 's/^/    /'
# podman run already worked above, so from here on every failure is a real FAIL, not a SKIP
# (e.g. "gcr.io/kpt-fn/...: image not known" means the image name lacks its localhost/ prefix).
[ $rc -eq 0 ] || fail "kpt fn eval --image exited $rc"
grep -q '\[PASS\]' "$WORK/eval.log" || fail "no [PASS] line from kpt"
( cd "$WORK" && kpt fn eval pkg-exec --exec "$BIN" -- clusterName=virgo env=prod ) >"$WORK/eval-exec.log" 2>&1 \
  || { cat "$WORK/eval-exec.log"; fail "kpt fn eval --exec $BIN failed (container run passed)"; }
diff -ru "$WORK/pkg-exec" "$WORK/pkg" || fail "kpt fn eval --image and --exec gave different packages"
[ -s "$WORK/pkg/app.yaml" ] && grep -q 'name: settings' "$WORK/pkg/app.yaml" || fail "package lost its resources"
echo "ok: kpt fn eval --image == kpt fn eval --exec; resources kept"

# ---- kpt fn render with an image: pipeline ----------------------------------------------------------
rm -rf "$WORK/pkg-render" && cp -r "$WORK/pkg-exec" "$WORK/pkg-render"
cat >>"$WORK/pkg-render/Kptfile" <<YAML
pipeline:
  mutators:
    - image: $IMAGE
      configMap:
        clusterName: virgo
        env: prod
YAML
step "KPT_FN_RUNTIME=podman kpt fn render pkg-render --image-pull-policy Never"
( cd "$WORK" && KPT_FN_RUNTIME=podman kpt fn render pkg-render --image-pull-policy Never ) >"$WORK/render.log" 2>&1 \
  || { cat "$WORK/render.log"; fail "kpt fn render with image: $IMAGE failed"; }
grep -q 'Successfully executed 1 function' "$WORK/render.log" || { cat "$WORK/render.log"; fail "render did not run the function"; }
echo "ok: kpt fn render"

# ---- kustomize container: transformer (optional) --------------------------------------------------------
KUSTOMIZE="${TAILOR_KUSTOMIZE:-}"
[ -z "$KUSTOMIZE" ] && [ -x "$REPO_ROOT/target-tools/bin/kustomize" ] && KUSTOMIZE="$REPO_ROOT/target-tools/bin/kustomize"
[ -z "$KUSTOMIZE" ] && KUSTOMIZE="$(command -v kustomize || true)"
if [ -n "$KUSTOMIZE" ]; then
  step "kustomize build --enable-alpha-plugins (container: $IMAGE via scripts/docker-shim)"
  mkdir -p "$WORK/kz"
  sed '/^# the app/d' "$WORK/pkg-exec/app.yaml" >"$WORK/kz/app.yaml"
  printf 'resources: [app.yaml]\ntransformers: [fn.yaml]\n' >"$WORK/kz/kustomization.yaml"
  mk_fn() { cat <<YAML
apiVersion: v1
kind: ConfigMap
metadata:
  name: tailor
  annotations:
    config.kubernetes.io/function: |
$1
data:
  clusterName: virgo
  env: prod
YAML
  }
  mk_fn "      container:
        image: $IMAGE" >"$WORK/kz/fn.yaml"
  PATH="$REPO_ROOT/scripts/docker-shim:$PATH" "$KUSTOMIZE" build --enable-alpha-plugins "$WORK/kz" \
      >"$WORK/kz.container.out" 2>"$WORK/kz.container.err" \
    || { cat "$WORK/kz.container.err"; fail "kustomize build with a container: function failed"; }
  mk_fn "      exec:
        path: $BIN" >"$WORK/kz/fn.yaml"
  "$KUSTOMIZE" build --enable-alpha-plugins --enable-exec "$WORK/kz" >"$WORK/kz.exec.out" 2>"$WORK/kz.exec.err" \
    || { cat "$WORK/kz.exec.err"; fail "kustomize build with an exec: function failed"; }
  diff -u "$WORK/kz.exec.out" "$WORK/kz.container.out" || fail "kustomize container: and exec: outputs differ"
  echo "ok: kustomize ($("$KUSTOMIZE" version --short 2>/dev/null || "$KUSTOMIZE" version | head -1)) container == exec"
else
  echo "e2e-container: NOTE: kustomize not found; kustomize container check not run (scripts/install-tools.sh)"
fi

echo "PASS: e2e-container ($IMAGE, $(( $(date +%s) - T0 ))s)"
