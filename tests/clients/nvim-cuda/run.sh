#!/usr/bin/env bash
# ptxls beside clangd on one CUDA buffer, in headless Neovim (0.8+; CTest runs 0.10.4): the
# Neovim block of docs/editors.md ("CUDA sources beside clangd"), extracted verbatim, starts the
# plugin (clients/nvim) and clangd; cuda_clangd_test.lua opens tests/clients/fixtures/inline_asm.cu
# and checks that both servers attach and both sets of diagnostics are shown.
#
# Usage: run.sh PTXLS_BINARY [NVIM]          NVIM defaults to $NVIM_BIN, else `nvim`
#        run.sh PTXLS_BINARY --fetch-0.10 CACHE_DIR
#   The second form runs Neovim 0.10.4 from Debian trixie (../nvim-plugin/fetch-nvim-0.10.sh).
#   clangd: $CLANGD_BIN, else clangd-14 (Debian 12's package), else clangd.
# Prints the test's JSON result. Exit: 0 ok, 1 a check failed, 2 harness error, 77 skipped (no
# Neovim 0.8+, no clangd, or the trixie archive cannot be reached).
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
say() { echo "nvim-cuda: $*" >&2; }
if [ $# -lt 1 ]; then
  echo "usage: $0 PTXLS_BINARY [NVIM | --fetch-0.10 CACHE_DIR]" >&2
  exit 2
fi
binary=$(realpath -m "$1")
if [ ! -x "$binary" ]; then
  say "no executable server at $binary"
  exit 2
fi

clangd=${CLANGD_BIN:-}
if [ -z "$clangd" ]; then
  for candidate in clangd-14 clangd; do
    if command -v "$candidate" >/dev/null; then clangd=$candidate; break; fi
  done
fi
if [ -z "$clangd" ] || ! command -v "$clangd" >/dev/null; then
  say "SKIP: clangd is not installed (apt-get install clangd-14)"
  exit 77
fi
clangd=$(command -v "$clangd")

if [ "${2:-}" = --fetch-0.10 ]; then
  [ $# -ge 3 ] || { echo "usage: $0 PTXLS_BINARY --fetch-0.10 CACHE_DIR" >&2; exit 2; }
  nvim=$("$repo/tests/clients/nvim-plugin/fetch-nvim-0.10.sh" "$3")
  fetched=$?
  if [ $fetched -ne 0 ]; then
    [ $fetched -eq 77 ] && say "SKIP: cannot fetch Neovim 0.10 from Debian trixie"
    exit $fetched
  fi
else
  nvim=${2:-${NVIM_BIN:-nvim}}
fi
if ! command -v "$nvim" >/dev/null; then
  say "SKIP: Neovim is not installed"
  exit 77
fi
nvim=$(command -v "$nvim")
# The documented clangd block uses vim.lsp.start and vim.fs (0.8+).
if ! "$nvim" --headless --clean -n -i NONE -c 'if has("nvim-0.8") | qall! | else | cquit 3 | endif' </dev/null >/dev/null 2>&1; then
  say "SKIP: $("$nvim" --version | head -n 1) is older than 0.8 (the documented clangd setup needs vim.lsp.start)"
  exit 77
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/ptxls-nvim-cuda.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work"/{cache,state,config,data,bin} "$work/project/.git"
cp "$repo/tests/clients/fixtures/inline_asm.cu" "$work/project/inline_asm.cu"
# clangd parses the file as CUDA without a CUDA installation: no CUDA headers or libdevice, and
# the two execution-space attributes the fixture uses spelled out (the headers would define them).
cat > "$work/project/.clangd" <<'EOF'
CompileFlags:
  Add: [-xcuda, --cuda-gpu-arch=sm_80, -nocudainc, -nocudalib, "-D__device__=__attribute__((device))", "-D__global__=__attribute__((global))"]
EOF
# The documented setup runs `ptxls` and `clangd` from PATH.
ln -s "$binary" "$work/bin/ptxls"
ln -s "$clangd" "$work/bin/clangd"
"$repo/tests/clients/editors/extract-snippet.sh" "$repo/docs/editors.md" nvim-cuda > "$work/init.lua" || exit 2

started=$(date +%s.%N)
# --cmd puts the plugin on 'runtimepath' before filetype detection, as a plugin manager would.
(cd "$work/project" && XDG_CACHE_HOME="$work/cache" XDG_STATE_HOME="$work/state" XDG_CONFIG_HOME="$work/config" \
  XDG_DATA_HOME="$work/data" PATH="$work/bin:$PATH" WORK="$work" INIT="$work/init.lua" OUT_JSON="$work/result.json" \
  timeout --kill-after=5 90 "$nvim" --headless --clean -n -i NONE --cmd "set rtp^=$repo/clients/nvim" \
    -c "luafile $here/cuda_clangd_test.lua" </dev/null >"$work/stdout" 2>"$work/stderr")
status=$?
finished=$(date +%s.%N)
if [ -s "$work/result.json" ]; then cat "$work/result.json"; else cat "$work/stdout"; fi
if [ $status -ne 0 ]; then
  [ -s "$work/stderr" ] && { echo "--- nvim stderr:" >&2; cat "$work/stderr" >&2; }
  [ -s "$work/state/nvim/lsp.log" ] && { echo "--- lsp.log (tail):" >&2; tail -n 40 "$work/state/nvim/lsp.log" >&2; }
fi
case $status in
  0|1|2) ;;
  124|137) say "Neovim timed out"; status=2 ;;
  *) say "Neovim exited with $status"; status=2 ;;
esac
awk -v v="$("$nvim" --version | head -n 1)" -v c="$("$clangd" --version | grep -m1 -o 'clangd version [^ ]*')" \
  -v a="$started" -v b="$finished" -v s="$status" \
  'BEGIN { printf "nvim-cuda: %s, %s: %.1fs, exit %d\n", v, c, b - a, s }' >&2
exit $status
