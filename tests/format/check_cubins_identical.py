#!/usr/bin/env python3
"""Formatting never changes meaning: ptxas builds the same cubin from the formatted text.

For every corpus file that ptxas accepts, this compiles the original text and the text that
ptxfmt prints for it, with the options recorded for the file, and compares the two cubins
byte for byte. Both texts are written under the same file name, each in its own directory,
so nothing but their whitespace differs. When the cubins differ, the original is compiled a
second time: if that one differs too, ptxas itself is not deterministic for the file and the
file is reported apart, not as a formatter failure.

Corpus: the ptxas-accepted files of ../shared/corpus (ptxas-verdicts.json and the nvcc set's
ground-truth.json) and of the project's own corpus/ (corpus/nvcc/manifest.json). Files with
`.loc` lines are left out unless --include-loc is given: for them ptxas embeds the PTX text
itself in the cubin (.nv_debug_ptx_txt, and a SASS-to-PTX-line table), so those sections
change with any layout change; the script then checks that every other section is identical.

Usage: check_cubins_identical.py [--jobs N] [--formatter PATH] [--sample N] [--include-loc]
Exit status: 0 when every cubin is identical, 1 on a mismatch (the files are named),
2 on usage errors, 77 (skip) when ptxas, the formatter or every corpus is absent.
"""

import argparse
import hashlib
import json
import lzma
import os
import re
import shlex
import shutil
import struct
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

SKIP = 77
REPO = Path(__file__).resolve().parents[2]
LOC_LINE = re.compile(rb"^[ \t]*\.loc\b", re.MULTILINE)
PTXAS_TIMEOUT_S = 600
# With .loc lines, ptxas embeds the PTX text and a SASS-to-PTX-line table in the cubin; these
# sections follow the layout by design. Everything else must still be identical.
# sm_100 cubins carry a second copy of each under a ".nv.merc" prefix.
PTX_TEXT_SECTIONS = {".nv_debug_ptx_txt", ".nv_debug_line_sass", ".rel.nv_debug_line_sass",
                     ".rela.nv_debug_line_sass"}


def embeds_ptx_text(section):
    return section.removeprefix(".nv.merc") in PTX_TEXT_SECTIONS


def find_ptxas():
    cuda_home = os.environ.get("CUDA_HOME", "/usr/local/cuda")
    candidate = Path(cuda_home) / "bin" / "ptxas"
    if candidate.is_file() and os.access(candidate, os.X_OK):
        return str(candidate)
    return shutil.which("ptxas")


def recorded_options(command):
    """The ptxas options of a recorded command line, without -v, -o FILE and the input."""
    words = shlex.split(command)[1:-1]
    options = []
    skip_next = False
    for word in words:
        if skip_next:
            skip_next = False
        elif word == "-o":
            skip_next = True
        elif word != "-v":
            options.append(word)
    return options


def corpus_files(shared):
    """(path, ptxas options) for every ptxas-accepted file, in path order."""
    files = []
    if shared is not None:
        corpus = shared / "corpus"
        verdicts = json.loads((corpus / "ptxas-verdicts.json").read_text())
        for relative, verdict in verdicts["files"].items():
            if verdict.get("accepted"):
                files.append((corpus / relative, recorded_options(verdict["cmd"])))
        truth_path = corpus / "nvcc" / "ground-truth.json"
        if truth_path.is_file():
            truth = json.loads(truth_path.read_text())
            for entry in truth["files"].values():
                if entry["ptxas"].get("accepted"):
                    files.append((corpus / "nvcc" / entry["stored_as"],
                                  recorded_options(entry["ptxas"]["cmd"])))
    manifest_path = REPO / "corpus" / "nvcc" / "manifest.json"
    if manifest_path.is_file():
        manifest = json.loads(manifest_path.read_text())
        for name, entry in manifest["files"].items():
            if entry.get("ptxas_accepted"):
                files.append((REPO / "corpus" / "nvcc" / name,
                              recorded_options(entry["ptxas_cmd"])))
    files.sort(key=lambda item: str(item[0]))
    return files


def read_ptx(path):
    data = path.read_bytes()
    return lzma.decompress(data) if path.suffix == ".xz" else data


def sample(files, count):
    """A deterministic sample: the files whose path hashes lowest."""
    if count is None or count >= len(files):
        return files
    ranked = sorted(files, key=lambda item: hashlib.sha256(str(item[0]).encode()).hexdigest())
    return sorted(ranked[:count], key=lambda item: str(item[0]))


def elf_sections(data):
    """Section name -> (type, flags, contents) of an ELF64 little-endian file."""
    section_offset, = struct.unpack_from("<Q", data, 0x28)
    entry_size, count, names_index = struct.unpack_from("<HHH", data, 0x3A)
    headers = [struct.unpack_from("<IIQQQQIIQQ", data, section_offset + i * entry_size)
               for i in range(count)]
    names_offset = headers[names_index][4]
    sections = {}
    for name_at, kind, flags, _, offset, size, *_ in headers:
        start = names_offset + name_at
        name = data[start:data.index(b"\0", start)].decode(errors="replace")
        contents = b"" if kind == 8 else data[offset:offset + size]  # SHT_NOBITS holds no bytes.
        sections[name] = (kind, flags, contents)
    return sections


