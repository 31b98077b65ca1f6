#!/usr/bin/env bash
# The end-to-end suite: installs what it needs (Debian packages, code-server; cached), builds and packages
# the VSIX, then drives a real VS Code (code-server) in headless Chromium. Arguments filter suite files.
# Env: DLMM_E2E_SKIP_INSTALL=1 (deps already there), DLMM_VSIX=FILE (use this VSIX, skip packaging),
#      DLMM_E2E_KEEP=1 (keep the temporary profile and workspace), DLMM_E2E_ARTIFACTS=DIR (screenshots).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

t0=$SECONDS
if [[ "${DLMM_E2E_SKIP_INSTALL:-}" != 1 ]]; then
  echo "== e2e: dependencies (scripts/install-e2e-deps.sh)"
  entry="$(bash scripts/install-e2e-deps.sh | tail -n 1)"
else
  entry="$(bash scripts/install-code-server.sh | tail -n 1)"
fi
export CODE_SERVER_ENTRY="$entry"
echo "== e2e: code-server at $CODE_SERVER_ENTRY ($((SECONDS - t0))s)"

if [[ -z "${DLMM_VSIX:-}" ]]; then
  echo "== e2e: npm run package"
  npm run --silent package
  ls -l dist/dlmm-studio.vsix
fi

artifacts="${DLMM_E2E_ARTIFACTS:-test/e2e/artifacts}"
mkdir -p "$artifacts"
rm -f "$artifacts"/*.png
echo "== e2e: suites"
npx tsx test/e2e/run.ts "$@"
