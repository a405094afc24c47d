#!/usr/bin/env python3
"""Records what nvcc and ptxas say about every inline-asm case in tests/cuda/cases/ (issue 22's
acceptance suite) into tests/cuda/cases/ground-truth.json, and writes each file's verdict into
its opening comment. The analyzer is judged against these verdicts: an error finding is right
only where nvcc or ptxas fail, and the warning-class defects (ASM006..ASM010) carry evidence from
the PTX that nvcc really miscompiles them or that ptxas rejects them once the code is duplicated.

Why it does more than `nvcc -ptx`: `nvcc -ptx -arch=sm_90a` writes only the last device pass and
runs ptxas only for compute_90 and newer (../shared/docs/inline-ptx.md §5). So every pass that
`nvcc --dryrun <the case's flags>` shows is compiled on its own (`-gencode
arch=compute_X,code=compute_X -ptx -lineinfo`), and ptxas is run here on that PTX for every
target the pass feeds (the `ptxas -arch=...` lines of the dry run). ptxas's PTX line numbers are
mapped back to the .cu through the last `.loc` before the `// begin inline asm` block, the asm
statement around that line, and the line offset inside the rebuilt template.

Usage: record-ground-truth.py [--check] [--jobs N] [--timeout S] [NAME.cu ...]
  --check   compile everything again and compare the verdicts (per file, per pass, and the
            PTX evidence) with the committed JSON; exit 1 on a difference; writes nothing.
Exits 77 with "skipped: ..." when nvcc or ptxas is absent (the suite's convention for CTest).
Run it under `nice -n 10`; it runs at most --jobs compilers at once, each with a timeout.
"""
import argparse
import concurrent.futures
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
CASES = HERE / "cases"
TRUTH = CASES / "ground-truth.json"
CUDA_BIN = Path(os.environ.get("CUDA_BIN", "/usr/local/cuda/bin"))

WARNING_CODES = {"ASM006", "ASM007", "ASM008", "ASM009", "ASM010"}

# ---------------------------------------------------------------------------------------------
# The case files: flags, markers, header lines the script fills.

FLAGS_RE = re.compile(r"^//\s*nvcc-flags:(.*)$")
EXPECT_RE = re.compile(r'//\s*expect:\s*([A-Z]+[0-9]+)(?:\s+at\s+"((?:[^"\\]|\\.)*)")?\s*$')
CHECKED_PREFIX = "// Checked with:"
VERDICT_PREFIX = "// Verdict:"


def read_case(path: Path):
    lines = path.read_text().splitlines()
    m = FLAGS_RE.match(lines[0]) if lines else None
    if not m:
        raise SystemExit(f"{path.name}: the first line must be '// nvcc-flags: ...'")
    expects = []
    for number, line in enumerate(lines, 1):
        e = EXPECT_RE.search(line)
        if e:
            text = e.group(2)
            entry = {"code": e.group(1), "line": number}
            if text is not None:
                # The marker text is the source's own characters; \" inside it is a quote.
                text = text.replace('\\"', '"')
                code_part = line[: e.start()]
                column = code_part.find(text)
                if column < 0:
                    raise SystemExit(f"{path.name}:{number}: marker text {text!r} is not on the line")
                entry["at"] = text
                entry["column"] = column + 1
            expects.append(entry)
    return shlex.split(m.group(1)), expects


def fill_header(path: Path, checked: str, verdict: str):
    """Rewrites the '// Checked with:' and '// Verdict:' lines in place (line count unchanged)."""
    lines = path.read_text().split("\n")
    found = 0
    for i, line in enumerate(lines[:40]):
        if line.startswith(CHECKED_PREFIX):
            lines[i] = f"{CHECKED_PREFIX} {checked}"
            found |= 1
        elif line.startswith(VERDICT_PREFIX):
            lines[i] = f"{VERDICT_PREFIX} {verdict}"
            found |= 2
    if found != 3:
        raise SystemExit(f"{path.name}: the opening comment needs '{CHECKED_PREFIX}' and '{VERDICT_PREFIX}' lines")
    text = "\n".join(lines)
    if text != path.read_text():
        path.write_text(text)


# ---------------------------------------------------------------------------------------------
# A small C++ scanner: enough to find asm statements, rebuild their templates (adjacent literals,
# escapes, backslash-newline splices, object-like string macros) and know the physical line of
# every template character. Only used to map ptxas's PTX lines back to .cu lines.

class Token:
    __slots__ = ("kind", "text", "value", "offsets", "start", "directive")

    def __init__(self, kind, text, start, value=None, offsets=None, directive=None):
        self.kind, self.text, self.start = kind, text, start
        self.value, self.offsets, self.directive = value, offsets, directive


