#!/usr/bin/env bash
# Runs the validation-set generators on a machine with an sm_90 GPU, each script split into
# shards that run in parallel (own Triton cache each), and packs what they produced.
#
#   bash corpus/registers-validation/triton/gen/run_device.sh OUTDIR
#
# ONLY=case1,case2 restricts every script to those cases. OUTDIR receives versions.json,
# val.tar.gz (per shard: results.jsonl, ptx/*.ptx, log) and checks.txt.
set -u
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
outdir="${1:?usage: run_device.sh OUTDIR}"
work="${WORK:-/tmp/val_triton}"
limit="${SCRIPT_TIMEOUT:-420}"
rm -rf "$work"
mkdir -p "$work" "$outdir"
export PYTHONUNBUFFERED=1
python3 "$here/versions.py" >"$outdir/versions.json" 2>&1
cat "$outdir/versions.json"
jobs=(gemm:0:5 gemm:1:5 gemm:2:5 gemm:3:5 gemm:4:5 attention:0:4 attention:1:4 attention:2:4 attention:3:4
      norms:0:2 norms:1:2 misc:0:3 misc:1:3 misc:2:3)
pids=()
for j in "${jobs[@]}"; do
  IFS=: read -r s k n <<<"$j"
  d="$work/${s}_$k"
  mkdir -p "$d"
  (
    cd "$here" && TRITON_CACHE_DIR="$work/cache_${s}_$k" VAL_OUT="$d" SHARD=$k NSHARD=$n \
      timeout "$limit" python3 "$s.py" >"$d/log.txt" 2>&1
    echo "exit $?" >>"$d/log.txt"
  ) &
  pids+=($!)
done
for p in "${pids[@]}"; do wait "$p"; done
grep -h '^CHECK\|^exit' "$work"/*/log.txt | tee "$outdir/checks.txt"
tar -C "$work" -czf "$outdir/val.tar.gz" --exclude='cache_*' .
ls -la "$outdir"
