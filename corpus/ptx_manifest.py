#!/usr/bin/env python3
"""What a corpus manifest records of one PTX file: its header, size and hash, and what
`ptxas -v` said of it (verdict, warnings, errors, per-function resource usage). Shared by the
corpus generators (corpus/generate.sh, corpus/cudalib/generate.sh through build-ptx-corpus.sh,
and corpus/triton/gen/make_manifest.py); corpus/README.md describes the manifest.

As a command, it writes the manifest of an nvcc-built corpus:
    ptx_manifest.py ROWS LOG_DIR OUT_DIR NVCC_VERSION PTXAS_VERSION SCRIPT [--split]
ROWS holds `name<TAB>source<TAB>arch<TAB>flags` lines; LOG_DIR the `NAME.ptxas.log` and
`NAME.ptxas.rc` of each; --split adds each file's tune/holdout split (split_of).
"""
import hashlib
import json
import os
import re
import sys


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


def ptx_header(text):
    """(.version, .target) of a PTX text."""
    version = target = None
    for line in text.splitlines():
        if version is None and line.startswith(".version"):
            version = line.split()[1]
        elif target is None and line.startswith(".target"):
            target = line.split(None, 1)[1].strip()
        if version and target:
            break
    return version, target


def ptx_kinds(text):
    """Name -> 'entry' / 'func' for every function defined (not just declared) in the PTX."""
    kinds = {}
    for m in re.finditer(r"^(?:\.visible |\.weak |\.extern )?\.(entry|func)\s+(?:\([^)]*\)\s*)?([A-Za-z_$%][\w$]*)",
                         text, re.M):
        kinds.setdefault(m.group(2), m.group(1))
    return kinds


def split_of(name):
    """Fixed by the file name alone, before any lint result is seen: about 3 in 10 go to the
    holdout set, which is never tuned on."""
    return "holdout" if int(hashlib.sha256(name.encode()).hexdigest()[:8], 16) % 10 < 3 else "tune"


def ptxas_fields(data, log, rc):
    """The manifest fields from the PTX bytes and ptxas's output and exit status, in order."""
    text = data.decode("utf-8", errors="replace")
    version, target = ptx_header(text)
    funcs = parse_ptxas(log) if rc == 0 else {}
    kinds = ptx_kinds(text)
    for fname, info in funcs.items():
        info["kind"] = kinds.get(fname, "unknown")
    return {
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
    }


def main(argv):
    split = "--split" in argv
    rows_path, log_dir, out_dir, nvcc_version, ptxas_version, script = [a for a in argv if a != "--split"]
    files = {}
    for line in open(rows_path):
        name, src, arch, flags = line.rstrip("\n").split("\t")
        ptx = os.path.join(out_dir, name + ".ptx")
        rc = int(open(os.path.join(log_dir, name + ".ptxas.rc")).read().strip())
        log = open(os.path.join(log_dir, name + ".ptxas.log"), encoding="utf-8", errors="replace").read()
        relocatable = "-rdc=true" in flags.split()
        entry = {
            "source": src,
            "arch": arch,
            "flags": flags.split(),
            "nvcc_cmd": " ".join(["nvcc", "-ptx", "-arch=" + arch] + flags.split() + [src, "-o", ptx]),
            "ptxas_cmd": " ".join(["ptxas", "-v"] + (["-c"] if relocatable else []) +
                                  ["--gpu-name", arch, "-o", "/dev/null", ptx]),
        }
        entry.update(ptxas_fields(open(ptx, "rb").read(), log, rc))
        if split:
            entry["split"] = split_of(name + ".ptx")
        files[name + ".ptx"] = entry
    manifest = {
        "generator": "nvcc " + nvcc_version,
        "ptxas": "ptxas " + ptxas_version,
        "script": script,
        "files": dict(sorted(files.items())),
    }
    with open(os.path.join(out_dir, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1, sort_keys=False)
        f.write("\n")
    bad = [n for n, e in files.items() if not e["ptxas_accepted"]]
    total = sum(e["size_bytes"] for e in files.values())
    print(f"{len(files)} PTX files, {total} bytes, {len(files) - len(bad)} accepted by ptxas")
    if bad:
        print("rejected: " + ", ".join(sorted(bad)), file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
