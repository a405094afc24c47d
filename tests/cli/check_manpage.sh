#!/bin/sh
# The man page renders, and it names every option that `ptxlint --help` lists.
# Usage: check_manpage.sh PTXLINT docs/ptxlint.1. Exits 77 (skipped) when neither man nor
# groff is installed and nothing could be rendered; the option check runs regardless.
set -u
ptxlint=$1
page=$2
status=0
rendered=0
if command -v groff >/dev/null 2>&1; then
  if ! warnings=$(groff -man -Tutf8 -ww -z "$page" 2>&1) || [ -n "$warnings" ]; then
    echo "FAIL: groff cannot render $page cleanly:"; echo "$warnings"; status=1
  fi
  rendered=1
fi
if command -v man >/dev/null 2>&1; then
  if ! MANWIDTH=80 man -l "$page" >/dev/null 2>&1; then
    echo "FAIL: man -l $page failed"; status=1
  fi
  rendered=1
fi
help=$("$ptxlint" --help) || { echo "FAIL: $ptxlint --help failed"; exit 1; }
# The page with roff's \- turned into plain hyphens.
text=$(sed 's/\\-/-/g' "$page")
for option in $(printf '%s\n' "$help" | grep -oE -- '(^|[ ,])--?[a-zA-Z][a-zA-Z-]*' | sed 's/^[ ,]//' | sort -u); do
  if ! printf '%s\n' "$text" | grep -qE -- "(^|[^a-zA-Z-])$option([^a-zA-Z-]|\$)"; then
    echo "FAIL: option $option from --help is missing from $page"; status=1
  fi
done
for code in 0 1 2; do
  if ! printf '%s\n' "$text" | grep -qx -- ".B $code"; then
    echo "FAIL: exit status $code is not documented in $page"; status=1
  fi
done
if [ "$status" -eq 0 ] && [ "$rendered" -eq 0 ]; then
  echo "SKIP: neither man nor groff is installed (options checked)"; exit 77
fi
[ "$status" -eq 0 ] && echo "ok: $page renders and documents every option"
exit "$status"
