#!/usr/bin/env python3
"""Writes corpus/registers-validation/triton/manifest.json: for every ptx/*.ptx, how it was made
(from cases.json) and what `ptxas -v --gpu-name <its .target> -o /dev/null FILE` reported
(ptxas of CUDA_HOME, default /usr/local/cuda): per function registers, spill stores/loads,
stack frame, shared bytes (fields of corpus/ptx_manifest.py). Runs locally.

    python3 make_manifest.py [--jobs N]

This set is for VALIDATION only: no constant of the register model is ever tuned on it.
"""
import argparse
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)                                   # corpus/registers-validation/triton
REPO = os.path.dirname(os.path.dirname(os.path.dirname(ROOT)))
CUDA = os.environ.get("CUDA_HOME", "/usr/local/cuda")
PTXAS = os.path.join(CUDA, "bin", "ptxas")
sys.path.insert(0, os.path.join(REPO, "corpus"))
from ptx_manifest import ptx_header, ptxas_fields  # noqa: E402


def one(name, cases, versions, ptxas_version):
    path = os.path.join(ROOT, "ptx", name)
    data = open(path, "rb").read()
    _, target = ptx_header(data.decode("utf-8", errors="replace"))
    arch = target.split(",")[0].strip()
    p = subprocess.run([PTXAS, "-v", "--gpu-name", arch, "-o", "/dev/null", path], capture_output=True, text=True)
    c = cases[name]
    entry = {
        "source": c["source"],
        "case": c["case"],
        "config": c["config"],
        "arch": arch,
        "triton_version": versions["triton"],
        "ptxas_version": ptxas_version,
        "ptxas_cmd": "ptxas -v --gpu-name %s -o /dev/null %s" % (arch, os.path.relpath(path, REPO)),
    }
    entry.update(ptxas_fields(data, p.stdout + p.stderr, p.returncode))
    for k in ("launched_on_device", "correct_on_device", "correctness_note", "constexprs_and_options",
              "triton_metadata", "triton_runtime_n_regs", "triton_runtime_n_spills", "duplicates"):
        entry[k] = c[k]
    return name, entry


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    cases = json.load(open(os.path.join(ROOT, "cases.json")))
    versions = json.load(open(os.path.join(ROOT, "versions.json")))
    names = sorted(n for n in os.listdir(os.path.join(ROOT, "ptx")) if n.endswith(".ptx"))
    ver = subprocess.run([PTXAS, "--version"], capture_output=True, text=True).stdout.strip().splitlines()
    with ThreadPoolExecutor(a.jobs) as ex:
        files = dict(ex.map(lambda n: one(n, cases, versions, " ".join(ver[-2:])), names))
    manifest = {
        "purpose": "validation set for the register estimate (issue 24): no constant is tuned on it",
        "generator": "triton %s, torch %s (on %s, driver %s)" % (versions["triton"], versions["torch"],
                                                               versions["gpu"], versions.get("driver", "?")),
        "triton_version": versions["triton"],
        "triton_runtime_ptxas": versions.get("triton_ptxas"),
        "ptxas": "ptxas " + " ".join(ver[-2:]),
        "script": "corpus/registers-validation/triton/gen/generate.sh",
        "files": files,
    }
    with open(os.path.join(ROOT, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
        f.write("\n")
    bad = [n for n, e in files.items() if not e["ptxas_accepted"]]
    regs = [fn["registers"] for e in files.values() for fn in e["functions"].values() if fn["kind"] == "entry"]
    print("%d PTX files, %d bytes, %d accepted by ptxas; %d entry functions, %d with >= 64 registers"
          % (len(files), sum(e["size_bytes"] for e in files.values()), len(files) - len(bad), len(regs),
             sum(r >= 64 for r in regs)))
    if bad:
        print("rejected: " + ", ".join(bad))
        raise SystemExit(1)


if __name__ == "__main__":
    main()
