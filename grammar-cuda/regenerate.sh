#!/usr/bin/env bash
# Regenerates the committed CUDA parser (src/parser.c, src/node-types.json, src/tree_sitter/*.h)
# from src/grammar.json with our tree-sitter CLI, or, with --check, fails when the committed
# files differ from what it generates (CTest grammar_cuda.generated_is_fresh).
# Usage: grammar-cuda/regenerate.sh [--check] [PATH_TO_TREE_SITTER_CLI]
# Exit status: 0 done or fresh, 1 stale, 77 (skip) when the CLI is absent.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
check=0
if [ "${1:-}" = "--check" ]; then
  check=1
  shift
fi
cli="${1:-$here/../../shared/tools/tree-sitter}"
if [ ! -x "$cli" ]; then
  echo "skipped: tree-sitter CLI not found at $cli"
  exit 77
fi
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
cp "$here/src/grammar.json" "$scratch/"
# HOME points into the scratch folder so that the CLI reads no user configuration.
(cd "$scratch" && HOME="$scratch" "$cli" generate --abi 14 --no-bindings grammar.json >/dev/null)
generated=(parser.c node-types.json tree_sitter/parser.h tree_sitter/alloc.h tree_sitter/array.h)
if [ "$check" -eq 0 ]; then
  for file in "${generated[@]}"; do cp "$scratch/src/$file" "$here/src/$file"; done
  echo "regenerated grammar-cuda/src from src/grammar.json"
  exit 0
fi
status=0
for file in "${generated[@]}"; do
  if ! cmp -s "$scratch/src/$file" "$here/src/$file"; then
    echo "stale: grammar-cuda/src/$file differs from what src/grammar.json generates"
    status=1
  fi
done
if [ "$status" -ne 0 ]; then
  echo "Regenerate: grammar-cuda/regenerate.sh"
  exit 1
fi
echo "grammar-cuda/src is up to date with src/grammar.json"
