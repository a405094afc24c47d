#!/usr/bin/env bash
# Runs tests/clients/nvim/ptxls_test.lua in headless Neovim (0.7.2 from Debian 12 or newer)
# against a ptxls binary, on a copy of tests/clients/fixtures/broken.ptx.
#
# Usage: run-nvim-test.sh PTXLS_BINARY [NVIM]   (NVIM defaults to $NVIM_BIN, else `nvim`)
# Exit: 0 ok, 1 an expectation failed, 2 harness error, 77 skipped (no Neovim).
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
if [ $# -lt 1 ]; then
  echo "usage: $0 PTXLS_BINARY [NVIM]" >&2
  exit 2
fi
binary=$(realpath -m "$1")
nvim=${2:-${NVIM_BIN:-nvim}}
if ! command -v "$nvim" >/dev/null; then
  echo "run-nvim-test: SKIP: Neovim is not installed (apt-get install neovim)" >&2
  exit 77
fi
if [ ! -x "$binary" ]; then
  echo "run-nvim-test: no executable server at $binary" >&2
  exit 2
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/ptxls-nvim.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/cache" "$work/state" "$work/config" "$work/data"
cp "$here/fixtures/broken.ptx" "$work/broken.ptx"   # the test edits the buffer; never the fixture

# Neovim writes lsp.log under XDG_CACHE_HOME (0.7) or XDG_STATE_HOME (0.8+): keep it out of $HOME.
XDG_CACHE_HOME="$work/cache" XDG_STATE_HOME="$work/state" XDG_CONFIG_HOME="$work/config" XDG_DATA_HOME="$work/data" \
PTXLS_BINARY="$binary" PTX_FILE="$work/broken.ptx" OUT_JSON="$work/result.json" \
  timeout --kill-after=5 60 "$nvim" --headless --clean -n -i NONE \
    -c "luafile $here/nvim/ptxls_test.lua" </dev/null >"$work/stdout" 2>"$work/stderr"
status=$?
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
  0|1|2) exit $status ;;
  124|137) echo "run-nvim-test: Neovim timed out" >&2; exit 2 ;;
  *) echo "run-nvim-test: Neovim exited with $status" >&2; exit 2 ;;
esac
