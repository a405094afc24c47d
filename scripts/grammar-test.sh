#!/usr/bin/env bash
# Runs the tree-sitter grammar's own tests: the corpus (grammar/test/corpus) and the
# highlight assertions (grammar/test/highlight) through `tree-sitter test`, which also
# compiles every query in grammar/queries; then each query file through `tree-sitter query`
# over the corpus inputs and sample PTX files, to prove it compiles and runs.
#
# Usage: scripts/grammar-test.sh [PATH_TO_TREE_SITTER_CLI]
#   default CLI: <repo>/../shared/tools/tree-sitter
# Exit status: 0 when everything passes, 1 on any failure, 77 (skip) without the CLI.
#
# Works from any directory and writes nothing into the repository: the CLI compiles the
# parser into its cache directory, so HOME and the XDG directories point at a scratch
# directory that is removed on exit. That also keeps a personal tree-sitter config (whose
# theme would rename highlight captures) out of the highlight tests.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cli="${1:-$root/../shared/tools/tree-sitter}"
case "$cli" in
  /*) ;;
  *) cli="$PWD/$cli" ;;
esac
if [ ! -f "$cli" ] || [ ! -x "$cli" ]; then
  echo "skip: tree-sitter CLI not found at $cli"
  exit 77
fi

scratch="$(mktemp -d "${TMPDIR:-/tmp}/ptxls-grammar-test.XXXXXX")"
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/home" "$scratch/cache" "$scratch/config/tree-sitter" \
  "$scratch/no-parsers" "$scratch/inputs"
# An explicit (empty) parser-directories list silences the CLI's "not configured" warning;
# no theme, so highlight tests compare the full capture names.
printf '{"parser-directories": ["%s"]}\n' "$scratch/no-parsers" \
  > "$scratch/config/tree-sitter/config.json"
export HOME="$scratch/home"
export XDG_CACHE_HOME="$scratch/cache"
export XDG_CONFIG_HOME="$scratch/config"
export TREE_SITTER_DIR="$scratch/config/tree-sitter"
export TREE_SITTER_LIBDIR="$scratch/cache/lib"

grammar="$root/grammar"
cd "$grammar"
status=0

echo "== tree-sitter test ($("$cli" --version))"
if ! "$cli" test; then
  echo "FAIL: tree-sitter test"
  status=1
fi

# The input of every corpus entry becomes a file of its own.
awk -v dir="$scratch/inputs" '
  /^===+$/ { if (state == 2) { state = 0 } else if (state == 0) { state = 1 } else { state = 2; n++; out = sprintf("%s/entry-%04d.ptx", dir, n) } ; next }
  /^---+$/ && state == 2 { state = 0; close(out); next }
  state == 2 { print > out }
' test/corpus/*.txt
inputs=("$scratch"/inputs/*.ptx)
for file in test/highlight/*.ptx "$root"/tests/syntax_cases/accepted/*.ptx; do
  [ -f "$file" ] && inputs+=("$file")
done
echo "== tree-sitter query over ${#inputs[@]} inputs"
for query in queries/*.scm; do
  if "$cli" query --quiet "$query" "${inputs[@]}" > "$scratch/query.log" 2>&1; then
    echo "ok: $query"
  else
    cat "$scratch/query.log"
    echo "FAIL: $query"
    status=1
  fi
done

if [ "$status" -eq 0 ]; then
  echo "grammar tests passed"
fi
exit "$status"
