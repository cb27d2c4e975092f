#!/usr/bin/env bash
# Step 4 of action.yml: with fail-on-change: true, a change fails the job, after the summary
# and the comment are written.
set -euo pipefail
if [ "${INPUT_FAIL_ON_CHANGE:-false}" = true ] && [ "${TAILOR_CHANGED:-}" = true ]; then
  echo "::error title=tailor::this change changes what some destinations get (fail-on-change: true); the review is in the job summary"
  exit 1
fi
