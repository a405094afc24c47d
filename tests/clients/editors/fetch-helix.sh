#!/bin/sh
# fetch-helix.sh CACHE_DIR : makes Helix 25.01 (Debian trixie's `hx`; Debian 12 has no Helix)
# runnable and prints the path of a wrapper to run it with. The package is unpacked under
# CACHE_DIR (later calls reuse it) and runs through trixie's loader (see trixie-fetch.sh).
# Exit: 0 wrapper printed, 77 the trixie archive cannot be reached, 2 other errors.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
D=$(realpath -m "${1:?usage: fetch-helix.sh CACHE_DIR}")
R=$D/root
L=$R/usr/lib/x86_64-linux-gnu
wrapper=$D/bin/hx

write_wrapper() {
  mkdir -p "$D/bin"
  # HELIX_RUNTIME: Helix looks for its runtime next to /proc/self/exe, which is the loader.
  cat > "$wrapper.tmp" <<W
#!/bin/sh
export HELIX_RUNTIME="$R/usr/lib/hx/runtime"
exec "$L/ld-linux-x86-64.so.2" --library-path "$L" "$R/usr/lib/hx/hx" "\$@"
W
  chmod +x "$wrapper.tmp"
  mv "$wrapper.tmp" "$wrapper"
}

works() {
  [ -x "$R/usr/lib/hx/hx" ] && "$wrapper" --version 2>/dev/null | grep -q '^helix '
}

if [ -x "$R/usr/lib/hx/hx" ]; then
  write_wrapper
fi
if ! works; then
  status=0
  "$here/trixie-fetch.sh" "$D" hx >&2 || status=$?
  [ $status -eq 0 ] || exit $status
  write_wrapper
  works || { echo "fetch-helix: $wrapper does not run Helix:" >&2; "$wrapper" --version >&2 || true; exit 2; }
fi
echo "$wrapper"
