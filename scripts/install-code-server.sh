#!/usr/bin/env bash
# Installs code-server (VS Code in a browser) for the end-to-end suite, without any download from
# outside the npm registry: install scripts are skipped, native modules are built here with node-gyp
# against Node's own headers, and Debian's ripgrep replaces the one @vscode/ripgrep would download.
# The result is cached outside the repository, keyed by version, and reused when its marker exists.
# Prints the code-server entry point path on the last line of stdout.
set -euo pipefail

version="${CODE_SERVER_VERSION:-4.100.3}"
cache_root="${DLMM_E2E_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/dlmm-studio}"
prefix="$cache_root/code-server-$version"
marker="$prefix/.complete"
pkg="$prefix/node_modules/code-server"
entry="$pkg/out/node/entry.js"

if [[ -f "$marker" && -f "$entry" ]]; then
  echo "install-code-server: cached at $prefix" >&2
  echo "$entry"
  exit 0
fi

# One installer at a time per version: another run (a second suite, CI) waits here, then finds the marker.
mkdir -p "$cache_root"
exec 9>"$cache_root/.code-server-$version.lock"
if ! flock -w 1800 9; then
  echo "install-code-server: another install of $version held the lock for 30 minutes; giving up" >&2
  exit 1
fi
if [[ -f "$marker" && -f "$entry" ]]; then
  echo "install-code-server: cached at $prefix (installed by a concurrent run)" >&2
  echo "$entry"
  exit 0
fi

node_gyp="${NODE_GYP:-}"
if [[ -z "$node_gyp" ]]; then
  npm_root="$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")"
  node_gyp="$npm_root/node_modules/node-gyp/bin/node-gyp.js"
fi
[[ -f "$node_gyp" ]] || { echo "install-code-server: node-gyp not found at $node_gyp (set NODE_GYP)" >&2; exit 1; }
node_major="$(node -p 'process.versions.node.split(".")[0]')"
[[ "$node_major" == 20 ]] || echo "install-code-server: warning: code-server $version expects Node 20, found $(node -v)" >&2
nodedir="${NODE_GYP_NODEDIR:-$(dirname "$(dirname "$(readlink -f "$(command -v node)")")")}"
[[ -f "$nodedir/include/node/node.h" ]] || { echo "install-code-server: Node headers not found under $nodedir/include/node (set NODE_GYP_NODEDIR)" >&2; exit 1; }
command -v rg >/dev/null || { echo "install-code-server: ripgrep (rg) is missing: run scripts/install-e2e-deps.sh" >&2; exit 1; }

started=$SECONDS
log() { echo "install-code-server: [$((SECONDS - started))s] $*" >&2; }
rm -rf "$prefix"
mkdir -p "$prefix"
cd "$prefix"
echo '{"name":"dlmm-studio-code-server","private":true}' > package.json

log "npm install --ignore-scripts code-server@$version"
npm install --ignore-scripts --no-audit --no-fund --loglevel=error "code-server@$version" >&2

log "npm install --omit=dev --ignore-scripts in lib/vscode"
(cd "$pkg/lib/vscode" && npm install --omit=dev --ignore-scripts --no-audit --no-fund --loglevel=error >&2)

build_log="$prefix/native-build.log"
gyp() {
  if ! node "$node_gyp" rebuild --nodedir="$nodedir" --loglevel=error "$@" >>"$build_log" 2>&1; then
    tail -40 "$build_log" >&2
    echo "install-code-server: native build failed in $PWD (full log: $build_log)" >&2
    return 1
  fi
}
jobs_flag="--jobs=$(nproc 2>/dev/null || echo 2)"
for module in node-pty @parcel/watcher kerberos @vscode/spdlog native-watchdog @vscode/deviceid; do
  dir="$pkg/lib/vscode/node_modules/$module"
  if [[ -f "$dir/binding.gyp" ]]; then
    log "node-gyp rebuild $module"
    (cd "$dir" && gyp "$jobs_flag")
  else
    log "skip $module (no binding.gyp)"
  fi
done

log "link Debian ripgrep"
rg_dir="$pkg/lib/vscode/node_modules/@vscode/ripgrep/bin"
mkdir -p "$rg_dir"
ln -sfn "$(command -v rg)" "$rg_dir/rg"

log "link node_modules.asar"
ln -sfn node_modules "$pkg/lib/vscode/node_modules.asar"

# npm hoists argon2 next to code-server; older layouts keep it inside code-server's own node_modules.
argon="$prefix/node_modules/argon2"
[[ -d "$argon" ]] || argon="$pkg/node_modules/argon2"
if [[ -f "$argon/binding.gyp" ]]; then
  log "build argon2"
  (cd "$argon" && gyp "$jobs_flag" --module_name=argon2 --module_path=lib/binding/napi-v3 --napi_build_version=3)
  mkdir -p "$argon/lib/binding/napi-v3"
  cp "$argon/build/Release/argon2.node" "$argon/lib/binding/napi-v3/"
fi

log "check: code-server --version"
XDG_CONFIG_HOME="$prefix/.config" node "$entry" --version >&2
date -u +%FT%TZ > "$marker"
log "done, cached at $prefix"
echo "$entry"
