#!/bin/sh
# extract-snippet.sh DOC NAME : prints the fenced code block that follows the line
# `<!-- editors-test: NAME -->` in DOC (docs/editors.md), so that the tests run exactly what
# the documentation tells users to write. Exit 2 when there is no such block.
set -eu
doc=${1:?usage: extract-snippet.sh DOC NAME}
name=${2:?usage: extract-snippet.sh DOC NAME}
awk -v marker="<!-- editors-test: $name -->" '
  $0 == marker { armed = 1; next }
  armed && /^```/ { if (inside) { found = 1; exit } inside = 1; next }
  inside { print }
  END { exit found ? 0 : 2 }
' "$doc" || { echo "extract-snippet: no block marked '$name' in $doc" >&2; exit 2; }
