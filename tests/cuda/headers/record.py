#!/usr/bin/env python3
"""Record what nvcc emits for the inline asm of CUDA's own headers (issue 22 ground truth).

Compiles every tu/*.cu once per device pass (compute_80, compute_90a, compute_100a; one
-gencode each, -ptx -lineinfo, keeping cicc's preprocessed input), then for every block between
`// begin inline asm` and `// end inline asm` in the PTX:
  - resolves the `.loc` before it through the `.file` table to a header under the include root
    and a line (the line nvcc gives: often an operand's line, or a macro invocation's line);
  - finds the asm statement that produced it in the preprocessed source (the same text cicc
    compiled: macros expanded, `#if` arms of that pass chosen) by trying the statements of that
    header nearest at or before the `.loc` line and keeping the first whose template, with each
    %N as a wildcard of its constraint's class, reproduces the block exactly;
  - records the block text byte for byte, what each %N and %= became, and the template.
Writes expected-templates.json (see README.md for the format and the emission rule).

Usage: record.py [--jobs N] [--nvcc PATH] [--include DIR] [--keep DIR] [--only PATTERN]
Needs nvcc 13; prints "skipped: ..." and exits 0 when it is absent.
"""
import argparse
import bisect
import concurrent.futures
import fnmatch
import glob
import itertools
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

PASSES = ['compute_80', 'compute_90a', 'compute_100a']
# (TU, pass) that nvcc rejects because of defects in the headers themselves (README.md)
EXPECTED_FAILURES = {('tu/atomics_b128.cu', 'compute_90a'), ('tu/atomics_b128.cu', 'compute_100a')}
BEGIN = '\t// begin inline asm\n'
END = '\t// end inline asm\n'
ASM_KEYWORD_RE = re.compile(r'(?<![\w$])(?:asm|__asm__|__asm)\b')
RAW_ASM_LINE_RE = re.compile(r'(?<![\w$])(?:asm|__asm__|__asm)(?![\w$])')
LINEMARKER_RE = re.compile(r'^# (\d+) "((?:[^"\\]|\\.)*)"[ \d]*$', re.M)
FILE_RE = re.compile(r'^\s*\.file\s+(\d+)\s+"((?:[^"\\]|\\.)*)"', re.M)
LOC_RE = re.compile(r'^\s*\.loc\s+(\d+)\s+(\d+)\s+(\d+)')
VREG_RE = re.compile(r'%(rd|rs|rq|fd|r|f|p)\d+\b')
# what nvcc pastes for an operand: a virtual register (%r12, %rd3, %rs4, %f5, %fd6, %rq7), or,
# for "n" (and constant register operands), an integer or a hex float/int
OPERAND_TEXT = r'(?:%[a-z]+\d+|-?\d+|0[xXfFdD][0-9A-Fa-f]+)'
# how far below a macro invocation's first line an asm keyword in its arguments may sit
MACRO_ARGUMENT_SPAN = 60
ESCAPES = {'n': '\n', 't': '\t', 'r': '\r', '\\': '\\', '"': '"', "'": "'", '?': '?', 'a': '\a', 'b': '\b',
           'f': '\f', 'v': '\v'}


# ---------------------------------------------------------------- preprocessed C++ (cicc input)

def decode_literal(body):
    """The value of the characters between the quotes of an ordinary string literal."""
    out, i = [], 0
    while i < len(body):
        c = body[i]
        if c != '\\':
            out.append(c)
            i += 1
            continue
        n = body[i + 1]
        if n in ESCAPES:
            out.append(ESCAPES[n])
            i += 2
        elif n == 'x':
            m = re.match(r'[0-9A-Fa-f]+', body[i + 2:])
            out.append(chr(int(m.group(0), 16)))
            i += 2 + len(m.group(0))
        elif n in '01234567':
            m = re.match(r'[0-7]{1,3}', body[i + 1:])
            out.append(chr(int(m.group(0), 8)))
            i += 1 + len(m.group(0))
        else:
            raise ValueError(f'unknown escape \\{n}')
    return ''.join(out)


