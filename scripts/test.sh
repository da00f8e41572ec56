#!/usr/bin/env bash
# Runs every check of pgbook, installing whatever is missing first: the JavaScript formatter
# and linter, Rust formatting, clippy (native and wasm), native tests, the wasm tests in
# headless Chromium and headless Firefox (wasm-pack test, as teachers run it), the release
# wasm build, the JavaScript type check against its declarations, the site build, and the
# page tests (the build, the server, every page and both trainers, offline use) in headless
# Chromium and Firefox ESR, the two browsers side by side. Steps that leave a core idle run
# beside others (see below).
#   scripts/test.sh quick   the edit loop: formatting, clippy (native), native tests, the site,
#                           and the Chromium page tests without the slow files (offline use,
#                           the prepared comparisons)
# No test is timed: speed has its own command with budgets, scripts/bench.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-all}
case "$mode" in all | quick) ;; *) echo "usage: scripts/test.sh [quick]" >&2; exit 2 ;; esac
start=$(date +%s)
step() { printf '\n==== %s (%ss)\n' "$*" "$(( $(date +%s) - start ))"; }

# Page tests in one process (one server and one browser for its files), each line prefixed
# with TAG; returns node:test's exit code. Usage: pages TAG BROWSER [e2e/run.mjs arguments].
# Each process's output is also kept in $page_logs/TAG, so that the end of the command can
# repeat its failures: CI shows only the tail of a long output.
page_logs=$(mktemp -d)
pages() {
  local tag=$1 browser=$2; shift 2
  PGBOOK_BROWSERS=$browser node --test-reporter=spec e2e/run.mjs "$@" 2>&1 |
    sed -u "s/^/[$tag] /" | tee "$page_logs/$tag"
  return "${PIPESTATUS[0]}"
}

# Repeats the failing tests' reports (node:test's closing «failing tests» section) of every
# page-test process, at most 60 lines each, whenever the command ends.
page_failures() {
  local log
  for log in "$page_logs"/*; do
    [ -f "$log" ] || continue
    if grep -q "failing tests:" "$log"; then
      echo "==== page tests that failed, repeated from above ($(basename "$log"))"
      sed -n '/failing tests:/,$p' "$log" | head -n 60
    fi
  done
}
trap page_failures EXIT

# Waits for a step run in the background (PID, its LOG), prints the log with a [TAG] prefix and
# stops the command with the step's exit code if it failed (WHAT names it).
finish() {
  local pid=$1 log=$2 tag=$3 what=$4 status=0
  wait "$pid" || status=$?
  sed "s/^/[$tag] /" "$log"
  rm -f "$log"
  if [ "$status" != 0 ]; then
    echo "$what failed (exit $status)" >&2
    exit "$status"
  fi
}

step "setup"
scripts/setup.sh test
step "JavaScript: prettier --check, eslint"
node_modules/.bin/prettier --check --log-level warn '**/*.{js,mjs}'
node_modules/.bin/eslint --max-warnings 0 .
step "cargo fmt --check"
cargo fmt --check
if [ "$mode" = quick ]; then
  step "cargo clippy (native, all targets)"
  cargo clippy --all-targets -- -D warnings
  step "native tests"
  cargo test
  step "release wasm for the page"
  scripts/build-wasm.sh
  step "the site (site/)"
  node scripts/build-site.mjs
  step "page tests in headless Chromium (without 40-offline, 88-prepared)"
  pages chromium chromium --skip 40-offline,88-prepared
  step "done"
  exit 0
fi

# The release wasm (LTO into one codegen unit: one core for most of a minute), the type check
# and the site build run beside clippy and the native tests. Each profile has its own build
# directory lock, so the cargo builds do not wait for each other.
site_log=$(mktemp)
step "release wasm for the page, the JavaScript type check and the site (site/): beside the next steps"
(
  scripts/build-wasm.sh &&
    node_modules/.bin/tsc -p tsconfig.json &&
    node_modules/.bin/tsc -p tsconfig.sw.json &&
    node scripts/build-site.mjs
) >"$site_log" 2>&1 &
site=$!
step "cargo clippy (native, all targets)"
cargo clippy --all-targets -- -D warnings
step "native tests"
cargo test
step "waiting for the release wasm, the type check and the site"
finish "$site" "$site_log" site "the release wasm, the type check or the site"
# The page tests mostly wait (one browser's files keep about half a core busy): the wasm
# side's compiling — clippy for wasm32 and the wasm test build — runs beside them at the lowest
# priority, so that the pages keep the cores when they want them, and the wasm tests in the two
# browsers run after, from that build (wasm-pack then compiles nothing).
wasm_log=$(mktemp)
step "page tests in headless Chromium and Firefox ESR, side by side (node:test); beside them, at nice 19: cargo clippy (wasm32, both modules) and the wasm test build"
(
  nice -n 19 cargo clippy --target wasm32-unknown-unknown --lib --tests -- -D warnings &&
    nice -n 19 cargo clippy --target wasm32-unknown-unknown --lib --no-default-features -- -D warnings &&
    nice -n 19 cargo test --target wasm32-unknown-unknown --no-run
) >"$wasm_log" 2>&1 &
wasm_build=$!
# The files without a browser (the server, the build) run once, in Chromium's process.
# Firefox's files run in two processes: one Firefox process keeps about two thirds of a core
# busy and was the phase's longest (680 s alone against Chromium's 383 s), so its slowest files
# run beside the others. A new file joins the second.
firefox_a=20-lessons,95-a11y,45-onefile,40-offline,25-exercises
pages chromium chromium & chromium_pid=$!
pages firefox-a firefox --browser-only ${firefox_a//,/ } & firefox_a_pid=$!
pages firefox-b firefox --browser-only --skip "$firefox_a" & firefox_b_pid=$!
status=0
wait "$chromium_pid" || status=$?
wait "$firefox_a_pid" || status=$?
wait "$firefox_b_pid" || status=$?
step "waiting for cargo clippy (wasm32) and the wasm test build"
finish "$wasm_build" "$wasm_log" wasm "cargo clippy (wasm32) or the wasm test build"
step "wasm tests in headless Chromium"
wasm-pack test --headless --chrome
step "wasm tests in headless Firefox"
wasm-pack test --headless --firefox
step "done"
exit "$status"
