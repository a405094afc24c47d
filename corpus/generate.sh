#!/usr/bin/env bash
# Regenerates the project's own nvcc PTX corpus:
#   1. nvcc -ptx for every row of the VARIANTS table below -> corpus/nvcc/<stem>.<variant>.ptx
#   2. ptxas -v --gpu-name <arch> -o /dev/null on every generated file (-c for -rdc=true output)
#   3. corpus/nvcc/manifest.json with the nvcc version, the command lines and the per-function
#      resource usage that ptxas printed.
# The PTX is written exactly as nvcc produced it (nothing is stripped or rewritten).
#
# Environment: CUDA_HOME (default /usr/local/cuda), JOBS (parallel nvcc/ptxas runs, default 2).
# Needs bash, python3. Exits non-zero if any nvcc run fails or ptxas rejects any file.
set -euo pipefail


# Run from the repository root with relative source paths. (nvcc still makes the source
# path absolute in the .file directives of -lineinfo/-G output; those are left as is.)
cd "$(dirname "$0")/.."
SRC_DIR=corpus/cuda
OUT_DIR=corpus/nvcc

# stem  arch  variant-suffix  nvcc flags ("-" = none)
# Every source appears for every target without extra flags; -lineinfo and -G appear for
# sm_80/sm_86/sm_90a/sm_100a and sm_75/sm_90a/sm_100a; two -rdc=true rows; one
# -use_fast_math row. Sources with large -G output (async_wmma, half_math) are only
# built with -lineinfo, to keep corpus/nvcc at a few MB.
VARIANTS=$(cat <<'EOF'
sgemm_tiled       sm_75   -          -
sgemm_tiled       sm_80   -          -
sgemm_tiled       sm_86   -          -
sgemm_tiled       sm_89   -          -
sgemm_tiled       sm_90a  -          -
sgemm_tiled       sm_100a -          -
sgemm_tiled       sm_75   G          -G
sgemm_tiled       sm_90a  G          -G
sgemm_tiled       sm_90a  lineinfo   -lineinfo
warp_atomics      sm_75   -          -
warp_atomics      sm_80   -          -
warp_atomics      sm_86   -          -
warp_atomics      sm_89   -          -
warp_atomics      sm_90a  -          -
warp_atomics      sm_100a -          -
warp_atomics      sm_90a  G          -G
warp_atomics      sm_86   lineinfo   -lineinfo
warp_atomics      sm_90a  lineinfo   -lineinfo
device_calls      sm_75   -          -
device_calls      sm_80   -          -
device_calls      sm_86   -          -
device_calls      sm_89   -          -
device_calls      sm_90a  -          -
device_calls      sm_100a -          -
device_calls      sm_75   G          -G
device_calls      sm_90a  G          -G
device_calls      sm_100a G          -G
device_calls      sm_90a  lineinfo   -lineinfo
device_calls      sm_90a  rdc        -rdc=true
device_calls      sm_80   rdc        -rdc=true
half_math         sm_75   -          -
half_math         sm_80   -          -
half_math         sm_86   -          -
half_math         sm_89   -          -
half_math         sm_90a  -          -
half_math         sm_100a -          -
half_math         sm_89   fastmath   -use_fast_math
half_math         sm_90a  lineinfo   -lineinfo
async_wmma        sm_75   -          -
async_wmma        sm_80   -          -
async_wmma        sm_86   -          -
async_wmma        sm_89   -          -
async_wmma        sm_90a  -          -
async_wmma        sm_100a -          -
async_wmma        sm_80   lineinfo   -lineinfo
async_wmma        sm_100a lineinfo   -lineinfo
hopper_cluster    sm_75   -          -
hopper_cluster    sm_80   -          -
hopper_cluster    sm_86   -          -
hopper_cluster    sm_89   -          -
hopper_cluster    sm_90a  -          -
hopper_cluster    sm_100a -          -
hopper_cluster    sm_90a  G          -G
hopper_cluster    sm_100a G          -G
hopper_cluster    sm_90a  lineinfo   -lineinfo
hopper_cluster    sm_100a lineinfo   -lineinfo
tex_const_launch  sm_75   -          -
tex_const_launch  sm_80   -          -
tex_const_launch  sm_86   -          -
tex_const_launch  sm_89   -          -
tex_const_launch  sm_90a  -          -
tex_const_launch  sm_100a -          -
tex_const_launch  sm_100a G          -G
tex_const_launch  sm_90a  lineinfo   -lineinfo
coop_control      sm_75   -          -
coop_control      sm_80   -          -
coop_control      sm_86   -          -
coop_control      sm_89   -          -
coop_control      sm_90a  -          -
coop_control      sm_100a -          -
coop_control      sm_75   G          -G
coop_control      sm_80   lineinfo   -lineinfo
coop_control      sm_100a lineinfo   -lineinfo
EOF
)

SCRIPT=corpus/generate.sh
# shellcheck source=build-ptx-corpus.sh
source corpus/build-ptx-corpus.sh
build_ptx_corpus
