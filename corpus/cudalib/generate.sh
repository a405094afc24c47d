#!/usr/bin/env bash
# Regenerates the CUDA-library PTX corpus (corpus/cudalib):
#   1. nvcc -ptx for every row of the VARIANTS table below
#      -> corpus/cudalib/ptx/<stem>.<arch>[.<variant>].ptx
#   2. ptxas -v --gpu-name <arch> -o /dev/null on every generated file
#   3. corpus/cudalib/ptx/manifest.json with the nvcc version, the command lines, the
#      per-function resource usage that ptxas printed, and the tune/holdout split.
# The PTX is written exactly as nvcc produced it (nothing is stripped or rewritten).
# The sources (corpus/cudalib/cuda/*.cu) exercise CUDA 13's own library code: <cuda/ptx>,
# cuda::barrier / cuda::pipeline / cuda::memcpy_async, cooperative groups, CUB, libcu++
# atomics. Modelled on corpus/generate.sh.
#
# Environment: CUDA_HOME (default /usr/local/cuda), JOBS (parallel nvcc/ptxas runs, default 2).
# Needs bash, python3. Exits non-zero if any nvcc run fails or ptxas rejects any file.
set -euo pipefail


# Run from the repository root with relative source paths. (nvcc still makes the source
# path absolute in the .file directives of -lineinfo output; those are left as is.)
cd "$(dirname "$0")/../.."
SRC_DIR=corpus/cudalib/cuda
OUT_DIR=corpus/cudalib/ptx

# Flags every row gets.
COMMON_FLAGS="-std=c++17"

# stem  arch  variant-suffix  extra nvcc flags ("-" = none)
# Every source is built for sm_90a; the sources that do not need Hopper also for sm_80;
# ptx_tma (Hopper only: TMA, st.async, clusters) also with -lineinfo.
VARIANTS=$(cat <<'EOF'
ptx_tma           sm_90a  -          -
ptx_tma           sm_90a  lineinfo   -lineinfo
barrier_pipeline  sm_80   -          -
barrier_pipeline  sm_90a  -          -
coop_groups       sm_80   -          -
coop_groups       sm_90a  -          -
cub_block         sm_80   -          -
cub_block         sm_90a  -          -
cub_device        sm_80   -          -
cub_device        sm_90a  -          -
atomics           sm_80   -          -
atomics           sm_90a  -          -
EOF
)

SCRIPT=corpus/cudalib/generate.sh
# shellcheck source=build-ptx-corpus.sh
source corpus/build-ptx-corpus.sh
build_ptx_corpus --split
