#!/usr/bin/env bash
# Builds the app into a private folder and runs end-to-end specs against it, so several people
# can run Playwright from one checkout at once. Usage: scripts/e2e-build.sh <folder> [spec…]
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:?usage: scripts/e2e-build.sh <folder> [spec…]}"; shift
mkdir -p "$out"
ln -sfn "$here/node_modules" "$out/node_modules"
cp "$here/package.json" "$out/package.json"
cd "$here"
npx vite build --logLevel warn --outDir "$out/dist/client" --emptyOutDir
npx vite build --logLevel warn -c vite.server.config.ts --outDir "$out/dist/server" --emptyOutDir
PATCHBAY_E2E_BUILD="$out" npx playwright test -c tests/e2e/playwright.config.ts --reporter=list --output "$out/test-results" "$@"
