#!/usr/bin/env bash
# Rebuilds corpus/registers-validation/triton/ (ptx/, cases.json, results.json, versions.json,
# manifest.json) in two steps:
#
#  1. on a machine with an sm_90 GPU, PyTorch and Triton (here: the `run` device tool, H200):
#       bash corpus/registers-validation/triton/gen/run_device.sh $OUT
#     which leaves val.tar.gz, versions.json and checks.txt in $OUT;
#  2. here, with ptxas (CUDA_HOME, default /usr/local/cuda):
#       bash corpus/registers-validation/triton/gen/generate.sh DIR
#     where DIR holds what step 1 brought back.
set -eu
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
dir="${1:?usage: generate.sh DIR (with val.tar.gz and versions.json from run_device.sh)}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
tar -C "$tmp" -xzf "$dir/val.tar.gz"
python3 "$here/collect.py" "$tmp" "$dir/versions.json"
python3 "$here/make_manifest.py" --jobs "${JOBS:-2}"
