#!/usr/bin/env bash
# Regenerates the register-estimate validation set (corpus/registers-validation/README.md):
#   1. nvcc -ptx for every source of cuda/ and every target of ARCHS -> ptx/<stem>.<arch>.ptx
#   2. ptxas -v --gpu-name <arch> -o /dev/null on every file
#   3. manifest.json beside this script: nvcc and ptxas versions, command lines, each file's
#      sha256 and size, and per function the registers, spill stores/loads and stack frame
#      that ptxas printed.
# The PTX is written exactly as nvcc produced it. The set is frozen: the test
# corpus.registers_validation_frozen fails if a file no longer matches the manifest. Regenerate
# only on purpose (a new source, a new toolkit), never to follow a change of the estimate, and
# say so in docs/registers.md.
#
# Environment: CUDA_HOME (default /usr/local/cuda), JOBS (parallel nvcc/ptxas runs, default 2).
# Needs bash, python3. Exits non-zero if any nvcc run fails or ptxas rejects any file.
set -euo pipefail


# Run from the repository root with relative source paths (no -lineinfo: no absolute paths
# end up in the PTX).
cd "$(dirname "$0")/../.."
HERE=corpus/registers-validation
SRC_DIR=$HERE/cuda
OUT_DIR=$HERE/ptx
ARCHS="sm_75 sm_80 sm_90a sm_100a"
STEMS="gemm attention stencil reduction calls bits cub"

# stem arch variant-suffix flags: every source for every target, no extra flags.
VARIANTS=$(for stem in $STEMS; do for arch in $ARCHS; do echo "$stem $arch - -"; done; done)
COMMON_FLAGS="-std=c++17"
SCRIPT=$HERE/generate.sh
# shellcheck source=../build-ptx-corpus.sh
source corpus/build-ptx-corpus.sh
build_ptx_corpus

# The manifest lives beside this script, not among the PTX files.
mv "$OUT_DIR/manifest.json" "$HERE/manifest.json"
python3 - "$HERE/manifest.json" <<'PY'
import json, sys
path = sys.argv[1]
manifest = json.load(open(path))
manifest["ptx_dir"] = "corpus/registers-validation/ptx"
entries = [f for e in manifest["files"].values() for f in e["functions"].values() if f["kind"] == "entry"]
wide = sum(1 for f in entries if f["registers"] >= 64)
print(f"{len(entries)} entry kernels, {wide} ({100 * wide / len(entries):.1f}%) with >= 64 registers")
with open(path, "w") as f:
    json.dump(manifest, f, indent=1)
    f.write("\n")
PY
du -sh "$OUT_DIR"
