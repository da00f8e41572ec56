#!/usr/bin/env bash
# The benchmarks with budgets, for before merging drawing or trainer changes (speed is checked
# here, not by the tests): builds the release CLI, the wasm and the site, then runs
# `node e2e/bench.mjs gates` — first paint of every page, every figure's redraw p95, the trainer
# panel's redraws, the main thread during long runs, the book's own longest script task while
# each page loads at 4× CPU and the figure pages' bytes, the CLI's refusals — and fails when one
# is over its budget. `scripts/bench.sh all` then prints the full measurements too (bench ppo
# natively and in both browsers, the full profiles, the redraw table).
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-gates}
case "$mode" in gates | all) ;; *) echo "usage: scripts/bench.sh [all]" >&2; exit 2 ;; esac
cargo build --release
scripts/build-wasm.sh
node scripts/build-site.mjs
node e2e/bench.mjs gates
if [ "$mode" = all ]; then node e2e/bench.mjs; fi
