#!/usr/bin/env python3
"""Compares ptxlint's findings over every ptxas-accepted corpus file with
tests/corpus/known-defects.json, where each real defect is listed by rule and line with the
reason a reviewer can check against the source.

Usage: known-defects.py [--build DIR]
Prints findings not in the list (false alarms or new defects) and listed ones no longer
found; exits 1 when they differ.

Corpora (scripts/corpus_files.py): ../shared/corpus under "files", our own corpora under
"ownFiles". Information and hint notes are not findings here.
"""
import argparse
import json
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KNOWN = ROOT / "tests" / "corpus" / "known-defects.json"
sys.path.insert(0, str(ROOT / "scripts"))
from corpus_files import accepted_files  # noqa: E402


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
    args = parser.parse_args()
    files = accepted_files()
    found = findings(str(Path(args.build) / "ptxlint"), files)
    known = json.loads(KNOWN.read_text())
    differ = False
    for section, key, _ in files:
        listed = known.get(section, {}).get(key, {}).get("findings", {})
        have = found.get((section, key), {})
        for rule in sorted(set(listed) | set(have)):
            want = sorted(listed.get(rule, []))
            got = have.get(rule, [])
            if want != got:
                differ = True
                print(f"{section} {key} {rule}: listed {want} found {got}")
    listed_keys = {(s, k) for s in ("files", "ownFiles") for k in known.get(s, {})}
    for section, key in sorted(listed_keys - {(s, k) for s, k, _ in files}):
        differ = True
        print(f"{section} {key}: listed, but not an accepted corpus file")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
