#!/usr/bin/env bash
# Builds the release wasm and writes the JS glue, its TypeScript declarations (which `tsc`
# checks the page's JavaScript against) and the .wasm into www/pkg.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --target wasm32-unknown-unknown --lib
# No name section (108 KB of function names): the page never shows a wasm stack, the panic
# hook reports the message.
wasm-bindgen --target web --remove-name-section --out-dir www/pkg target/wasm32-unknown-unknown/release/pgbook.wasm
size=$(stat -c %s www/pkg/pgbook_bg.wasm)
gz=$(gzip -9 -c www/pkg/pgbook_bg.wasm | wc -c)
echo "[build] www/pkg/pgbook_bg.wasm: $size bytes ($gz gzipped)" >&2
