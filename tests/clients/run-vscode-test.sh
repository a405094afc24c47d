#!/usr/bin/env bash
# End-to-end test of the VS Code extension inside real VS Code: builds the .vsix
# (clients/vscode/build-vsix.sh), prepares code-server 4.139.1 on Node 24 (vscode/setup-code-server.sh;
# minutes the first time, nothing afterwards), then drives it in headless Chromium (vscode/drive.mjs):
# squiggles + Problems count, hover, go to definition, completion, TextMate scopes, a CUDA source's
# inline PTX (squiggle and hover inside asm strings, no formatter claimed); screenshots.
#
# Usage: run-vscode-test.sh PTXLS_BINARY [CACHE_DIR] [SCREENSHOT_DIR]
#   CACHE_DIR       default ${PTXLS_NODE_CACHE:-~/.cache/ptxls-node}/code-server (~800 MB once set up);
#                   never inside the source tree
#   SCREENSHOT_DIR  default a new temporary folder (printed at the end)
#   PTXLS_VSIX=path use this .vsix instead of building one
# Exit: 0 passed, 1 a check failed, 77 skipped (no node/npm, the npm registry cannot be reached
#       while something still has to be installed, or a needed Debian package is missing).
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
if [ $# -lt 1 ] || [ $# -gt 3 ]; then
  echo "usage: $0 PTXLS_BINARY [CACHE_DIR] [SCREENSHOT_DIR]" >&2
  exit 2
fi
binary=$(realpath -m "$1")
cache=$(realpath -m "${2:-${PTXLS_NODE_CACHE:-${HOME:-/tmp}/.cache/ptxls-node}/code-server}")
# The extension's build dependencies: build-vsix.sh's own default (shared with building the .vsix
# by hand) unless a CACHE_DIR was given, then inside it.
vsix_cache=()
if [ -n "${2:-}" ]; then vsix_cache=("$cache/vscode-ext"); fi
shots=${3:-}
say() { echo "run-vscode-test: $*" >&2; }

if [ ! -x "$binary" ]; then
  say "no executable server at $binary"
  exit 2
fi
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  say "SKIP: node and npm are needed (apt-get install nodejs npm)"
  exit 77
fi
start=$SECONDS
work=$(mktemp -d "${TMPDIR:-/tmp}/ptxls-vscode-run.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
if [ -z "$shots" ]; then shots=$(mktemp -d "${TMPDIR:-/tmp}/ptxls-vscode-screenshots.XXXXXX") || exit 1; fi
shots=$(realpath -m "$shots")
mkdir -p "$shots" "$cache" || exit 1

# 1. the .vsix
if [ -n "${PTXLS_VSIX:-}" ]; then
  vsix=$(realpath -m "$PTXLS_VSIX")
  [ -f "$vsix" ] || { say "PTXLS_VSIX=$vsix does not exist"; exit 2; }
else
  build="$root/clients/vscode/build-vsix.sh"
  if [ ! -x "$build" ]; then
    say "SKIP: $build is missing"
    exit 77
  fi
  vsix="$work/ptxls.vsix"
  say "building the .vsix ($build)"
  "$build" "$binary" "$vsix" "${vsix_cache[@]}"
  rc=$?
  if [ "$rc" -eq 77 ]; then say "SKIP: the .vsix could not be built (build-vsix.sh exited 77)"; exit 77; fi
  if [ "$rc" -ne 0 ] || [ ! -f "$vsix" ]; then say "FAILED: build-vsix.sh exited $rc"; exit 1; fi
fi

# 2. code-server + Node 24 + playwright-core in the cache
"$here/vscode/setup-code-server.sh" "$cache"
rc=$?
if [ "$rc" -eq 77 ]; then exit 77; fi
if [ "$rc" -ne 0 ]; then say "FAILED: setup-code-server.sh exited $rc"; exit 1; fi

# 3. drive it
say "driving code-server (screenshots: $shots)"
timeout --kill-after=10 300 "$cache/node24/bin/node" "$here/vscode/drive.mjs" \
  --cache "$cache" --vsix "$vsix" --server "$binary" --out "$shots"
rc=$?
say "$( [ "$rc" -eq 0 ] && echo passed || echo "FAILED (drive.mjs exited $rc)" ) in $((SECONDS - start)) s; screenshots in $shots"
[ "$rc" -eq 0 ] && exit 0
exit 1
