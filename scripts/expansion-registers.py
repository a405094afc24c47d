#!/usr/bin/env python3
"""Measures, with ptxas, the temporaries that instructions ptxas expands into sequences or
slow-path subroutines need beside their operands: the numbers behind expansionScratchUnits in
analyzers/registers/RegisterPressure.cpp.

For every instruction form below it writes two kernels that differ only in that instruction:
one executes it, the other replaces it with moves of the same widths. Both keep eight other
values live across it and read their operands from memory, so nothing folds. The difference
of the two `ptxas -v` register counts, less the same difference for a plain add (the
harness's own offset), is the form's extra registers. Run for sm_80 and sm_90
(the table takes the larger; cvt.*x2 needs sm_80); differences of one register are the allocator's noise and are
left out of the table.

Usage: scripts/expansion-registers.py [--ptxas PATH] [--arch sm_90 ...]
"""
import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

# (name, instruction with {d} destination and {a} {b} source slots, {slot: type})
FORMS = [
    ("div.rn.f32", "div.rn.f32 {d}, {a}, {b};", dict(d="f32", a="f32", b="f32")),
    ("div.full.f32", "div.full.f32 {d}, {a}, {b};", dict(d="f32", a="f32", b="f32")),
    ("rcp.rn.f32", "rcp.rn.f32 {d}, {a};", dict(d="f32", a="f32")),
    ("sqrt.rn.f32", "sqrt.rn.f32 {d}, {a};", dict(d="f32", a="f32")),
    ("div.rn.f64", "div.rn.f64 {d}, {a}, {b};", dict(d="f64", a="f64", b="f64")),
    ("rcp.rn.f64", "rcp.rn.f64 {d}, {a};", dict(d="f64", a="f64")),
    ("sqrt.rn.f64", "sqrt.rn.f64 {d}, {a};", dict(d="f64", a="f64")),
    ("rsqrt.approx.f64", "rsqrt.approx.f64 {d}, {a};", dict(d="f64", a="f64")),
    ("div.s32", "div.s32 {d}, {a}, {b};", dict(d="s32", a="s32", b="s32")),
    ("div.u32", "div.u32 {d}, {a}, {b};", dict(d="u32", a="u32", b="u32")),
    ("rem.s32", "rem.s32 {d}, {a}, {b};", dict(d="s32", a="s32", b="s32")),
    ("rem.u32", "rem.u32 {d}, {a}, {b};", dict(d="u32", a="u32", b="u32")),
    ("div.s64", "div.s64 {d}, {a}, {b};", dict(d="s64", a="s64", b="s64")),
    ("div.u64", "div.u64 {d}, {a}, {b};", dict(d="u64", a="u64", b="u64")),
    ("rem.s64", "rem.s64 {d}, {a}, {b};", dict(d="s64", a="s64", b="s64")),
    ("rem.u64", "rem.u64 {d}, {a}, {b};", dict(d="u64", a="u64", b="u64")),
    ("mul.hi.u64", "mul.hi.u64 {d}, {a}, {b};", dict(d="u64", a="u64", b="u64")),
    ("mul.hi.s64", "mul.hi.s64 {d}, {a}, {b};", dict(d="s64", a="s64", b="s64")),
    ("mul.lo.u64", "mul.lo.u64 {d}, {a}, {b};", dict(d="u64", a="u64", b="u64")),
    ("cvt.rn.f16x2.f32", "cvt.rn.f16x2.f32 {d}, {a}, {b};", dict(d="b32", a="f32", b="f32")),
    ("cvt.rn.bf16x2.f32", "cvt.rn.bf16x2.f32 {d}, {a}, {b};", dict(d="b32", a="f32", b="f32")),
    ("cvt.rn.f32.s64", "cvt.rn.f32.s64 {d}, {a};", dict(d="f32", a="s64")),
    ("cvt.rn.f64.s64", "cvt.rn.f64.s64 {d}, {a};", dict(d="f64", a="s64")),
    ("cvt.rzi.s64.f64", "cvt.rzi.s64.f64 {d}, {a};", dict(d="s64", a="f64")),
    ("cvt.rzi.s64.f32", "cvt.rzi.s64.f32 {d}, {a};", dict(d="s64", a="f32")),
    ("shfl.sync.idx.b32", "shfl.sync.idx.b32 {d}|{p}, {a}, {b}, 31, -1;", dict(d="b32", p="pred", a="b32", b="b32")),
    ("popc.b64", "popc.b64 {d}, {a};", dict(d="b32", a="b64")),
    ("clz.b64", "clz.b64 {d}, {a};", dict(d="b32", a="b64")),
    ("bfind.u64", "bfind.u64 {d}, {a};", dict(d="b32", a="b64")),
    ("shl.b64", "shl.b64 {d}, {a}, {b};", dict(d="b64", a="b64", b="b32")),
    ("shr.u64", "shr.u64 {d}, {a}, {b};", dict(d="b64", a="b64", b="b32")),
    # The control: a plain instruction, whose difference is the harness's own offset.
    ("add.f32", "add.f32 {d}, {a}, {b};", dict(d="f32", a="f32", b="f32")),
]
CONTROL = "add.f32"

