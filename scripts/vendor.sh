#!/usr/bin/env bash
# Installs the npm packages (skipped when node_modules matches the lockfile) and copies the
# front-end assets into www/vendor: nothing on the page is loaded from a CDN.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "[setup] npm ci" >&2
  npm ci --no-audit --no-fund --loglevel=error
fi
mkdir -p www/vendor
# KaTeX renders to MathML only: the browser typesets it, so no font files ship.
cp node_modules/katex/dist/katex.min.js www/vendor/katex.min.js
