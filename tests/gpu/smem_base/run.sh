#!/usr/bin/env bash
# Measures where dynamic shared memory starts (tests/gpu/RESULTS.md, "Dynamic shared-memory base").
#
#   bash tests/gpu/smem_base/run.sh RESULTS_FILE      # e.g. tests/gpu/smem_base/results-h100.txt
#
# Needs a Hopper GPU (sm_90), nvcc/ptxas (13.0 was used) and the driver's libcuda.
# 1. ptxas -v -arch=sm_90a assembles every ptx/*.ptx (the ptxas -v lines go into the results);
# 2. smem_probe (built here with nvcc) runs each cubin, one process per file, then each .ptx
#    through the driver's JIT (cuModuleLoadData on the PTX text);
# 3. summarize.py turns the CASE lines into the table of RESULTS.md.
set -u
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
results="${1:?usage: run.sh RESULTS_FILE}"
cuda="${CUDA_HOME:-/usr/local/cuda}"
export PATH="$cuda/bin:$PATH"
build="$(mktemp -d /tmp/smem_base.XXXXXX)"
{
  echo "# dynamic shared-memory base probe, $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
  echo "# host: $(uname -srm)"
  echo "# gpu: $(nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader 2>&1 | head -1)"
  echo "# nvcc: $(nvcc --version 2>&1 | grep -o 'release [0-9.]*, V[0-9.]*')"
} >"$results"
nvcc -O2 -o "$build/smem_probe" "$here/smem_probe.cu" -lcuda >>"$results" 2>&1 || {
  echo "# FATAL: building smem_probe failed" | tee -a "$results"; exit 1; }
for f in "$here"/ptx/*.ptx; do
  n="$(basename "$f" .ptx)"
  echo "PTXAS $n $(ptxas -v -arch=sm_90a -o "$build/$n.cubin" "$f" 2>&1 | grep -E 'Used|error|warning' | tr '\n' ' ')" >>"$results"
done
for f in "$here"/ptx/*.ptx; do
  n="$(basename "$f" .ptx)"
  timeout 60 "$build/smem_probe" "$build/$n.cubin" >>"$results" 2>&1 || echo "# $n cubin: exit $?" >>"$results"
done
for f in "$here"/ptx/*.ptx; do
  n="$(basename "$f" .ptx)"
  timeout 60 "$build/smem_probe" "$f" >>"$results" 2>&1 || echo "# $n jit: exit $?" >>"$results"
done
python3 "$here/summarize.py" "$results"
