#!/usr/bin/env bash
# Builds every case of tests/races/cuda with tests/races/runner.cu and runs it plainly and under
# compute-sanitizer racecheck and synccheck.
#
#   bash tests/races/run-sanitizer.sh RESULTS_FILE [CASE_PREFIX...]
#
# Writes (and prints) one line per case:
#   CASE racecheck=<summary> synccheck=<summary> plain=<cudaError> run=<racecheck run>/<synccheck run>
# where <summary> is the tool's "RACECHECK SUMMARY: ..." / "ERROR SUMMARY: ..." line with the
# spaces removed (e.g. 1hazarddisplayed(1error,0warnings), 0errors), TIMEOUT when the tool ran
# past SAN_TIMEOUT, or none(rc=N) when it printed no summary.  The runs' full output goes to
# RESULTS_FILE.log.
#
# Launch configuration: 2 blocks x 64 threads unless the case has a `// launch: B T` comment.
# Environment: CUDA_HOME (default /usr/local/cuda), SANITIZER (path to compute-sanitizer),
# SAN_TIMEOUT (seconds per sanitizer run, default 60), RUNNER_TIMEOUT_S (the runner's own
# watchdog, default 20), JOBS (cases run concurrently, default 4), BUILD_JOBS (default: nproc),
# BUILD_DIR (default: a fresh temporary folder).
# Needs a Hopper GPU (the cases are built for sm_90a), nvcc and compute-sanitizer.
set -u
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
results="${1:?usage: run-sanitizer.sh RESULTS_FILE [CASE_PREFIX...]}"
shift
results="$(cd "$(dirname "$results")" && pwd)/$(basename "$results")"
log="$results.log"
cuda="${CUDA_HOME:-/usr/local/cuda}"
export PATH="$cuda/bin:$PATH"
# The builds go to BUILD_DIR when given (and stay there), else to a temporary folder removed
# on exit.
if [ -n "${BUILD_DIR:-}" ]; then
  build="$BUILD_DIR"
else
  build="$(mktemp -d /tmp/ptxls-races.XXXXXX)"
  trap 'rm -rf "$build"' EXIT
fi
mkdir -p "$build"
export SAN_TIMEOUT="${SAN_TIMEOUT:-60}"
export RUNNER_TIMEOUT_S="${RUNNER_TIMEOUT_S:-20}"

# Find compute-sanitizer.
sanitizer="${SANITIZER:-}"
if [ -z "$sanitizer" ]; then
  for c in "$cuda/bin/compute-sanitizer" "$(command -v compute-sanitizer 2>/dev/null)" \
    /usr/local/cuda*/bin/compute-sanitizer /usr/local/cuda*/compute-sanitizer/compute-sanitizer \
    /opt/nvidia/*/compute-sanitizer /opt/nvidia/*/*/compute-sanitizer; do
    if [ -n "$c" ] && [ -x "$c" ]; then sanitizer="$c"; break; fi
  done
fi
export SANITIZER="$sanitizer"

