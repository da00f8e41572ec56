#!/usr/bin/env bash
# Runs every check of pgbook, installing whatever is missing first:
# formatting, clippy (native and wasm), native tests, the wasm tests in headless Chromium and
# headless Firefox (wasm-pack test, as teachers run it), the release wasm build, the
# end-to-end page tests in headless Chromium, and the pages and trainers in Firefox ESR.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
step() { printf '\n==== %s (%ss)\n' "$*" "$(( $(date +%s) - start ))"; }

step "setup"
scripts/setup.sh test
step "cargo fmt --check"
cargo fmt --check
step "cargo clippy (native, all targets)"
cargo clippy --all-targets -- -D warnings
step "cargo clippy (wasm32: the web boundary and browser tests)"
cargo clippy --target wasm32-unknown-unknown --lib --tests -- -D warnings
step "native tests"
cargo test
step "wasm tests in headless Chromium"
wasm-pack test --headless --chrome
step "wasm tests in headless Firefox"
wasm-pack test --headless --firefox
step "release wasm for the page"
scripts/build-wasm.sh
step "end-to-end page tests (headless Chromium)"
node e2e/run.mjs
step "pages and trainers in headless Firefox ESR (WebDriver BiDi)"
# Node 20 has WebSocket behind a flag; later versions have it by default.
ws_flag=$(node -e 'process.stdout.write(typeof WebSocket === "function" ? "" : "--experimental-websocket")')
node $ws_flag e2e/firefox.mjs
step "all checks passed"
