#!/usr/bin/env bash
# Builds the ptxls VS Code extension (.vsix) with a ptxls binary inside, without writing into the
# source tree: the sources are copied to a temporary folder, the npm dependencies live in a cache.
#
# Usage: build-vsix.sh PTXLS_BINARY OUT_VSIX [NPM_CACHE_DIR]
#   PTXLS_BINARY   the server to ship as server/ptxls (for linux-x64: the package is tagged so)
#   OUT_VSIX       the .vsix to write
#   NPM_CACHE_DIR  where the npm dependencies are installed (default:
#                  ${PTXLS_NODE_CACHE:-$HOME/.cache/ptxls-node}/vscode-ext); reinstalled with
#                  npm ci only when package-lock.json changes.
# Exit: 0 built; 77 npm is missing or the install failed for lack of network (CTest: skipped);
#       2 usage; anything else a real failure (type errors, a broken bundle, vsce refusing).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)

if [ $# -lt 2 ] || [ $# -gt 3 ]; then
  echo "usage: $0 PTXLS_BINARY OUT_VSIX [NPM_CACHE_DIR]" >&2
  exit 2
fi
binary=$(realpath -m "$1")
out=$(realpath -m "$2")
cache=$(realpath -m "${3:-${PTXLS_NODE_CACHE:-${HOME:-/tmp}/.cache/ptxls-node}/vscode-ext}")

if [ ! -f "$binary" ] || [ ! -x "$binary" ]; then
  echo "build-vsix: no executable server at $binary" >&2
  exit 2
fi
if [ ! -f "$repo/LICENSE" ]; then
  echo "build-vsix: $repo/LICENSE is missing; the package must carry the license" >&2
  exit 1
fi
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "build-vsix: SKIP: node and npm are needed (apt-get install nodejs npm)" >&2
  exit 77
fi
major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$major" -lt 20 ]; then
  echo "build-vsix: SKIP: node $major is too old; vsce 3 needs node 20 or later" >&2
  exit 77
fi

# Dependencies: installed once per package-lock.json. --ignore-scripts: nothing needed here has
# to run an install script (esbuild finds its platform binary without one; keytar and vsce-sign
# serve publishing and signing, not packaging), and the scripts would try to download.
mkdir -p "$cache"
if ! cmp -s "$here/package-lock.json" "$cache/package-lock.json" || [ ! -x "$cache/node_modules/.bin/vsce" ]; then
  echo "build-vsix: npm ci into $cache" >&2
  rm -rf "$cache/node_modules"
  cp "$here/package.json" "$here/package-lock.json" "$cache/"
  if ! (cd "$cache" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error >"$cache/npm-ci.log" 2>&1); then
    cat "$cache/npm-ci.log" >&2
    rm -f "$cache/package-lock.json"   # install again next time
    if grep -Eq 'ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH|network|proxy' "$cache/npm-ci.log"; then
      echo "build-vsix: SKIP: npm ci could not reach the registry (log above)" >&2
      exit 77
    fi
    echo "build-vsix: npm ci failed (log above)" >&2
    exit 1
  fi
fi
bin="$cache/node_modules/.bin"

stage=$(mktemp -d "${TMPDIR:-/tmp}/ptxls-vsix.XXXXXX")
trap 'rm -rf "$stage"' EXIT
# The extension's own files only: no build outputs or dependencies a developer may have here.
tar -C "$here" --exclude=./node_modules --exclude=./dist --exclude=./server --exclude='./*.vsix' --exclude=./LICENSE -cf - . \
  | tar -C "$stage" -xf -
ln -s "$cache/node_modules" "$stage/node_modules"

cd "$stage"
"$bin/tsc" --noEmit -p .
"$bin/esbuild" src/extension.ts --bundle --platform=node --format=cjs --target=node18 --external:vscode \
  --outfile=dist/extension.js --minify --log-level=warning
install -D -m 755 "$binary" server/ptxls
cp "$repo/LICENSE" LICENSE

mkdir -p "$(dirname "$out")"
rm -f "$out"
"$bin/vsce" package --no-dependencies --target linux-x64 --out "$out"
echo "build-vsix: wrote $out ($(stat -c %s "$out") bytes)" >&2
