#!/usr/bin/env python3
"""Census of inline-asm statements in the CUDA toolkit's own headers (issue 22 acceptance).

Lists every file under the include root (default /usr/local/cuda/include, recursively, any
extension or none) whose code contains an asm statement: the keyword `asm`, `__asm__` or `__asm`
as a whole identifier, optionally followed by `volatile`/`__volatile__`, then `(` -- outside
comments and string/char literals. It is a lexical heuristic (macros are not expanded, `#if`
arms are all counted), good enough to size the corpus the extractor must handle.

Writes census.json next to this script: {"root", "totalFiles", "totalStatements",
"largestByBytes", "largestByCount", "files": [{"path", "count", "bytes"}]} with paths relative
to the root, sorted by path.

Usage: census.py [--root DIR] [--out FILE]
"""
import argparse
import json
import os
import re
import sys

ASM_RE = re.compile(r'(?<![A-Za-z0-9_$])(?:asm|__asm__|__asm)\s*(?:(?:volatile|__volatile__)\s*)?\(')


def strip_comments_and_literals(text: str) -> str:
    """Blank out comments and the insides of string/char literals, keeping newlines.

    Raw strings R"d(...)d" are handled; a stray quote in a `#error` line cannot run past its
    line because ordinary literals end at an unescaped newline.
    """
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == '/' and i + 1 < n and text[i + 1] == '/':
            j = text.find('\n', i)
            # a backslash-newline continues a // comment
            while j != -1 and j > 0 and text[j - 1] == '\\':
                j = text.find('\n', j + 1)
            j = n if j == -1 else j
            out.append(' ' * 2 + re.sub(r'[^\n]', ' ', text[i + 2:j]))
            i = j
        elif c == '/' and i + 1 < n and text[i + 1] == '*':
            j = text.find('*/', i + 2)
            j = n if j == -1 else j + 2
            out.append(re.sub(r'[^\n]', ' ', text[i:j]))
            i = j
        elif c == 'R' and text.startswith('R"', i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == '_') or text[i - 1] in 'uUL8'):
            m = re.match(r'R"([^()\\\s]{0,16})\(', text[i:])
            if not m:
                out.append(c)
                i += 1
                continue
            end = ')' + m.group(1) + '"'
            j = text.find(end, i + m.end())
            j = n if j == -1 else j + len(end)
            out.append('""' + re.sub(r'[^\n]', ' ', text[i + 2:j]))
            i = j
        elif c in '"\'':
            # a quote preceded by an identifier char that is a digit separator (1'000) is not a literal
            if c == "'" and i > 0 and text[i - 1].isalnum() and i + 1 < n and text[i + 1].isalnum() \
                    and re.match(r"[0-9A-Fa-fxX]", text[i - 1]):
                out.append(' ')
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] != '\n':
                j += 2 if text[j] == '\\' else 1
            j = min(j + 1, n)
            out.append(c + re.sub(r'[^\n]', ' ', text[i + 1:j - 1]) + c)
            i = j
        else:
            out.append(c)
            i += 1
    return ''.join(out)


def count_asm(text: str) -> int:
    return len(ASM_RE.findall(strip_comments_and_literals(text)))


def main() -> int:
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--root', default='/usr/local/cuda/include')
    ap.add_argument('--out', default=os.path.join(here, 'census.json'))
    args = ap.parse_args()
    if not os.path.isdir(args.root):
        print(f'skipped: no CUDA include directory at {args.root}')
        return 0
    files = []
    for dirpath, dirnames, filenames in os.walk(args.root):
        dirnames.sort()
        for name in sorted(filenames):
            full = os.path.join(dirpath, name)
            if os.path.islink(full) or not os.path.isfile(full):
                continue
            with open(full, 'rb') as f:
                data = f.read()
            if b'\0' in data[:4096]:
                continue  # binary
            count = count_asm(data.decode('utf-8', errors='replace'))
            if count:
                files.append({'path': os.path.relpath(full, args.root), 'count': count, 'bytes': len(data)})
    files.sort(key=lambda f: f['path'])
    by_bytes = max(files, key=lambda f: f['bytes'])
    by_count = max(files, key=lambda f: f['count'])
    result = {
        'root': args.root,
        'totalFiles': len(files),
        'totalStatements': sum(f['count'] for f in files),
        'largestByBytes': by_bytes,
        'largestByCount': by_count,
        'files': files,
    }
    with open(args.out, 'w') as f:
        json.dump(result, f, indent=1)
        f.write('\n')
    print(f"{result['totalStatements']} asm statements in {result['totalFiles']} files; "
          f"largest by bytes {by_bytes['path']} ({by_bytes['bytes']} bytes, {by_bytes['count']} asm); "
          f"largest by count {by_count['path']} ({by_count['count']} asm, {by_count['bytes']} bytes)")
    return 0


if __name__ == '__main__':
    sys.exit(main())