SIMPLE_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", '"': '"', "'": "'", "?": "?",
                  "a": "\a", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}


def logical_chars(src: str):
    """The source with backslash-newline splices removed, and the physical offset of each char."""
    chars, offsets, i = [], [], 0
    while i < len(src):
        if src[i] == "\\" and src[i + 1:i + 2] == "\n":
            i += 2
            continue
        if src[i] == "\\" and src[i + 1:i + 3] == "\r\n":
            i += 3
            continue
        chars.append(src[i])
        offsets.append(i)
        i += 1
    return "".join(chars), offsets


def tokenize(src: str):
    text, phys = logical_chars(src)
    tokens, i, n = [], 0, len(text)
    at_line_start, directive = True, None
    while i < n:
        c = text[i]
        if c == "\n":
            at_line_start, directive = True, None
            i += 1
            continue
        if c in " \t\r\f\v":
            i += 1
            continue
        if text.startswith("//", i):
            while i < n and text[i] != "\n":
                i += 1
            continue
        if text.startswith("/*", i):
            end = text.find("*/", i + 2)
            i = n if end < 0 else end + 2
            continue
        if c == "#" and at_line_start:
            directive = object()  # identity shared by the tokens of this directive line
            tokens.append(Token("punct", "#", phys[i], directive=directive))
            at_line_start = False
            i += 1
            continue
        at_line_start = False
        if c == '"':
            j, value, offs = i + 1, [], []
            while j < n and text[j] != '"' and text[j] != "\n":
                if text[j] == "\\" and j + 1 < n:
                    e = text[j + 1]
                    if e in SIMPLE_ESCAPES and not (e == "0" and j + 2 < n and text[j + 2].isdigit()):
                        value.append(SIMPLE_ESCAPES[e])
                        offs.append(phys[j])
                        j += 2
                        continue
                    if e == "x":
                        k = j + 2
                        while k < n and text[k] in "0123456789abcdefABCDEF":
                            k += 1
                        value.append(chr(int(text[j + 2:k], 16)))
                        offs.append(phys[j])
                        j = k
                        continue
                    if e in "01234567":
                        k = j + 1
                        while k < n and k < j + 4 and text[k] in "01234567":
                            k += 1
                        value.append(chr(int(text[j + 1:k], 8)))
                        offs.append(phys[j])
                        j = k
                        continue
                    value.append(e)
                    offs.append(phys[j])
                    j += 2
                    continue
                value.append(text[j])
                offs.append(phys[j])
                j += 1
            tokens.append(Token("string", text[i:j + 1], phys[i], "".join(value), offs, directive))
            i = j + 1
            continue
        if c == "'":
            j = i + 1
            while j < n and text[j] != "'" and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            tokens.append(Token("char", text[i:j + 1], phys[i], directive=directive))
            i = j + 1
            continue
        if c.isalpha() or c == "_":
            j = i
            while j < n and (text[j].isalnum() or text[j] == "_"):
                j += 1
            # Raw strings and encoding prefixes do not occur in the suite's templates; a prefixed
            # literal is read as an identifier followed by a string (fine for line mapping).
            tokens.append(Token("ident", text[i:j], phys[i], directive=directive))
            i = j
            continue
        if c.isdigit():
            j = i
            while j < n and (text[j].isalnum() or text[j] in "._'"):
                j += 1
            tokens.append(Token("number", text[i:j], phys[i], directive=directive))
            i = j
            continue
        two = text[i:i + 2]
        if two in ("::", "->", "<<", ">>", "&&", "||", "==", "!=", "<=", ">=", "##"):
            tokens.append(Token("punct", two, phys[i], directive=directive))
            i += 2
            continue
        tokens.append(Token("punct", c, phys[i], directive=directive))
        i += 1
    return tokens


