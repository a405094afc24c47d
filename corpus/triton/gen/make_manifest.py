#!/usr/bin/env python3
"""Writes corpus/triton/ptx/manifest.json: for every corpus/triton/ptx/*.ptx, how it was made and
what `ptxas -v --gpu-name <its .target> -o /dev/null FILE` reported (same shape as
corpus/nvcc/manifest.json, see corpus/README.md), plus its test, Triton's metadata for it and
its split. Runs locally; needs ptxas (CUDA_HOME, default /usr/local/cuda).

    python3 corpus/triton/gen/make_manifest.py [--jobs N]

split: "holdout" iff int(sha256(file name)[:8], 16) % 10 < 3, else "tune" (fixed by the name
alone, before any lint result is looked at).
"""
import argparse
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)                      # corpus/triton
REPO = os.path.dirname(os.path.dirname(ROOT))
PTX_DIR = os.path.join(ROOT, "ptx")
CUDA = os.environ.get("CUDA_HOME", "/usr/local/cuda")
PTXAS = os.path.join(CUDA, "bin", "ptxas")
sys.path.insert(0, os.path.dirname(ROOT))  # corpus/: the fields every corpus manifest shares.
from ptx_manifest import ptx_header, ptxas_fields, split_of  # noqa: E402

SCRIPT_FILE = {
    "basics": "basics.py", "matmul": "matmul.py", "tma": "tma.py", "attention": "attention.py",
    "gluon_kernels": "gluon_kernels.py", "gluon_ws": "gluon_ws.py",
    "inductor_default": "inductor_cases.py", "inductor_maxautotune": "inductor_cases.py",
}


def one(name, kernels, versions):
    path = os.path.join(PTX_DIR, name)
    data = open(path, "rb").read()
    version, target = ptx_header(data.decode("utf-8", errors="replace"))
    arch = target.split(",")[0].strip() if target else "sm_90a"
    rel = os.path.relpath(path, REPO)
    cmd = [PTXAS, "-v", "--gpu-name", arch, "-o", "/dev/null", path]
    p = subprocess.run(cmd, capture_output=True, text=True)
    log = p.stdout + p.stderr
    k = kernels.get(name, {})
    script = k.get("script", name.split(".")[0])
    inductor = script.startswith("inductor")
    gen = "triton %s" % versions.get("triton", "?")
    if inductor:
        gen = "torch %s (TorchInductor, torch.compile mode=%s) + triton %s" % (
            versions.get("torch", "?"), "max-autotune-no-cudagraphs" if script.endswith("maxautotune") else "default",
            versions.get("triton", "?"))
    elif script.startswith("gluon"):
        gen = "triton %s (Gluon)" % versions.get("triton", "?")
    entry = {
        "source": "corpus/triton/gen/" + SCRIPT_FILE.get(script, "?"),
        "test": "%s.%s" % (script, k.get("test", "?")),
        "generator": gen,
        "arch": arch,
        "ptxas_cmd": " ".join(["ptxas", "-v", "--gpu-name", arch, "-o", "/dev/null", rel]),
    }
    entry.update(ptxas_fields(data, log, p.returncode))
    entry.update({
        "triton_metadata": k.get("triton_metadata", {}),
        "variants_in_test": k.get("variants_in_test", 1),
        "split": split_of(name),
    })
    return name, entry


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    kernels = json.load(open(os.path.join(ROOT, "kernels.json")))
    versions = json.load(open(os.path.join(ROOT, "versions.json")))
    names = sorted(f for f in os.listdir(PTX_DIR) if f.endswith(".ptx"))
    with ThreadPoolExecutor(a.jobs) as ex:
        files = dict(ex.map(lambda n: one(n, kernels, versions), names))
    ptxas_version = subprocess.run([PTXAS, "--version"], capture_output=True, text=True).stdout.strip().splitlines()
    manifest = {
        "generator": "triton %s, torch %s (on %s)" % (versions.get("triton"), versions.get("torch"), versions.get("gpu")),
        "ptxas": "ptxas " + " ".join(ptxas_version[-2:]),
        "script": "corpus/triton/gen/generate.sh",
        "split_rule": "holdout iff int(sha256(file name)[:8], 16) % 10 < 3",
        "files": files,
    }
    with open(os.path.join(ROOT, "ptx", "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
        f.write("\n")
    bad = [n for n, e in files.items() if not e["ptxas_accepted"]]
    total = sum(e["size_bytes"] for e in files.values())
    hold = sum(1 for e in files.values() if e["split"] == "holdout")
    print("%d PTX files, %d bytes, %d accepted by ptxas, %d holdout / %d tune"
          % (len(files), total, len(files) - len(bad), hold, len(files) - hold))
    if bad:
        print("rejected: " + ", ".join(bad))
        raise SystemExit(1)


if __name__ == "__main__":
    main()
