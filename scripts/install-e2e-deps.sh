#!/usr/bin/env bash
# Installs everything the end-to-end suite needs on a fresh Debian 12 + Node 20 machine:
# Debian packages (Chromium, Neovim, ripgrep, build tools, Kerberos headers, fonts), then code-server.
# Neovim (Debian's, 0.7 on Debian 12) is the second editor `npm test` drives the language server in
# (test/integration/editors/neovim.test.ts; under CI it must run).
# Idempotent: packages already present are not reinstalled, and code-server is cached by version.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
packages=(chromium neovim ripgrep libkrb5-dev build-essential python3 pkg-config
  fonts-dejavu-core fonts-liberation ca-certificates)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

if ((${#missing[@]})); then
  sudo_cmd=()
  if [[ $(id -u) -ne 0 ]]; then sudo_cmd=(sudo); fi
  echo "install-e2e-deps: apt-get install ${missing[*]}"
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "install-e2e-deps: Debian packages present (${packages[*]})"
fi

bash "$here/install-code-server.sh"
