#!/usr/bin/env python3
"""The ptxas-accepted PTX files of every corpus, for the scripts that lint or time them all:
../shared/corpus ($PTXLS_SHARED_DIR if set; its ptxas-verdicts.json and its nvcc set) and our own corpora, each a
folder with a manifest.json of ptxas verdicts (corpus/README.md).

As a command it prints their paths, one per line.
"""
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("PTXLS_SHARED_DIR", ROOT.parent / "shared"))
OWN = ["corpus/nvcc", "corpus/cudalib/ptx", "corpus/triton/ptx"]


def accepted_files():
    """(section, key, path) of every ptxas-accepted corpus file; section "files" for the
    shared corpus (key relative to it), "ownFiles" for ours (key relative to the repository),
    as in tests/corpus/known-defects.json."""
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


if __name__ == "__main__":
    for _, _, path in accepted_files():
        print(path)
    sys.exit(0)