class AsmStatement:
    def __init__(self, first_line, last_line, template_chars, macro, opaque, has_operands):
        self.first_line, self.last_line = first_line, last_line
        self.template = template_chars  # list of (char, physical line)
        self.macro = macro              # name of the function-like macro holding it, or None
        self.opaque = opaque
        self.has_operands = has_operands
        self._pattern = None

    def matches(self, block_text):
        """Whether an emitted asm block is this statement's template (whitespace ignored; %N
        stands for any register or immediate, %% for %, %= for a number)."""
        if self._pattern is None:
            text = "".join(ch for ch, _ in self.template)
            parts, i = [], 0
            while i < len(text):
                if self.has_operands and text[i] == "%":
                    m = re.match(r"%(\d+)", text[i:])
                    if m:
                        parts.append(r"[^\s,;\[\]{}]+")
                        i += len(m.group(0))
                        continue
                    if text[i + 1:i + 2] == "%":
                        parts.append("%")
                        i += 2
                        continue
                    if text[i + 1:i + 2] == "=":
                        parts.append(r"\d+")
                        i += 2
                        continue
                if not text[i].isspace():
                    parts.append(re.escape(text[i]))
                i += 1
            self._pattern = re.compile("".join(parts))
        return self._pattern.fullmatch(re.sub(r"\s+", "", block_text)) is not None

    def template_line(self, k):
        """Physical .cu line where line k (0-based) of the template starts (first non-blank)."""
        lines, current = [], []
        for ch, line in self.template:
            if ch == "\n":
                lines.append(current)
                current = []
            else:
                current.append((ch, line))
        lines.append(current)
        if k >= len(lines):
            return None
        chars = lines[k]
        for ch, line in chars:
            if not ch.isspace():
                return line
        return chars[0][1] if chars else None