cases=()
for f in "$here"/cuda/*.cu; do
  name="$(basename "$f" .cu)"
  if [ $# -gt 0 ]; then
    keep=0
    for p in "$@"; do case "$name" in "$p"*) keep=1 ;; esac; done
    [ $keep = 1 ] || continue
  fi
  cases+=("$name")
done

{
  echo "# ptxls race/sync suite under compute-sanitizer, $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
  echo "# host: $(uname -srm)"
  if command -v nvidia-smi >/dev/null; then
    echo "# gpu: $(nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader 2>&1 | head -1)"
  else
    echo "# gpu: nvidia-smi not found"
  fi
  echo "# nvcc: $(nvcc --version 2>&1 | grep -o 'release [0-9.]*, V[0-9.]*')"
  if [ -n "$sanitizer" ]; then
    echo "# compute-sanitizer: $sanitizer, $("$sanitizer" --version 2>&1 | grep -i version | head -1)"
  else
    echo "# compute-sanitizer: NOT FOUND (looked in $cuda/bin, PATH, /usr/local/cuda*, /opt/nvidia)"
  fi
  echo "# launch: 2 blocks x 64 threads unless the case says otherwise; SAN_TIMEOUT=${SAN_TIMEOUT}s"
} | tee "$results" >"$log"

# ---- build (parallel) -------------------------------------------------------------------------
build_one() {
  local name="$1" here="$2" build="$3"
  local cu="$here/cuda/$name.cu" b=2 t=64 launch
  launch="$(sed -n 's|^// launch: *\([0-9]\+\) \+\([0-9]\+\).*|\1 \2|p' "$cu" | head -1)"
  if [ -n "$launch" ]; then b="${launch% *}"; t="${launch#* }"; fi
  echo "$b $t" >"$build/$name.launch"
  nvcc -arch=sm_90a -lineinfo -o "$build/$name" "$here/runner.cu" \
    -DKERNEL_FILE="\"$cu\"" -DBLOCKS="$b" -DTHREADS="$t" >"$build/$name.build" 2>&1 ||
    echo "build of $name failed" >>"$build/$name.build"
}
export -f build_one
printf '%s\n' "${cases[@]}" | xargs -P "${BUILD_JOBS:-$(nproc)}" -I{} bash -c 'build_one "$@"' _ {} "$here" "$build"

# ---- run ------------------------------------------------------------------------------------------
summary() {  # summary TOOL OUTPUT_FILE RC
  local line
  if [ "$3" = 124 ] || [ "$3" = 137 ]; then echo TIMEOUT; return; fi
  line="$(grep -o 'RACECHECK SUMMARY: .*' "$2" | tail -1)"
  [ -n "$line" ] || line="$(grep -o 'ERROR SUMMARY: .*' "$2" | tail -1)"
  if [ -n "$line" ]; then echo "${line#*SUMMARY: }" | tr -d ' '; else echo "none(rc=$3)"; fi
}
result() {  # the runner's verdict in OUTPUT_FILE
  local r
  r="$(grep -o 'RESULT .*' "$1" | tail -1)"
  case "$r" in
    *sync=TIMEOUT*) echo TIMEOUT ;;
    *sync=*) r="${r#*sync=}"; echo "${r%% *}" ;;
    '') echo "none" ;;
    *) echo "${r#RESULT }" | tr ' ' '_' ;;
  esac
}
export -f summary result

run_one() {
  local name="$1" build="$2"
  local exe="$build/$name" out="$build/$name.out" rc
  : >"$out"
  if [ ! -x "$exe" ]; then
    echo "$name racecheck=BUILD-FAILED synccheck=BUILD-FAILED plain=BUILD-FAILED run=-/-" >"$build/$name.line"
    { echo "=== $name: build failed"; cat "$build/$name.build"; } >"$build/$name.log"
    return
  fi
  timeout -k 5 $((RUNNER_TIMEOUT_S + 10)) "$exe" >"$build/$name.plain" 2>&1
  local plain
  plain="$(result "$build/$name.plain")"
  local line="$name" runs=""
  { echo "=== $name (launch $(cat "$build/$name.launch"))"; echo "--- plain run:"; cat "$build/$name.plain"; } >"$build/$name.log"
  for tool in racecheck synccheck; do
    if [ -z "$SANITIZER" ]; then
      line="$line $tool=NO-SANITIZER"
      runs="$runs/-"
      continue
    fi
    timeout -k 5 "$SAN_TIMEOUT" "$SANITIZER" --tool "$tool" "$exe" >"$build/$name.$tool" 2>&1
    rc=$?
    line="$line $tool=$(summary "$tool" "$build/$name.$tool" "$rc")"
    runs="$runs/$(result "$build/$name.$tool")"
    { echo "--- compute-sanitizer --tool $tool (rc=$rc):"; cat "$build/$name.$tool"; } >>"$build/$name.log"
  done
  echo "$line plain=$plain run=${runs#/}" >"$build/$name.line"
}
export -f run_one
printf '%s\n' "${cases[@]}" | xargs -P "${JOBS:-4}" -I{} bash -c 'run_one "$@"' _ {} "$build"

for name in "${cases[@]}"; do
  cat "$build/$name.line"
  cat "$build/$name.log" >>"$log"
done | tee -a "$results"
echo "# done: ${#cases[@]} cases; build folder $build" | tee -a "$results"
