#!/usr/bin/env bash
# Installs what building and testing pgbook needs, skipping whatever is already there.
#   scripts/setup.sh serve   - the wasm toolchain only (rustup target, wasm-bindgen CLI)
#   scripts/setup.sh test    - also Chromium, Firefox ESR, their drivers, wasm-pack, npm packages
# Everything comes from the package registries (Debian, crates.io, npm, PyPI): no browser, driver or
# binary is downloaded from anywhere else, so this works on a machine with only registry access.
set -euo pipefail
mode="${1:-test}"
root="$(cd "$(dirname "$0")/.." && pwd)"
say() { printf '[setup] %s\n' "$*" >&2; }

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    say "need root for: $*"; exit 1; fi
}

# 1. The wasm target.
if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "adding rustup target wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi

# 2. wasm-bindgen CLI of exactly the version in Cargo.lock (the two must match).
cd "$root"
[ -f Cargo.lock ] || cargo generate-lockfile
want=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/[^0-9.]/, ""); print; exit }' Cargo.lock)
have=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)
if [ "$have" != "$want" ]; then
  say "installing wasm-bindgen-cli $want (have: ${have:-none}); takes a few minutes"
  # No --locked: its lockfile pins a crate version the registry here lacks.
  cargo install wasm-bindgen-cli --version "$want" --force
fi
if [ "$mode" = serve ]; then scripts/vendor.sh; exit 0; fi

# 3. Browsers and their drivers from Debian.
need_apt=()
command -v chromium >/dev/null || need_apt+=(chromium)
command -v chromedriver >/dev/null || need_apt+=(chromium-driver)
command -v firefox-esr >/dev/null || command -v firefox >/dev/null || need_apt+=(firefox-esr)
if [ ${#need_apt[@]} -gt 0 ]; then
  say "apt-get install ${need_apt[*]}"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

# 4. geckodriver, built from crates.io into cargo's bin directory, on PATH: plain
#    `wasm-pack test --headless --firefox` looks for it there (and would otherwise try to
#    download it). `wasm-pack test --chrome` still picks chromedriver: wasm-pack names the
#    driver to the test runner.
if ! command -v geckodriver >/dev/null; then
  say "building geckodriver with cargo"
  cargo install geckodriver --locked
fi

# 5. wasm-pack, for `wasm-pack test --headless --chrome|--firefox` as teachers run it.
if ! command -v wasm-pack >/dev/null; then
  say "installing wasm-pack"
  cargo install wasm-pack --locked
fi

# 6. Python from PyPI: NumPy, nbclient, nbformat and ipykernel (scripts/python-requirements.txt)
#    for the lessons' snippets and the exercises' notebook, run by tests/python.rs. Nothing is
#    fetched when the pinned versions are there.
python_ready() {
  python3 - <<'PY'
import sys
from importlib.metadata import PackageNotFoundError, version
pins = [l.split("==") for l in open("scripts/python-requirements.txt") if "==" in l and not l.startswith("#")]
try:
    sys.exit(0 if all(version(n) == v.strip() for n, v in pins) else 1)
except PackageNotFoundError:
    sys.exit(1)
PY
}
if ! python_ready; then
  say "pip install -r scripts/python-requirements.txt (NumPy, nbclient, nbformat, ipykernel)"
  python3 -m pip install --quiet --disable-pip-version-check --no-input -r scripts/python-requirements.txt
fi

# 7. npm packages: KaTeX and esbuild (the site build; esbuild bundles the one-file book),
#    playwright-core and puppeteer-core (drive Debian's Chromium and Firefox ESR, download
#    nothing), TypeScript, prettier, ESLint.
scripts/vendor.sh
say "ready"
