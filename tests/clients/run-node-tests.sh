#!/usr/bin/env bash
# Runs the node --test suites of tests/clients/node against a ptxls binary, through VS Code's
# protocol library (vscode-languageserver-protocol, pinned in package-lock.json).
#
# Usage: run-node-tests.sh PTXLS_BINARY [CACHE_DIR] [node --test args / test files...]
#   CACHE_DIR  where the npm dependencies are installed (default: $PTXLS_NODE_CACHE, else
#              ${XDG_CACHE_HOME:-~/.cache}/ptxls-node-tests); never inside the source tree.
#              Reinstalled (npm ci) when package-lock.json changes.
# Exit: 0 all passed, 1 a test failed, 77 skipped (no node/npm, or the install failed, e.g. offline).
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
if [ $# -lt 1 ]; then
  echo "usage: $0 PTXLS_BINARY [CACHE_DIR] [test files...]" >&2
  exit 2
fi
binary=$(realpath -m "$1"); shift
cache=${PTXLS_NODE_CACHE:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/ptxls-node-tests}
if [ $# -gt 0 ] && [[ "$1" != -* && "$1" != *.mjs ]]; then cache=$1; shift; fi
cache=$(realpath -m "$cache")

if [ ! -x "$binary" ]; then
  echo "run-node-tests: no executable server at $binary" >&2
  exit 2
fi
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "run-node-tests: SKIP: node and npm are needed (apt-get install nodejs npm)" >&2
  exit 77
fi
major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$major" -lt 18 ]; then
  echo "run-node-tests: SKIP: node $major is too old for node --test (need 18+)" >&2
  exit 77
fi

# Install into the cache when the lock file there differs from ours (or nothing is there).
mkdir -p "$cache"
if ! cmp -s "$here/node/package-lock.json" "$cache/package-lock.json" || [ ! -d "$cache/node_modules/vscode-languageserver-protocol" ]; then
  echo "run-node-tests: npm ci into $cache" >&2
  rm -rf "$cache/node_modules"
  cp "$here/node/package.json" "$here/node/package-lock.json" "$cache/"
  if ! (cd "$cache" && npm ci --no-audit --no-fund --loglevel=error >"$cache/npm-ci.log" 2>&1); then
    cat "$cache/npm-ci.log" >&2
    rm -f "$cache/package-lock.json"   # retry next time
    echo "run-node-tests: SKIP: npm ci failed (no network or no registry?); log above" >&2
    exit 77
  fi
fi

export PTXLS_BINARY="$binary"
export PTXLS_NODE_PREFIX="$cache"
cd "$here/node"
if [ $# -eq 0 ]; then set -- ./*.test.mjs; fi
# Files run in parallel and every test has a time limit (the client's own per-request limit is
# 5 s); the flags are passed where this node knows them (Debian 12's node 18 knows neither).
flags=()
for flag in --test-concurrency=4 --test-timeout=30000; do
  if node "$flag" -e 0 >/dev/null 2>&1; then flags+=("$flag"); fi
done
exec timeout --kill-after=10 120 node --test "${flags[@]}" "$@"
