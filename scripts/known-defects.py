#!/usr/bin/env python3
"""Compares ptxlint's findings over every ptxas-accepted corpus file with
tests/corpus/known-defects.json, where each real defect is listed by rule and line with the
reason a reviewer can check against the source.

Usage: known-defects.py [--build DIR] [--lines]
  (no option)  print findings not in the list (false alarms or new defects) and listed ones
               no longer found; exit 1 when they differ
  --lines      rewrite entries that still list counts ({"RAC001": 24}) as line lists, when the
               count matches what ptxlint finds; reasons are kept, nothing is added

Corpora: ../shared/corpus (ptxas-verdicts.json, nvcc/ptx) under "files", and our own
corpus/nvcc, corpus/cudalib/ptx and corpus/triton/ptx (each with a manifest.json of ptxas
verdicts) under "ownFiles". Information and hint notes are not findings here.
"""
import argparse
import json
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
KNOWN = ROOT / "tests" / "corpus" / "known-defects.json"
OWN = ["corpus/nvcc", "corpus/cudalib/ptx", "corpus/triton/ptx"]


def accepted_files():
    """(section, key, path) of every ptxas-accepted corpus file."""
    out = []
    verdicts = SHARED / "corpus" / "ptxas-verdicts.json"
    if verdicts.exists():
        for relative, verdict in json.loads(verdicts.read_text())["files"].items():
            if verdict["accepted"]:
                out.append(("files", relative, SHARED / "corpus" / relative))
        for path in sorted((SHARED / "corpus" / "nvcc" / "ptx").glob("*.ptx")):
            out.append(("files", f"nvcc/ptx/{path.name}", path))
    for folder in OWN:
        manifest = ROOT / folder / "manifest.json"
        if not manifest.exists():
            continue
        for name, entry in json.loads(manifest.read_text())["files"].items():
            if entry.get("ptxas_accepted", True):
                out.append(("ownFiles", f"{folder}/{name}", ROOT / folder / name))
    return out


def findings(ptxlint, files):
    """(section, key) -> {rule: sorted lines} of errors and warnings."""
    by_path = {str(path): (section, key) for section, key, path in files}
    found = {}
    paths = list(by_path)
    for start in range(0, len(paths), 200):
        run = subprocess.run([ptxlint, "--no-cache", "--format", "json", *paths[start:start + 200]],
                             capture_output=True, text=True)
        for entry in json.loads(run.stdout)["files"]:
            rules = defaultdict(list)
            for d in entry["diagnostics"]:
                if d["severity"] in ("error", "warning"):
                    rules[d["rule"]].append(d["line"])
            if rules:
                found[by_path[entry["path"]]] = {rule: sorted(lines) for rule, lines in rules.items()}
    return found


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default=str(ROOT / "build"))
    parser.add_argument("--lines", action="store_true")
    args = parser.parse_args()
    files = accepted_files()
    found = findings(str(Path(args.build) / "ptxlint"), files)
    known = json.loads(KNOWN.read_text())
    differ = False
    for section, key, _ in files:
        listed = known.get(section, {}).get(key, {}).get("findings", {})
        have = found.get((section, key), {})
        for rule in sorted(set(listed) | set(have)):
            want = listed.get(rule, [])
            got = have.get(rule, [])
            if isinstance(want, int):
                if args.lines and want == len(got):
                    known[section][key]["findings"][rule] = got
                    continue
                want_lines = None
            else:
                want_lines = sorted(want)
            if want_lines != got:
                differ = True
                print(f"{section} {key} {rule}: listed {want} found {got}")
    listed_keys = {(s, k) for s in ("files", "ownFiles") for k in known.get(s, {})}
    for section, key in sorted(listed_keys - {(s, k) for s, k, _ in files}):
        differ = True
        print(f"{section} {key}: listed, but not an accepted corpus file")
    if args.lines:
        KNOWN.write_text(json.dumps(known, indent=1) + "\n")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