def scan_asm(src: str):
    """Every asm statement of the file (also those in macro bodies) and the macro tables."""
    line_starts = [0]
    for i, ch in enumerate(src):
        if ch == "\n":
            line_starts.append(i + 1)

    def line_of(offset):
        lo, hi = 0, len(line_starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if line_starts[mid] <= offset:
                lo = mid
            else:
                hi = mid - 1
        return lo + 1

    tokens = tokenize(src)
    string_macros, function_macros = {}, {}
    for i, tok in enumerate(tokens):
        if tok.text == "#" and tok.directive is not None and i + 2 < len(tokens):
            if tokens[i + 1].text == "define" and tokens[i + 2].kind == "ident":
                name_tok = tokens[i + 2]
                body = [t for t in tokens[i + 3:] if t.directive is tok.directive]
                is_function = (bool(body) and body[0].text == "("
                               and body[0].start == name_tok.start + len(name_tok.text))
                if is_function:
                    function_macros[name_tok.text] = tok.directive
                elif body and all(t.kind == "string" for t in body):
                    string_macros[name_tok.text] = body
    statements = []
    for i, tok in enumerate(tokens):
        if tok.kind != "ident" or tok.text not in ("asm", "__asm__", "__asm"):
            continue
        j = i + 1
        while j < len(tokens) and tokens[j].text in ("volatile", "__volatile__", "inline", "goto"):
            j += 1
        if j >= len(tokens) or tokens[j].text != "(":
            continue
        depth, k, chars, opaque, in_template, has_operands = 0, j, [], False, True, False
        while k < len(tokens):
            t = tokens[k]
            if t.directive is not None and t.directive is not tok.directive:
                k += 1  # a directive inside the statement (#if in the operand list)
                continue
            if t.text in ("(", "[", "{"):
                depth += 1
            elif t.text in (")", "]", "}"):
                depth -= 1
                if depth == 0:
                    break
            elif depth == 1 and t.text in (":", "::"):
                in_template = False
            elif depth == 1 and not in_template and t.kind == "string" and tokens[k + 1].text == "(":
                has_operands = True  # a constraint followed by its parenthesized expression
            elif depth == 1 and in_template:
                if t.kind == "string":
                    chars.extend((ch, line_of(off)) for ch, off in zip(t.value, t.offsets))
                elif t.kind == "ident" and t.text in string_macros:
                    for piece in string_macros[t.text]:
                        chars.extend((ch, line_of(off)) for ch, off in zip(piece.value, piece.offsets))
                else:
                    opaque = True
            k += 1
        macro = None
        if tok.directive is not None:
            macro = next((name for name, d in function_macros.items() if d is tok.directive), None)
        end = tokens[min(k, len(tokens) - 1)].start
        statements.append(AsmStatement(line_of(tok.start), line_of(end), chars, macro, opaque, has_operands))
    # Lines where each function-like macro is invoked (outside directives).
    invocations = {}
    for i, tok in enumerate(tokens[:-1]):
        if tok.kind == "ident" and tok.directive is None and tok.text in function_macros \
                and tokens[i + 1].text == "(":
            invocations.setdefault(tok.text, set()).add(line_of(tok.start))
    return statements, invocations


def statement_at(statements, invocations, line):
    """Index of the asm statement a `.loc` line belongs to: the one whose text spans it, else
    the one in a function-like macro invoked on that line."""
    for index, st in enumerate(statements):
        if st.macro is None and st.first_line <= line <= st.last_line:
            return index
    for index, st in enumerate(statements):
        if st.macro is not None and line in invocations.get(st.macro, ()):
            return index
    return None


def resolve_blocks(blocks, ptx_lines, statements, invocations):
    """Sets block["statement"] (index into statements, or None). The `.loc` before the block
    decides when it points into a statement; code that nvcc hoisted or merged carries `.loc 1 0`
    or the caller's line, and then the block's text decides, when exactly one template fits."""
    for block in blocks:
        text = "\n".join(ptx_lines[block["begin"]:block["end"] - 1])
        index = statement_at(statements, invocations, block["loc_line"]) if block["loc_line"] else None
        if index is None:
            fits = [i for i, st in enumerate(statements) if not st.opaque and st.matches(text)]
            index = fits[0] if len(fits) == 1 else None
            block["matched_by"] = "text" if index is not None else None
        else:
            block["matched_by"] = "loc"
        block["statement"] = index


# ---------------------------------------------------------------------------------------------
# PTX reading: asm blocks, their .loc, loops.

LOC_RE = re.compile(r"^\s*\.loc\s+(\d+)\s+(\d+)\s+(\d+)")
FILE_RE = re.compile(r'^\s*\.file\s+(\d+)\s+"([^"]+)"')
LABEL_RE = re.compile(r"^\s*(\$?[A-Za-z_$][\w$]*):")
BRANCH_RE = re.compile(r"^\s*(?:@!?%\w+\s+)?bra(?:\.uni)?\s+(\$?[\w$]+)\s*;")
ENTRY_RE = re.compile(r"^\s*\.(?:visible\s+|weak\s+|extern\s+)*\.?(entry|func)\b")


def read_ptx(ptx_text: str, cu_name: str):
    """The asm blocks of the PTX: begin line, end line, the .loc (file, line) before them, and
    whether a backward branch spans them (they sit inside a loop)."""
    lines = ptx_text.split("\n")
    files = {}
    for line in lines:
        m = FILE_RE.match(line)
        if m:
            files[int(m.group(1))] = Path(m.group(2)).name
    blocks, loc, begin = [], None, None
    labels, branches = {}, []
    for number, line in enumerate(lines, 1):
        m = LOC_RE.match(line)
        if m:
            loc = (int(m.group(1)), int(m.group(2)))
            continue
        if line.strip() == "// begin inline asm":
            begin = number
            continue
        if line.strip() == "// end inline asm" and begin is not None:
            file = files.get(loc[0]) if loc else None
            blocks.append({"begin": begin, "end": number,
                           "loc_line": loc[1] if loc and file == cu_name else None})
            begin = None
            continue
        if begin is not None:
            continue  # labels and branches inside asm text are the template's own
        if ENTRY_RE.match(line):
            labels = {}
        m = LABEL_RE.match(line)
        if m:
            labels[m.group(1)] = number
        m = BRANCH_RE.match(line)
        if m:
            branches.append((number, m.group(1), dict(labels)))
    for block in blocks:
        block["in_loop"] = any(
            target in seen and seen[target] < block["begin"] < number
            for number, target, seen in branches)
    return lines, blocks


def map_ptx_line(ptx_line, ptx_lines, blocks, statements, invocations, cu_name):
    """Where a PTX line comes from in the .cu: the asm statement and the template line, or the
    last .loc for a compiler-generated line."""
    result = {"ptx_line": ptx_line}
    if 1 <= ptx_line <= len(ptx_lines):
        result["ptx_text"] = ptx_lines[ptx_line - 1].strip()
    for block in blocks:
        if block["begin"] < ptx_line < block["end"]:
            k = ptx_line - block["begin"] - 1
            result["loc_line"] = block["loc_line"]
            result["asm_block_line"] = k
            st = statements[block["statement"]] if block["statement"] is not None else None
            if st is not None:
                result["asm_line"] = st.first_line
                if not st.opaque:
                    result["cu_line"] = st.template_line(k)
            return result
    # A line nvcc generated: the last .loc before it, when it names the case's own file (the
    # .file table comes at the end of the PTX).
    files = {int(m.group(1)): Path(m.group(2)).name
             for m in (FILE_RE.match(line) for line in ptx_lines) if m}
    loc = None
    for line in ptx_lines[:ptx_line]:
        m = LOC_RE.match(line)
        if m:
            loc = (int(m.group(1)), int(m.group(2)))
    if loc and files.get(loc[0]) == cu_name and loc[1] > 0:
        result["loc_line"] = loc[1]
        result["cu_line"] = loc[1]
    return result


# ---------------------------------------------------------------------------------------------
# Running the tools.

NVCC_MSG_RE = re.compile(r"^(?P<file>[^\s()]+)\((?P<line>\d+)\): (?P<severity>error|warning|remark)\s*(?:#\w+-\w+)?\s*:\s*(?P<message>.*)$")
PTXAS_MSG_RE = re.compile(r"^ptxas\s+(?:(?P<file>\S+), line (?P<line>\d+); )?(?P<severity>error|fatal|warning|info)\s*:\s*(?P<message>.*)$")
QUOTED_LINE_RE = re.compile(r"on line '(\d+)'")


def run(argv, timeout, cwd):
    try:
        proc = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=timeout)
        return proc.returncode, (proc.stdout + proc.stderr)
    except subprocess.TimeoutExpired:
        return "timeout", ""