WIDTH = {"f32": 32, "s32": 32, "u32": 32, "b32": 32, "f64": 64, "s64": 64, "u64": 64, "b64": 64, "pred": 1}


def kernel(name, instruction, types, replace_with_moves):
    regs = {32: "%w", 64: "%x", 1: "%q"}
    lines = [f".visible .entry {name}(.param .u64 p)", "{",
             "  .reg .b64 %rd<4>; .reg .b32 %w<16>; .reg .b64 %x<16>; .reg .pred %q<4>; .reg .b32 %k<10>; .reg .b32 %acc<10>;",
             "  ld.param.u64 %rd1, [p];", "  mov.u32 %k0, %tid.x;", "  mul.wide.u32 %rd2, %k0, 256;",
             "  add.s64 %rd1, %rd1, %rd2;"]
    for i in range(1, 9):
        lines.append(f"  ld.volatile.global.u32 %k{i}, [%rd1+{128 + 4 * i}];")
    names = {}
    counters = {32: 0, 64: 0, 1: 0}
    offset = 0
    for slot, type_ in types.items():
        width = WIDTH[type_]
        names[slot] = f"{regs[width]}{counters[width]}"
        counters[width] += 1
    for slot, type_ in types.items():
        if slot.startswith(("d", "p")):
            continue
        width = WIDTH[type_]
        lines.append(f"  ld.volatile.global.b{width} {names[slot]}, [%rd1+{offset}];")
        offset += 8
    if replace_with_moves:
        sources = [p for p in types if not p.startswith(("d", "p"))]
        for slot, type_ in types.items():
            if not slot.startswith(("d", "p")):
                continue
            width = WIDTH[type_]
            same = [s for s in sources if WIDTH[types[s]] == width]
            if width == 1:
                lines.append(f"  setp.ne.b32 {names[slot]}, %k1, 0;")
            elif same:
                lines.append(f"  mov.b{width} {names[slot]}, {names[same[0]]};")
            else:
                lines.append(f"  ld.volatile.global.b{width} {names[slot]}, [%rd1+{offset}];")
                offset += 8
        # Keep the sources read, as the instruction would.
        for s in sources:
            width = WIDTH[types[s]]
            lines.append(f"  st.volatile.global.b{width} [%rd1+{offset}], {names[s]};")
            offset += 8
    else:
        lines.append("  " + instruction.format(**names))
    for slot, type_ in types.items():
        if not slot.startswith(("d", "p")):
            continue
        width = WIDTH[type_]
        if width == 1:
            lines.append(f"  selp.b32 %w15, 1, 0, {names[slot]};")
            lines.append(f"  st.volatile.global.b32 [%rd1+{offset}], %w15;")
        else:
            lines.append(f"  st.volatile.global.b{width} [%rd1+{offset}], {names[slot]};")
        offset += 8
    accumulator = "%k1"
    for i in range(2, 9):
        lines.append(f"  xor.b32 %acc{i}, {accumulator}, %k{i};")
        accumulator = f"%acc{i}"
    lines += [f"  st.volatile.global.u32 [%rd1+200], {accumulator};", "  ret;", "}"]
    return "\n".join(lines)


def measure(ptxas, arch):
    body = [".version 8.0", f".target {arch}", ".address_size 64"]
    for index, (_, instruction, types) in enumerate(FORMS):
        body.append(kernel(f"form{index}", instruction, types, False))
        body.append(kernel(f"base{index}", instruction, types, True))
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "forms.ptx"
        source.write_text("\n".join(body))
        run = subprocess.run([ptxas, "-v", "--gpu-name", arch, "-o", "/dev/null", str(source)],
                             capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(run.stderr)
    counts, current = {}, None
    for line in run.stderr.splitlines():
        if m := re.search(r"Compiling entry function '(\w+)'", line):
            current = m.group(1)
        elif (m := re.search(r"Used (\d+) registers", line)) and current:
            counts[current] = int(m.group(1))
    raw = {FORMS[i][0]: counts[f"form{i}"] - counts[f"base{i}"] for i in range(len(FORMS))}
    return {name: value - raw[CONTROL] for name, value in raw.items()}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ptxas", default="/usr/local/cuda/bin/ptxas")
    parser.add_argument("--arch", action="append", default=None)
    args = parser.parse_args()
    if not Path(args.ptxas).exists():
        print(f"skipped: {args.ptxas} not found")
        return 0
    arches = args.arch or ["sm_80", "sm_90"]
    results = {arch: measure(args.ptxas, arch) for arch in arches}
    print("form".ljust(22) + "".join(a.rjust(8) for a in arches) + "   table")
    for name, _, _ in FORMS:
        extra = max(results[a][name] for a in arches)
        print(name.ljust(22) + "".join(str(results[a][name]).rjust(8) for a in arches) + f"   {extra if extra >= 2 else 0}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
