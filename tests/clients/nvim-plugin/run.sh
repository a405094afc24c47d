#!/usr/bin/env bash
# Tests the Neovim plugin (clients/nvim) in headless Neovim against a ptxls binary:
# plugin_test.lua through require('ptxls').setup{}, then the queries' freshness
# (clients/nvim/sync-queries.py --check).
#
# Usage: run.sh PTXLS_BINARY [NVIM]          NVIM defaults to $NVIM_BIN, else `nvim`
#        run.sh PTXLS_BINARY --fetch-0.10 CACHE_DIR
#   The second form runs Neovim 0.10.4 from Debian trixie, unpacked under CACHE_DIR by
#   fetch-nvim-0.10.sh (whose exit status it passes on when the fetch fails).
# Prints the test's JSON result. Exit: 0 ok, 1 a check failed, 2 harness error, 77 no Neovim.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
if [ $# -lt 1 ]; then
  echo "usage: $0 PTXLS_BINARY [NVIM]" >&2
  exit 2
fi
binary=$(realpath -m "$1")
if [ "${2:-}" = --fetch-0.10 ]; then
  [ $# -ge 3 ] || { echo "usage: $0 PTXLS_BINARY --fetch-0.10 CACHE_DIR" >&2; exit 2; }
  nvim=$("$here/fetch-nvim-0.10.sh" "$3")
  fetched=$?
  if [ $fetched -ne 0 ]; then
    [ $fetched -eq 77 ] && echo "nvim-plugin: SKIP: cannot fetch Neovim 0.10 from Debian trixie" >&2
    exit $fetched
  fi
elif [ $# -ge 2 ] && [ -z "$2" ]; then
  # `run.sh BIN "$(fetch-nvim-0.10.sh DIR)"` after a failed fetch: not a reason to test 0.7.
  echo "nvim-plugin: the NVIM argument is empty" >&2
  exit 2
else
  nvim=${2:-${NVIM_BIN:-nvim}}
fi
if ! command -v "$nvim" >/dev/null; then
  echo "nvim-plugin: SKIP: Neovim is not installed (apt-get install neovim)" >&2
  exit 77
fi
nvim=$(command -v "$nvim")
if [ ! -x "$binary" ]; then
  echo "nvim-plugin: no executable server at $binary" >&2
  exit 2
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/ptxls-nvim-plugin.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work"/{cache,state,config,data,bin} "$work"/a/.git "$work"/a/sub "$work"/b "$work"/other
fixtures=$repo/tests/clients/fixtures
cp "$fixtures/broken.ptx" "$work/a/broken.ptx"
cp "$fixtures/typo.ptx" "$work/a/sub/typo.ptx"
cp "$fixtures/inline_asm.cu" "$work/a/inline_asm.cu"
cp "$fixtures/vecadd.ptx" "$work/b/vecadd.ptx"
echo '{}' > "$work/b/.ptxls.json"
# A Leica PTX point cloud: columns, rows, scanner position, axes, a 4x4 transform, points.
printf '%s\n' 2 1 '0 0 0' '1 0 0' '0 1 0' '0 0 1' '1 0 0 0' '0 1 0 0' '0 0 1 0' '0 0 0 1' \
  '0.5 0.25 1.5 0.8' '0.5 0.30 1.5 0.7' > "$work/other/scan.ptx"
: > "$work/other/empty.ptx"
echo 'not ptx' > "$work/other/notes.txt"
# The default cmd is `ptxls` from PATH, as most users have it.
ln -s "$binary" "$work/bin/ptxls"

started=$(date +%s.%N)
if ! cc -shared -fPIC -O2 -I "$repo/grammar/src" "$repo/grammar/src/parser.c" "$repo/grammar/src/scanner.c" \
     -o "$work/ptx.so" 2>"$work/cc.log"; then
  echo "nvim-plugin: compiling grammar/src failed:" >&2
  cat "$work/cc.log" >&2
  exit 2
fi
compiled=$(date +%s.%N)

# Neovim writes lsp.log under XDG_CACHE_HOME (0.7) or XDG_STATE_HOME (0.8+): keep it out of $HOME.
# --cmd puts the plugin on 'runtimepath' before filetype detection sources ftdetect/.
(cd "$work" && XDG_CACHE_HOME="$work/cache" XDG_STATE_HOME="$work/state" XDG_CONFIG_HOME="$work/config" \
  XDG_DATA_HOME="$work/data" PATH="$work/bin:$PATH" \
  PTXLS_BINARY="$binary" REPO="$repo" WORK="$work" PTX_PARSER="$work/ptx.so" OUT_JSON="$work/result.json" \
  timeout --kill-after=5 90 "$nvim" --headless --clean -n -i NONE --cmd "set rtp^=$repo/clients/nvim" \
    -c "luafile $here/plugin_test.lua" </dev/null >"$work/stdout" 2>"$work/stderr")
status=$?
finished=$(date +%s.%N)
if [ -s "$work/result.json" ]; then
  cat "$work/result.json"
else
  cat "$work/stdout"
fi
if [ $status -ne 0 ]; then
  [ -s "$work/stderr" ] && { echo "--- nvim stderr:" >&2; cat "$work/stderr" >&2; }
  for log in "$work"/cache/nvim/lsp.log "$work"/state/nvim/lsp.log; do
    [ -s "$log" ] && { echo "--- $log (tail):" >&2; tail -n 40 "$log" >&2; }
  done
fi
case $status in
  0|1|2) ;;
  124|137) echo "nvim-plugin: Neovim timed out" >&2; status=2 ;;
  *) echo "nvim-plugin: Neovim exited with $status" >&2; status=2 ;;
esac

if ! python3 "$repo/clients/nvim/sync-queries.py" --check >&2; then
  [ $status -eq 0 ] && status=1
fi
awk -v v="$("$nvim" --version | head -n 1)" -v a="$started" -v b="$compiled" -v c="$finished" -v s="$status" \
  'BEGIN { printf "nvim-plugin: %s: compiling the grammar %.1fs, Neovim %.1fs, exit %d\n", v, b - a, c - b, s }' >&2
exit $status
