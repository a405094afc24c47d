#!/usr/bin/env python3
"""Condenses the full log written by run-sanitizer.sh (RESULTS_FILE.log) for committing.

    python3 tests/races/condense_log.py RESULTS_FILE.log > tests/races/sanitizer-h100.log

Drops the host backtraces and blank "=========" separators, and folds a sanitizer report that is
repeated once per thread (synccheck prints one per lane) into its first occurrence plus a line
"[the same report repeated for N threads in all]".  Everything else is kept verbatim.
"""
import re
import sys

THREAD = re.compile(r"by thread \(\d+,\d+,\d+\) in block \(\d+,\d+,\d+\)")
DROP = re.compile(r"Host Frame|Saved host backtrace|^=========\s*$")


def normalise(block):
    return [THREAD.sub("by thread (*) in block (*)", line) for line in block]


def condense(lines):
    kept = [line for line in lines if not DROP.search(line)]
    out = []
    i = 0
    while i < len(kept):
        line = kept[i]
        if line.startswith("========= ") and not line.startswith("=========  ") and "SUMMARY" not in line \
                and i + 1 < len(kept) and kept[i + 1].startswith("=========     "):
            j = i + 1
            while j < len(kept) and kept[j].startswith("=========     "):
                j += 1
            block = kept[i:j]
            shape = normalise(block)
            k, count = j, 1
            while k < len(kept) and normalise(kept[k:k + len(block)]) == shape:
                k += len(block)
                count += 1
            out += block
            if count > 1:
                out.append("=========     [the same report repeated for %d threads in all]" % count)
            i = k
        else:
            out.append(line)
            i += 1
    return out


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    with open(sys.argv[1], encoding="utf-8", errors="replace") as f:
        lines = [line.rstrip("\n") for line in f]
    print("# condensed by tests/races/condense_log.py from the full run-sanitizer.sh log")
    print("\n".join(condense(lines)))


if __name__ == "__main__":
    main()
