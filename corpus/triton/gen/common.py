"""Shared harness for the Triton corpus generators (corpus/triton/gen/*.py).

Every generator script registers test functions with @case(name). Each test builds inputs,
runs one or more Triton kernels, compares the result with a PyTorch reference and returns
(ok, detail). run_all() runs the tests of the script in order and, for each, copies the
*.ptx files that appeared in TRITON_CACHE_DIR while it ran to $CORPUS_OUT/<source>/<test>/
and appends one JSON line to $CORPUS_OUT/results.jsonl:
  {"source", "test", "status": PASS|FAIL|ERROR|SKIP, "detail", "seconds", "ptx": [...]}
"""
import glob
import json
import os
import shutil
import time
import traceback

import torch

OUT = os.environ.get("CORPUS_OUT", "/tmp/corpus_out")
CACHE_DIRS = [d for d in (os.environ.get("TRITON_CACHE_DIR"), os.environ.get("TORCHINDUCTOR_CACHE_DIR")) if d]
DEV = "cuda"
_CASES = []


def case(name):
    def deco(fn):
        _CASES.append((name, fn))
        return fn
    return deco


def ptx_files():
    s = set()
    for d in CACHE_DIRS:
        s.update(glob.glob(os.path.join(d, "**", "*.ptx"), recursive=True))
    return s


def close(out, ref, atol, rtol=0.0, what=""):
    out = out.float()
    ref = ref.float()
    if out.shape != ref.shape:
        return False, "%s shape %s != %s" % (what, tuple(out.shape), tuple(ref.shape))
    ok = torch.allclose(out, ref, atol=atol, rtol=rtol)
    err = (out - ref).abs().max().item() if out.numel() else 0.0
    return ok, "%s max_abs_err=%.3g (atol=%g rtol=%g)" % (what, err, atol, rtol)


def all_close(pairs):
    """pairs: list of (out, ref, atol, rtol, what). Returns (ok, detail)."""
    oks, details = [], []
    for out, ref, atol, rtol, what in pairs:
        ok, d = close(out, ref, atol, rtol, what)
        oks.append(ok)
        details.append(d)
    return all(oks), "; ".join(details)


def run_all(source, only=None):
    os.makedirs(OUT, exist_ok=True)
    res_path = os.path.join(OUT, "results.jsonl")
    for name, fn in _CASES:
        if only and name not in only:
            continue
        before = ptx_files()
        t0 = time.time()
        status, detail = "ERROR", ""
        try:
            r = fn()
            torch.cuda.synchronize()
            if r is None:
                status, detail = "SKIP", "not run"
            else:
                ok, detail = r
                status = "PASS" if ok else "FAIL"
        except Exception as e:  # noqa: BLE001 - every failure is recorded, the rest go on
            status = "ERROR"
            detail = ("%s: %s" % (type(e).__name__, e))[:3000]
            traceback.print_exc()
        dt = time.time() - t0
        new = sorted(ptx_files() - before)
        dest = os.path.join(OUT, source, name)
        copied = []
        if new:
            os.makedirs(dest, exist_ok=True)
            for i, p in enumerate(new):
                b = "%02d_%s" % (i, os.path.basename(p))
                shutil.copy(p, os.path.join(dest, b))
                copied.append(b)
                meta = p[:-4] + ".json"   # Triton's metadata (num_warps, shared, ...) beside it
                if os.path.exists(meta):
                    shutil.copy(meta, os.path.join(dest, b[:-4] + ".json"))
        rec = {"source": source, "test": name, "status": status, "detail": detail,
               "seconds": round(dt, 2), "ptx": copied}
        with open(res_path, "a") as f:
            f.write(json.dumps(rec) + "\n")
        print("CHECK %s.%s %s (%.1fs, %d ptx) %s" % (source, name, status, dt, len(copied), detail[:300]),
              flush=True)
