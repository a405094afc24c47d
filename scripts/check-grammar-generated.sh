#!/usr/bin/env bash
# Fails when grammar/src is stale: regenerates the parser from grammar.js in a scratch
# directory and compares it with the committed files.
# Usage: scripts/check-grammar-generated.sh [PATH_TO_TREE_SITTER_CLI]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cli="${1:-$root/../shared/tools/tree-sitter}"
if [ ! -x "$cli" ]; then
  echo "skip: tree-sitter CLI not found at $cli"
  exit 77
fi
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
cp "$root/grammar/grammar.js" "$scratch/"
(cd "$scratch" && HOME="$scratch" "$cli" generate --abi 14 --no-bindings >/dev/null)
status=0
for file in parser.c grammar.json node-types.json tree_sitter/parser.h; do
  if ! cmp -s "$scratch/src/$file" "$root/grammar/src/$file"; then
    echo "stale: grammar/src/$file differs from what grammar.js generates"
    status=1
  fi
done
if [ "$status" -ne 0 ]; then
  echo "Regenerate: (cd grammar && ../../shared/tools/tree-sitter generate --abi 14 --no-bindings)"
  exit 1
fi
echo "grammar/src is up to date with grammar.js"
