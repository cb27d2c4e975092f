#!/usr/bin/env bash
# Step 3 of action.yml: the review as one pull-request comment.
#
# INPUT_COMMENT: "false" does nothing; "true" finds the comment an earlier run posted (it
# starts with the marker below) and updates it, or posts a new one, through the GitHub REST
# API at GITHUB_API_URL with GITHUB_TOKEN; "dry-run" prints the request it would send.
# The pull request's number comes from the event file (GITHUB_EVENT_PATH); on any other event
# the step says so and does nothing. GitHub refuses comments over 65,536 characters: a longer
# review is cut, with a note pointing to the job summary.
set -euo pipefail

mode=${INPUT_COMMENT:-false}
case "$mode" in
  false) exit 0 ;;
  true | dry-run) ;;
  *) echo "::error title=tailor::the comment input must be true, false or dry-run, not '$mode'"; exit 1 ;;
esac

number=""
[ -f "${GITHUB_EVENT_PATH:-}" ] && number=$(jq -r '.pull_request.number // empty' "$GITHUB_EVENT_PATH")
if [ -z "$number" ]; then
  echo "::notice title=tailor::not a pull_request event: no comment posted (the review is in the job summary)"
  exit 0
fi
: "${TAILOR_REPORT:?the review step wrote no report}"
: "${GITHUB_REPOSITORY:?GITHUB_REPOSITORY is not set}"

marker='<!-- tailor-review -->'
limit=65000
body=$(mktemp "${RUNNER_TEMP:-/tmp}/tailor-comment.XXXXXX")
{
  echo "$marker"
  cat "$TAILOR_REPORT"
} >"$body"
if [ "$(wc -c <"$body")" -gt "$limit" ]; then
  head -c "$limit" "$body" >"$body.cut"
  printf '\n\n_The review is longer than a comment can hold: the whole of it is in the job summary._\n' >>"$body.cut"
  mv "$body.cut" "$body"
fi
payload=$(jq -Rs '{body: .}' <"$body")

api=${GITHUB_API_URL:-https://api.github.com}
repo_api="$api/repos/$GITHUB_REPOSITORY"

if [ "$mode" = dry-run ]; then
  echo "tailor: dry-run: would update the comment starting with $marker on pull request #$number, or POST $repo_api/issues/$number/comments with:"
  echo "$payload"
  exit 0
fi
: "${GITHUB_TOKEN:?the github-token input is empty}"

call() { # call METHOD URL [DATA]
  curl --fail-with-body --silent --show-error --location \
    -X "$1" \
    -H "Authorization: Bearer $GITHUB_TOKEN" \
    -H "Accept: application/vnd.github+json" \
    -H "X-GitHub-Api-Version: 2022-11-28" \
    ${3:+-H "Content-Type: application/json" --data-binary "$3"} \
    "$2"
}

# A comment that cannot be posted (a pull request from a fork gets a read-only token) is a
# warning: the review is in the job summary all the same.
cannot() { # cannot WHAT RESPONSE
  echo "::warning title=tailor::could not $1 (the GitHub API answered: ${2:-nothing}); a pull request from a fork gets a read-only token. The review is in the job summary"
  exit 0
}

existing=""
page=1
# 100 comments a page, at most 30 pages (GitHub lists a pull request's comments oldest first).
while [ -z "$existing" ] && [ "$page" -le 30 ]; do
  comments=$(call GET "$repo_api/issues/$number/comments?per_page=100&page=$page") ||
    cannot "list the pull request's comments" "$comments"
  [ "$(jq 'length' <<<"$comments")" -gt 0 ] || break
  existing=$(jq -r --arg m "$marker" '[.[] | select(.body | startswith($m))][0].id // empty' <<<"$comments")
  page=$((page + 1))
done

if [ -n "$existing" ]; then
  response=$(call PATCH "$repo_api/issues/comments/$existing" "$payload") ||
    cannot "update comment $existing" "$response"
  echo "tailor: updated comment $existing on pull request #$number"
else
  response=$(call POST "$repo_api/issues/$number/comments" "$payload") ||
    cannot "post the review as a comment" "$response"
  echo "tailor: posted the review on pull request #$number"
fi
