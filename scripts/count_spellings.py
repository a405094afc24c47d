#!/usr/bin/env python3
"""Counts the places outside core/isa where code works out what an instruction is from its
spelling: string literals that are a PTX opcode name (ld, bar, ...) or a dotted PTX spelling
(.shared, .u32, .bulk_group, ...). Comments are ignored; longer strings such as messages are not
spellings and are not counted.

    scripts/count_spellings.py            # total and per file
    scripts/count_spellings.py --list     # every occurrence

Issue 21 asks for at most 20 such comparisons in core/ (outside core/isa), analyzers/, server/
and cli/.
"""
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DIRS = ["core", "analyzers", "server", "cli"]


def opcode_names():
    text = (ROOT / "core/isa/Opcodes.def").read_text()
    return set(re.findall(r"^PTX_OPCODE\((?:\w+,\s*)?(\w+),", text, re.M))


def strip_comments(src):
    # Removes // and /* */ comments while keeping string literals (and line numbers) intact.
    out, i, n = [], 0, len(src)
    while i < n:
        c = src[i]
        if src.startswith("//", i):
            j = src.find("\n", i)
            i = n if j < 0 else j
        elif src.startswith("/*", i):
            j = src.find("*/", i + 2)
            seg = src[i:(n if j < 0 else j + 2)]
            out.append("\n" * seg.count("\n"))
            i = n if j < 0 else j + 2
        elif src.startswith('R"', i):
            m = re.match(r'R"([^(]*)\(', src[i:])
            end = src.find(")" + m.group(1) + '"', i) if m else -1
            end = n if end < 0 else end + len(m.group(1)) + 2
            out.append(src[i:end])
            i = end
        elif c == '"' or c == "'":
            j = i + 1
            while j < n and src[j] != c:
                j += 2 if src[j] == "\\" else 1
            out.append(src[i:j + 1])
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


SPELLING = re.compile(r"^\.[A-Za-z_][A-Za-z0-9_]*(::[A-Za-z0-9_]+)*(::)?$")
LITERAL = re.compile(r'(?<![A-Za-z0-9_])"((?:[^"\\\n]|\\.)*)"')


def main():
    opcodes = opcode_names()
    per_file, hits = {}, []
    for d in DIRS:
        for path in sorted((ROOT / d).rglob("*")):
            if path.suffix not in (".cpp", ".h") or "core/isa" in str(path.relative_to(ROOT)):
                continue
            src = strip_comments(path.read_text(errors="replace"))
            for lineno, line in enumerate(src.split("\n"), 1):
                for m in LITERAL.finditer(line):
                    s = m.group(1)
                    if s in opcodes or SPELLING.match(s):
                        rel = str(path.relative_to(ROOT))
                        per_file[rel] = per_file.get(rel, 0) + 1
                        hits.append(f"{rel}:{lineno}: \"{s}\"")
    if "--list" in sys.argv:
        print("\n".join(hits))
    for f, c in sorted(per_file.items(), key=lambda x: -x[1]):
        print(f"{c:5d} {f}")
    print(f"total {len(hits)} in {len(per_file)} files")


if __name__ == "__main__":
    main()
