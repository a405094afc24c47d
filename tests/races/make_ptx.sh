#!/usr/bin/env bash
# Regenerates tests/races/ptx/<case>.ptx from every tests/races/cuda/<case>.cu and checks it.
#
#   bash tests/races/make_ptx.sh            # all cases
#   bash tests/races/make_ptx.sh 05 26      # only the cases whose name starts with 05 or 26
#
# For each .cu:
#   1. nvcc -arch=sm_90a -lineinfo -ptx  (the one target that serves every case, Hopper ones included)
#   2. the absolute path of the .cu in the `.file` directive is rewritten to its basename, so the
#      committed PTX does not depend on the checkout location (CUDA header paths are left as they are);
#   3. ptxas -arch=sm_90a -o /dev/null must accept the PTX;
#   4. sanity checks: exactly one entry, named `k`; a defect (no _ok suffix) has at least one
#      `// expect: CODE` marker and a twin (_ok) has none; every marked line has at least one
#      `.loc <kernel file> <line>` in the PTX, so the defect is still visible after optimisation.
# Exits non-zero if any step fails for any case.  Needs nvcc and ptxas (CUDA 12.4+; written against 13.0).
set -u
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cuda="${CUDA_HOME:-/usr/local/cuda}"
export PATH="$cuda/bin:$PATH"
src="$here/cuda"
dst="$here/ptx"
mkdir -p "$dst"

cases=()
for f in "$src"/*.cu; do
  name="$(basename "$f" .cu)"
  if [ $# -gt 0 ]; then
    keep=0
    for p in "$@"; do case "$name" in "$p"*) keep=1 ;; esac; done
    [ $keep = 1 ] || continue
  fi
  cases+=("$name")
done

one() {
  local name="$1" src="$2" dst="$3"
  local cu="$src/$name.cu" ptx="$dst/$name.ptx" tmp
  tmp="$(mktemp)"
  local problems=()
  if ! nvcc -arch=sm_90a -lineinfo -ptx "$cu" -o "$tmp" >"$tmp.log" 2>&1; then
    echo "FAIL $name: nvcc: $(tr '\n' ' ' <"$tmp.log")"
    rm -f "$tmp" "$tmp.log"
    return 1
  fi
  # Make the kernel file's .file entry checkout-independent.
  sed -e "s|\"$src/$name.cu\"|\"$name.cu\"|" "$tmp" >"$ptx"
  rm -f "$tmp"
  if ! ptxas -arch=sm_90a -o /dev/null "$ptx" >"$tmp.log" 2>&1; then
    problems+=("ptxas: $(tr '\n' ' ' <"$tmp.log")")
  elif [ -s "$tmp.log" ]; then
    problems+=("ptxas warning: $(tr '\n' ' ' <"$tmp.log")")
  fi
  rm -f "$tmp.log"
  local entries
  entries="$(grep -c '^\.visible \.entry' "$ptx")"
  grep -q '^\.visible \.entry k($' "$ptx" && [ "$entries" = 1 ] || problems+=("expected exactly one entry named k (found $entries entries)")
  local marks
  marks="$(grep -n '// expect:' "$cu" | cut -d: -f1 | tr '\n' ' ')"
  case "$name" in
    *_ok) [ -z "$marks" ] || problems+=("twin carries expect markers on lines $marks") ;;
    *) [ -n "$marks" ] || problems+=("defect has no expect marker") ;;
  esac
  local fileno
  fileno="$(sed -n "s|^[[:space:]]*\.file[[:space:]]\+\([0-9]\+\)[[:space:]]\+\"$name\.cu\".*|\1|p" "$ptx" | head -1)"
  for line in $marks; do
    grep -Eq "^[[:space:]]*\.loc[[:space:]]+$fileno[[:space:]]+$line[[:space:]]" "$ptx" ||
      problems+=("marked line $line has no .loc in the PTX")
  done
  if [ ${#problems[@]} -gt 0 ]; then
    local p
    for p in "${problems[@]}"; do echo "FAIL $name: $p"; done
    return 1
  fi
  echo "ok   $name"
}
export -f one

printf '%s\n' "${cases[@]}" | xargs -P "${JOBS:-8}" -I{} bash -c 'one "$@"' _ {} "$src" "$dst" | sort >"$dst/.make_ptx.log"
cat "$dst/.make_ptx.log"
failed="$(grep -c '^FAIL' "$dst/.make_ptx.log")"
total="${#cases[@]}"
rm -f "$dst/.make_ptx.log"
echo "make_ptx: $total cases, $failed failures"
[ "$failed" = 0 ]
