#!/usr/bin/env bash
# Runs every corpus generator on a machine with an sm_90 GPU, in parallel, each with its own
# Triton cache, and packs what they produced.
#
#   bash corpus/triton/gen/run_gpu.sh OUTDIR [SCRIPT...]
#
# SCRIPT is a generator (basics, matmul, tma, attention, gluon_kernels, gluon_ws, inductor_default,
# inductor_maxautotune), optionally SCRIPT:test1,test2 to run only those tests of it.
# OUTDIR receives versions.json, triton_corpus.tar.gz (per script: results.jsonl, the *.ptx and
# *.json each passing or failing test compiled, log) and, for the Inductor scripts, raw caches.
set -u
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
outdir="${1:?usage: run_gpu.sh OUTDIR [SCRIPT...]}"
shift
scripts=("$@")
[ ${#scripts[@]} -eq 0 ] && scripts=(basics matmul tma attention gluon_kernels gluon_ws inductor_default inductor_maxautotune)
work="${WORK:-/tmp/triton_corpus}"
limit="${SCRIPT_TIMEOUT:-480}"
rm -rf "$work"
mkdir -p "$work" "$outdir"
export PYTHONUNBUFFERED=1 NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
python3 "$here/versions.py" >"$outdir/versions.json" 2>&1
cat "$outdir/versions.json"
pids=()
for spec in "${scripts[@]}"; do
  s="${spec%%:*}"          # SCRIPT or SCRIPT:test1,test2 (only those tests)
  only=()
  [ "$s" != "$spec" ] && IFS=, read -r -a only <<<"${spec#*:}"
  case "$s" in
    inductor_default) py=inductor_cases.py; args=(default) ;;
    inductor_maxautotune) py=inductor_cases.py; args=(max-autotune-no-cudagraphs) ;;
    *) py="$s.py"; args=("${only[@]}") ;;
  esac
  mkdir -p "$work/$s"
  (
    cd "$here" && \
    TRITON_CACHE_DIR="$work/cache_$s/triton" TORCHINDUCTOR_CACHE_DIR="$work/cache_$s/inductor" \
    CORPUS_OUT="$work/$s" timeout "$limit" python3 "$py" "${args[@]}" >"$work/$s/log.txt" 2>&1
    echo "exit $?" >>"$work/$s/log.txt"
  ) &
  pids+=($!)
done
for p in "${pids[@]}"; do wait "$p"; done
grep -h '^CHECK\|^exit' "$work"/*/log.txt
tar -C "$work" -czf "$outdir/triton_corpus.tar.gz" --exclude='cache_*' .
for s in inductor_default inductor_maxautotune; do
  [ -d "$work/cache_$s" ] || continue
  (cd "$work/cache_$s" && find . \( -name '*.ptx' -o -name '*.json' \) -print0 | \
     tar --null -T - -czf "$outdir/raw_$s.tar.gz")
done
ls -la "$outdir"
