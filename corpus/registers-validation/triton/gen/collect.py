#!/usr/bin/env python3
"""Builds corpus/registers-validation/triton/{ptx/,cases.json,results.json,versions.json} from
what run_device.sh brought back (its val.tar.gz unpacked into DIR, and versions.json).

    python3 collect.py DIR VERSIONS_JSON

Keeps the PTX of passing cases only, drops byte-identical files (same sha256: the first by file
name is kept, the others are listed under `duplicates` of the kept one), and records per file
the case, its config, the target, whether it was launched (sm_90a) or only compiled (sm_80), and
Triton's metadata.
"""
import glob
import hashlib
import json
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)  # corpus/registers-validation/triton
SCRIPT_FILE = {"gemm": "gemm.py", "attention": "attention.py", "norms": "norms.py", "misc": "misc.py"}


def main(src, versions):
    recs = []
    for p in sorted(glob.glob(os.path.join(src, "*", "results.jsonl"))):
        recs += [json.loads(l) for l in open(p)]
    recs.sort(key=lambda r: (r["source"], r["case"]))
    pdir = os.path.join(ROOT, "ptx")
    if os.path.isdir(pdir):
        shutil.rmtree(pdir)
    os.makedirs(pdir)
    by_sha, files, results = {}, {}, []
    for r in recs:
        shard_dirs = glob.glob(os.path.join(src, "*", "ptx"))
        kept = []
        for f in sorted(r["files"], key=lambda f: f.get("file", "")):
            if "error" in f:
                continue
            if r["status"] != "PASS":
                continue
            path = next(os.path.join(d, f["file"]) for d in shard_dirs if os.path.exists(os.path.join(d, f["file"])))
            data = open(path, "rb").read()
            sha = hashlib.sha256(data).hexdigest()
            assert sha == f["sha256"]
            if sha in by_sha:
                files[by_sha[sha]]["duplicates"].append("%s.%s (%s)" % (r["source"], r["case"], f["file"]))
                continue
            by_sha[sha] = f["file"]
            shutil.copy(path, os.path.join(pdir, f["file"]))
            files[f["file"]] = {
                "source": "corpus/registers-validation/triton/gen/" + SCRIPT_FILE[r["source"]],
                "case": "%s.%s" % (r["source"], r["case"]),
                "config": r["config"],
                "entry": f["entry"],
                "target": f["target"],
                "launched_on_device": f["launched"],
                "correct_on_device": r["status"] == "PASS" if f["launched"] else None,
                "correctness_note": r["detail"] if f["launched"] else
                    "compiled for sm_80 only (not launched); the same kernel, arguments and options ran "
                    "correctly on the H200 as sm_90a: " + r["detail"],
                "constexprs_and_options": f["constexprs_and_options"],
                "triton_metadata": f["triton_metadata"],
                "triton_runtime_n_regs": f["triton_n_regs"],
                "triton_runtime_n_spills": f["triton_n_spills"],
                "duplicates": [],
            }
            kept.append(f["file"])
        results.append({"case": "%s.%s" % (r["source"], r["case"]), "status": r["status"], "detail": r["detail"],
                        "seconds": r["seconds"], "config": r["config"], "files": kept,
                        "compile_errors": [f for f in r["files"] if "error" in f]})
    with open(os.path.join(ROOT, "cases.json"), "w") as f:
        json.dump(dict(sorted(files.items())), f, indent=1)
        f.write("\n")
    with open(os.path.join(ROOT, "results.json"), "w") as f:
        json.dump(results, f, indent=1)
        f.write("\n")
    shutil.copy(versions, os.path.join(ROOT, "versions.json"))
    npass = sum(r["status"] == "PASS" for r in results)
    print("%d cases, %d passed; %d PTX files kept (%d bytes)" % (
        len(results), npass, len(files), sum(os.path.getsize(os.path.join(pdir, n)) for n in files)))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