def split_arch_flags(flags):
    """(arch flags, other flags). Arch flags are each kept whole, with their value."""
    arch, other, i = [], [], 0
    while i < len(flags):
        f = flags[i]
        if f in ("-arch", "-gencode", "--gpu-architecture", "--generate-code", "-code", "--gpu-code"):
            arch.append(f"{f}={flags[i + 1]}" if f != "-gencode" else f"-gencode={flags[i + 1]}")
            i += 2
            continue
        if re.match(r"^(-arch|-gencode|--gpu-architecture|--generate-code|-code|--gpu-code)=", f):
            arch.append(f)
        else:
            other.append(f)
        i += 1
    return arch, other


def dryrun_passes(nvcc, arch_flags, other, cu, timeout, workdir):
    """[(virtual arch, [ptxas targets])] in the order nvcc runs them."""
    argv = [str(nvcc), "--dryrun", *other, *arch_flags, "-c", cu.name, "-o", str(workdir / "dryrun.o")]
    rc, out = run(argv, timeout, cu.parent)
    if rc != 0:
        raise SystemExit(f"{cu.name}: nvcc --dryrun failed ({rc}):\n{out}")
    passes = []
    for line in out.splitlines():
        if not line.startswith("#$ "):
            continue
        m = re.search(r"cicc\"?\s.*?-arch (compute_\w+)", line)
        if m:
            passes.append((m.group(1), []))
            continue
        m = re.match(r"#\$ ptxas\s.*?-arch=(\w+)", line)
        if m and passes:
            passes[-1][1].append(m.group(1))
    return passes


def parse_nvcc_messages(output):
    messages = []
    for line in output.splitlines():
        m = NVCC_MSG_RE.match(line)
        if m:
            messages.append({"file": m.group("file"), "line": int(m.group("line")),
                             "severity": m.group("severity"), "message": m.group("message").strip()})
    return messages


def parse_ptxas_messages(output):
    messages = []
    for line in output.splitlines():
        m = PTXAS_MSG_RE.match(line.strip())
        if not m:
            continue
        entry = {"severity": m.group("severity"), "message": m.group("message").strip()}
        if m.group("line"):
            entry["ptx_line"] = int(m.group("line"))
        else:
            q = QUOTED_LINE_RE.search(entry["message"])
            if q:
                entry["ptx_line"] = int(q.group(1))
        messages.append(entry)
    return messages


def record_case(cu: Path, nvcc: Path, ptxas: Path, timeout: int):
    flags, expects = read_case(cu)
    arch_flags, other = split_arch_flags(flags)
    if not arch_flags:
        raise SystemExit(f"{cu.name}: nvcc-flags names no -arch/-gencode")
    src = cu.read_text()
    statements, invocations = scan_asm(src)
    with tempfile.TemporaryDirectory(prefix="asm-gt-") as tmp:
        work = Path(tmp)
        passes = dryrun_passes(nvcc, arch_flags, other, cu, timeout, work)
        origins = {virtual: arch_flags[0] for virtual, _ in passes}
        if len(arch_flags) > 1:  # which of the case's arch flags makes each pass
            origins = {}
            for flag in arch_flags:
                for virtual, _ in dryrun_passes(nvcc, [flag], other, cu, timeout, work):
                    origins.setdefault(virtual, flag)
        result_passes = []
        for virtual, targets in passes:
            ptx = work / f"{cu.stem}.{virtual}.ptx"
            argv = [str(nvcc), *other, "-lineinfo", "-ptx",
                    "-gencode", f"arch={virtual},code={virtual}", cu.name, "-o", str(ptx)]
            rc, out = run(argv, timeout, cu.parent)
            shown = [a if not a.startswith(str(work)) else Path(a).name for a in argv]
            shown[0] = "nvcc"
            entry = {
                "pass": virtual,
                "origin": f"{virtual} from {origins.get(virtual, ' '.join(arch_flags))}",
                "nvcc": {"argv": shown, "rc": rc, "messages": parse_nvcc_messages(out),
                         "output": trim_output(out, work)},
            }
            ptx_text = ptx.read_text() if ptx.exists() and ptx.stat().st_size else None
            entry["ptx_written"] = ptx_text is not None
            if ptx_text is not None:
                ptx_lines, blocks = read_ptx(ptx_text, cu.name)
                resolve_blocks(blocks, ptx_lines, statements, invocations)
                entry["asm_blocks"] = summarize_blocks(blocks, statements, invocations)
                entry["nvcc"]["ptxas_messages"] = [
                    add_mapping(m, ptx_lines, blocks, statements, invocations, cu.name)
                    for m in parse_ptxas_messages(out)]
                entry["ptxas"] = []
                for target in targets:
                    pargv = [str(ptxas), f"-arch={target}", "-m64", str(ptx), "-o", os.devnull]
                    prc, pout = run(pargv, timeout, work)
                    entry["ptxas"].append({
                        "target": target,
                        "argv": ["ptxas", f"-arch={target}", "-m64", ptx.name, "-o", os.devnull],
                        "rc": prc,
                        "messages": [add_mapping(m, ptx_lines, blocks, statements, invocations, cu.name)
                                     for m in parse_ptxas_messages(pout)],
                        "output": trim_output(pout, work),
                    })
            entry["verdict"] = pass_verdict(entry)
            result_passes.append(entry)
    record = {"flags": flags, "expect": expects, "passes": result_passes}
    record["verdict"] = "accepts" if all(p["verdict"] == "ok" for p in result_passes) else "rejects"
    return record


