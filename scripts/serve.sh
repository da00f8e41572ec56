#!/usr/bin/env bash
# Sets up what is missing, builds the wasm in release and the site, and serves the textbook on
# 127.0.0.1 (port from $PGBOOK_PORT, default 8000).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh serve
scripts/build-wasm.sh
node scripts/build-site.mjs
exec python3 scripts/serve.py
