#!/usr/bin/env bash
# Installs what building and testing ptxls needs, from Debian 12's archive.
# Idempotent: packages already present are not touched, and apt is not called at all when
# nothing is missing.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git xz-utils python3
  libtree-sitter-dev nlohmann-json3-dev libboost-dev libre2-dev catch2
  neovim pre-commit python3-yaml
  # Real editors for the client tests (tests/clients/): Emacs with eglot; tmux to drive Helix;
  # clangd beside ptxls on a CUDA buffer in Neovim (tests/clients/nvim-cuda).
  emacs-nox elpa-eglot tmux clangd-14
  # VS Code itself for the extension's end-to-end test: code-server builds one native module
  # against Kerberos headers, and Playwright drives Debian's Chromium.
  libkrb5-dev chromium
)

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

# Node and npm for the real-client tests: Debian's packages unless a node with npm is already
# installed some other way (NodeSource's nodejs bundles npm and conflicts with Debian's npm).
command -v node >/dev/null || missing+=(nodejs)
command -v npm >/dev/null || missing+=(npm)

if [ "${#missing[@]}" -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

sudo=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "install-deps: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  sudo=(sudo)
fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
if ! "${sudo[@]}" apt-get install -y --no-install-recommends "${missing[@]}"; then
  "${sudo[@]}" apt-get update
  "${sudo[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
fi
