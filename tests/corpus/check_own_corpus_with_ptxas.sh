#!/usr/bin/env bash
# Re-checks that ptxas accepts every file of corpus/nvcc, with the command recorded in
# corpus/nvcc/manifest.json. ptxas is the oracle for "valid PTX"; without it the check is
# skipped (exit 77, CTest's skip code).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
ptxas="${PTXAS:-$(command -v ptxas || true)}"
[ -n "$ptxas" ] || ptxas=/usr/local/cuda/bin/ptxas
if [ ! -x "$ptxas" ]; then
  echo "skip: ptxas not found"
  exit 77
fi
cd "$root"
python3 - "$ptxas" <<'PY'
import json, shlex, subprocess, sys
ptxas = sys.argv[1]
manifest = json.load(open("corpus/nvcc/manifest.json"))
failures = 0
for name, entry in sorted(manifest["files"].items()):
    command = shlex.split(entry["ptxas_cmd"])
    command[0] = ptxas
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        failures += 1
        print(f"REJECTED {name}: {result.stderr.strip()[:300]}")
print(f"{len(manifest['files']) - failures}/{len(manifest['files'])} corpus files accepted by ptxas")
sys.exit(1 if failures else 0)
PY
