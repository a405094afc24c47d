#!/bin/sh
# trixie-fetch.sh DIR PKG... : downloads Debian 13 (trixie) packages and unpacks them under
# DIR/root without installing anything, for editors Debian 12 lacks or ships too old (Neovim
# 0.10, Helix). Their binaries need trixie's glibc, so they run through trixie's own loader:
#   DIR/root/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2 --library-path DIR/root/usr/lib/x86_64-linux-gnu PROGRAM
# (fetch-nvim-0.10.sh and fetch-helix.sh write such wrappers). trixie's libc6 and libgcc-s1
# are always fetched. The archive is the one this machine's apt uses (or $TRIXIE_MIRROR);
# apt runs with a private configuration and state under DIR, so no root is needed and the
# system's apt is untouched.
#
# Exit: 0 done, 77 no Debian archive configured or reachable (the caller skips), 2 other errors.
set -eu
D=$(realpath -m "${1:?usage: trixie-fetch.sh DIR PKG...}"); shift
[ $# -gt 0 ] || { echo "usage: trixie-fetch.sh DIR PKG..." >&2; exit 2; }
if ! command -v apt-get >/dev/null || ! command -v dpkg-deb >/dev/null; then
  echo "trixie-fetch: apt-get/dpkg-deb not found (not a Debian system)" >&2
  exit 77
fi
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
[ -r "$keyring" ] || { echo "trixie-fetch: no $keyring" >&2; exit 77; }

# TRIXIE_MIRROR overrides the archive (a local mirror, or a test of the unreachable case).
uri=${TRIXIE_MIRROR:-}
[ -n "$uri" ] || uri=$(sed -n 's/^URIs:[[:space:]]*//p' /etc/apt/sources.list.d/*.sources 2>/dev/null | tr ' ' '\n' \
      | grep -v -e security -e '^$' | head -n 1 || true)
[ -n "$uri" ] || uri=$(awk '/^deb / && $2 !~ /security/ {print $2; exit}' /etc/apt/sources.list 2>/dev/null || true)
[ -n "$uri" ] || { echo "trixie-fetch: no Debian archive in the apt sources" >&2; exit 77; }

mkdir -p "$D/apt/sources" "$D/apt/lists/partial" "$D/apt/cache/archives/partial" "$D/debs" "$D/root"
cat > "$D/apt/sources/trixie.sources" <<SRC
Types: deb
URIs: $uri
Suites: trixie
Components: main
Signed-By: $keyring
SRC
cat > "$D/apt/apt.conf" <<CONF
Dir::Etc::SourceList "/dev/null";
Dir::Etc::SourceParts "$D/apt/sources";
Dir::State::Lists "$D/apt/lists";
Dir::State::status "/dev/null";
Dir::Cache "$D/apt/cache";
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
Debug::NoLocking "true";
APT::Sandbox::User "root";
Acquire::Retries "1";
CONF
export APT_CONFIG="$D/apt/apt.conf"

# apt-get update exits 0 when an index cannot be fetched (it warns and keeps old lists).
apt-get update -qq >"$D/apt/update.log" 2>&1 || true
if grep -q 'Failed to fetch' "$D/apt/update.log" || ! ls "$D"/apt/lists/*trixie*_Packages* >/dev/null 2>&1; then
  echo "trixie-fetch: cannot reach trixie at $uri:" >&2
  tail -n 5 "$D/apt/update.log" >&2
  exit 77
fi
cd "$D/debs"
rm -f ./*.deb   # versions left from an earlier fetch would be unpacked over the new ones
apt-get download -qq libc6 libgcc-s1 "$@" >"$D/apt/download.log" 2>&1 || {
  echo "trixie-fetch: apt-get download failed:" >&2; tail -n 5 "$D/apt/download.log" >&2; exit 2; }
for deb in *.deb; do
  dpkg-deb -x "$deb" "$D/root"
done
