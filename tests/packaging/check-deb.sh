#!/usr/bin/env bash
# packaging.deb: build the Debian package with CPack from an already configured build tree,
# check its metadata and contents, unpack it into a temporary root (no root needed) and run
# the installed binaries from there: ptxlint on a defect file and a clean file, ptxls over
# stdio, ptxfmt. Exit 77 (skipped) when cpack or dpkg-deb is missing.
#
#   tests/packaging/check-deb.sh BUILD_DIR SOURCE_DIR
#
# Environment: CMAKE and CPACK (the cmake/cpack to use; default: from PATH),
# PTXLS_TEST_DPKG_INSTALL=1 additionally installs the package with dpkg -i and removes it
# again with dpkg -r (only as root, only when no ptxls package is installed already).
# pass() always succeeds, so `COND && pass ... || fail ...` is an if/else here.
# shellcheck disable=SC2015
set -euo pipefail

if [[ $# -ne 2 ]]; then
  echo "usage: $0 BUILD_DIR SOURCE_DIR" >&2
  exit 2
fi
build=$(cd "$1" && pwd)
source=$(cd "$2" && pwd)
cmake=${CMAKE:-$(command -v cmake || true)}
cpack=${CPACK:-$(command -v cpack || true)}

if [[ -z "$cpack" || ! -x "$cpack" ]]; then echo "SKIP: cpack not found"; exit 77; fi
if ! command -v dpkg-deb >/dev/null; then echo "SKIP: dpkg-deb not found"; exit 77; fi
if [[ ! -f "$build/CPackConfig.cmake" ]]; then
  echo "FAIL: $build/CPackConfig.cmake missing (is $build a configured ptxls build tree?)" >&2
  exit 1
fi

failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
pass() { echo "ok: $*"; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptxls-deb.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# The package is made from the built binaries: make sure they are built and current (a no-op
# after a full build).
if [[ -n "$cmake" ]]; then
  "$cmake" --build "$build" --target ptxlint ptxls ptxfmt >"$tmp/build.log" 2>&1 || {
    cat "$tmp/build.log" >&2; echo "FAIL: building ptxlint/ptxls/ptxfmt" >&2; exit 1; }
fi

version=$(sed -n 's/^set(CPACK_PACKAGE_VERSION "\(.*\)")$/\1/p' "$build/CPackConfig.cmake")
arch=$(dpkg --print-architecture 2>/dev/null || echo amd64)
[[ -n "$version" ]] || { echo "FAIL: no CPACK_PACKAGE_VERSION in CPackConfig.cmake" >&2; exit 1; }

# --- build the package ---------------------------------------------------------------------
"$cpack" -G DEB --config "$build/CPackConfig.cmake" -B "$tmp/out" >"$tmp/cpack.log" 2>&1 || {
  cat "$tmp/cpack.log" >&2; echo "FAIL: cpack -G DEB" >&2; exit 1; }
deb="$tmp/out/ptxls_${version}_${arch}.deb"
if [[ ! -f "$deb" ]]; then
  cat "$tmp/cpack.log" >&2
  ls -l "$tmp/out" >&2 || true
  echo "FAIL: cpack did not produce $(basename "$deb")" >&2
  exit 1
fi
pass "cpack produced $(basename "$deb") ($(stat -c %s "$deb") bytes)"

# --- metadata ------------------------------------------------------------------------------
info=$(dpkg-deb --info "$deb")
echo "    ${info//$'\n'/$'\n'    }"
field() { dpkg-deb --field "$deb" "$1"; }
[[ "$(field Package)" == ptxls ]] && pass "Package: ptxls" || fail "Package is '$(field Package)'"
[[ "$(field Version)" == "$version" ]] && pass "Version: $version" || fail "Version is '$(field Version)', want $version"
[[ "$(field Architecture)" == "$arch" ]] && pass "Architecture: $arch" || fail "Architecture is '$(field Architecture)'"
[[ "$(field Section)" == devel ]] && pass "Section: devel" || fail "Section is '$(field Section)'"
[[ -n "$(field Maintainer)" ]] && pass "Maintainer: $(field Maintainer)" || fail "no Maintainer"
[[ -n "$(field Description)" ]] && pass "Description present" || fail "no Description"
depends=$(field Depends)
# tree-sitter is linked in (cmake/Dependencies.cmake says why), so the package must not need it.
[[ "$depends" != *libtree-sitter* ]] && pass "Depends does not name libtree-sitter (linked statically)" \
  || fail "Depends ($depends) names libtree-sitter, which is linked statically"
for dep in libstdc++6 libc6; do
  [[ "$depends" == *"$dep"* ]] && pass "Depends names $dep" || fail "Depends ($depends) lacks $dep"
done

# --- contents ------------------------------------------------------------------------------
dpkg-deb --contents "$deb" >"$tmp/contents.txt"
paths=$(awk '{print $6}' "$tmp/contents.txt" | sed 's|^\./|/|; s|/$||')
has() { grep -qxF "$1" <<<"$paths"; }
expect=(/usr/bin/ptxlint /usr/bin/ptxls /usr/bin/ptxfmt /usr/share/doc/ptxls/README.md /usr/share/doc/ptxls/copyright)
for q in "$source"/grammar/queries/*.scm; do expect+=("/usr/share/ptxls/queries/$(basename "$q")"); done
for r in "$source"/docs/rules/*.md; do expect+=("/usr/share/doc/ptxls/rules/$(basename "$r")"); done
for m in "$source"/docs/*.1; do [[ -e "$m" ]] && expect+=("/usr/share/man/man1/$(basename "$m")"); done
missing=0
for p in "${expect[@]}"; do has "$p" || { fail "package lacks $p"; missing=1; }; done
[[ $missing -eq 0 ]] && pass "package holds all ${#expect[@]} expected files (binaries, queries, rule docs, man pages present in docs/)"
outside=$(grep -v '^/usr\(/\|$\)' <<<"$paths" | grep -v '^/\?\.\?$' || true)
[[ -z "$outside" ]] && pass "nothing installed outside /usr" || fail "files outside /usr: $outside"
for b in ptxlint ptxls ptxfmt; do
  grep -E "^-rwxr-xr-x root/root .* \./usr/bin/$b$" "$tmp/contents.txt" >/dev/null \
    && pass "/usr/bin/$b is root-owned, mode 0755" || fail "/usr/bin/$b owner/mode: $(grep "/usr/bin/$b$" "$tmp/contents.txt")"
done

# --- unpack into a temporary root and run from there -----------------------------------------
root="$tmp/root"
dpkg-deb -x "$deb" "$root"
work="$tmp/work"; mkdir -p "$work"
cd "$work"        # nothing of the build or source tree on the way
unset LD_LIBRARY_PATH
ptxlint="$root/usr/bin/ptxlint" ptxls="$root/usr/bin/ptxls" ptxfmt="$root/usr/bin/ptxfmt"

if command -v readelf >/dev/null; then
  for b in "$ptxlint" "$ptxls" "$ptxfmt"; do
    if readelf -d "$b" | grep -qE 'R(UN)?PATH'; then fail "$(basename "$b") has an RPATH/RUNPATH: $(readelf -d "$b" | grep -E 'R(UN)?PATH')"
    else pass "$(basename "$b") has no RPATH"; fi
    readelf -d "$b" | grep -q 'libtree-sitter' && fail "$(basename "$b") links a shared libtree-sitter" \
      || pass "$(basename "$b") carries its own tree-sitter runtime"
  done
  if strings -a "$ptxlint" 2>/dev/null | grep -qF "$build"; then
    echo "note: ptxlint contains the build directory path (debug info or __FILE__); harmless"
  fi
fi

run() {  # run CMD... ; sets out and rc
  set +e; out=$(timeout 20 "$@" 2>&1); rc=$?; set -e
}
run "$ptxlint" --version
[[ $rc -eq 0 && "$out" == *"$version"* ]] && pass "ptxlint --version: $out" || fail "ptxlint --version (exit $rc): $out"
run "$ptxlint" --list-rules
[[ $rc -eq 0 && "$out" == *ALN005* ]] && pass "ptxlint --list-rules ($(wc -l <<<"$out") lines)" || fail "ptxlint --list-rules (exit $rc): $out"
defect="$source/tests/rules/ALN005/vector_load_offset.ptx"
run "$ptxlint" --no-config "$defect"
[[ $rc -eq 1 && "$out" == *ALN005* ]] && pass "ptxlint on ALN005/vector_load_offset.ptx: exit 1, reports ALN005" \
  || fail "ptxlint on $defect: exit $rc (want 1): $out"
clean="$source/tests/rules/ALN005/ok_aligned_accesses.ptx"
run "$ptxlint" --no-config "$clean"
[[ $rc -eq 0 ]] && pass "ptxlint on ALN005/ok_aligned_accesses.ptx: exit 0" || fail "ptxlint on $clean: exit $rc (want 0): $out"
run "$ptxlint" --explain ALN005
[[ $rc -eq 0 && "$out" == *ALN005* ]] && pass "ptxlint --explain ALN005" || fail "ptxlint --explain ALN005 (exit $rc): $out"

run "$ptxls" --version
[[ $rc -eq 0 && "$out" == *"$version"* ]] && pass "ptxls --version: $out" || fail "ptxls --version (exit $rc): $out"
run "$ptxls" --help
[[ $rc -eq 0 && "$out" == *usage* ]] && pass "ptxls --help" || fail "ptxls --help (exit $rc): $out"
# A minimal LSP session over stdio: initialize, shutdown, exit.
lsp() { printf 'Content-Length: %d\r\n\r\n%s' "${#1}" "$1"; }
{
  lsp '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":null,"rootUri":null,"capabilities":{}}}'
  lsp '{"jsonrpc":"2.0","method":"initialized","params":{}}'
  lsp '{"jsonrpc":"2.0","id":2,"method":"shutdown","params":null}'
  lsp '{"jsonrpc":"2.0","method":"exit","params":null}'
} >"$tmp/lsp-in"
set +e; out=$(timeout 20 "$ptxls" --stdio <"$tmp/lsp-in" 2>"$tmp/lsp-err"); rc=$?; set -e
[[ $rc -eq 0 && "$out" == *'"capabilities"'* && "$out" == *'"id":2'* ]] \
  && pass "ptxls --stdio: initialize/shutdown/exit, exit 0" \
  || fail "ptxls --stdio session (exit $rc): $(head -c 400 <<<"$out") $(head -c 400 "$tmp/lsp-err")"

run "$ptxfmt" --help
[[ $rc -eq 0 ]] && pass "ptxfmt --help" || fail "ptxfmt --help (exit $rc): $out"
run "$ptxfmt" "$clean"
[[ $rc -eq 0 && "$out" == *".version"* ]] && pass "ptxfmt formats a file" || fail "ptxfmt $clean (exit $rc): $out"

for m in "$root"/usr/share/man/man1/*.1; do
  [[ -e "$m" ]] || continue
  if command -v man >/dev/null; then
    set +e; MANWIDTH=80 man -l "$m" >/dev/null 2>"$tmp/man-err"; rc=$?; set -e
    [[ $rc -eq 0 ]] && pass "man -l $(basename "$m") renders" || fail "man -l $(basename "$m"): $(cat "$tmp/man-err")"
  fi
done

# --- optional: a real dpkg -i / dpkg -r ------------------------------------------------------
if [[ "${PTXLS_TEST_DPKG_INSTALL:-0}" == 1 ]]; then
  if [[ $(id -u) -ne 0 ]] || ! command -v dpkg >/dev/null; then
    echo "note: PTXLS_TEST_DPKG_INSTALL=1 needs root and dpkg; real install skipped"
  elif dpkg-query -W -f='${Status}' ptxls 2>/dev/null | grep -q installed; then
    echo "note: a ptxls package is installed already; real install skipped"
  else
    if dpkg -i "$deb" >"$tmp/dpkg.log" 2>&1; then
      pass "dpkg -i"
      run /usr/bin/ptxlint --version
      [[ $rc -eq 0 && "$out" == *"$version"* ]] && pass "/usr/bin/ptxlint --version" || fail "/usr/bin/ptxlint --version (exit $rc): $out"
      run /usr/bin/ptxls --version
      [[ $rc -eq 0 ]] && pass "/usr/bin/ptxls --version" || fail "/usr/bin/ptxls --version (exit $rc): $out"
    else
      fail "dpkg -i: $(cat "$tmp/dpkg.log")"
    fi
    dpkg -r ptxls >>"$tmp/dpkg.log" 2>&1 && pass "dpkg -r" || fail "dpkg -r: $(cat "$tmp/dpkg.log")"
    [[ ! -e /usr/bin/ptxlint ]] || fail "/usr/bin/ptxlint still there after dpkg -r"
  fi
fi

if [[ $failures -ne 0 ]]; then
  echo "packaging.deb: $failures check(s) failed" >&2
  exit 1
fi
echo "packaging.deb: all checks passed"