def read_string(text, i):
    """If a string literal (ordinary or raw, optional u8/u/U/L prefix) starts at i: (value, end)."""
    m = re.compile(r'(?:u8|u|U|L)?(R?)"').match(text, i)
    if not m:
        return None
    if m.group(1):
        d = re.compile(r'([^()\\\s]{0,16})\(').match(text, m.end())
        close = ')' + d.group(1) + '"'
        j = text.index(close, d.end())
        return text[d.end():j], j + len(close)
    j = m.end()
    while text[j] != '"':
        j += 2 if text[j] == '\\' else 1
    return decode_literal(text[m.end():j]), j + 1


def skip_ws(text, i):
    while i < len(text) and text[i] in ' \t\r\n':
        i += 1
    return i


def read_strings(text, i):
    """Adjacent string literals starting at i (after whitespace): (concatenated value, end) or None."""
    parts = []
    while True:
        i = skip_ws(text, i)
        s = read_string(text, i)
        if not s:
            break
        parts.append(s[0])
        i = s[1]
    return (''.join(parts), i) if parts else None


def skip_balanced(text, i):
    """text[i] is '('; return the index after its matching ')', skipping strings and chars."""
    depth = 0
    while i < len(text):
        c = text[i]
        if c == '(':
            depth += 1
        elif c == ')':
            depth -= 1
            if depth == 0:
                return i + 1
        elif c == '"' or (c == 'R' and text.startswith('R"', i)):
            i = read_string(text, i)[1]
            continue
        elif c == "'":
            j = i + 1
            while text[j] != "'":
                j += 2 if text[j] == '\\' else 1
            i = j + 1
            continue
        i += 1
    raise ValueError('unbalanced parentheses')


def parse_asm(text, pos):
    """Parse the asm statement whose keyword starts at pos.

    Returns {template, constraints (outputs then inputs), clobbers, operands} or None when it is
    not an asm statement (e.g. `__asm__("name")` on a declaration is still parsed: harmless).
    """
    m = re.compile(r'(?:asm|__asm__|__asm)\s*((?:(?:volatile|__volatile__|inline|goto)\s*)*)\(').match(text, pos)
    if not m:
        return None
    i = m.end()
    s = read_strings(text, i)
    if not s:
        return None
    template, i = s
    sections = [[], [], []]
    section = -1
    while True:
        i = skip_ws(text, i)
        c = text[i]
        if c == ')':
            break
        if c == ':':
            section += 1
            i += 1
            continue
        if c == ',':
            i += 1
            continue
        s = read_strings(text, i)
        if not s or section < 0 or section > 2:
            raise ValueError(f'cannot parse asm operands near {text[i:i + 60]!r}')
        value, i = s
        if section == 2:
            sections[2].append(value)
            continue
        i = skip_ws(text, i)
        if text[i] != '(':
            raise ValueError(f'operand without expression near {text[i:i + 60]!r}')
        i = skip_balanced(text, i)
        sections[section].append(value)
    constraints = sections[0] + sections[1]
    return {'template': template, 'constraints': constraints, 'clobbers': sections[2],
            'volatile': 'volatile' in m.group(1)}


class Preprocessed:
    """asm statements of one cicc input (.cpp1.ii), by header (relative to the include root)."""

    def __init__(self, path, root):
        with open(path, encoding='utf-8', errors='replace') as f:
            text = f.read()
        offsets, lines, files = [], [], []
        for m in LINEMARKER_RE.finditer(text):
            offsets.append(m.end() + 1)
            lines.append(int(m.group(1)))
            files.append(header_key(decode_literal(m.group(2)), root))
        self.by_header = {}
        for m in ASM_KEYWORD_RE.finditer(text):
            k = bisect.bisect_right(offsets, m.start()) - 1
            if k < 0 or files[k] is None:
                continue
            line = lines[k] + text.count('\n', offsets[k], m.start())
            st = parse_asm(text, m.start())
            if st is None:
                continue
            st['line'] = line
            self.by_header.setdefault(files[k], []).append(st)


