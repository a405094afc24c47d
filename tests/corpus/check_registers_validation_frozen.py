#!/usr/bin/env python3
"""The register-estimate validation set is frozen: every PTX file under
corpus/registers-validation/ptx/ matches the sha256 its manifest records, no file is missing
and none was added, and the set still has what issue 24's acceptance needs (>= 400 entry
kernels, a quarter of them with >= 64 registers). Regenerating the set
(corpus/registers-validation/generate.sh) rewrites the manifest with it; a change that only
touches one of them fails here. Needs no CUDA toolkit."""
import hashlib
import json
import pathlib
import sys

root = pathlib.Path(__file__).resolve().parents[2]
here = root / "corpus" / "registers-validation"
manifest = json.loads((here / "manifest.json").read_text())
ptx_dir = here / "ptx"
failures = []
for name, entry in sorted(manifest["files"].items()):
    path = ptx_dir / name
    if not path.is_file():
        failures.append(f"missing: {name}")
        continue
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    if digest != entry["sha256"]:
        failures.append(f"changed: {name} (sha256 {digest}, manifest {entry['sha256']})")
extra = sorted(p.name for p in ptx_dir.glob("*.ptx") if p.name not in manifest["files"])
failures += [f"not in the manifest: {name}" for name in extra]

entries = [f for e in manifest["files"].values() if e["ptxas_accepted"]
           for f in e["functions"].values() if f["kind"] == "entry"]
wide = sum(1 for f in entries if f["registers"] >= 64)
if len(entries) < 400:
    failures.append(f"only {len(entries)} entry kernels (>= 400 needed)")
if 4 * wide < len(entries):
    failures.append(f"only {wide} of {len(entries)} entry kernels use >= 64 registers (a quarter needed)")

for failure in failures:
    print(failure)
print(f"{len(manifest['files'])} files, {len(entries)} entry kernels, {wide} with >= 64 registers: "
      f"{'FROZEN' if not failures else 'DRIFTED'}")
sys.exit(1 if failures else 0)
