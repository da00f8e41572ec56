#!/usr/bin/env bash
# Builds the release wasm twice from the one crate and writes each module's JS glue, its
# TypeScript declarations (which `tsc` checks the page's JavaScript against) and the .wasm into
# www/pkg:
#   pgbook          the whole core (default features): the trainers' workers (js/worker.js), a
#                   page with a trainer panel, a prepared comparison or a run link, and the
#                   site build's numbers (scripts/build-site.mjs);
#   pgbook_figures  without the `trainers` feature: figures, lesson numbers, exercises — what a
#                   page that only draws figures loads (js/app.js decides);
#   pgbook_build    the `book-build` feature alone: lesson 10's coding exercises and their
#                   notebook for scripts/build-site.mjs (never copied into the site).
set -euo pipefail
cd "$(dirname "$0")/.."
wasm=target/wasm32-unknown-unknown/release/pgbook.wasm
# No name section (108 KB of function names): the page never shows a wasm stack, the panic
# hook reports the message.
cargo build --release --target wasm32-unknown-unknown --lib --no-default-features
wasm-bindgen --target web --remove-name-section --out-dir www/pkg --out-name pgbook_figures "$wasm"
cargo build --release --target wasm32-unknown-unknown --lib --no-default-features --features book-build
wasm-bindgen --target web --remove-name-section --out-dir www/pkg --out-name pgbook_build "$wasm"
cargo build --release --target wasm32-unknown-unknown --lib
wasm-bindgen --target web --remove-name-section --out-dir www/pkg "$wasm"
for name in pgbook_figures pgbook_build pgbook; do
  size=$(stat -c %s "www/pkg/${name}_bg.wasm")
  gz=$(gzip -9 -c "www/pkg/${name}_bg.wasm" | wc -c)
  echo "[build] www/pkg/${name}_bg.wasm: $size bytes ($gz gzipped)" >&2
done