def differing_sections(first, second):
    try:
        a, b = elf_sections(first), elf_sections(second)
    except (struct.error, ValueError, IndexError):
        return None
    return {name for name in a.keys() | b.keys() if a.get(name) != b.get(name)}


def compile_ptx(ptxas, options, text, directory):
    """(return code, cubin bytes or None, stderr)."""
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "input.ptx").write_bytes(text)
    cubin = directory / "output.cubin"
    if cubin.exists():
        cubin.unlink()
    try:
        result = subprocess.run([ptxas, *options, "-o", "output.cubin", "input.ptx"],
                                cwd=directory, capture_output=True, timeout=PTXAS_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return -1, None, "timed out"
    data = cubin.read_bytes() if result.returncode == 0 and cubin.exists() else None
    return result.returncode, data, result.stderr.decode(errors="replace")


def check_file(ptxas, formatter, path, options, scratch):
    """One of: identical, mismatch, ptxas-rejects-formatted, rejected, nondeterministic,
    format-error; with a detail line."""
    text = read_ptx(path)
    try:
        formatted = subprocess.run([formatter, "-"], input=text, capture_output=True)
    except OSError as error:
        return "format-error", str(error)
    if formatted.returncode != 0:
        return "format-error", formatted.stderr.decode(errors="replace").strip()
    work = Path(tempfile.mkdtemp(dir=scratch))
    try:
        rc, original, _ = compile_ptx(ptxas, options, text, work / "original")
        if rc != 0 or original is None:
            return "rejected", f"ptxas rc {rc} on the original"
        rc, rebuilt, errors = compile_ptx(ptxas, options, formatted.stdout, work / "formatted")
        if rc != 0 or rebuilt is None:
            return "ptxas-rejects-formatted", errors.strip().splitlines()[0] if errors else ""
        if rebuilt == original:
            return "identical", ""
        rc, again, _ = compile_ptx(ptxas, options, text, work / "again")
        if again != original:
            return "nondeterministic", "two compiles of the original differ"
        differing = differing_sections(original, rebuilt)
        if differing and all(embeds_ptx_text(name) for name in differing):
            return "same-code", "only " + ", ".join(sorted(differing)) + " differ"
        return "mismatch", (f"cubins differ ({len(original)} vs {len(rebuilt)} bytes; sections "
                            f"{', '.join(sorted(differing or ['?']))})")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2, help="files checked at once (default 2)")
    parser.add_argument("--formatter", default=str(REPO / "build" / "ptxfmt"),
                        help="the ptxfmt executable (default: build/ptxfmt)")
    parser.add_argument("--shared", default=os.environ.get("PTXLS_SHARED_DIR",
                                                           str(REPO.parent / "shared")),
                        help="the shared folder holding corpus/ (default: ../shared)")
    parser.add_argument("--sample", type=int, default=None,
                        help="check only N files, chosen deterministically")
    parser.add_argument("--include-loc", action="store_true",
                        help="also check files with .loc lines")
    args = parser.parse_args()

    ptxas = find_ptxas()
    if ptxas is None:
        print("skipped: ptxas not found (set CUDA_HOME or put ptxas on PATH)")
        return SKIP
    if not (os.path.isfile(args.formatter) and os.access(args.formatter, os.X_OK)):
        print(f"skipped: formatter {args.formatter} not found (pass --formatter)")
        return SKIP
    shared = Path(args.shared)
    if not (shared / "corpus" / "ptxas-verdicts.json").is_file():
        print(f"note: {shared}/corpus is absent; checking the project's own corpus only")
        shared = None

    candidates = corpus_files(shared)
    files = []
    with_loc = 0
    for path, options in candidates:
        if not args.include_loc and LOC_LINE.search(read_ptx(path)):
            with_loc += 1
            continue
        files.append((path, options))
    files = sample(files, args.sample)
    if not files:
        print("skipped: no corpus files to check")
        return SKIP

    started = time.monotonic()
    outcomes = {}
    with tempfile.TemporaryDirectory(prefix="cubins-") as scratch:
        with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            futures = {pool.submit(check_file, ptxas, args.formatter, path, options, scratch): path
                       for path, options in files}
            for future, path in futures.items():
                outcomes[path] = future.result()
    elapsed = time.monotonic() - started

    def named(kind):
        return [(path, detail) for path, (outcome, detail) in sorted(outcomes.items())
                if outcome == kind]

    compared = [path for path, (outcome, _) in outcomes.items()
                if outcome in ("identical", "same-code", "mismatch", "ptxas-rejects-formatted",
                               "nondeterministic")]
    identical = named("identical")
    failures = named("mismatch") + named("ptxas-rejects-formatted") + named("format-error")
    for path, detail in failures:
        print(f"MISMATCH {path}: {detail}")
    for path, detail in named("nondeterministic"):
        print(f"note: {path}: {detail}; not counted as a failure")
    same_code = named("same-code")
    if same_code:
        print(f"note: {len(same_code)} files with .loc lines differ only in the sections that "
              f"embed the PTX text ({', '.join(sorted(PTX_TEXT_SECTIONS))}), as expected")
    rejected = len(named("rejected"))
    print(f"{len(compared)} files compared, {len(identical)} identical, "
          f"{len(same_code)} identical but for the embedded PTX text "
          f"({rejected} skipped because ptxas rejects the original, {with_loc} with .loc lines "
          f"left out; {elapsed:.1f} s with {args.jobs} jobs)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
