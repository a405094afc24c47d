#!/usr/bin/env bash
# Tests the Helix setup of docs/editors.md against a ptxls binary, with Helix 25.01 (Debian
# trixie's, fetched by fetch-helix.sh; Debian 12 has no Helix):
#   1. the documented languages.toml, verbatim: `hx --health ptx` finds the ptxls command;
#   2. the same with the documented local-checkout grammar source: `hx --grammar build`
#      compiles grammar/, and with grammar/queries/*.scm installed as documented, the health
#      check finds parser and highlight queries;
#   3. when tmux is installed, Helix itself on a copy of broken.ptx (Helix has no batch mode:
#      it runs on a private tmux server and the screen is read back): the server's two ISA004
#      messages appear inline, and the opcode `ld` is coloured by the highlight query.
#
# Usage: run-helix.sh PTXLS_BINARY   (HX=/path/to/hx skips the fetch; the fetch caches under
#        ${PTX_TOOLS_CACHE:-~/.cache/ptx-tools}/trixie-clients)
# Prints a JSON result. Exit: 0 ok, 1 a check failed, 2 harness error, 77 Helix unavailable.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
if [ $# -lt 1 ]; then
  echo "usage: $0 PTXLS_BINARY" >&2
  exit 2
fi
binary=$(realpath -m "$1")
if [ ! -x "$binary" ]; then
  echo "editors/helix: no executable server at $binary" >&2
  exit 2
fi
started=$(date +%s.%N)
hx=${HX:-}
if [ -z "$hx" ]; then
  cache=$(realpath -m "${PTX_TOOLS_CACHE:-$HOME/.cache/ptx-tools}/trixie-clients")
  hx=$("$here/fetch-helix.sh" "$cache")
  status=$?
  if [ $status -eq 77 ]; then
    echo "editors/helix: SKIP: cannot fetch Helix from Debian trixie" >&2
    exit 77
  fi
  [ $status -eq 0 ] || exit 2
fi
fetched=$(date +%s.%N)

work=$(mktemp -d "${TMPDIR:-/tmp}/ptxls-helix.XXXXXX")
tmux_server=ptxls-helix-$$
# A private tmux server (-L): the user's own sessions are never touched, even from inside one.
tm() { env -u TMUX tmux -L "$tmux_server" "$@"; }
cleanup() {
  tm kill-server 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
mkdir -p "$work"/{bin,cache,doc,local/helix} "$work/project"
ln -s "$binary" "$work/bin/ptxls"
cp "$repo/tests/clients/fixtures/broken.ptx" "$work/project/broken.ptx"
doc_config=$work/doc/helix/languages.toml
mkdir -p "$(dirname "$doc_config")"
"$here/extract-snippet.sh" "$repo/docs/editors.md" helix > "$doc_config" || exit 2

checks=()
failed=0
json_string() { python3 -c 'import json, sys; print(json.dumps(sys.stdin.read()))'; }
check() {   # NAME OK(0/1) GOT
  local ok=false
  if [ "$2" -eq 0 ]; then ok=true; else failed=$((failed + 1)); fi
  checks+=("{\"name\":$(printf '%s' "$1" | json_string),\"ok\":$ok,\"got\":$(printf '%s' "$3" | json_string)}")
}
run_hx() {  # CONFIG_HOME ARGS...
  local config=$1; shift
  (cd "$work/project" && env XDG_CONFIG_HOME="$config" XDG_CACHE_HOME="$work/cache" XDG_DATA_HOME="$work/cache" \
    PATH="$work/bin:$PATH" timeout 60 "$hx" "$@")
}
plain() { sed 's/\x1b\[[0-9;]*m//g'; }

# 1. The documented configuration as it is.
health=$(run_hx "$work/doc" --health ptx 2>&1 | plain)
grep -q "✓ ptxls: $work/bin/ptxls" <<<"$health"
check "documented languages.toml: hx --health ptx finds the ptxls command" $? "$health"

# 2. The documented local-checkout grammar source, built; the queries installed as documented.
alternative=$(sed -n 's/^# From a local checkout instead: *//p' "$doc_config")
local_config=$work/local/helix/languages.toml
if [ -z "$alternative" ]; then
  check "docs/editors.md shows a local grammar source" 1 "no '# From a local checkout instead:' line"
else
  # Only this grammar: Helix would otherwise try to build every grammar it knows.
  { echo 'use-grammars = { only = ["ptx"] }'
    sed "s|^source = { git = .*|${alternative//\/path\/to\/ptxls/$repo}|" "$doc_config"; } > "$local_config"
  mkdir -p "$work/local/helix/runtime/grammars" "$work/local/helix/runtime/queries/ptx"
  cp "$repo"/grammar/queries/*.scm "$work/local/helix/runtime/queries/ptx/"
  build=$(run_hx "$work/local" --grammar build 2>&1 | plain)
  status=$?
  [ $status -eq 0 ] && [ -f "$work/local/helix/runtime/grammars/ptx.so" ]
  check "hx --grammar build compiles grammar/" $? "$build"
  health=$(run_hx "$work/local" --health ptx 2>&1 | plain)
  grep -q "Tree-sitter parser: ✓" <<<"$health" && grep -q "Highlight queries: ✓" <<<"$health" \
    && grep -q "✓ ptxls: $work/bin/ptxls" <<<"$health"
  check "hx --health ptx: server, parser and highlight queries found" $? "$health"
fi

# 3. Helix itself, in tmux.
in_tmux=false
if [ -f "$work/local/helix/runtime/grammars/ptx.so" ] && command -v tmux >/dev/null; then
  in_tmux=true
  # Diagnostics as text at the end of their lines, so that the screen shows them.
  printf '[editor]\nend-of-line-diagnostics = "hint"\n[editor.inline-diagnostics]\nother-lines = "hint"\ncursor-line = "hint"\n' \
    > "$work/local/helix/config.toml"
  tm new-session -d -s hx -x 160 -y 30 \
    "cd '$work/project' && env XDG_CONFIG_HOME='$work/local' XDG_CACHE_HOME='$work/cache' PATH='$work/bin:$PATH' '$hx' broken.ptx"
  screen=""
  for _ in $(seq 1 200); do
    sleep 0.1
    screen=$(tm capture-pane -t hx -p 2>/dev/null)
    if grep -q "unknown modifier '.globl'" <<<"$screen" && grep -q "unknown modifier '.s33'" <<<"$screen"; then break; fi
  done
  grep -q "unknown modifier '.globl' for 'ld'" <<<"$screen" && grep -q "unknown modifier '.s33' for 'add'" <<<"$screen"
  check "Helix shows the server's ISA004 messages for ld.globl and add.s33" $? "$screen"
  # The ld.globl line with its escape sequences: the opcode's foreground colour comes from the
  # highlight query (@function.builtin); `.u32` next to it has none.
  line=$(tm capture-pane -t hx -p -e | grep -a 'globl.*%r1' | head -n 1)
  python3 - "$line" <<'PY'
import re, sys
line = sys.argv[1]
match = re.search(r'((?:\x1b\[[0-9;]*m)*)ld((?:\x1b\[[0-9;]*m)*)\.globl', line)
sys.exit(0 if match and re.search(r'\x1b\[[0-9;]*38;', match.group(1)) else 1)
PY
  check "Helix colours the opcode ld (grammar and highlights.scm loaded)" $? "$(printf '%s' "$line" | cat -v)"
  tm send-keys -t hx Escape ':' 'q!' Enter
fi
finished=$(date +%s.%N)

version=$("$hx" --version 2>/dev/null | head -n 1)
printf '{"helix":%s,"in_tmux":%s,"passed":%d,"failed":%d,"checks":[%s]}\n' "$(printf '%s' "$version" | json_string)" \
  "$in_tmux" $((${#checks[@]} - failed)) "$failed" "$(IFS=,; echo "${checks[*]}")"
awk -v v="$version" -v a="$started" -v b="$fetched" -v c="$finished" -v f="$failed" \
  'BEGIN { printf "editors/helix: %s: fetch %.1fs, checks %.1fs, %d failed\n", v, b - a, c - b, f }' >&2
[ "$failed" -eq 0 ]
