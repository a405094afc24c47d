#!/usr/bin/env bash
# Runs the editor setups of docs/editors.md against a ptxls binary: run-emacs.sh (eglot) and
# run-helix.sh, and prints {"emacs": RESULT, "helix": RESULT} (a skipped editor's result is
# {"skipped": true}).
#
# Usage: run.sh PTXLS_BINARY
# Exit: 1 when a check failed, else 2 on a harness error, else 77 when both editors were
# skipped, else 0.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
if [ $# -lt 1 ]; then
  echo "usage: $0 PTXLS_BINARY" >&2
  exit 2
fi
declare -A results statuses
for editor in emacs helix; do
  output=$("$here/run-$editor.sh" "$1")
  statuses[$editor]=$?
  case ${statuses[$editor]} in
    77) results[$editor]='{"skipped":true}' ;;
    *) results[$editor]=${output:-'{"error":"no output"}'} ;;
  esac
done
printf '{"emacs":%s,"helix":%s}\n' "${results[emacs]}" "${results[helix]}"
worst=0
for editor in emacs helix; do
  case ${statuses[$editor]} in
    1) worst=1 ;;
    0|77) ;;
    *) [ $worst -eq 1 ] || worst=2 ;;
  esac
done
if [ $worst -eq 0 ] && [ "${statuses[emacs]}" -eq 77 ] && [ "${statuses[helix]}" -eq 77 ]; then worst=77; fi
exit $worst
