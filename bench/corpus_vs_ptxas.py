#!/usr/bin/env python3
"""ptxlint versus ptxas over the whole shared corpus: both wall times in one run, and the ratio.

Usage: corpus_vs_ptxas.py --ptxlint BUILD/ptxlint [--corpus ../shared/corpus] [--jobs N] [--ptxas PATH]

Every *.ptx (and *.ptx.xz, decompressed once into a temporary folder, outside the timing) is
assembled by ptxas with the command recorded in ptxas-verdicts.json when the file is listed
there (same --gpu-name, -c for relocatable code), otherwise for its .target (sm_75 when ptxas
13 does not take it). ptxas runs N processes at a time; ptxlint gets the same file list and
--jobs N. ptxlint is timed twice: cold (--no-cache: every file parsed and analyzed) and warm
(a second run over an unchanged tree with its result cache, as in pre-commit or CI reruns).
Best of --runs runs each. Prints figures and both ratios; asserts nothing (the goal, ptxlint at
least 50 times faster, is printed as PASS/MISS for each).
"""
import argparse
import json
import lzma
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

GOAL = 50.0


def corpus_files(corpus: Path, scratch: Path):
    files = []
    for path in sorted(corpus.rglob("*")):
        if path.name.endswith(".ptx"):
            files.append((path, path))
        elif path.name.endswith(".ptx.xz"):
            plain = scratch / path.name[:-3]
            plain.write_bytes(lzma.decompress(path.read_bytes()))
            files.append((path, plain))
    return files


def ptxas_command(ptxas: str, corpus: Path, original: Path, readable: Path, verdicts: dict):
    relative = original.relative_to(corpus).as_posix()
    entry = verdicts.get(relative)
    if entry and entry.get("cmd"):
        words = shlex.split(entry["cmd"])
        words[0] = ptxas
        words = [str(readable) if w == relative else w for w in words]
        return words, corpus
    target = "sm_75"
    match = re.search(rb"^\s*\.target\s+(sm_\d+[af]?)", readable.read_bytes(), re.M)
    if match and int(re.sub(r"\D", "", match.group(1).decode())[:3] or 0) >= 75:
        target = match.group(1).decode()
    return [ptxas, "--gpu-name", target, "-o", "/dev/null", str(readable)], corpus


def timed(body):
    start = time.perf_counter()
    body()
    return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    here = Path(__file__).resolve().parent.parent
    parser.add_argument("--ptxlint", required=True)
    parser.add_argument("--corpus", default=str(here.parent / "shared" / "corpus"))
    parser.add_argument("--ptxas", default="/usr/local/cuda/bin/ptxas")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--runs", type=int, default=1)
    args = parser.parse_args()
    corpus = Path(args.corpus).resolve()
    if not corpus.is_dir() or not Path(args.ptxas).exists():
        print(f"skipped: needs {corpus} and {args.ptxas}")
        return 0
    verdicts = {}
    verdict_file = corpus / "ptxas-verdicts.json"
    if verdict_file.exists():
        verdicts = json.loads(verdict_file.read_text())["files"]
    with tempfile.TemporaryDirectory() as scratch:
        files = corpus_files(corpus, Path(scratch))
        size = sum(readable.stat().st_size for _, readable in files)
        commands = [ptxas_command(args.ptxas, corpus, o, r, verdicts) for o, r in files]

        def run_ptxas():
            def one(command):
                words, cwd = command
                subprocess.run(words, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            with ThreadPoolExecutor(max_workers=args.jobs) as pool:
                list(pool.map(one, commands))

        cache = Path(scratch) / "cache"

        def run_ptxlint(*cache_options):
            def run():
                subprocess.run([args.ptxlint, "--no-config", "--jobs", str(args.jobs), *cache_options] +
                               [str(r) for _, r in files], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            return run

        ptxas_time = min(timed(run_ptxas) for _ in range(args.runs))
        cold_time = min(timed(run_ptxlint("--no-cache")) for _ in range(args.runs))
        run_ptxlint("--cache-dir", str(cache))()  # Fills the cache.
        warm_time = min(timed(run_ptxlint("--cache-dir", str(cache))) for _ in range(args.runs))
    print(f"{len(files)} files, {size / 1e6:.2f} MB, {args.jobs} jobs")
    print(f"ptxas          : {ptxas_time:8.2f} s  ({size / 1e6 / ptxas_time:8.2f} MB/s)")
    for name, seconds in (("ptxlint, cold", cold_time), ("ptxlint, warm", warm_time)):
        ratio = ptxas_time / seconds if seconds > 0 else float("inf")
        print(f"{name:15}: {seconds:8.2f} s  ({size / 1e6 / seconds:8.2f} MB/s)  {ratio:7.1f}x faster than ptxas "
              f"(goal >= {GOAL:.0f}x): {'PASS' if ratio >= GOAL else 'MISS'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
