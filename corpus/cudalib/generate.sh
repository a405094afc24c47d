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

CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
JOBS=${JOBS:-2}
NVCC="$CUDA_HOME/bin/nvcc"
PTXAS="$CUDA_HOME/bin/ptxas"
[ -x "$NVCC" ] || { echo "nvcc not found at $NVCC (set CUDA_HOME)" >&2; exit 1; }
[ -x "$PTXAS" ] || { echo "ptxas not found at $PTXAS (set CUDA_HOME)" >&2; exit 1; }

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

mkdir -p "$OUT_DIR"
rm -f "$OUT_DIR"/*.ptx "$OUT_DIR"/manifest.json
LOG_DIR=$(mktemp -d)
trap 'rm -rf "$LOG_DIR"' EXIT

# name<TAB>source<TAB>arch<TAB>flags rows, consumed by the manifest step
ROWS="$LOG_DIR/rows.tsv"
: >"$ROWS"

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

fail=0
while read -r stem arch variant flags; do
    [ -z "$stem" ] && continue
    name="$stem.$arch"
    [ "$variant" != "-" ] && name="$name.$variant"
    if [ "$flags" = "-" ]; then flags="$COMMON_FLAGS"; else flags="$COMMON_FLAGS $flags"; fi
    printf '%s\t%s\t%s\t%s\n' "$name" "$SRC_DIR/$stem.cu" "$arch" "$flags" >>"$ROWS"
    while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n || fail=1; done
    build_one "$name" "$SRC_DIR/$stem.cu" "$arch" "$flags" &
done <<<"$VARIANTS"
while [ "$(jobs -rp | wc -l)" -gt 0 ]; do wait -n || fail=1; done
wait || fail=1
[ "$fail" -eq 0 ] || { echo "nvcc failed for at least one variant" >&2; exit 1; }

NVCC_VERSION=$("$NVCC" --version | tail -n 2 | tr '\n' ' ' | sed 's/ *$//')
PTXAS_VERSION=$("$PTXAS" --version | tail -n 2 | tr '\n' ' ' | sed 's/ *$//')

python3 - "$ROWS" "$LOG_DIR" "$OUT_DIR" "$NVCC_VERSION" "$PTXAS_VERSION" <<'PY'
import hashlib, json, os, re, sys

rows_path, log_dir, out_dir, nvcc_version, ptxas_version = sys.argv[1:6]

def parse_ptxas(text):
    """Per-function resource usage from `ptxas -v` output."""
    funcs = {}
    cur = None

    def get(name):
        return funcs.setdefault(name, {"registers": None, "spill_stores": 0, "spill_loads": 0,
                                       "stack_frame": 0, "shared_bytes": 0})

    for line in text.splitlines():
        m = re.search(r"Compiling entry function '([^']+)'", line)
        if m:
            cur = get(m.group(1))
            continue
        m = re.search(r"Function properties for (\S+)", line)
        if m:
            cur = get(m.group(1))
            continue
        m = re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads", line)
        if m and cur is not None:
            cur["stack_frame"], cur["spill_stores"], cur["spill_loads"] = map(int, m.groups())
            continue
        m = re.search(r"Used (\d+) registers", line)
        if m and cur is not None:
            cur["registers"] = int(m.group(1))
            s = re.search(r"(\d+) bytes smem", line)
            cur["shared_bytes"] = int(s.group(1)) if s else 0
            b = re.search(r"used (\d+) barriers", line)
            if b:
                cur["barriers"] = int(b.group(1))
            c = re.search(r"(\d+) bytes cumulative stack size", line)
            if c:
                cur["cumulative_stack"] = int(c.group(1))
    return funcs

def ptx_header(path):
    version = target = None
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            if version is None and line.startswith(".version"):
                version = line.split()[1]
            elif target is None and line.startswith(".target"):
                target = line.split(None, 1)[1].strip()
            if version and target:
                break
    return version, target

def ptx_kinds(path):
    """Name -> 'entry' / 'func' for every function defined (not just declared) in the PTX."""
    kinds = {}
    text = open(path, encoding="utf-8", errors="replace").read()
    for m in re.finditer(r"^(?:\.visible |\.weak |\.extern )?\.(entry|func)\s+(?:\([^)]*\)\s*)?([A-Za-z_$%][\w$]*)", text, re.M):
        kinds.setdefault(m.group(2), m.group(1))
    return kinds

files = {}
for line in open(rows_path):
    name, src, arch, flags = line.rstrip("\n").split("\t")
    ptx = os.path.join(out_dir, name + ".ptx")
    rc = int(open(os.path.join(log_dir, name + ".ptxas.rc")).read().strip())
    log = open(os.path.join(log_dir, name + ".ptxas.log"), encoding="utf-8", errors="replace").read()
    relocatable = "-rdc=true" in flags.split()
    data = open(ptx, "rb").read()
    version, target = ptx_header(ptx)
    funcs = parse_ptxas(log) if rc == 0 else {}
    kinds = ptx_kinds(ptx)
    for fname, info in funcs.items():
        info["kind"] = kinds.get(fname, "unknown")
    files[name + ".ptx"] = {
        "source": src,
        "arch": arch,
        "flags": flags.split(),
        "nvcc_cmd": " ".join(["nvcc", "-ptx", "-arch=" + arch] + flags.split() + [src, "-o", ptx]),
        "ptxas_cmd": " ".join(["ptxas", "-v"] + (["-c"] if relocatable else []) +
                              ["--gpu-name", arch, "-o", "/dev/null", ptx]),
        "ptx_version": version,
        "target": target,
        "size_bytes": len(data),
        "lines": data.count(b"\n"),
        "sha256": hashlib.sha256(data).hexdigest(),
        "ptxas_accepted": rc == 0,
        "ptxas_rc": rc,
        "ptxas_warnings": sorted({l.strip() for l in log.splitlines() if "warning" in l}),
        "ptxas_errors": [l.strip() for l in log.splitlines() if "error" in l or "fatal" in l],
        "functions": dict(sorted(funcs.items())),
        # fixed before any lint result is seen: about 3 in 10 file names go to the holdout set
        "split": "holdout" if int(hashlib.sha256((name + ".ptx").encode()).hexdigest()[:8], 16) % 10 < 3
                 else "tune",
    }

manifest = {
    "generator": "nvcc " + nvcc_version,
    "ptxas": "ptxas " + ptxas_version,
    "script": "corpus/cudalib/generate.sh",
    "files": dict(sorted(files.items())),
}
with open(os.path.join(out_dir, "manifest.json"), "w") as f:
    json.dump(manifest, f, indent=1, sort_keys=False)
    f.write("\n")

bad = [n for n, e in files.items() if not e["ptxas_accepted"]]
total = sum(e["size_bytes"] for e in files.values())
holdout = sorted(n for n, e in files.items() if e["split"] == "holdout")
print(f"{len(files)} PTX files, {total} bytes, {len(files) - len(bad)} accepted by ptxas, "
      f"{len(holdout)} holdout: {', '.join(holdout)}")
if bad:
    print("rejected: " + ", ".join(sorted(bad)), file=sys.stderr)
    sys.exit(1)
PY
