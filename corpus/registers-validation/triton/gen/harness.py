"""Harness for the register-estimate validation kernels (corpus/registers-validation/triton/gen).

Each generator script registers cases with add(name, fn, config, sm80=...). A case builds its
inputs, launches its Triton kernel(s) through launch() on the GPU (sm_90a on the H100/H200),
compares the result with a PyTorch reference and returns (ok, detail). For every kernel a case
launched, the PTX Triton produced is taken from the compiled kernel (kernel.asm["ptx"]) and
written to $VAL_OUT/ptx/<script>.<case>.<entry>.<target>.ptx; with sm80=True the same kernel,
with the same arguments, specialisation and options, is also compiled (not launched) for
GPUTarget("cuda", 80, 32), which gives `.target sm_80` PTX. One JSON line per case goes to
$VAL_OUT/results.jsonl. SHARD/NSHARD select every NSHARD-th case, so one script can run in
several processes at once.
"""
import collections
import hashlib
import json
import os
import re
import time
import traceback

import torch
import triton
from triton.backends.compiler import GPUTarget

OUT = os.environ.get("VAL_OUT", "/tmp/val_out")
DEV = "cuda"
CASES = []
_CUR = None


def add(name, fn, config, sm80=False):
    CASES.append((name, fn, config, sm80))


def launch(kernel, grid, *args, **kw):
    k = kernel[grid](*args, **kw)
    if _CUR is not None:
        _CUR.append((k, kernel, args, kw))
    return k


def close(out, ref, atol, rtol=0.0, what="out"):
    out = out.float()
    ref = ref.float()
    if out.shape != ref.shape:
        return False, "%s shape %s != %s" % (what, tuple(out.shape), tuple(ref.shape))
    ok = bool(torch.allclose(out, ref, atol=atol, rtol=rtol))
    err = (out - ref).abs().max().item() if out.numel() else 0.0
    return ok, "%s max_abs_err=%.3g (atol=%g rtol=%g)" % (what, err, atol, rtol)


def all_close(pairs):
    oks, ds = [], []
    for p in pairs:
        ok, d = close(*p)
        oks.append(ok)
        ds.append(d)
    return all(oks), "; ".join(ds)


def compile_for(jitfn, args, kw, capability):
    """Compiles (does not launch) jitfn for another CUDA target with the launch's arguments."""
    from triton.runtime import driver
    drv = driver.active
    orig = drv.get_current_target
    saved = jitfn.device_caches
    drv.get_current_target = lambda: GPUTarget("cuda", capability, 32)
    try:
        jitfn.device_caches = collections.defaultdict(jitfn.create_binder)
        return jitfn.warmup(*args, grid=(1,), **kw)
    finally:
        drv.get_current_target = orig
        jitfn.device_caches = saved


def _meta(k):
    m = {}
    for f in ("name", "num_warps", "num_stages", "num_ctas", "shared", "maxnreg", "arch"):
        v = getattr(k.metadata, f, None)
        if v is not None:
            m[f] = v if isinstance(v, (int, str, float)) else str(v)
    return m


def _config_of(kw):
    return {a: (b if isinstance(b, (int, float, str, bool)) else str(b)) for a, b in kw.items()}


def _entry(ptx):
    m = re.search(r"\.entry\s+(\w+)", ptx)
    return m.group(1) if m else "unknown"


def _target(ptx):
    m = re.search(r"^\.target\s+(\w+)", ptx, re.M)
    return m.group(1) if m else "unknown"


def run_all(source):
    global _CUR
    shard = int(os.environ.get("SHARD", "0"))
    nshard = int(os.environ.get("NSHARD", "1"))
    pdir = os.path.join(OUT, "ptx")
    os.makedirs(pdir, exist_ok=True)
    only = set(filter(None, os.environ.get("ONLY", "").split(",")))
    for i, (name, fn, config, sm80) in enumerate(CASES):
        if i % nshard != shard or (only and name not in only):
            continue
        _CUR = []
        t0 = time.time()
        status, detail = "ERROR", ""
        try:
            ok, detail = fn()
            torch.cuda.synchronize()
            status = "PASS" if ok else "FAIL"
        except Exception as e:  # noqa: BLE001 - recorded, the rest go on
            detail = ("%s: %s" % (type(e).__name__, e))[:3000]
            traceback.print_exc()
        launched, _CUR = _CUR, None
        files, seen = [], set()
        for k, jitfn, args, kw in launched:
            variants = [("sm_90", k, None)]
            if sm80:
                try:
                    variants.append(("sm_80", compile_for(jitfn, args, kw, 80), None))
                except Exception as e:  # noqa: BLE001
                    traceback.print_exc()
                    variants.append(("sm_80", None, ("%s: %s" % (type(e).__name__, e))[:2000]))
            for tag, kk, err in variants:
                if kk is None:
                    files.append({"target": tag, "error": err})
                    continue
                ptx = kk.asm["ptx"]
                h = hashlib.sha256(ptx.encode()).hexdigest()
                if h in seen:
                    continue
                seen.add(h)
                entry, target = _entry(ptx), _target(ptx)
                fname = "%s.%s.%s.%s.ptx" % (source, name, entry, target)
                n = 1
                while os.path.exists(os.path.join(pdir, fname)):
                    n += 1
                    fname = "%s.%s.%s.%d.%s.ptx" % (source, name, entry, n, target)
                with open(os.path.join(pdir, fname), "w") as f:
                    f.write(ptx)
                files.append({"file": fname, "entry": entry, "target": target, "sha256": h,
                              "launched": tag == "sm_90",
                              "constexprs_and_options": _config_of(kw),
                              "triton_metadata": _meta(kk),
                              "triton_n_regs": getattr(kk, "n_regs", None) if tag == "sm_90" else None,
                              "triton_n_spills": getattr(kk, "n_spills", None) if tag == "sm_90" else None})
        dt = time.time() - t0
        rec = {"source": source, "case": name, "config": config, "status": status, "detail": detail,
               "seconds": round(dt, 2), "files": files}
        with open(os.path.join(OUT, "results.jsonl"), "a") as f:
            f.write(json.dumps(rec) + "\n")
        print("CHECK %s.%s %s (%.1fs, %d ptx) %s" % (source, name, status, dt, len(files), detail[:300]),
              flush=True)
