#!/usr/bin/env python3
"""Compares every diagnostic two ptxlint builds give on every PTX file we have: the accepted
corpus (scripts/corpus_files.py), the rejected and defect cases under tests/, and the rest of
corpus/. Used to show that a refactoring changed no finding.

    scripts/compare_findings.py BASE_PTXLINT [NEW_PTXLINT]   # NEW defaults to build/ptxlint

Prints the files whose JSON output differs (at most 20, with a diff of the first) and exits 1
when any does.
"""
import difflib
import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def all_files():
    files = set(subprocess.run([sys.executable, str(ROOT / "scripts/corpus_files.py")], capture_output=True,
                               text=True, check=True).stdout.split())
    for folder in ("tests", "corpus"):
        files.update(str(p) for p in (ROOT / folder).rglob("*.ptx"))
    return sorted(files)


def lint(binary, path):
    out = subprocess.run([binary, "--format", "json", "--no-cache", path], capture_output=True, text=True)
    try:
        data = json.loads(out.stdout)
    except json.JSONDecodeError:
        return out.stdout + out.stderr
    return json.dumps(data, indent=1, sort_keys=True)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    base = sys.argv[1]
    new = sys.argv[2] if len(sys.argv) > 2 else str(ROOT / "build/ptxlint")
    files = all_files()
    with ThreadPoolExecutor(max_workers=2) as pool:
        pairs = list(pool.map(lambda f: (f, lint(base, f), lint(new, f)), files))
    differing = [(f, a, b) for f, a, b in pairs if a != b]
    for f, _, _ in differing[:20]:
        print("differs:", f)
    if differing:
        f, a, b = differing[0]
        print("".join(list(difflib.unified_diff(a.splitlines(True), b.splitlines(True), "base", "new"))[:80]))
    print(f"{len(files) - len(differing)} of {len(files)} files identical")
    sys.exit(1 if differing else 0)


if __name__ == "__main__":
    main()