# ---------------------------------------------------------------- PTX

def header_key(path, root):
    """Path relative to the real include root, or None when outside it."""
    if not path.startswith('/'):
        return None
    real = os.path.realpath(path)
    if not real.startswith(root + os.sep):
        return None
    return os.path.relpath(real, root)


def ptx_blocks(ptx):
    """Yield (loc(file, line, col) or None, block text) for each inline-asm block."""
    files = {int(m.group(1)): decode_literal(m.group(2)) for m in FILE_RE.finditer(ptx)}
    loc = None
    lines = ptx.split('\n')
    # offsets of each line so that blocks can be cut from the text byte for byte
    starts = [0]
    for ln in lines:
        starts.append(starts[-1] + len(ln) + 1)
    i = 0
    while i < len(lines):
        ln = lines[i]
        m = LOC_RE.match(ln)
        if m:
            loc = (files.get(int(m.group(1))), int(m.group(2)), int(m.group(3)))
        elif ln + '\n' == BEGIN:
            j = i + 1
            while lines[j] + '\n' != END:
                j += 1
            yield loc, ptx[starts[i + 1]:starts[j]]
            i = j
        i += 1


def template_regex(template, constraints):
    """A regex matching what nvcc emits for this template, with a named group per operand."""
    if not constraints:
        return None
    out, seen, i = [], set(), 0
    while i < len(template):
        c = template[i]
        if c != '%':
            out.append(re.escape(c))
            i += 1
            continue
        m = re.compile(r'%(\d+)').match(template, i)
        if m:
            n = int(m.group(1))
            if n >= len(constraints):
                return None  # nvcc would ICE; never emitted
            letter = constraints[n].lstrip('=+&')
            if n in seen:
                out.append(f'(?P=o{n})')
            else:
                seen.add(n)
                pat = '.*?' if letter == 'C' else OPERAND_TEXT
                out.append(f'(?P<o{n}>{pat})')
            i = m.end()
        elif template.startswith('%%', i):
            out.append('%')
            i += 2
        elif template.startswith('%=', i):
            out.append(r'(\d+)')
            i += 2
        else:
            out.append('%')
            i += 1
    return re.compile(''.join(out), re.S)


def emitted_body(block):
    """The template text nvcc substituted: the block without the leading tab and final newline."""
    if block == '':
        return ''
    if not (block.startswith('\t') and block.endswith('\n')):
        raise ValueError(f'unexpected block framing: {block!r}')
    return block[1:-1]


def match_statement(block, candidates, loc_line):
    """The candidate statement that produced block, and the regex match (None for 0 operands)."""
    body = emitted_body(block)
    before = sorted((c for c in candidates if c['line'] <= loc_line), key=lambda c: loc_line - c['line'])
    after = sorted((c for c in candidates if c['line'] > loc_line), key=lambda c: c['line'] - loc_line)
    for c in before + after:
        if not c['constraints']:
            if c['template'] == body:
                return c, None
            continue
        if 'regex' not in c:
            c['regex'] = template_regex(c['template'], c['constraints'])
        if c['regex'] is None:
            continue
        m = c['regex'].fullmatch(body)
        if m:
            return c, m
    return None, None


def rebuild(template, n_operands, operand, percent_equals):
    """nvcc's emission of one statement (the rule README.md states): with no operands the
    template is copied verbatim; with operands %N -> operand(N), %% -> %, %= -> the next of
    percent_equals, any other % unchanged. Non-empty results are framed as '\t' + text + '\n'."""
    if n_operands:
        eq = iter(percent_equals)
        text = re.sub(r'%(\d+|%|=)', lambda m: '%' if m.group(1) == '%' else str(next(eq)) if m.group(1) == '='
                      else operand(int(m.group(1))), template)
    else:
        text = template
    return '\t' + text + '\n' if text else ''


