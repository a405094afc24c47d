#!/usr/bin/env python3
"""What the race and synchronization rules cost, counted in instructions (valgrind's
callgrind) rather than time: on a shared machine the time of the same lint swings by half
from one minute to the next, and races_bench's share with it; instruction counts do not.

    python3 bench/races_instructions.py [PTXLINT] [FILE]

Runs `ptxlint --no-cache --jobs 1` on FILE (default: the largest .ptx of ../shared/corpus)
under callgrind, then sums the inclusive instructions of the race and synchronization rules'
entry points (their names from analyzers/RuleContext.h, the rules of categories Race and Sync
in analyzers/Rules.def) against those of lintText. The thread model is built inside the first
of those rules that asks for it, so it is counted. Takes about three minutes on Sort.ptx.
"""
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def rule_functions():
    """check* functions of the Race and Sync rules: the rule files' entry points."""
    names = set()
    for source in list((ROOT / "analyzers/races").glob("*.cpp")) + list((ROOT / "analyzers/sync").glob("*.cpp")):
        for match in re.finditer(r"^void (check\w+)\(const RuleContext& context\)", source.read_text(), re.M):
            names.add(match.group(1))
    return names


def main():
    ptxlint = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "build/ptxlint"
    if len(sys.argv) > 2:
        target = Path(sys.argv[2])
    else:
        corpus = ROOT.parent / "shared/corpus"
        files = sorted(corpus.rglob("*.ptx"), key=lambda p: p.stat().st_size) if corpus.exists() else []
        if not files:
            print("skipped: ../shared/corpus not found")
            return 0
        target = files[-1]
    if shutil.which("valgrind") is None or shutil.which("callgrind_annotate") is None:
        print("skipped: valgrind (callgrind) is not installed")
        return 0
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "callgrind.out"
        subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", str(ptxlint), "--no-cache",
                        "--jobs", "1", "--quiet", str(target)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        report = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", str(out)],
                                capture_output=True, text=True).stdout
    total, rules, per_rule = 0, 0, {}
    wanted = rule_functions()
    for line in report.splitlines():
        match = re.match(r"\s*([\d,]+) \([\s\d.]+%\)\s+\S*?ptx::(\w+)\((.*)", line)
        if not match:
            continue
        count, name = int(match.group(1).replace(",", "")), match.group(2)
        if name == "lintText" and total == 0:
            total = count
        elif name in wanted and "{lambda" not in line:
            per_rule[name] = count
            rules += count
    if total == 0:
        print("no lintText in the profile")
        return 1
    for name, count in sorted(per_rule.items(), key=lambda item: -item[1])[:5]:
        print(f"  {name}: {count / 1e6:.0f} M instructions ({100 * count / total:.1f}%)")
    share = rules / total
    print(f"race and synchronization rules on {target.name}: {rules / 1e9:.2f} G of {total / 1e9:.2f} G instructions "
          f"of the lint: {100 * share:.1f}% (goal <= 30%: {'PASS' if share <= 0.30 else 'MISS'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
