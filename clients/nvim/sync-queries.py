#!/usr/bin/env python3
"""Writes clients/nvim/queries/ptx/*.scm from grammar/queries/*.scm.

The grammar's queries are written for every tree-sitter host (the CLI, Helix, Zed: Rust
regexes), and Neovim reads them unchanged except for one thing: it compiles `#match?` and
`#not-match?` patterns as Vim regexes in "very magic" mode, where `%`, `<`, `>`, `=`, `@`, `&`
and `~` are operators (`^%envreg` fails with E867 and takes the whole highlighter down). The
copies escape those characters outside bracket expressions, which keeps their meaning.

Usage: sync-queries.py          rewrite the copies
       sync-queries.py --check  exit 1 (and name the files) when a copy is stale
"""
import pathlib
import re
import sys

HERE = pathlib.Path(__file__).resolve().parent
SOURCE = HERE.parent.parent / "grammar" / "queries"
TARGET = HERE / "queries" / "ptx"

VERY_MAGIC_OPERATORS = set("%<>=@&~")
REGEX_PREDICATE = re.compile(r'(\(#(?:not-)?match\?\s+@[\w.]+\s+)"((?:[^"\\]|\\.)*)"')


def unquote(literal):
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), literal)


def quote(text):
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")


def to_vim_very_magic(pattern, where):
    """A Rust-syntax pattern that means the same under Neovim's implicit `\\v`."""
    # Rust constructs with no very-magic spelling: refuse rather than change the meaning.
    for construct in ("(?", "\\b", "\\B", "\\A", "\\z"):
        if construct in pattern:
            sys.exit(f"sync-queries: {where}: {construct!r} in {pattern!r} has no Vim equivalent")
    out, class_start, i = [], None, 0
    while i < len(pattern):
        c = pattern[i]
        if c == "\\" and i + 1 < len(pattern):
            out.append(pattern[i:i + 2])
            i += 2
            continue
        if class_start is not None:
            # A `]` first in a bracket expression (`[]a]`, `[^]a]`) is a member, not its end.
            if c == "]" and i > class_start:
                class_start = None
        elif c == "[":
            class_start = i + 2 if pattern.startswith("^", i + 1) else i + 1
        elif c in VERY_MAGIC_OPERATORS:
            out.append("\\")
        out.append(c)
        i += 1
    return "".join(out)


def generate(source):
    name = source.name
    text = source.read_text()

    def rewrite(match):
        pattern = to_vim_very_magic(unquote(match.group(2)), name)
        return f'{match.group(1)}"{quote(pattern)}"'

    header = (f"; Generated from grammar/queries/{name} by clients/nvim/sync-queries.py: edit that file\n"
              f"; and rerun the script. Regex predicates are rewritten for Neovim's very-magic regexes.\n")
    return header + REGEX_PREDICATE.sub(rewrite, text)


def main():
    check = sys.argv[1:] == ["--check"]
    if sys.argv[1:] not in ([], ["--check"]):
        sys.exit(__doc__)
    wanted = {source.name: generate(source) for source in sorted(SOURCE.glob("*.scm"))}
    if not wanted:
        sys.exit(f"sync-queries: no queries in {SOURCE}")
    present = {path.name for path in TARGET.glob("*.scm")} if TARGET.is_dir() else set()
    stale = sorted(name for name, text in wanted.items()
                   if name not in present or (TARGET / name).read_text() != text)
    extra = sorted(present - wanted.keys())
    if check:
        for name in stale:
            print(f"sync-queries: clients/nvim/queries/ptx/{name} differs from grammar/queries/{name}")
        for name in extra:
            print(f"sync-queries: clients/nvim/queries/ptx/{name} has no source in grammar/queries")
        if stale or extra:
            print("sync-queries: run clients/nvim/sync-queries.py")
            return 1
        return 0
    TARGET.mkdir(parents=True, exist_ok=True)
    for name in stale:
        (TARGET / name).write_text(wanted[name])
    for name in extra:
        (TARGET / name).unlink()
    print(f"sync-queries: {len(stale)} written, {len(extra)} removed, {len(wanted) - len(stale)} up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())