def trim_output(out, work):
    out = out.replace(str(work) + "/", "")
    return out.strip()[:4000]


def add_mapping(message, ptx_lines, blocks, statements, invocations, cu_name):
    if "ptx_line" in message:
        message.update(map_ptx_line(message["ptx_line"], ptx_lines, blocks, statements,
                                    invocations, cu_name))
    return message


def summarize_blocks(blocks, statements, invocations):
    """Per asm statement of the .cu (by the line of its `asm` keyword): how many blocks the pass
    emitted and how many of them sit inside a loop."""
    summary = {}
    for block in blocks:
        st = statements[block["statement"]] if block["statement"] is not None else None
        key = str(st.first_line) if st else "unmapped"
        s = summary.setdefault(key, {"emitted": 0, "in_loop": 0})
        s["emitted"] += 1
        s["in_loop"] += int(block["in_loop"])
    return summary


def pass_verdict(entry):
    """ok, nvcc-timeout, nvcc-internal-error, nvcc-error (front end, no PTX), ptxas-timeout or
    ptxas-error (any ptxas run on the pass's PTX failed)."""
    nvcc = entry["nvcc"]
    if nvcc["rc"] == "timeout":
        return "nvcc-timeout"
    if any("Internal Compiler Error" in m["message"] for m in nvcc["messages"]):
        return "nvcc-internal-error"
    if any(m["severity"] == "error" for m in nvcc["messages"]) or not entry["ptx_written"]:
        return "nvcc-error"
    if any(r["rc"] == "timeout" for r in entry["ptxas"]):
        return "ptxas-timeout"
    if any(r["rc"] != 0 for r in entry["ptxas"]):
        return "ptxas-error"
    # nvcc -ptx runs ptxas itself for compute_90 and newer; it must agree with ours.
    return "ok" if nvcc["rc"] == 0 else "nvcc-error"


# ---------------------------------------------------------------------------------------------
# Evidence for the warning-class defects, and the one-line verdict.

def statement_index_of_marker(cu: Path, line):
    """The position (0-based, in file order) of the asm statement holding a marker line."""
    statements, _ = scan_asm(cu.read_text())
    for index, st in enumerate(statements):
        if st.first_line <= line <= st.last_line:
            return index
    return None


def statement_line_at(cu: Path, index):
    statements, _ = scan_asm(cu.read_text())
    return statements[index].first_line if index is not None and index < len(statements) else None


def blocks_of(record, statement_line):
    return {p["pass"]: p.get("asm_blocks", {}).get(str(statement_line), {"emitted": 0, "in_loop": 0})
            for p in record["passes"] if p["ptx_written"]}


