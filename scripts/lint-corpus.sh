#!/usr/bin/env bash
# Lints every ptxas-accepted PTX file we know of — the shared corpus (../shared/corpus, its
# verdicts file and its nvcc set) and our own corpus/nvcc — and prints every diagnostic.
# ptxas accepted all of them, so any error printed here is a false alarm.
#
# Usage: scripts/lint-corpus.sh [BUILD_DIR]   (default: build)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$root/build}"
shared="${PTXLS_SHARED_DIR:-$root/../shared}"
list="$(mktemp)"
trap 'rm -f "$list"' EXIT
if [ -f "$shared/corpus/ptxas-verdicts.json" ]; then
    python3 - "$shared/corpus" >> "$list" <<'PY'
import json, os, sys
corpus = sys.argv[1]
verdicts = json.load(open(os.path.join(corpus, "ptxas-verdicts.json")))
for relative, verdict in verdicts["files"].items():
    if verdict["accepted"]:
        print(os.path.join(corpus, relative))
PY
    find "$shared/corpus/nvcc" -name '*.ptx' >> "$list"
fi
ls "$root"/corpus/nvcc/*.ptx >> "$list"
echo "$(wc -l < "$list") files" >&2
xargs "$build/ptxlint" --jobs "$(nproc)" < "$list" | grep -E ": (error|warning):" || true
