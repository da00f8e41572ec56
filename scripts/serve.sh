#!/usr/bin/env bash
# Sets up what is missing, builds the wasm in release and serves the textbook on 127.0.0.1.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh serve
scripts/build-wasm.sh
exec python3 scripts/serve.py
