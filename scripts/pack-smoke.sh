#!/usr/bin/env bash
# What a new user does with the README's install line, on this checkout as it is (CI runs it on a fresh
# clone right after `npm ci`, before anything is built): `npm pack` (its prepack script builds the
# bundles), `npm install -g` of the tarball into a temporary prefix with no registry access, then the
# installed `dlmm` run from outside the clone: --version, and a live check of a shipped example against
# the embedded simulator. Exits non-zero, saying which step failed, when any of it does not work.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
work="$(mktemp -d "${TMPDIR:-/tmp}/dlmm-pack-smoke-XXXXXX")"
trap 'rm -rf "$work"' EXIT

step() { printf 'pack-smoke: %s\n' "$1"; }

step "npm pack (prepack builds first)"
tarball="$(npm pack --pack-destination "$work" --silent | tail -n 1)"
[[ -f "$work/$tarball" ]] || { echo "pack-smoke: npm pack wrote no tarball" >&2; exit 1; }
# The listing is read whole first: `grep -q` would stop reading early, and under pipefail tar's SIGPIPE fails
# the check.
listing="$(tar -tzf "$work/$tarball")"
grep -qx 'package/dist/cli.js' <<<"$listing" ||
  { echo "pack-smoke: $tarball has no dist/cli.js (did prepack build?)" >&2; exit 1; }

step "npm install -g $tarball into a temporary prefix (offline)"
npm install -g --prefix "$work/prefix" "$work/$tarball" --offline --no-audit --no-fund --silent

cd "$work"
dlmm="$work/prefix/bin/dlmm"
example="$work/prefix/lib/node_modules/dlmm-studio/examples/add-ladder.dlmm.yaml"
step "dlmm --version (from $work)"
version="$(DLMM_API_URL='' DLMM_API_KEY='' "$dlmm" --version)"
[[ "$version" == "$(node -p "require('$OLDPWD/package.json').version")" ]] ||
  { echo "pack-smoke: dlmm --version printed '$version'" >&2; exit 1; }
step "dlmm --help names the installed docs and examples"
help="$("$dlmm" --help)"
docs="$(sed -n 's/^more: //p' <<<"$help")"
examples="$(sed -n 's/^examples: //p' <<<"$help")"
[[ -f "$docs" && -d "$examples" ]] ||
  { echo "pack-smoke: dlmm --help names docs '$docs' and examples '$examples', which are not there" >&2; exit 1; }
step "dlmm check --sim on the shipped add-ladder example"
DLMM_API_URL='' DLMM_API_KEY='' "$dlmm" check --sim "$example"
step "ok: dlmm $version installed from $tarball"
