#!/usr/bin/env bash
# Lints every ptxas-accepted PTX file we know of (scripts/corpus_files.py: the shared corpus
# and our own corpora) and prints every error and warning.
# ptxas accepted all of them, so any error printed here is a false alarm.
#
# Usage: scripts/lint-corpus.sh [BUILD_DIR]   (default: build)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$root/build}"
shared="${PTXLS_SHARED_DIR:-$root/../shared}"
list="$(mktemp)"
trap 'rm -f "$list"' EXIT
PTXLS_SHARED_DIR="$shared" python3 "$root/scripts/corpus_files.py" > "$list"
echo "$(wc -l < "$list") files" >&2
xargs "$build/ptxlint" --jobs "$(nproc)" < "$list" | grep -E ": (error|warning):" || true
