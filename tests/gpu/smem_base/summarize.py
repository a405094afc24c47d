#!/usr/bin/env python3
"""Summarizes run.sh's raw output as the markdown tables of tests/gpu/RESULTS.md.

    python3 tests/gpu/smem_base/summarize.py tests/gpu/smem_base/results-h100.txt
"""
import os
import re
import sys
from collections import OrderedDict

HERE = os.path.dirname(os.path.abspath(__file__))
LOW24 = (1 << 24) - 1


def kv(line):
    return dict(re.findall(r"(\w+)=(\S+)", line))


def h(x):
    return int(x, 16)


def main(path):
    layouts = OrderedDict()
    for line in open(os.path.join(HERE, "ptx", "layouts.txt")):
        if line.startswith("#") or not line.strip():
            continue
        name, static, align, arrays = line.split()
        layouts[name] = (int(static), int(align), arrays)
    ptxas = {}
    cases = OrderedDict()
    last = None
    for line in open(path):
        if line.startswith("PTXAS "):
            _, name, rest = line.rstrip("\n").split(" ", 2)
            m = re.search(r"(\d+) bytes smem", rest)
            ptxas[name] = int(m.group(1)) if m else 0
        elif line.startswith("CASE "):
            d = kv(line)
            d["recs"] = []
            cases[(d["file"], d["loader"], int(d.get("dyn", -1)), int(d.get("cluster", 0)))] = d
            last = d
        elif line.startswith("  rec") and last is not None:
            last["recs"].append(kv(line))
    problems = []
    print("| static arrays (name:align:bytes) | static bytes | extern .align | ptxas -v smem (= CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES) | "
          "dynamic array, plain launch (CTA 0, CTA 1) | dynamic array, cluster 2x1x1 (rank 0, rank 1) | "
          "mod 16 / 128 / 1024 | sa (plain; cluster rank 1) | sb (plain; cluster rank 1) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, (static, align, arrays) in layouts.items():
        cols = {}
        for cluster in (1, 2):
            rows = [v for k, v in cases.items() if k[0] == name and k[1] == "cubin" and k[3] == cluster]
            ok = [v for v in rows if v.get("result") == "ok"]
            for v in rows:
                if v.get("result") != "ok":
                    problems.append("%s dyn=%s cluster=%d: %s" % (name, v.get("dyn"), cluster, v.get("result")))
            per_cta = {}
            for v in ok:
                for r in v["recs"]:
                    if r["static_check"] != "0x1" or r["dyn_check"] not in ("0x1", "0x2"):
                        problems.append("%s dyn=%s cluster=%d: read-back check failed" % (name, v["dyn"], cluster))
                    if h(r["dyn_shared"]) != h(r["dyn_to_shared"]) or h(r["dyn_shared"]) != h(r["dyn_generic_lo"]) \
                            or h(r["dyn_shared"]) != h(r["smem_u64_lo"]):
                        problems.append("%s: shared/generic forms differ %s" % (name, r))
                    if r["sa_shared"] != "0xffffffff" and h(r["sa_shared"]) != h(r["sa_generic_lo"]):
                        problems.append("%s: sa shared/generic differ %s" % (name, r))
                    if h(r["cluster_nctarank"]) != cluster or h(r["cluster_ctarank"]) != (h(r["ctaid_x"]) if cluster == 2 else 0):
                        problems.append("%s: unexpected cluster registers %s" % (name, r))
                    per_cta.setdefault(h(r["ctaid_x"]), set()).add((r["dyn_shared"], r["sa_shared"], r["sb_shared"]))
            attr = set(v["static_attr"] for v in ok)
            if attr != {str(ptxas.get(name))}:
                problems.append("%s: ptxas smem %s != static attribute %s" % (name, ptxas.get(name), attr))
            if sorted(per_cta) != [0, 1] or any(len(x) != 1 for x in per_cta.values()):
                problems.append("%s cluster=%d: addresses vary with the dynamic size or the thread: %s" % (name, cluster, per_cta))
                continue
            cols[cluster] = (sorted(per_cta[0])[0], sorted(per_cta[1])[0])
        if set(cols) != {1, 2}:
            continue
        (p0, p1), (c0, c1) = cols[1], cols[2]
        d0 = h(p0[0])
        if not (p0 == p1 == c0) or any(h(x) != (h(y) | (1 << 24)) for x, y in zip(c1, c0) if y != "0xffffffff"):
            problems.append("%s: cluster rank 1 is not rank 0 + 0x1000000: %s" % (name, cols))
        fmt = lambda x: "–" if x == "0xffffffff" else x
        print("| %s | %d | %d | %d | %s, %s | %s, %s | %d / %d / %d | %s; %s | %s; %s |" % (
            arrays, static, align, ptxas.get(name, -1), p0[0], p1[0], c0[0], c1[0], d0 % 16, d0 % 128, d0 % 1024,
            fmt(p0[1]), fmt(c1[1]), fmt(p0[2]), fmt(c1[2])))
    maxes = sorted(set(k[2] for k in cases if k[2] not in (0, 1024, 65536)))
    print()
    print("Every row was launched with 0, 1024 and 65536 bytes of dynamic shared memory and with the "
          "opt-in limit minus the static size (%s bytes); in every launch the addresses above were the same "
          "for both threads and for all four sizes." % ", ".join(str(m) for m in maxes)
          if not any("vary" in p for p in problems) else "ADDRESSES VARY: see problems")
    # sizes: check the formulas on every plain cubin launch, print the 1 KiB rows
    nform = 0
    bad = []
    print()
    print("| static arrays | extern .align | ptxas smem | dyn | %total_smem_size | %aggr_smem_size | %dynamic_smem_size | %reserved_smem_offset_begin, _end, _cap |")
    print("|---|---|---|---|---|---|---|---|")
    for k, v in cases.items():
        if v.get("result") != "ok" or k[1] != "cubin":
            continue
        static, align, arrays = layouts[k[0]]
        sm = ptxas.get(k[0])
        dyn = k[2]
        nform += 1
        if int(v["total"]) != (sm + dyn + 127) // 128 * 128 or int(v["aggr"]) != sm + dyn + 1024 \
                or int(v["dynsz"]) != dyn or v["reserved"] != "[0x0,0x120)" or v["cap"] != "0x400":
            bad.append(k)
        if dyn == 1024 and k[3] == 1:
            print("| %s | %d | %d | %d | %s | %s | %s | %s, %s |" % (arrays, align, sm, dyn, v["total"], v["aggr"],
                                                                   v["dynsz"], v["reserved"], v["cap"]))
    print()
    print("In all %d cubin launches (plain and cluster): %%total_smem_size = round_up(ptxas smem + dyn, 128), "
          "%%aggr_smem_size = ptxas smem + dyn + 1024, %%dynamic_smem_size = dyn, reserved [0x0,0x120) cap 0x400: %s"
          % (nform, "holds" if not bad else "FAILS for %s" % bad))
    # JIT vs cubin
    diff = []
    njit = 0
    for k, v in cases.items():
        if k[1] != "jit":
            continue
        njit += 1
        c = cases.get((k[0], "cubin", k[2], k[3]))
        fields = ("result", "dyn_shared", "sa", "sb", "total", "aggr", "reserved", "cap", "static_attr")
        if c is None or any(v.get(f) != c.get(f) for f in fields) or \
                [r.get("dyn_shared") for r in v["recs"]] != [r.get("dyn_shared") for r in c["recs"]]:
            diff.append(k)
    print()
    print("launches: %d cubin, %d driver JIT of the .ptx; JIT launches differing from the cubin launch: %s"
          % (sum(1 for k in cases if k[1] == "cubin"), njit, diff or "none"))
    print("problems: %s" % ("none" if not problems else ""))
    for p in problems:
        print("  -", p)


if __name__ == "__main__":
    main(sys.argv[1])