def normalize(stmt, subs):
    """Emitted text with operand registers reduced to their class (%rd#) and %= numbers to '#'."""
    return rebuild(stmt['template'], len(stmt['constraints']),
                   lambda n: VREG_RE.sub(lambda r: '%' + r.group(1) + '#', subs[str(n)]['text']),
                   itertools.repeat('#'))


def substitutions(stmt, m):
    subs, eq = {}, []
    if m is None:
        return subs, eq
    for name, idx in m.re.groupindex.items():
        n = int(name[1:])
        val = m.group(name)
        subs[str(n)] = {'text': val, 'constraint': stmt['constraints'][n],
                        'kind': 'register' if val.startswith('%') else 'immediate'}
    for g in range(1, m.re.groups + 1):
        if g not in m.re.groupindex.values():
            eq.append(int(m.group(g)))
    return dict(sorted(subs.items(), key=lambda kv: int(kv[0]))), eq


def header_lines(root, header, cache):
    if header not in cache:
        with open(os.path.join(root, header), encoding='utf-8', errors='replace') as f:
            cache[header] = f.read().split('\n')
    return cache[header]


def raw_statements(root, header, cache):
    """asm statements as written in the header: [(line, template)] for each keyword followed by
    a template made only of string literals (operands are not parsed: constraints may be macros
    such as __LDG_PTR or _CG_ASM_PTR_CONSTRAINT)."""
    key = ('raw', header)
    if key not in cache:
        text = '\n'.join(header_lines(root, header, cache))
        found = []
        head = re.compile(r'(?:asm|__asm__|__asm)\s*(?:(?:volatile|__volatile__|inline|goto)\s*)*\(')
        for m in ASM_KEYWORD_RE.finditer(text):
            h = head.match(text, m.start())
            if not h:
                continue
            try:
                s = read_strings(text, h.end())
            except (ValueError, IndexError):
                continue
            if s and text[skip_ws(text, s[1])] in ':)':
                found.append((text.count('\n', 0, m.start()) + 1, s[0]))
        cache[key] = found
    return cache[key]


def source_origin(root, header, stmt, cache):
    """Where the statement's asm keyword is in the header itself.

    'direct': on the line the preprocessor reports. 'macroArgument': inside the arguments of a
    macro invocation that starts on that line (NV_IF_TARGET(..., (asm(...);)) and similar) -- the
    keyword's own line is returned. 'macroBody': produced by a macro's replacement list (no line).
    """
    lines = header_lines(root, header, cache)
    if stmt['line'] <= len(lines) and RAW_ASM_LINE_RE.search(lines[stmt['line'] - 1]):
        return 'direct', stmt['line']
    for line, template in raw_statements(root, header, cache):
        if stmt['line'] < line <= stmt['line'] + MACRO_ARGUMENT_SPAN and template == stmt['template']:
            return 'macroArgument', line
    return 'macroBody', None


def asm_line_guess(lines, line):
    """The brief's heuristic: the nearest line at or above the .loc line that mentions asm."""
    for k in range(min(line, len(lines)), 0, -1):
        if RAW_ASM_LINE_RE.search(lines[k - 1]):
            return k
    return None


# ---------------------------------------------------------------- driver

def write_json(result, f):
    """Top-level keys one per line; list items one per line (diffable, a third of indent=1's size)."""
    f.write('{\n')
    for i, (k, v) in enumerate(result.items()):
        f.write(f' {json.dumps(k)}: ')
        if isinstance(v, list) and v:
            f.write('[\n' + ',\n'.join('  ' + json.dumps(x, ensure_ascii=False) for x in v) + '\n ]')
        else:
            f.write(json.dumps(v, ensure_ascii=False))
        f.write(',\n' if i < len(result) - 1 else '\n')
    f.write('}\n')