def evidence(name, record, twin_record, cases_dir):
    codes = {e["code"] for e in record["expect"]}
    code = next(iter(codes)) if len(codes) == 1 else None
    if code not in WARNING_CODES:
        return None
    line = record["expect"][0]["line"]
    ev = {"code": code}
    if code == "ASM006":
        dups = [
            {"pass": p["pass"], "target": r["target"], "message": m["message"], "cu_line": m.get("cu_line")}
            for p in record["passes"] for r in p.get("ptxas", [])
            for m in r["messages"] if "Duplicate definition" in m["message"]]
        ev["duplicate_definitions"] = dups
        ev["finding"] = "ptxas rejects the duplicated definition" if dups else "none"
        return ev
    if code in ("ASM007", "ASM008"):
        ev["finding"] = "accepts" if record["verdict"] == "accepts" else "rejects"
        return ev
    # The twin has the same asm statements in the same order (its fix may move lines).
    index = statement_index_of_marker(cases_dir / name, line)
    st_line = statement_line_at(cases_dir / name, index)
    twin_line = statement_line_at(cases_dir / ("ok_" + name), index)
    ev["statement_line"] = st_line
    ev["twin_statement_line"] = twin_line
    ev["defect_blocks"] = blocks_of(record, st_line)
    ev["twin_blocks"] = blocks_of(twin_record, twin_line) if twin_record else None
    findings = []
    for p, d in ev["defect_blocks"].items():
        t = (ev["twin_blocks"] or {}).get(p, {"emitted": 0, "in_loop": 0})
        if code == "ASM009":
            if d["emitted"] == 0 and t["emitted"] > 0:
                findings.append(f"{p}: deleted")
            elif d["emitted"] < t["emitted"]:
                findings.append(f"{p}: merged ({d['emitted']} of {t['emitted']} kept)")
            else:
                findings.append(f"{p}: kept")
        else:
            if d["in_loop"] == 0 and t["in_loop"] > 0:
                findings.append(f"{p}: hoisted out of the loop" if d["emitted"] else f"{p}: deleted")
            else:
                findings.append(f"{p}: still in the loop")
    ev["finding"] = "; ".join(findings)
    return ev


def one_line_verdict(record):
    parts = []
    for p in record["passes"]:
        v = p["verdict"]
        detail = ""
        if v.startswith("nvcc"):
            msgs = [m for m in p["nvcc"]["messages"] if m["severity"] == "error"]
            if msgs:
                detail = f' line {msgs[0]["line"]}: {msgs[0]["message"][:160]}'
        elif v.startswith("ptxas"):
            for r in p["ptxas"]:
                msgs = [m for m in r["messages"] if m["severity"] in ("error", "fatal")]
                if msgs:
                    m = next((x for x in msgs if "cu_line" in x), msgs[0])
                    where = f' .cu line {m["cu_line"]}' if "cu_line" in m else ""
                    detail = f' ({r["target"]}){where}: {m["message"][:160]}'
                    # A fatal error without a line (the 32-bit address case) follows a
                    # warning that has one.
                    warning = next((x for x in r["messages"] if "cu_line" in x), None)
                    if not where and warning:
                        detail += f' (after "{warning["message"][:80]}" at .cu line {warning["cu_line"]})'
                    break
        parts.append(f"{p['pass']}: {v}{detail}")
    text = "accepts (" + ", ".join(p["pass"] for p in record["passes"]) + ")" \
        if record["verdict"] == "accepts" else "; ".join(parts)
    if record.get("evidence") and record["evidence"]["code"] in ("ASM009", "ASM010"):
        text += "; PTX: " + record["evidence"]["finding"]
    return text


def checked_with(record):
    """One line: the case's flags and, per device pass, the ptxas targets it was checked for."""
    passes = ", ".join(f"{p['pass']} (ptxas -arch={'/'.join(r['target'] for r in p.get('ptxas', [])) or '-'})"
                       for p in record["passes"])
    return f"nvcc {' '.join(record['flags'])} = {passes}; each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P"


README = HERE / "README.md"
TABLE_BEGIN, TABLE_END = "<!-- table:begin -->", "<!-- table:end -->"


def readme_table(cases):
    """The README's table of cases, one row per defect, from the recorded JSON."""
    def cell(text):
        return text.replace("|", "\\|").replace("\n", " ")

    rows = ["| case | code | marker (line: text) | flags | nvcc / ptxas per pass | twin |",
            "|---|---|---|---|---|---|"]
    for name, rec in sorted(cases.items(), key=lambda kv: (kv[1]["expect"][0]["code"] if kv[1]["expect"] else "", kv[0])):
        if name.startswith("ok_"):
            continue
        e = rec["expect"][0]
        twin = cases.get(rec["twin"], {}).get("verdict", "not recorded")
        rows.append(f"| `{name}` | {e['code']} | {e['line']}: `{cell(e.get('at', ''))}` | "
                    f"`{' '.join(rec['flags'])}` | {cell(rec['verdict_line'])} | {twin} |")
    counts = {}
    for name, rec in cases.items():
        if not name.startswith("ok_") and rec["expect"]:
            counts[rec["expect"][0]["code"]] = counts.get(rec["expect"][0]["code"], 0) + 1
    summary = ", ".join(f"{code} {n}" for code, n in sorted(counts.items()))
    return "\n".join([f"{sum(counts.values())} defects ({summary}), each with its twin.", ""] + rows)


