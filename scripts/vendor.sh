#!/usr/bin/env bash
# Installs the npm packages (skipped when node_modules matches the lockfile): KaTeX and esbuild
# for the site build (esbuild bundles the one-file book, site/pgbook.html), the page-test
# drivers and the JavaScript checkers. The page loads nothing from npm at run time: formulas
# are rendered to MathML when the site is built, and the search's MiniSearch and Russian stemmer
# are bundled into site/js/search-engine.js by the build.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "[setup] npm ci" >&2
  npm ci --no-audit --no-fund --loglevel=error
fi
