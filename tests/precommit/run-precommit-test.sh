#!/usr/bin/env bash
# The ptxlint pre-commit hook (.pre-commit-hooks.yaml, docs/pre-commit.md) under the real
# pre-commit, offline: a temporary hook repository (a clone of this checkout with the current
# .pre-commit-hooks.yaml committed on top, so uncommitted edits are what is tested), a temporary
# consumer repository whose .pre-commit-config.yaml points at it by path and commit, the given
# ptxlint first on PATH, `pre-commit install`, then real `git commit`s:
#   - two defective PTX files (SEM001, ALN005): the commit is blocked, and pre-commit's output
#     names both findings as file:line:column and rule code;
#   - a clean PTX file (with a non-PTX file that ptxlint must not be given): the commit passes;
#   - a commit without PTX files: the hook is skipped;
#   - the CUDA hook (ptxlint-cuda): a .cu with ISA004 inside an asm string and a .cuh with ASM001
#     are blocked with both findings shown; their fixed twins, with a host .cpp beside them that
#     ptxlint must not be given (it would read it as PTX and fail it), pass.
#
# Usage: run-precommit-test.sh PTXLINT_BINARY [HOOKS_FILE]
#   HOOKS_FILE defaults to the repository's .pre-commit-hooks.yaml; pass another (e.g. one with a
#   broken entry) to see the test fail.
# Exit: 0 ok, 1 an expectation failed, 2 harness error, 77 skipped (no git or pre-commit).
# Nothing is read from or written to $HOME: pre-commit's cache and git's configuration are
# isolated, and nothing needs the network.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
if [ $# -lt 1 ]; then
  echo "usage: $0 PTXLINT_BINARY [HOOKS_FILE]" >&2
  exit 2
fi
binary=$(realpath -m "$1")
hooks_file=$(realpath -m "${2:-$root/.pre-commit-hooks.yaml}")

for tool in git pre-commit; do
  if ! command -v "$tool" >/dev/null; then
    echo "run-precommit-test: SKIP: $tool is not installed (apt-get install $tool)" >&2
    exit 77
  fi
done
if [ ! -x "$binary" ]; then
  echo "run-precommit-test: no executable ptxlint at $binary" >&2
  exit 2
fi
if [ ! -f "$hooks_file" ]; then
  echo "run-precommit-test: no hooks file at $hooks_file" >&2
  exit 2
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/ptxls-precommit.XXXXXX")
trap 'rm -rf "$work"' EXIT

# Isolation: no user or system git configuration, pre-commit's cache in the work folder, no
# variables of an enclosing git hook or pre-commit run, no colour codes in the output.
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export PRE_COMMIT_HOME="$work/cache" XDG_CACHE_HOME="$work/xdg-cache" PRE_COMMIT_COLOR=never
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE GIT_OBJECT_DIRECTORY GIT_ALTERNATE_OBJECT_DIRECTORIES \
      GIT_CEILING_DIRECTORIES SKIP PRE_COMMIT PRE_COMMIT_ALLOW_NO_CONFIG
export GIT_AUTHOR_DATE="2026-01-01T00:00:00Z" GIT_COMMITTER_DATE="2026-01-01T00:00:00Z"

# The binary under test is `ptxlint` on PATH, as the hook's `entry: ptxlint` expects.
mkdir -p "$work/bin"
ln -s "$binary" "$work/bin/ptxlint"
export PATH="$work/bin:$PATH"

failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
harness_error() { echo "run-precommit-test: $*" >&2; exit 2; }
local_identity() { git -C "$1" config user.name "ptxls pre-commit test" && git -C "$1" config user.email "precommit-test@ptxls.invalid"; }

echo "pre-commit: $(pre-commit --version); git: $(git --version); ptxlint: $(command -v ptxlint) ($(ptxlint --version 2>&1 | head -n 1))"

# --- The hook repository ---------------------------------------------------------------------
hookrepo="$work/hookrepo"
if git -C "$root" rev-parse --verify -q HEAD >/dev/null 2>&1 \
   && git clone -q "$root" "$hookrepo" 2>"$work/clone.err"; then
  echo "hook repository: a clone of $root with the hooks file committed on top"
else
  # Not a git checkout (a source tarball) or not clonable: a repository with the hooks file only.
  echo "hook repository: a new repository holding only the hooks file ($root is not a clonable git checkout)"
  [ -s "$work/clone.err" ] && sed 's/^/    /' "$work/clone.err"
  rm -rf "$hookrepo"
  git init -q "$hookrepo" || harness_error "git init failed"
fi
local_identity "$hookrepo" || harness_error "git config failed"
cp "$hooks_file" "$hookrepo/.pre-commit-hooks.yaml"
git -C "$hookrepo" add .pre-commit-hooks.yaml &&
  git -C "$hookrepo" commit -q --allow-empty --no-verify -m "pre-commit hooks under test" ||
  harness_error "cannot commit the hooks file in $hookrepo"
rev=$(git -C "$hookrepo" rev-parse HEAD)

if ! pre-commit validate-manifest "$hookrepo/.pre-commit-hooks.yaml"; then
  fail "pre-commit validate-manifest rejects the hooks file"
fi

# --- The consumer repository -----------------------------------------------------------------
consumer="$work/consumer"
git init -q "$consumer" && local_identity "$consumer" || harness_error "cannot create $consumer"
cd "$consumer" || harness_error "cannot enter $consumer"
cat >.pre-commit-config.yaml <<EOF
repos:
  - repo: $hookrepo
    rev: $rev
    hooks:
      - id: ptxlint
      - id: ptxlint-cuda
EOF
if ! pre-commit validate-config .pre-commit-config.yaml; then
  fail "pre-commit validate-config rejects the consumer configuration"
fi
git add .pre-commit-config.yaml && git commit -q --no-verify -m "pre-commit configuration" ||
  harness_error "cannot commit the consumer configuration"
pre-commit install >"$work/install.log" 2>&1 || { cat "$work/install.log"; harness_error "pre-commit install failed"; }
[ -x .git/hooks/pre-commit ] || harness_error "pre-commit install wrote no .git/hooks/pre-commit"

# commit_case NAME: `git commit` what is staged; output in $work/NAME.log, status in $status.
commit_case() {
  local name=$1
  git commit -m "$name" >"$work/$name.log" 2>&1
  status=$?
  echo "--- git commit ($name): exit $status"
  sed 's/^/    /' "$work/$name.log"
}
expect_in_log() {  # expect_in_log NAME FIXED-STRING WHAT
  grep -qF -- "$2" "$work/$1.log" || fail "$1: pre-commit's output does not show $3 ('$2')"
}
head_has() { [ -n "$(git ls-tree HEAD -- "$1")" ]; }

# 1. Defective PTX: blocked, both findings shown with file:line:column and rule code.
mkdir -p kernels
cp "$here/fixtures/undeclared_register.ptx" kernels/undeclared_register.ptx
cp "$here/fixtures/misaligned_vector_load.ptx" kernels/misaligned_vector_load.ptx
git add kernels
before=$(git rev-parse HEAD)
commit_case defective
[ "$status" -ne 0 ] || fail "defective: the commit was not blocked (git commit exited 0)"
[ "$(git rev-parse HEAD)" = "$before" ] || fail "defective: HEAD moved although the hook should have failed"
head_has kernels/undeclared_register.ptx && fail "defective: kernels/undeclared_register.ptx was committed"
grep -Eq '^ptxlint\.+Failed' "$work/defective.log" || fail "defective: no 'ptxlint....Failed' line"
expect_in_log defective "kernels/undeclared_register.ptx:9:21:" "the SEM001 finding's file:line:column"
expect_in_log defective "SEM001" "the SEM001 rule code"
expect_in_log defective "kernels/misaligned_vector_load.ptx:11:42:" "the ALN005 finding's file:line:column"
expect_in_log defective "ALN005" "the ALN005 rule code"
expect_in_log defective "exit code: 1" "ptxlint's exit status 1"
git rm -q --cached -r kernels && rm -rf kernels || harness_error "cannot unstage the defective files"

# 2. Clean PTX, plus a non-PTX file that would fail if ptxlint were given it: passes.
mkdir -p kernels
cp "$here/fixtures/clean.ptx" kernels/clean.ptx
printf 'add.s33 %%r1, %%r2, %%r3; not PTX, and not a .ptx file\n' >notes.txt
git add kernels notes.txt
commit_case clean
[ "$status" -eq 0 ] || fail "clean: the commit was blocked (git commit exited $status)"
head_has kernels/clean.ptx || fail "clean: kernels/clean.ptx is not in HEAD"
grep -Eq '^ptxlint\.+Passed' "$work/clean.log" || fail "clean: no 'ptxlint....Passed' line"

# 3. No PTX staged: the hook is skipped, the commit passes.
printf 'more notes\n' >>notes.txt
git add notes.txt
commit_case no_ptx
[ "$status" -eq 0 ] || fail "no_ptx: the commit was blocked (git commit exited $status)"
grep -Eq '^ptxlint\.+\(no files to check\)Skipped' "$work/no_ptx.log" || fail "no_ptx: the hook was not skipped"

# 4. CUDA sources with an inline-PTX defect each: blocked by ptxlint-cuda, both findings shown
# with the .cu/.cuh line and column; the PTX hook has nothing to check.
cuda=$here/fixtures/cuda
mkdir -p src include
cp "$cuda/relaxed_load.cu" src/relaxed_load.cu
cp "$cuda/lane.cuh" include/lane.cuh
git add src include
before=$(git rev-parse HEAD)
commit_case cuda_defective
[ "$status" -ne 0 ] || fail "cuda_defective: the commit was not blocked (git commit exited 0)"
[ "$(git rev-parse HEAD)" = "$before" ] || fail "cuda_defective: HEAD moved although the hook should have failed"
grep -Eq '^ptxlint \(CUDA inline PTX\)\.+Failed' "$work/cuda_defective.log" ||
  fail "cuda_defective: no 'ptxlint (CUDA inline PTX)....Failed' line"
grep -Eq '^ptxlint\.+\(no files to check\)Skipped' "$work/cuda_defective.log" ||
  fail "cuda_defective: the PTX hook was not skipped"
expect_in_log cuda_defective "src/relaxed_load.cu:8:19:" "the ISA004 finding's file:line:column (at .relaxd)"
expect_in_log cuda_defective "unknown modifier '.relaxd' for 'ld'" "the ISA004 message"
expect_in_log cuda_defective "include/lane.cuh:9:25:" "the ASM001 finding's file:line:column (at %1)"
expect_in_log cuda_defective "ASM001" "the ASM001 rule code"
git rm -q --cached -r src include && rm -rf src include || harness_error "cannot unstage the CUDA files"

# 5. Their fixed twins, with a host .cpp (no asm) that the hook must leave out: passes (given
# the .cpp, ptxlint would read it as PTX and fail).
mkdir -p src include
cp "$cuda/ok_relaxed_load.cu" src/relaxed_load.cu
cp "$cuda/ok_lane.cuh" include/lane.cuh
cp "$cuda/host.cpp" src/host.cpp
git add src include
commit_case cuda_fixed
[ "$status" -eq 0 ] || fail "cuda_fixed: the commit was blocked (git commit exited $status)"
head_has src/relaxed_load.cu || fail "cuda_fixed: src/relaxed_load.cu is not in HEAD"
grep -Eq '^ptxlint \(CUDA inline PTX\)\.+Passed' "$work/cuda_fixed.log" ||
  fail "cuda_fixed: no 'ptxlint (CUDA inline PTX)....Passed' line"

if [ "$failures" -ne 0 ]; then
  echo "run-precommit-test: $failures expectation(s) failed"
  exit 1
fi
echo "run-precommit-test: OK (defective PTX commit blocked with SEM001 and ALN005 shown, clean commit passed, no-PTX commit skipped;" \
  "CUDA commit blocked with ISA004 and ASM001 shown, its fixed twins passed)"
