#!/usr/bin/env python3
"""Builds corpus/triton/ptx/ from what run_gpu.sh produced (runs anywhere, no GPU needed).

    python3 corpus/triton/gen/collect.py RUN_DIR_OR_TARBALL [...]

Each argument is a triton_corpus.tar.gz from run_gpu.sh (or the folder it was unpacked into);
when several are given, a later one's record of a test replaces an earlier one's. Writes:
  corpus/triton/ptx/<script>.<test>.<entry>[.N].ptx   PTX of the tests that PASSED, unmodified
  corpus/triton/kernels.json   per kept file: script, test, entry, Triton metadata (num_warps,
                               num_stages, shared, ...), number of variants of that entry in the test
  corpus/triton/results.json   every test: status, detail, seconds, files kept / dropped (and why)
Rules: identical files (sha256) are kept once; in the max-autotune test, where Inductor compiles
hundreds of GEMM autotuning candidates, at most 8 `triton_mm` candidates with distinct
(num_warps, num_stages, shared) are kept, and at most 2 variants (smallest, largest) of any
other kernel name; tests that did not pass contribute nothing.
"""
import glob
import hashlib
import json
import os
import re
import sys
import tarfile
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)                     # corpus/triton
PTX_DIR = os.path.join(ROOT, "ptx")
SCRIPTS = {  # run_gpu.sh name -> generator file
    "basics": "basics.py", "matmul": "matmul.py", "tma": "tma.py", "attention": "attention.py",
    "gluon_kernels": "gluon_kernels.py", "gluon_ws": "gluon_ws.py",
    "inductor_default": "inductor_cases.py", "inductor_maxautotune": "inductor_cases.py",
}
META_KEYS = ("num_warps", "num_stages", "num_ctas", "shared", "cluster_dims", "maxnreg", "ptx_version")


def registered_cases(script):
    src = open(os.path.join(HERE, SCRIPTS[script])).read()
    names = re.findall(r'@case\("([^"]+)"\)', src)
    if script.startswith("inductor"):
        default, _, autotune = src.partition("\nelse:\n")
        names = re.findall(r'@case\("([^"]+)"\)', default if script == "inductor_default" else autotune)
    return names


def entry_name(text):
    m = re.search(r"\.entry\s+([A-Za-z_$][\w$]*)", text)
    return m.group(1) if m else "unknown"


def write_results_md(results, kernels):
    """corpus/triton/RESULTS.md: the correctness check of every test, one row each."""
    lines = ["# Triton corpus: correctness checks on the GPU", "",
             "Written by `gen/collect.py` from the generators' `results.jsonl` (see README.md). Each test ran its",
             "kernels on the GPU and compared the output with a PyTorch reference (`torch.allclose` with the",
             "tolerances shown, or exact equality). Only tests that passed contribute PTX files.", "",
             "| test | status | PTX files kept | check |", "|---|---|---|---|"]
    for r in results:
        detail = " ".join(str(r["detail"]).split())
        if len(detail) > 300:
            detail = detail[:300] + " ..."
        lines.append("| %s.%s | %s | %d | %s |" % (r["script"], r["test"], r["status"], len(r["kept"]),
                                                  detail.replace("|", "\\|")))
    npass = sum(1 for r in results if r["status"] == "PASS")
    lines += ["", "%d tests, %d passed; %d PTX files kept." % (len(results), npass, len(kernels)), ""]
    with open(os.path.join(ROOT, "RESULTS.md"), "w") as fh:
        fh.write("\n".join(lines))


