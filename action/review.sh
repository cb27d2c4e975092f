#!/usr/bin/env bash
# Step 2 of action.yml: the change review of the pull request.
#
# Runs `tailor diff --base BASE --format markdown --exit-code CONFIG INPUTS...` in the
# workspace, where BASE is INPUT_BASE or else the pull request's base commit (from the event
# file GITHUB_EVENT_PATH, else origin/GITHUB_BASE_REF), fetched when the checkout lacks it.
# Appends the review to GITHUB_STEP_SUMMARY and sets the step outputs `changed`
# (true/false) and `report` (the markdown file, for the comment step). tailor's exit code 2
# means "something changes", not a failure; an error (exit 1) fails the step with tailor's
# messages in the summary.
set -euo pipefail

: "${INPUT_CONFIG:?the config input of the action is required}"
: "${GITHUB_STEP_SUMMARY:?GITHUB_STEP_SUMMARY is not set}"
: "${GITHUB_OUTPUT:?GITHUB_OUTPUT is not set}"
cd "${GITHUB_WORKSPACE:-.}"

base=${INPUT_BASE:-}
if [ -z "$base" ] && [ -f "${GITHUB_EVENT_PATH:-}" ]; then
  base=$(jq -r '.pull_request.base.sha // empty' "$GITHUB_EVENT_PATH")
fi
if [ -z "$base" ] && [ -n "${GITHUB_BASE_REF:-}" ]; then
  base="origin/$GITHUB_BASE_REF"
fi
if [ -z "$base" ]; then
  echo "::error title=tailor::no base to compare with: run on a pull_request event or set the action's 'base' input"
  exit 1
fi

# actions/checkout fetches the head commit alone by default: bring the base commit in.
if [ ! -d "$base" ] && ! git rev-parse --verify --quiet "$base^{commit}" >/dev/null; then
  if [ "$base" = "origin/${GITHUB_BASE_REF:-}" ]; then
    git fetch --no-tags --depth=1 origin "+refs/heads/$GITHUB_BASE_REF:refs/remotes/origin/$GITHUB_BASE_REF"
  else
    git fetch --no-tags --depth=1 origin "$base"
  fi
fi

read -r -a inputs <<<"${INPUT_INPUTS:-.}"
[ "${#inputs[@]}" -gt 0 ] || inputs=(.)
work=$(mktemp -d "${RUNNER_TEMP:-/tmp}/tailor-review.XXXXXX")
report="$work/review.md"

code=0
tailor diff --base "$base" --format markdown --exit-code "$INPUT_CONFIG" "${inputs[@]}" \
  >"$report" 2>"$work/stderr" || code=$?
cat "$work/stderr" >&2
case $code in
  0) changed=false ;;
  2) changed=true ;;
  *)
    {
      echo "### tailor could not review this change (exit code $code)"
      echo
      echo '```'
      cat "$work/stderr"
      echo '```'
    } >>"$GITHUB_STEP_SUMMARY"
    echo "::error title=tailor::tailor diff failed with exit code $code (messages in the job summary)"
    exit 1
    ;;
esac

cat "$report" >>"$GITHUB_STEP_SUMMARY"
{
  echo "changed=$changed"
  echo "report=$report"
} >>"$GITHUB_OUTPUT"
echo "tailor: reviewed against $base: changed=$changed"
