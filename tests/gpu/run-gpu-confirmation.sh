#!/usr/bin/env bash
# Builds the GPU confirmation programs and runs every alignment variant on the local GPU.
#
#   bash tests/gpu/run-gpu-confirmation.sh RESULTS_FILE
#
# For each line of tests/gpu/variants.txt: assemble the PTX with ptxas (sm_90a), run it in its
# own process through ptxrun (misaligned-address errors are sticky per context), then run it
# again under compute-sanitizer memcheck when that is installed.  Prints and writes one line
# per variant:
#   CASE VARIANT ptxas=<ok|FAIL(msg)> run=<result or CUDA error> sanitizer=<summary>
# Full details (ptxas output, SASS of the key instruction, sanitizer logs) go to RESULTS_FILE.log.
# Needs: nvcc/ptxas (CUDA 12.3+; written against 13.0), a Hopper GPU (sm_90), libcuda.
set -u
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
results="${1:?usage: run-gpu-confirmation.sh RESULTS_FILE}"
log="$results.log"
cuda="${CUDA_HOME:-/usr/local/cuda}"
export PATH="$cuda/bin:$PATH"
build="$(mktemp -d /tmp/ptxls-gpu.XXXXXX)"
run_timeout="${RUN_TIMEOUT:-20}"
san_timeout="${SAN_TIMEOUT:-40}"
san_budget="${SAN_BUDGET:-280}"   # skip sanitizer runs once this many seconds have passed
start=$SECONDS

: >"$results"
: >"$log"
say() { echo "$*" | tee -a "$log"; }

say "# ptxls GPU confirmation run, $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
say "# host: $(uname -srm)"
if command -v nvidia-smi >/dev/null; then
  say "# gpu: $(nvidia-smi --query-gpu=name,driver_version,memory.total,compute_cap --format=csv,noheader 2>&1 | head -1)"
else
  say "# gpu: nvidia-smi not found"
fi
say "# nvcc: $(nvcc --version 2>&1 | grep -o 'release [0-9.]*, V[0-9.]*')"
sanitizer="$cuda/bin/compute-sanitizer"
if [ -x "$sanitizer" ]; then
  say "# compute-sanitizer: $("$sanitizer" --version 2>&1 | grep -i version | head -1)"
else
  say "# compute-sanitizer: not installed at $sanitizer"
  sanitizer=""
fi
cp "$log" "$results"

if ! nvcc -O2 -arch=sm_90a -o "$build/ptxrun" "$here/ptxrun.cu" -lcuda >>"$log" 2>&1; then
  say "# FATAL: building ptxrun failed (see $log)"
  exit 1
fi

oneline() { tr '\n' ' ' | sed -e 's/  */ /g' -e 's/ $//'; }

while read -r case variant ptx mode args; do
  case "$case" in ''|'#'*) continue ;; esac
  name="${case}_${variant}"
  echo "=== $name ($ptx; ptxrun $mode <cubin> $args)" >>"$log"
  cubin="$build/$name.cubin"
  if ptxas -arch=sm_90a -o "$cubin" "$here/$ptx" >"$build/$name.ptxas" 2>&1; then
    if [ -s "$build/$name.ptxas" ]; then
      ptxas_v="ok(warning: $(oneline <"$build/$name.ptxas"))"
    else
      ptxas_v="ok"
    fi
  else
    ptxas_v="FAIL($(grep -m1 'error' "$build/$name.ptxas" | sed 's/^ptxas [^,]*, //' | oneline))"
  fi
  cat "$build/$name.ptxas" >>"$log"
  if [ ! -f "$cubin" ] || [[ "$ptxas_v" == FAIL* ]]; then
    line="$case $variant ptxas=$ptxas_v run=not-run(ptxas-rejected) sanitizer=not-run"
    echo "$line" | tee -a "$results"
    echo "$line" >>"$log"
    continue
  fi
  if command -v cuobjdump >/dev/null; then
    # the instruction under test: barrier/bulk-copy ops, and for ALN005 the vector loads
    # (the fill/dump loops of the other cases are plain STS/LDS and left out)
    pat='SYNCS|UBLKCP|UTMALDG'
    [ "$case" = ALN005 ] && pat="$pat|LDS|LDG"
    echo "--- SASS (instruction under test):" >>"$log"
    cuobjdump -sass "$cubin" 2>&1 | grep -E "$pat" | sed 's/^ *//' >>"$log"
  fi

  # shellcheck disable=SC2086
  out="$(timeout -k 5 "$run_timeout" "$build/ptxrun" "$mode" "$cubin" $args 2>&1)"
  rc=$?
  echo "--- run (rc=$rc):" >>"$log"
  echo "$out" >>"$log"
  if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
    run_v="TIMEOUT(${run_timeout}s,hang)"
  elif res="$(grep -m1 '^RESULT ' <<<"$out")"; then
    run_v="$(sed "s/^RESULT //" <<<"$res")"
  else
    run_v="crash(rc=$rc:$(head -c 200 <<<"$out" | oneline))"
  fi

  if [ -z "$sanitizer" ]; then
    san_v="not-available"
  elif [ $((SECONDS - start)) -gt "$san_budget" ]; then
    san_v="skipped(time-budget)"
  else
    # shellcheck disable=SC2086
    sout="$(timeout -k 5 "$san_timeout" "$sanitizer" --tool memcheck --error-exitcode 99 \
            "$build/ptxrun" "$mode" "$cubin" $args 2>&1)"
    src=$?
    echo "--- compute-sanitizer memcheck (rc=$src):" >>"$log"
    echo "$sout" >>"$log"
    summary="$(grep -m1 -o 'ERROR SUMMARY: [0-9]* error[s]*' <<<"$sout")"
    # first report line: "========= X" with X not indented (detail lines are indented)
    first="$(grep -E '^========= [^ ]' <<<"$sout" | grep -v -E 'COMPUTE-SANITIZER|ERROR SUMMARY|Target application returned' \
             | head -1 | sed 's/^========= *//')"
    sres="$(grep -m1 '^RESULT ' <<<"$sout" | sed 's/^RESULT //')"
    if [ $src -eq 124 ] || [ $src -eq 137 ]; then
      san_v="TIMEOUT(${san_timeout}s)"
    else
      san_v="${summary:-no-summary(rc=$src)}"
      [ -n "$first" ] && san_v="$san_v: $first"
      san_v="$san_v [program:${sres:-no-RESULT}]"
    fi
  fi
  line="$case $variant ptxas=$ptxas_v run=$run_v sanitizer=$san_v"
  echo "$line" | tee -a "$results"
  echo "$line" >>"$log"
done <"$here/variants.txt"

say "# done in $((SECONDS - start)) s; build dir $build"
