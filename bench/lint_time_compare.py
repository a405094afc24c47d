#!/usr/bin/env python3
"""Full-lint time per file, this build against an anchor build, side by side in one run.

Usage: lint_time_compare.py ANCHOR_PTXLINT [--current PTXLINT] [--min-bytes N] [--runs K] [FILE...]

Without files: every ptxas-accepted file of ../shared/corpus and of our corpora (corpus/nvcc,
corpus/cudalib/ptx, corpus/triton/ptx) of at least --min-bytes (default 200000), where the
lint itself, not process start, is what is timed. Each file is linted with `--no-cache
--jobs 1` by the two binaries alternately, K times each (default 5); the figure is the least
CPU time (user + system) of the child, which other tenants of the machine disturb least.
With --instructions, each file is instead linted once per binary under valgrind's callgrind
and the figure is the instruction count, which other tenants of the machine do not disturb.
Prints anchor and current figures, their ratio, and marks ratios above 1.10. Asserts nothing.
"""
import argparse
import os
import resource
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
from corpus_files import accepted_files  # noqa: E402


def corpus_files(min_bytes):
    return [path for _, _, path in accepted_files() if path.stat().st_size >= min_bytes]


def cpu_seconds(binary, path):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([binary, "--no-cache", "--jobs", "1", "--quiet", str(path)],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def instructions(binary, path):
    run = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", binary, "--no-cache",
                          "--jobs", "1", "--quiet", str(path)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         text=True)
    for line in run.stderr.splitlines():
        if "Collected :" in line:
            return int(line.split(":")[-1])
    raise RuntimeError(f"callgrind gave no count for {path}: {run.stderr[-300:]}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("anchor")
    parser.add_argument("--current", default=str(ROOT / "build" / "ptxlint"))
    parser.add_argument("files", nargs="*")
    parser.add_argument("--min-bytes", type=int, default=200000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--instructions", action="store_true")
    args = parser.parse_intermixed_args()
    files = [Path(f) for f in args.files] or corpus_files(args.min_bytes)
    unit = "G instr" if args.instructions else "s"
    print(f"{'file':60} {'bytes':>9} {'anchor ' + unit:>13} {'current ' + unit:>13} {'ratio':>6}")
    worst = 0.0
    for path in files:
        if args.instructions:
            a, c = instructions(args.anchor, path) / 1e9, instructions(args.current, path) / 1e9
        else:
            anchor, current = [], []
            for _ in range(args.runs):
                anchor.append(cpu_seconds(args.anchor, path))
                current.append(cpu_seconds(args.current, path))
            a, c = min(anchor), min(current)
        ratio = c / a if a > 0 else float("nan")
        worst = max(worst, ratio)
        name = os.path.relpath(path, ROOT.parent)
        mark = "  > +10%" if ratio > 1.10 else ""
        print(f"{name[-60:]:60} {path.stat().st_size:9} {a:13.3f} {c:13.3f} {ratio:6.2f}{mark}")
    print(f"{len(files)} files; largest ratio {worst:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
