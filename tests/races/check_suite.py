#!/usr/bin/env python3
"""Runs ptxlint's race and synchronization rules over the CUDA suite (tests/races): the cases'
PTX (nvcc -lineinfo), whose findings are mapped back to CUDA source lines through the `.loc`
directives (following `inlined_at` to the kernel's own file). A defect counts as found when
every `// expect: CODE` line has that code; a twin (`*_ok`) must have no finding at all.
The rules' own PTX cases are in tests/rules/<CODE>/ (tests/analyzers/rule_cases_test.cpp).

Usage: check_suite.py PTXLINT [--min-found N]
Fails when a twin has a finding or fewer than N defects are found. Prints the table.
"""
import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent


def expected_findings(cu: Path):
    expected = set()
    for number, line in enumerate(cu.read_text().splitlines(), 1):
        m = re.search(r"//\s*expect:\s*([A-Z0-9, ]+)", line)
        if m:
            expected |= {(number, code) for code in re.split(r"[ ,]+", m.group(1).strip()) if code}
    return expected


def source_lines(ptx: Path, cu_name: str):
    """PTX line -> line of the .cu file the instruction comes from (or None)."""
    files = {}
    for line in ptx.read_text().splitlines():
        m = re.match(r'\s*\.file\s+(\d+)\s+"([^"]+)"', line)
        if m:
            files[int(m.group(1))] = Path(m.group(2)).name
    resolved = {}  # (file, line) -> .cu line, for locations already seen
    mapping, current = {}, None
    for number, line in enumerate(ptx.read_text().splitlines(), 1):
        m = re.match(r"\s*\.loc\s+(\d+)\s+(\d+)\s+\d+(.*)", line)
        if m:
            f, l, rest = int(m.group(1)), int(m.group(2)), m.group(3)
            if files.get(f) == cu_name:
                current = l
            else:
                inl = re.search(r"inlined_at\s+(\d+)\s+(\d+)", rest)
                current = None
                if inl:
                    f2, l2 = int(inl.group(1)), int(inl.group(2))
                    current = l2 if files.get(f2) == cu_name else resolved.get((f2, l2))
            resolved[(f, l)] = current
            continue
        mapping[number] = current
    return mapping


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("ptxlint")
    parser.add_argument("--min-found", type=int, default=0)
    args = parser.parse_args()
    found_count, defects, twin_findings, extra_findings = 0, 0, [], []
    rows = []
    cases = [(ptx, ROOT / "cuda" / f"{ptx.stem}.cu") for ptx in sorted((ROOT / "ptx").glob("*.ptx"))]
    for ptx, cu in cases:
        name = ptx.stem
        lines = source_lines(ptx, cu.name)
        run = subprocess.run([args.ptxlint, "--select", "race,sync", "--format", "json", str(ptx)],
                             capture_output=True, text=True)
        data = json.loads(run.stdout)
        found = set()
        for entry in data["files"]:
            for d in entry["diagnostics"]:
                found.add((lines.get(d["line"]), d["rule"]))
        if name.endswith("_ok"):
            if found:
                twin_findings.append((name, sorted(found, key=str)))
            continue
        defects += 1
        expected = expected_findings(cu)
        ok = bool(expected) and expected <= found
        # A finding no marker asks for is a false alarm, in a defect file as in a twin.
        extra = found - expected
        if extra:
            extra_findings.append((name, sorted(extra, key=str)))
        found_count += ok
        rows.append((name, "found" if ok else ("partly" if expected & found else "missed"),
                     " ".join(sorted({c for _, c in expected}))))
    for row in rows:
        print(f"{row[0]:40} {row[1]:7} {row[2]}")
    print(f"found {found_count} of {defects} defects; twins with findings: {len(twin_findings)}")
    for name, findings in twin_findings:
        print(f"FAIL: twin {name} has findings {findings}")
    for name, findings in extra_findings:
        print(f"FAIL: {name} has unmarked findings {findings}")
    if twin_findings or extra_findings or found_count < args.min_found:
        if found_count < args.min_found:
            print(f"FAIL: {found_count} found, at least {args.min_found} expected")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
