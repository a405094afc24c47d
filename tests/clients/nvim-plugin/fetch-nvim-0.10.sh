#!/bin/sh
# fetch-nvim-0.10.sh CACHE_DIR : makes Neovim 0.10.4 (Debian trixie's package) runnable on
# Debian 12, which ships 0.7.2, and prints the path of a wrapper to run it with:
#   tests/clients/nvim-plugin/run.sh build/ptxls "$(tests/clients/nvim-plugin/fetch-nvim-0.10.sh ~/.cache/ptx-tools/trixie-clients)"
# The packages are unpacked under CACHE_DIR (about 16 MB; later calls reuse them) and the
# binary runs through trixie's loader (../editors/trixie-fetch.sh says why).
# Exit: 0 wrapper printed, 77 the trixie archive cannot be reached, 2 other errors.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
D=$(realpath -m "${1:?usage: fetch-nvim-0.10.sh CACHE_DIR}")
R=$D/root
L=$R/usr/lib/x86_64-linux-gnu
wrapper=$D/bin/nvim

write_wrapper() {
  mkdir -p "$D/bin" "$R/usr/lib/lib"
  # Neovim looks for its bundled tree-sitter parsers (markdown for hover windows, lua, vim,
  # ...) in EXEDIR/../lib/nvim, and EXEDIR is the loader's folder, usr/lib/x86_64-linux-gnu.
  ln -sfn ../nvim "$R/usr/lib/lib/nvim"
  # VIMRUNTIME: without it Neovim 0.10 finds the system's 0.7 runtime.
  cat > "$wrapper.tmp" <<W
#!/bin/sh
export VIMRUNTIME="$R/usr/share/nvim/runtime"
exec "$L/ld-linux-x86-64.so.2" --library-path "$L" "$R/usr/bin/nvim" "\$@"
W
  chmod +x "$wrapper.tmp"
  mv "$wrapper.tmp" "$wrapper"
}

works() {
  [ -x "$R/usr/bin/nvim" ] && "$wrapper" --version 2>/dev/null | head -n 1 | grep -q '^NVIM v0\.10\.'
}

if [ -x "$R/usr/bin/nvim" ]; then
  write_wrapper
fi
if ! works; then
  status=0
  "$here/../editors/trixie-fetch.sh" "$D" neovim neovim-runtime libluajit-5.1-2 libluajit-5.1-common \
    libmsgpack-c2 libtree-sitter0.22 libunibilium4 libuv1t64 libvterm0 lua-lpeg lua-luv >&2 || status=$?
  [ $status -eq 0 ] || exit $status
  write_wrapper
  works || { echo "fetch-nvim-0.10: $wrapper does not run Neovim 0.10:" >&2; "$wrapper" --version >&2 || true; exit 2; }
fi
echo "$wrapper"
