#!/usr/bin/env python3
"""Checks the instruction table's examples against NVIDIA's ptxas, the oracle.

Every example (second block of a PTX_INSTRUCTION entry in core/isa/instructions/*.def) must
assemble inside tests/isa/example_kernel.ptx.in; every counterexample (third block) must be
rejected, with ptxas's first error on the counterexample's own line.

Usage: check_examples_with_ptxas.py [--family NAME]... [--verbose]
The ptxas binary is taken from $PTXAS, then PATH, then /usr/local/cuda/bin. Without it the
check is skipped with exit status 77 (CTest's skip code). Exit status 1 on any mismatch.
"""
import argparse
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TABLE = os.path.join(ROOT, "core", "isa", "instructions")
ENTRY = re.compile(r'PTX_INSTRUCTION\(\s*([\w.]+)\s*,\s*R"\((.*?)\)"\s*,\s*R"\((.*?)\)"\s*,\s*R"\((.*?)\)"\s*\)', re.S)
DEFAULT_TARGET = "sm_90a"
DEFAULT_VERSION = "9.0"


def find_ptxas():
    candidates = [os.environ.get("PTXAS"), shutil.which("ptxas"), "/usr/local/cuda/bin/ptxas"]
    for candidate in candidates:
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


def parse_line(line):
    """(statement, target, rule) of one example line; None for blanks and comments."""
    code, _, comment = line.partition("//")
    code = code.strip()
    if not code:
        return None
    target = DEFAULT_TARGET
    for word in comment.split():
        if word.startswith("sm_"):
            target = word
    rule = None
    match = re.match(r"^(.*;)\s*([A-Z]{3}\d{3})$", code)
    if match:
        code, rule = match.group(1), match.group(2)
    return code, target, rule


def load_entries(families):
    entries = []
    for name in sorted(os.listdir(TABLE)):
        if not name.endswith(".def") or name == "common.def":
            continue
        with open(os.path.join(TABLE, name), encoding="utf-8") as handle:
            text = handle.read()
        for match in ENTRY.finditer(text):
            family, _forms, examples, counterexamples = match.groups()
            if families and family not in families:
                continue
            good = [p for p in (parse_line(l) for l in examples.splitlines()) if p]
            bad = [p for p in (parse_line(l) for l in counterexamples.splitlines()) if p]
            entries.append((family, good, bad))
    return entries


def kernel(statements, target):
    with open(os.path.join(HERE, "example_kernel.ptx.in"), encoding="ascii") as handle:
        template = handle.read()
    statement_line = template[: template.index("@STATEMENT@")].count("\n") + 1
    text = (template.replace("@VERSION@", DEFAULT_VERSION).replace("@TARGET@", target)
            .replace("@STATEMENT@", "\n".join(statements)))
    return text, statement_line


def run_ptxas(ptxas, text, target):
    with tempfile.NamedTemporaryFile("w", suffix=".ptx", delete=False) as handle:
        handle.write(text)
        path = handle.name
    try:
        result = subprocess.run([ptxas, "-arch", target, path, "-o", os.devnull],
                                capture_output=True, text=True, timeout=120)
    finally:
        os.unlink(path)
    return result.returncode, result.stdout + result.stderr


def first_error_line(output):
    for line in output.splitlines():
        match = re.search(r"line (\d+); error", line)
        if match:
            return int(match.group(1))
    return None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--family", action="append", default=[])
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    ptxas = find_ptxas()
    if ptxas is None:
        print("skip: ptxas not found")
        return 77
    entries = load_entries(set(args.family))
    failures = []
    jobs = []
    # Accepted examples: one kernel per (family, target), each statement on its own line.
    for family, good, _bad in entries:
        by_target = {}
        for statement, target, _rule in good:
            by_target.setdefault(target, []).append(statement)
        for target, statements in by_target.items():
            jobs.append(("accept", family, target, statements))
        for statement, target, rule in _bad:
            jobs.append(("reject", family, target, [statement], rule))

    def run(job):
        kind, family, target, statements = job[:4]
        text, line = kernel(statements, target)
        code, output = run_ptxas(ptxas, text, target)
        if kind == "accept":
            if code != 0:
                bad_line = first_error_line(output)
                culprit = statements[bad_line - line] if bad_line and 0 <= bad_line - line < len(statements) else "?"
                return f"{family}: example rejected by ptxas ({target}): {culprit}\n    {output.strip()}"
            return None
        if code == 0:
            return f"{family}: counterexample accepted by ptxas ({target}): {statements[0]}"
        error_line = first_error_line(output)
        if error_line != line:
            return (f"{family}: counterexample {statements[0]!r}: ptxas's first error is on line "
                    f"{error_line}, not {line}\n    {output.strip()}")
        if args.verbose:
            print(f"{family}: {statements[0]}  ->  {output.strip().splitlines()[0]}")
        return None

    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        for failure in pool.map(run, jobs):
            if failure:
                failures.append(failure)
    for failure in failures:
        print(failure)
    examples = sum(len(good) for _f, good, _b in entries)
    counter = sum(len(bad) for _f, _g, bad in entries)
    print(f"{len(entries)} families, {examples} examples, {counter} counterexamples, "
          f"{len(failures)} mismatches")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
