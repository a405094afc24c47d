#!/usr/bin/env bash
# Offline checks of the VS Code extension (clients/vscode), under node --test:
#   grammar.test.mjs                 the TextMate grammar, through vscode-textmate + vscode-oniguruma
#   language-configuration.test.mjs  the word pattern, comments, brackets, folding markers
#   package.test.mjs                 the .vsix that clients/vscode/build-vsix.sh builds from PTXLS_BINARY
#   register-report.test.mjs         the register report page (src/registerReport.ts, bundled with the
#                                    extension's esbuild) on PTXLS_BINARY's answer for ../vscode/registers.ptx
#
# Usage: run.sh PTXLS_BINARY [CACHE_DIR]
#   CACHE_DIR  where npm dependencies are installed, never inside the source tree (default:
#              ${PTXLS_NODE_CACHE:-$HOME/.cache/ptxls-node}): CACHE_DIR/vscode-unit for the tests'
#              own (package-lock.json here), CACHE_DIR/vscode-ext for the extension build's.
#              Each is reinstalled with npm ci only when its package-lock.json changes.
# Exit: 0 all passed, 1 a test or the build failed, 77 skipped (no node/npm, or the npm registry
#       could not be reached to install something missing).
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../../.." && pwd)
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
  echo "usage: $0 PTXLS_BINARY [CACHE_DIR]" >&2
  exit 2
fi
binary=$(realpath -m "$1")
cache=$(realpath -m "${2:-${PTXLS_NODE_CACHE:-${HOME:-/tmp}/.cache/ptxls-node}}")
say() { echo "vscode-unit: $*" >&2; }

if [ ! -x "$binary" ]; then
  say "no executable server at $binary"
  exit 2
fi
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  say "SKIP: node and npm are needed (apt-get install nodejs npm)"
  exit 77
fi
major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$major" -lt 18 ]; then
  say "SKIP: node $major is too old for node --test (need 18+)"
  exit 77
fi

deps="$cache/vscode-unit"
mkdir -p "$deps" || exit 1
if ! cmp -s "$here/package-lock.json" "$deps/package-lock.json" || [ ! -d "$deps/node_modules/vscode-textmate" ]; then
  say "npm ci into $deps"
  rm -rf "$deps/node_modules"
  cp "$here/package.json" "$here/package-lock.json" "$deps/"
  if ! (cd "$deps" && npm ci --no-audit --no-fund --loglevel=error >"$deps/npm-ci.log" 2>&1); then
    cat "$deps/npm-ci.log" >&2
    rm -f "$deps/package-lock.json"   # install again next time
    if grep -Eq 'ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH|network|proxy' "$deps/npm-ci.log"; then
      say "SKIP: npm ci could not reach the registry (log above)"
      exit 77
    fi
    say "npm ci failed (log above)"
    exit 1
  fi
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/ptxls-vscode-unit.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT

# The .vsix first; the grammar and configuration tests run whatever its fate.
vsix="$work/ptxls.vsix"
"$root/clients/vscode/build-vsix.sh" "$binary" "$vsix" "$cache/vscode-ext" >"$work/build.log" 2>&1
build=$?
if [ "$build" -ne 0 ]; then
  cat "$work/build.log" >&2
  say "build-vsix.sh exited $build"
fi

export PTXLS_VSCODE_UNIT_PREFIX="$deps" PTXLS_BINARY="$binary"
tests=("$here/grammar.test.mjs" "$here/language-configuration.test.mjs")
if [ "$build" -eq 0 ]; then
  export PTXLS_VSIX="$vsix" PTXLS_VSCODE_EXT_MODULES="$cache/vscode-ext/node_modules"
  tests+=("$here/package.test.mjs" "$here/register-report.test.mjs")
fi
# The per-test limit and concurrency flags exist from node 20 on; older ones run without them.
flags=()
for flag in --test-concurrency=2 --test-timeout=120000; do
  if node "$flag" -e 0 >/dev/null 2>&1; then flags+=("$flag"); fi
done
timeout --kill-after=10 300 node --test "${flags[@]}" "${tests[@]}"
rc=$?

if [ "$rc" -ne 0 ]; then exit 1; fi
if [ "$build" -eq 77 ]; then
  say "SKIP: the .vsix could not be built (no npm registry, or node older than 20), so package.test.mjs did not run"
  exit 77
fi
if [ "$build" -ne 0 ]; then exit 1; fi
exit 0
