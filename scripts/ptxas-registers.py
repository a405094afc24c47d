#!/usr/bin/env python3
"""Records `ptxas -v` register figures for our own corpus (corpus/nvcc/*.ptx) into
corpus/ptxas-registers.json, the ground truth bench/registers_bench reads beside
../shared/corpus's. Each file is assembled for its own .target (the file name's sm_XY);
debug (-G) files are skipped, as the estimate models optimized code. Rerun after
corpus/generate.sh changes the corpus.

Usage: scripts/ptxas-registers.py [--ptxas PATH]
"""
import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ptxas", default="/usr/local/cuda/bin/ptxas")
    args = parser.parse_args()
    if not Path(args.ptxas).exists():
        print(f"skipped: {args.ptxas} not found")
        return 0
    version = subprocess.run([args.ptxas, "--version"], capture_output=True, text=True).stdout.strip().splitlines()[-1]
    files = {}
    for path in sorted((ROOT / "corpus" / "nvcc").glob("*.ptx")):
        text = path.read_text(errors="replace")
        if ".debug_info" in text:
            continue
        target = re.search(r"^\s*\.target\s+(sm_\w+)", text, re.M)
        if not target:
            continue
        run = subprocess.run([args.ptxas, "-v", "--gpu-name", target.group(1), "-o", "/dev/null", str(path)],
                             capture_output=True, text=True)
        if run.returncode != 0:
            continue
        functions = {}
        current = None
        for line in run.stderr.splitlines():
            match = re.search(r"Compiling entry function '([^']+)'|Function properties for (\S+)", line)
            if match and match.group(1):
                current = match.group(1)
            found = re.search(r"Used (\d+) registers", line)
            if found and current:
                functions[current] = {"kind": "entry", "registers": int(found.group(1))}
                current = None
        files[f"nvcc/{path.name}"] = {"target": target.group(1), "functions": functions}
    out = {"format": "ptxas-registers/1", "ptxas": version, "files": files}
    (ROOT / "corpus" / "ptxas-registers.json").write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
    print(f"{len(files)} files, {sum(len(f['functions']) for f in files.values())} entry functions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
