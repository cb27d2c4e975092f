#!/usr/bin/env bash
# Source this (don't execute it) before running podman/buildah on the tailor machines.
# Uses ../shared/tools/podman-env.sh when the repo sits next to it; otherwise sets the same things
# here, so the repo does not depend on ../shared:
#   - vfs storage driver (overlay does not work here: no overlay-on-overlay / no fuse-overlayfs)
#   - cgroupfs cgroup manager (no systemd as PID 1, cgroup v1)
#   - runc as OCI runtime (crun is not installed; runc comes from apt)
#   - no default ulimits (the sandbox forbids raising RLIMIT_NOFILE: "setrlimit ... operation not permitted")
#   - BUILDAH_ISOLATION=chroot (no user namespaces / nested runc for RUN steps)
# Respects an existing CONTAINERS_STORAGE_CONF / CONTAINERS_CONF (set TAILOR_PODMAN_ENV=keep).
_tailor_repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [ "${TAILOR_PODMAN_ENV:-}" = keep ] && [ -n "${CONTAINERS_STORAGE_CONF:-}" ]; then
  :
elif [ -f "$_tailor_repo/../shared/tools/podman-env.sh" ]; then
  # shellcheck disable=SC1091
  . "$_tailor_repo/../shared/tools/podman-env.sh"
else
  _podman_conf_dir="${PODMAN_CONF_DIR:-${TMPDIR:-/tmp}/podman-conf}"
  mkdir -p "$_podman_conf_dir"
  cat > "$_podman_conf_dir/storage.conf" <<'CONF'
[storage]
driver = "vfs"
runroot = "/run/containers/storage"
graphroot = "/var/lib/containers/storage"
CONF
  cat > "$_podman_conf_dir/containers.conf" <<'CONF'
[containers]
default_ulimits = []
[engine]
cgroup_manager = "cgroupfs"
runtime = "runc"
CONF
  export CONTAINERS_STORAGE_CONF="$_podman_conf_dir/storage.conf"
  export CONTAINERS_CONF="$_podman_conf_dir/containers.conf"
  export BUILDAH_ISOLATION=chroot
  unset _podman_conf_dir
fi
unset _tailor_repo
