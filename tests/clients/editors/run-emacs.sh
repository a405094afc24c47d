#!/usr/bin/env bash
# Tests the Emacs setup of docs/editors.md (ptx-mode + eglot) against a ptxls binary: the
# documented block is extracted verbatim and loaded as an init file by emacs_test.el.
#
# Usage: run-emacs.sh PTXLS_BINARY      (EMACS defaults to $EMACS_BIN, else `emacs`)
# Needs Emacs with eglot: Debian 12 `apt-get install emacs-nox elpa-eglot`, or Emacs 29+.
# Prints the test's JSON result. Exit: 0 ok, 1 a check failed, 2 harness error, 77 no
# Emacs or no eglot.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
if [ $# -lt 1 ]; then
  echo "usage: $0 PTXLS_BINARY" >&2
  exit 2
fi
binary=$(realpath -m "$1")
emacs=${EMACS_BIN:-emacs}
if ! command -v "$emacs" >/dev/null; then
  echo "editors/emacs: SKIP: Emacs is not installed (apt-get install emacs-nox elpa-eglot)" >&2
  exit 77
fi
if [ ! -x "$binary" ]; then
  echo "editors/emacs: no executable server at $binary" >&2
  exit 2
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/ptxls-emacs.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work"/{home,bin} "$work"/a/.git "$work"/other
# A throwaway HOME: project.el records every project it sees in ~/.emacs.d/projects. So eglot
# must come with Emacs (29+) or from the system (Debian's elpa-eglot), not from ~/.emacs.d.
# -q, not -Q: -Q leaves out the site-lisp folders, where Debian's elpa-eglot lives.
if ! HOME="$work/home" "$emacs" --batch -q \
     --eval '(progn (when (fboundp (quote package-activate-all)) (package-activate-all)) (require (quote eglot)))' \
     >/dev/null 2>&1; then
  echo "editors/emacs: SKIP: Emacs has no eglot (apt-get install elpa-eglot, or Emacs 29+)" >&2
  exit 77
fi
cp "$repo/tests/clients/fixtures/broken.ptx" "$work/a/broken.ptx"
printf '%s\n' 2 1 '0 0 0' '1 0 0' '0 1 0' '0 0 1' '0.5 0.25 1.5 0.8' > "$work/other/scan.ptx"
ln -s "$binary" "$work/bin/ptxls"
"$here/extract-snippet.sh" "$repo/docs/editors.md" emacs > "$work/ptx-init.el" || exit 2
"$here/extract-snippet.sh" "$repo/docs/editors.md" emacs-dir-locals > "$work/a/.dir-locals.el" || exit 2

started=$(date +%s.%N)
(cd "$work" && HOME="$work/home" PATH="$work/bin:$PATH" WORK="$work" PTX_INIT="$work/ptx-init.el" \
  OUT_JSON="$work/result.json" timeout --kill-after=5 60 "$emacs" --batch -q -l "$here/emacs_test.el" \
  </dev/null >"$work/stdout" 2>"$work/stderr")
status=$?
finished=$(date +%s.%N)
if [ -s "$work/result.json" ]; then cat "$work/result.json"; else cat "$work/stdout"; fi
if [ $status -ne 0 ]; then
  echo "--- emacs stderr (tail):" >&2
  tail -n 30 "$work/stderr" >&2
fi
case $status in
  0|1|2) ;;
  124|137) echo "editors/emacs: Emacs timed out" >&2; status=2 ;;
  *) echo "editors/emacs: Emacs exited with $status" >&2; status=2 ;;
esac
awk -v v="$("$emacs" --version | head -n 1)" -v a="$started" -v b="$finished" -v s="$status" \
  'BEGIN { printf "editors/emacs: %s: %.1fs, exit %d\n", v, b - a, s }' >&2
exit $status