def write_readme_table(cases):
    if not README.exists():
        return
    text = README.read_text()
    begin, end = text.find(TABLE_BEGIN), text.find(TABLE_END)
    if begin < 0 or end < begin:
        raise SystemExit(f"{README}: no {TABLE_BEGIN} ... {TABLE_END} section")
    new = text[:begin + len(TABLE_BEGIN)] + "\n" + readme_table(cases) + "\n" + text[end:]
    if new != text:
        README.write_text(new)


# ---------------------------------------------------------------------------------------------

def tool_version(tool):
    rc, out = run([str(tool), "--version"], 30, None)
    m = re.search(r"V(\d+\.\d+\.\d+)", out)
    return m.group(1) if m else None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("names", nargs="*", help="case files to record (default: all)")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=120)
    args = ap.parse_args()
    nvcc, ptxas = CUDA_BIN / "nvcc", CUDA_BIN / "ptxas"
    if not (nvcc.exists() and ptxas.exists()):
        print(f"skipped: nvcc/ptxas not found in {CUDA_BIN}")
        return 77
    all_files = sorted(p for p in CASES.glob("*.cu"))
    files = [CASES / n for n in args.names] if args.names else all_files
    defects = [f for f in all_files if not f.name.startswith("ok_")]
    problems = []
    for f in all_files:
        _, expects = read_case(f)
        if f.name.startswith("ok_"):
            if expects:
                problems.append(f"{f.name}: a twin carries a marker")
            if not (CASES / f.name[3:]).exists():
                problems.append(f"{f.name}: no defect file {f.name[3:]}")
        else:
            if len(expects) != 1:
                problems.append(f"{f.name}: {len(expects)} markers (one seeded defect each)")
            if not (CASES / ("ok_" + f.name)).exists():
                problems.append(f"{f.name}: no twin ok_{f.name}")

    old = json.loads(TRUTH.read_text()) if TRUTH.exists() else {"cases": {}}
    # Records of files that no longer exist are dropped; those not re-run now are kept.
    records = {k: v for k, v in old.get("cases", {}).items() if (CASES / k).exists()}
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = {pool.submit(record_case, f, nvcc, ptxas, args.timeout): f for f in files}
        for fut in concurrent.futures.as_completed(futures):
            f = futures[fut]
            records[f.name] = fut.result()
            print(f"{f.name}: {records[f.name]['verdict']}", file=sys.stderr)
    for name in sorted(records):
        if name.startswith("ok_"):
            records[name]["defect"] = name[3:]
        else:
            records[name]["twin"] = "ok_" + name
            records[name]["evidence"] = evidence(name, records[name], records.get("ok_" + name), CASES)
    for name, rec in sorted(records.items()):
        if name.startswith("ok_") and rec["verdict"] != "accepts":
            problems.append(f"{name}: the twin is not accepted by every pass")
        if not name.startswith("ok_"):
            code = rec["expect"][0]["code"] if rec["expect"] else None
            if code not in WARNING_CODES and rec["verdict"] == "accepts":
                problems.append(f"{name}: an error-class defect ({code}) that nvcc and ptxas accept")
        rec["verdict_line"] = one_line_verdict(rec)
    truth = {
        "generator": "tests/cuda/record-ground-truth.py",
        "nvcc_version": tool_version(nvcc),
        "ptxas_version": tool_version(ptxas),
        "cases": {k: records[k] for k in sorted(records)},
    }
    if args.check:
        def verdicts(t):
            return {k: (v["verdict"], [(p["pass"], p["verdict"]) for p in v["passes"]],
                        (v.get("evidence") or {}).get("finding"))
                    for k, v in t["cases"].items() if (CASES / k).exists()}
        if verdicts(truth) != verdicts(old):
            print("ground truth differs from the committed ground-truth.json")
            for k in sorted(set(verdicts(truth)) | set(verdicts(old))):
                if verdicts(truth).get(k) != verdicts(old).get(k):
                    print(f"  {k}: recorded {verdicts(old).get(k)} now {verdicts(truth).get(k)}")
            problems.append("verdicts changed")
    else:
        TRUTH.write_text(json.dumps(truth, indent=1, sort_keys=False) + "\n")
        for name in sorted(records):
            if (CASES / name).exists():
                fill_header(CASES / name, checked_with(records[name]), records[name]["verdict_line"])
        write_readme_table(truth["cases"])
    for p in problems:
        print("problem:", p)
    print(f"{len(defects)} defects, {len(all_files) - len(defects)} twins; "
          f"{sum(1 for k, v in records.items() if not k.startswith('ok_') and v['verdict'] == 'rejects')} rejected by nvcc/ptxas")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
