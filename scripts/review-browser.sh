#!/usr/bin/env bash
# The HTML review (`tailor diff --base BASE --format html`) in headless Chromium, as a test
# that must run: installs Debian's chromium when it is missing, then runs
# tests/review_browser.rs with a missing browser made a failure. The page and its screenshot
# are left in target/tmp/review-browser/ (review.html, review.png).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${CHROMIUM:-}" ] && ! command -v chromium >/dev/null 2>&1; then
  sudo=""
  [ "$(id -u)" = 0 ] || sudo=sudo
  # A fresh machine may have no package lists yet.
  $sudo apt-get install -y chromium >/dev/null 2>&1 ||
    { $sudo apt-get update >/dev/null && $sudo apt-get install -y chromium >/dev/null; }
fi
TAILOR_REQUIRE_CHROMIUM=1 cargo test --test review_browser -- --nocapture
echo "screenshot: target/tmp/review-browser/review.png"
