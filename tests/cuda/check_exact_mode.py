#!/usr/bin/env python3
"""Exact mode on the acceptance suite: `ptxlint --nvcc` reports every ptxas message that
tests/cuda/cases/ground-truth.json maps to a .cu line (NVC002), and every error nvcc itself
reports for the case (NVC001), on that line.

Usage: check_exact_mode.py PTXLINT. Prints "skipped: ..." and exits 77 without nvcc."""
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
CASES = HERE / "cases"


def passes_argument(flags):
    """--cuda-arch for a case's nvcc flags: -arch names as they are, -gencode by its arch."""
    names = re.findall(r"-arch=(\S+)", flags) + re.findall(r"arch=(compute_\w+),code", flags)
    return ",".join(n for n in names if not (n.startswith("compute_") and "-gencode" not in flags))


def main():
    ptxlint = sys.argv[1]
    nvcc = shutil.which("nvcc") or ("/usr/local/cuda/bin/nvcc" if Path("/usr/local/cuda/bin/nvcc").exists() else None)
    if nvcc is None:
        print("skipped: nvcc is not installed")
        return 77
    truth = json.loads((CASES / "ground-truth.json").read_text())["cases"]
    expected = {}  # file -> set of (code, .cu line)
    for name, case in truth.items():
        for one_pass in case["passes"]:
            for message in one_pass["nvcc"].get("messages", []):
                if message.get("severity") == "error" and message.get("file") == name and message.get("line"):
                    expected.setdefault(name, set()).add(("NVC001", message["line"]))
            for run in one_pass.get("ptxas", []):
                for message in run.get("messages", []):
                    if message.get("cu_line"):
                        expected.setdefault(name, set()).add(("NVC002", message["cu_line"]))
    failures = 0
    checked = 0
    for name, lines in sorted(expected.items()):
        text = (CASES / name).read_text()
        flags = re.search(r"// nvcc-flags: (.*)", text).group(1)
        result = subprocess.run([ptxlint, "--no-cache", "--no-config", "--nvcc", "--format", "json", "--select", "NVC001,NVC002",
                                 "--cuda-arch", passes_argument(flags), str(CASES / name)],
                                capture_output=True, text=True, timeout=600)
        report = json.loads(result.stdout)
        reported = {(d["rule"], d["line"]) for f in report["files"] for d in f["diagnostics"]}
        for finding in sorted(lines):
            checked += 1
            if finding not in reported:
                failures += 1
                print(f"{name}: {finding[0]} expected on line {finding[1]}; reported: {sorted(reported)}")
    print(f"{checked - failures} of {checked} nvcc and ptxas messages reported on their .cu line")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