def main(args):
    runs = []
    for a in args:
        if os.path.isdir(a):
            runs.append(a)
        else:
            d = tempfile.mkdtemp(prefix="triton_collect_")
            with tarfile.open(a) as t:
                t.extractall(d)
            runs.append(d)
    records = {}      # (script, test) -> (record, run dir)
    timed_out = set()
    for run in runs:
        for res in sorted(glob.glob(os.path.join(run, "*", "results.jsonl"))):
            script = os.path.basename(os.path.dirname(res))
            for line in open(res):
                r = json.loads(line)
                records[(script, r["test"])] = (r, run)
            log = os.path.join(os.path.dirname(res), "log.txt")
            if os.path.exists(log) and open(log).read().rstrip().endswith("exit 124"):
                timed_out.add(script)
    for script in timed_out:
        for name in registered_cases(script):
            if (script, name) not in records:
                records[(script, name)] = ({"source": script, "test": name, "status": "TIMEOUT",
                                            "detail": "the generator was stopped by its time limit while this "
                                                      "test ran or before it started", "seconds": None,
                                            "ptx": []}, None)
    os.makedirs(PTX_DIR, exist_ok=True)
    for f in glob.glob(os.path.join(PTX_DIR, "*.ptx")):
        os.remove(f)
    seen = {}
    kernels = {}
    results = []
    order = list(SCRIPTS)
    for (script, test) in sorted(records, key=lambda k: (order.index(k[0]) if k[0] in order else 99, k[1])):
        r, run = records[(script, test)]
        out = {"script": script, "test": test, "status": r["status"], "detail": r["detail"],
               "seconds": r["seconds"], "kept": [], "dropped": []}
        results.append(out)
        if r["status"] != "PASS":
            for p in r["ptx"]:
                out["dropped"].append({"file": p, "why": "test did not pass"})
            continue
        files = []
        for p in r["ptx"]:
            path = os.path.join(run, script, r["source"], test, p)
            text = open(path).read()
            meta_path = path[:-4] + ".json"
            meta = json.load(open(meta_path)) if os.path.exists(meta_path) else {}
            files.append({"orig": p, "text": text, "entry": entry_name(text),
                          "sha": hashlib.sha256(text.encode()).hexdigest(),
                          "meta": {k: meta.get(k) for k in META_KEYS if k in meta}})
        by_entry = {}
        for f in files:
            by_entry.setdefault(f["entry"], []).append(f)
        keep = set()
        for entry, fs in by_entry.items():
            if script != "inductor_maxautotune" or len(fs) <= 2:
                keep.update(id(f) for f in fs)
            elif entry == "triton_mm":
                keys = set()
                for f in fs:
                    k = (f["meta"].get("num_warps"), f["meta"].get("num_stages"), f["meta"].get("shared"))
                    if k not in keys and len(keys) < 8:
                        keys.add(k)
                        keep.add(id(f))
            else:
                s = sorted(fs, key=lambda f: len(f["text"]))
                keep.update((id(s[0]), id(s[-1])))
        counters = {}
        for f in files:
            if id(f) not in keep:
                out["dropped"].append({"file": f["orig"], "why": "autotuning variant thinned out (size)"})
                continue
            if f["sha"] in seen:
                out["dropped"].append({"file": f["orig"], "why": "identical to " + seen[f["sha"]]})
                continue
            n = counters.get(f["entry"], 0) + 1
            counters[f["entry"]] = n
            name = "%s.%s.%s%s.ptx" % (script, test, f["entry"], "" if n == 1 else ".%d" % n)
            with open(os.path.join(PTX_DIR, name), "w") as fh:
                fh.write(f["text"])
            seen[f["sha"]] = name
            out["kept"].append(name)
            kernels[name] = {"script": script, "test": test, "entry": f["entry"], "triton_cache_file": f["orig"][3:],
                             "variants_in_test": len(by_entry[f["entry"]]), "triton_metadata": f["meta"]}
    with open(os.path.join(ROOT, "kernels.json"), "w") as fh:
        json.dump(kernels, fh, indent=1, sort_keys=True)
        fh.write("\n")
    with open(os.path.join(ROOT, "results.json"), "w") as fh:
        json.dump(results, fh, indent=1)
        fh.write("\n")
    write_results_md(results, kernels)
    total = sum(os.path.getsize(os.path.join(PTX_DIR, k)) for k in kernels)
    npass = sum(1 for r in results if r["status"] == "PASS")
    print("tests: %d (%d passed); kept %d PTX files, %d bytes; distinct entry names %d"
          % (len(results), npass, len(kernels), total, len(set(k["entry"] for k in kernels.values()))))
    for r in results:
        print("%-8s %s.%s kept=%d dropped=%d" % (r["status"], r["script"], r["test"], len(r["kept"]), len(r["dropped"])))


if __name__ == "__main__":
    main(sys.argv[1:])