def compile_one(nvcc, tu, arch, workdir):
    keep = os.path.join(workdir, f'{os.path.basename(tu)[:-3]}.{arch}')
    os.makedirs(keep, exist_ok=True)
    ptx = os.path.join(keep, 'out.ptx')
    cmd = ['nice', '-n', '10', nvcc, '-std=c++17', '-ptx', '-lineinfo', '-gencode', f'arch={arch},code={arch}',
           '-keep', '-keep-dir', keep, tu, '-o', ptx]
    p = subprocess.run(cmd, capture_output=True, text=True)
    ii = os.path.join(keep, os.path.basename(tu)[:-3] + '.cpp1.ii')
    return {'tu': tu, 'pass': arch, 'exit': p.returncode, 'stderr': p.stdout + p.stderr,
            'ptx': ptx if os.path.exists(ptx) else None, 'ii': ii if os.path.exists(ii) else None}


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--jobs', type=int, default=2)
    ap.add_argument('--nvcc', default='/usr/local/cuda/bin/nvcc')
    ap.add_argument('--include', default='/usr/local/cuda/include')
    ap.add_argument('--keep', help='keep the PTX and preprocessed files in this folder')
    ap.add_argument('--only', help='glob of TU file names to compile (for debugging; still rewrites the JSON)')
    ap.add_argument('--out', default=os.path.join(here, 'expected-templates.json'))
    args = ap.parse_args()
    if not os.path.exists(args.nvcc) or not os.path.isdir(args.include):
        print(f'skipped: no nvcc at {args.nvcc} or no {args.include}')
        return 0
    version = re.search(r'V(\d+\.\d+\.\d+)', subprocess.run([args.nvcc, '--version'], capture_output=True,
                                                              text=True).stdout).group(1)
    root = os.path.realpath(args.include)
    tus = sorted(glob.glob(os.path.join(here, 'tu', '*.cu')))
    if args.only:
        tus = [t for t in tus if fnmatch.fnmatch(os.path.basename(t), args.only)]
    workdir = args.keep or tempfile.mkdtemp(prefix='hdr-record-')
    jobs = [(t, a) for a in PASSES for t in tus]
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
        results = list(ex.map(lambda ja: compile_one(args.nvcc, ja[0], ja[1], workdir), jobs))

    entries, unmatched, compiles = {}, [], []
    guess_cache = {}
    for r in results:
        tu_rel = os.path.relpath(r['tu'], here)
        errors = [ln.replace(r['ptx'] or '\0', '<ptx>').replace(here + os.sep, '')
                  for ln in r['stderr'].split('\n') if 'error' in ln]
        compiles.append({'tu': tu_rel, 'pass': r['pass'], 'exit': r['exit'], 'errors': errors})
        if (r['exit'] != 0) != ((tu_rel, r['pass']) in EXPECTED_FAILURES):
            # a TU that stopped compiling (or a header defect that went away) would silently
            # change the ground truth: stop before overwriting it
            print(f"{tu_rel} {r['pass']}: unexpected nvcc exit {r['exit']}: {errors[:3]} (files in {workdir})",
                  file=sys.stderr)
            return 1
        if not r['ptx'] or not r['ii']:
            continue
        pre = Preprocessed(r['ii'], root)
        with open(r['ptx'], encoding='utf-8') as f:
            ptx = f.read()
        for loc, block in ptx_blocks(ptx):
            header = header_key(loc[0], root) if loc and loc[0] else None
            if header is None or loc[1] == 0:
                # nvcc sometimes gives no usable position (.loc of the .cu, line 0): list the
                # header statements that reproduce the block so the case stays inspectable
                found = []
                for h, cands in sorted(pre.by_header.items()):
                    for c in cands:
                        if match_statement(block, [c], c['line'])[0] is not None:
                            found.append({'header': h, 'asmLine': c['line']})
                loc_out = [os.path.relpath(loc[0], here) if loc[0] and loc[0].startswith(here) else loc[0],
                           loc[1], loc[2]] if loc else None
                unmatched.append({'tu': tu_rel, 'pass': r['pass'], 'loc': loc_out,
                                  'ptxText': block, 'candidates': found,
                                  'reason': '.loc has line 0 (no position)' if loc and loc[1] == 0
                                  else '.loc outside the include root'})
                continue
            stmt, m = match_statement(block, pre.by_header.get(header, []), loc[1])
            if stmt is None:
                unmatched.append({'tu': tu_rel, 'pass': r['pass'], 'header': header, 'locLine': loc[1],
                                  'ptxText': block,
                                  'reason': 'no asm statement of this header reproduces the block '
                                            '(an nvcc builtin lowered to inline asm?)'})
                continue
            subs, eq = substitutions(stmt, m)
            # self-check: the recorded template and substitutions must give back nvcc's bytes
            if rebuild(stmt['template'], len(stmt['constraints']), lambda n: subs[str(n)]['text'], eq) != block:
                raise AssertionError(f'{header}:{stmt["line"]}: rebuilt text differs from the PTX block {block!r}')
            norm = normalize(stmt, subs)
            key = (header, loc[1], norm)
            if key in entries:
                e = entries[key]
                if r['pass'] not in e['passes']:
                    e['passes'].append(r['pass'])
                if tu_rel not in e['tus']:
                    e['tus'].append(tu_rel)
                continue
            lines = header_lines(root, header, guess_cache)
            origin, source_line = source_origin(root, header, stmt, guess_cache)
            entries[key] = {
                'header': header,
                'locLine': loc[1],
                'locColumn': loc[2],
                'asmLineGuess': asm_line_guess(lines, loc[1]),
                'asmLine': stmt['line'],
                'origin': origin,
                'sourceAsmLine': source_line,
                'pass': r['pass'],
                'passes': [r['pass']],
                'tus': [tu_rel],
                'ptxText': block,
                'template': stmt['template'],
                'constraints': stmt['constraints'],
                'clobbers': stmt['clobbers'],
                'volatile': stmt['volatile'],
                'operandSubstitutions': subs,
                'percentEquals': eq,
            }

    statements = sorted(entries.values(), key=lambda e: (e['header'], e['asmLine'], e['locLine'], e['ptxText']))
    for e in statements:
        e['passes'].sort(key=PASSES.index)
    distinct_lines = {(e['header'], e['asmLine']) for e in statements}
    distinct_templates = {(e['header'], e['asmLine'], e['template']) for e in statements}
    # statements (header, asm line, template) whose normalized text differs between passes
    by_stmt = {}
    for e in statements:
        for p in e['passes']:
            by_stmt.setdefault((e['header'], e['asmLine'], e['template']), {}).setdefault(p, set()).add(
                normalize(e, e['operandSubstitutions']))
    pass_diffs = []
    for (h, ln, t), per in sorted(by_stmt.items()):
        if len(per) > 1 and len({frozenset(v) for v in per.values()}) > 1:
            pass_diffs.append({'header': h, 'asmLine': ln, 'texts': {p: sorted(v) for p, v in per.items()}})
    result = {
        'about': 'Inline asm that nvcc emits for statements of CUDA\'s own headers; see README.md.',
        'nvcc': version,
        'include': args.include,
        'passes': PASSES,
        'counts': {
            'entries': len(statements),
            'distinctStatementLines': len(distinct_lines),
            'distinctStatementTemplates': len(distinct_templates),
            'headers': len({e['header'] for e in statements}),
            'byOrigin': {o: len({(e['header'], e['asmLine'], e['template']) for e in statements if e['origin'] == o})
                         for o in ('direct', 'macroArgument', 'macroBody')},
            'unmatchedBlocks': len(unmatched),
        },
        'compiles': compiles,
        'passDifferences': pass_diffs,
        'statements': statements,
        'unmatched': unmatched,
    }
    with open(args.out, 'w') as f:
        write_json(result, f)
    if not args.keep:
        shutil.rmtree(workdir, ignore_errors=True)
    print(json.dumps(result['counts']))
    return 0


if __name__ == '__main__':
    sys.exit(main())
