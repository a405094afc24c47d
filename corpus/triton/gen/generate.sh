#!/usr/bin/env bash
# Regenerates corpus/triton/ (ptx/, kernels.json, results.json, RESULTS.md, ptx/manifest.json).
#
#   corpus/triton/gen/generate.sh                  # on a machine with an sm_90 GPU, Triton and PyTorch
#   corpus/triton/gen/generate.sh --from DIR...    # reuse run_gpu.sh output (triton_corpus.tar.gz
#                                                  # files or folders), e.g. copied from a GPU machine
#
# Step 1 (GPU): run_gpu.sh runs every generator script (each test checks its kernels against
#   PyTorch) with its own TRITON_CACHE_DIR and packs the PTX each test compiled.
# Step 2 (anywhere): collect.py keeps the PTX of the tests that passed, de-duplicated, under ptx/.
# Step 3 (anywhere, needs ptxas; CUDA_HOME defaults to /usr/local/cuda): make_manifest.py.
# versions.json (torch/triton versions and GPU, printed on the GPU machine) must sit in
# corpus/triton/ for step 3; step 1 writes it there.
set -eu
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
if [ "${1:-}" = "--from" ]; then
  shift
  runs=("$@")
else
  out="$(mktemp -d /tmp/triton_corpus_out.XXXXXX)"
  trap 'rm -rf "$out"' EXIT
  bash "$here/run_gpu.sh" "$out"
  cp "$out/versions.json" "$root/versions.json"
  runs=("$out/triton_corpus.tar.gz")
fi
python3 "$here/collect.py" "${runs[@]}"
python3 "$here/make_manifest.py" --jobs "${JOBS:-2}"
