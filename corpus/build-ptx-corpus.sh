# Sourced by the nvcc corpus generators (corpus/generate.sh, corpus/cudalib/generate.sh,
# corpus/registers-validation/generate.sh): builds every row of $VARIANTS with nvcc -ptx into
# $OUT_DIR, checks each output with ptxas -v, and writes $OUT_DIR/manifest.json through
# corpus/ptx_manifest.py.
#
# Sourcing it sets NVCC and PTXAS from CUDA_HOME (default /usr/local/cuda) and JOBS (default 2),
# and stops when the toolkit is missing. The caller sets SRC_DIR, OUT_DIR, VARIANTS (rows of
# `stem arch variant-suffix flags`, "-" for none), COMMON_FLAGS (flags every row gets, may be
# empty) and SCRIPT (the generator's path, recorded in the manifest), runs from the
# repository root, and calls build_ptx_corpus [--split].

CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
JOBS=${JOBS:-2}
NVCC="$CUDA_HOME/bin/nvcc"
PTXAS="$CUDA_HOME/bin/ptxas"
[ -x "$NVCC" ] || { echo "nvcc not found at $NVCC (set CUDA_HOME)" >&2; exit 1; }
[ -x "$PTXAS" ] || { echo "ptxas not found at $PTXAS (set CUDA_HOME)" >&2; exit 1; }

build_one() {
    local name=$1 src=$2 arch=$3 flags=$4
    local out="$OUT_DIR/$name.ptx" pxflags=""
    # shellcheck disable=SC2086
    if ! "$NVCC" -ptx -arch="$arch" $flags "$src" -o "$out" >"$LOG_DIR/$name.nvcc.log" 2>&1; then
        echo "nvcc FAILED: $name" >&2
        cat "$LOG_DIR/$name.nvcc.log" >&2
        return 1
    fi
    case " $flags " in *" -rdc=true "*) pxflags="-c" ;; esac
    local rc=0
    # shellcheck disable=SC2086
    "$PTXAS" -v $pxflags --gpu-name "$arch" -o /dev/null "$out" >"$LOG_DIR/$name.ptxas.log" 2>&1 || rc=$?
    echo "$rc" >"$LOG_DIR/$name.ptxas.rc"
    if [ "$rc" -ne 0 ]; then
        echo "ptxas REJECTED ($rc): $name" >&2
        grep -E 'error|fatal' "$LOG_DIR/$name.ptxas.log" >&2 || true
    fi
}

build_ptx_corpus() {
    mkdir -p "$OUT_DIR"
    rm -f "$OUT_DIR"/*.ptx "$OUT_DIR"/manifest.json
    LOG_DIR=$(mktemp -d)
    trap 'rm -rf "$LOG_DIR"' EXIT
    # name<TAB>source<TAB>arch<TAB>flags rows, consumed by the manifest step
    local rows="$LOG_DIR/rows.tsv" fail=0 stem arch variant flags name
    : >"$rows"
    while read -r stem arch variant flags; do
        [ -z "$stem" ] && continue
        name="$stem.$arch"
        [ "$variant" != "-" ] && name="$name.$variant"
        [ "$flags" = "-" ] && flags=""
        flags="${COMMON_FLAGS:+$COMMON_FLAGS${flags:+ }}$flags"
        printf '%s\t%s\t%s\t%s\n' "$name" "$SRC_DIR/$stem.cu" "$arch" "$flags" >>"$rows"
        while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n || fail=1; done
        build_one "$name" "$SRC_DIR/$stem.cu" "$arch" "$flags" &
    done <<<"$VARIANTS"
    while [ "$(jobs -rp | wc -l)" -gt 0 ]; do wait -n || fail=1; done
    wait || fail=1
    [ "$fail" -eq 0 ] || { echo "nvcc failed for at least one variant" >&2; exit 1; }

    local nvcc_version ptxas_version
    nvcc_version=$("$NVCC" --version | tail -n 2 | tr '\n' ' ' | sed 's/ *$//')
    ptxas_version=$("$PTXAS" --version | tail -n 2 | tr '\n' ' ' | sed 's/ *$//')
    python3 corpus/ptx_manifest.py "$rows" "$LOG_DIR" "$OUT_DIR" "$nvcc_version" "$ptxas_version" "$SCRIPT" "$@"
}
