#!/usr/bin/env bash
# Runs every check of pgbook, installing whatever is missing first: the JavaScript formatter
# and linter, Rust formatting, clippy (native and wasm), native tests, the wasm tests in
# headless Chromium and headless Firefox (wasm-pack test, as teachers run it), the release
# wasm build, the JavaScript type check against its declarations, the site build, and the
# page tests (the build, the server, every page and both trainers, offline use) in headless
# Chromium and Firefox ESR. The last lines are node:test's summary of the page tests.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
step() { printf '\n==== %s (%ss)\n' "$*" "$(( $(date +%s) - start ))"; }

step "setup"
scripts/setup.sh test
step "JavaScript: prettier --check, eslint"
node_modules/.bin/prettier --check --log-level warn '**/*.{js,mjs}'
node_modules/.bin/eslint --max-warnings 0 .
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
step "JavaScript type check (tsc against www/pkg/pgbook.d.ts)"
node_modules/.bin/tsc -p tsconfig.json
node_modules/.bin/tsc -p tsconfig.sw.json
step "the site (site/)"
node scripts/build-site.mjs
step "page tests in headless Chromium and Firefox ESR (node:test)"
# One file at a time: each starts its own server and browsers, and the machine has 2 cores.
node --test --test-concurrency=1 --test-reporter=spec e2e/tests/
