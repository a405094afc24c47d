#!/usr/bin/env bash
# Re-run NVIDIA's ptxas over the syntax test corpus and compare its verdicts
# with the recorded expectations:
#
#   rejected/*.ptx  must fail; the first diagnostic line ptxas prints must match
#                   "line" and "ptxas_message" in rejected/expected.json
#                   (ptxas runs with --gpu-name sm_80 unless the entry has "gpu_name")
#   accepted/*.ptx  must assemble (exit status 0) for the "gpu_name" recorded
#                   in accepted/expected.json
#
# The ptxas binary is taken from $PTXAS, then from PATH, then from
# /usr/local/cuda/bin.  Without ptxas the check is skipped (exit 77, CTest's skip code).
# Exit status: 0 when everything matches, 1 on any mismatch.

set -u

# Usage: check_with_ptxas.sh [FOLDER]  (default: the folder of this script); FOLDER holds
# rejected/ and, optionally, accepted/; or FOLDER is tests/rules, where each <CODE>/ptxas.json
# lists the rule's ptxas-rejected cases in the same form as rejected/expected.json (the other
# cases of a rule folder record their verdict in a `// ptxas:` comment and are not re-checked).
here="${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)}"

ptxas="${PTXAS:-}"
if [ -z "$ptxas" ]; then
    ptxas="$(command -v ptxas 2>/dev/null || true)"
fi
if [ -z "$ptxas" ] && [ -x /usr/local/cuda/bin/ptxas ]; then
    ptxas=/usr/local/cuda/bin/ptxas
fi
if [ -z "$ptxas" ] || [ ! -x "$ptxas" ]; then
    echo "skip: ptxas not found"
    exit 77
fi

if ! command -v python3 >/dev/null 2>&1; then
    echo "error: python3 is needed to read the expected.json files" >&2
    exit 1
fi

exec python3 - "$ptxas" "$here" <<'PY'
import json, os, re, subprocess, sys

ptxas, root = sys.argv[1], sys.argv[2]
rej_dir = os.path.join(root, "rejected")
acc_dir = os.path.join(root, "accepted")

# "ptxas some/path.ptx, line 17; fatal   : Parsing error near 'st': syntax error"
WITH_LOC = re.compile(r"^ptxas (.*?), line (\d+); (.*)$")
# "ptxas fatal   : Unexpected non-ASCII character encountered on line 26"
NO_LOC = re.compile(r"^ptxas (.*)$")
IN_TEXT = re.compile(r"\bon line (\d+)\b")

def run(path, gpu):
    # Run beside the file, so that messages quoting the file name match what was recorded.
    p = subprocess.run([ptxas, "--gpu-name", gpu, "-o", os.devnull, os.path.basename(path)],
                       cwd=os.path.dirname(path), stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    return p.returncode, p.stdout.decode("latin-1").splitlines()

def first_error(lines):
    """(line or None, message without the 'ptxas PATH, line N; ' prefix)."""
    if not lines:
        return None, ""
    first = lines[0]
    m = WITH_LOC.match(first)
    if m:
        return int(m.group(2)), m.group(3)
    m = NO_LOC.match(first)
    msg = m.group(1) if m else first
    t = IN_TEXT.search(msg)
    return (int(t.group(1)) if t else None), msg

def ptx_files(d):
    return sorted(f for f in os.listdir(d) if f.endswith(".ptx"))

failures = 0
def fail(text):
    global failures
    failures += 1
    print("FAIL " + text)

version = subprocess.run([ptxas, "--version"], stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT).stdout.decode("latin-1")
version = version.strip().splitlines()[-1] if version.strip() else ""

# ---- rejected -------------------------------------------------------------
# (folder, label, verdict file, whether every .ptx of the folder must be listed)
if os.path.isdir(rej_dir):
    groups = [(rej_dir, "rejected", os.path.join(rej_dir, "expected.json"), True)]
else:
    groups = [(os.path.join(root, d), d, os.path.join(root, d, "ptxas.json"), False)
              for d in sorted(os.listdir(root)) if os.path.isfile(os.path.join(root, d, "ptxas.json"))]
cases = {}
for folder, label, verdicts, complete in groups:
    with open(verdicts) as f:
        rej = json.load(f)
    if rej.get("ptxas") != version:
        print("note: %s expectations were recorded with %r, running %r"
              % (label, rej.get("ptxas"), version))
    listed = rej["cases"]
    cases.update({label + "/" + name: want for name, want in listed.items()})
    if complete:
        for name in sorted(set(ptx_files(folder)) - set(listed)):
            fail("%s/%s: file has no entry in expected.json" % (label, name))
    for name in sorted(listed):
        want = listed[name]
        path = os.path.join(folder, name)
        if not os.path.isfile(path):
            fail("%s/%s: listed in %s but missing" % (label, name, os.path.basename(verdicts)))
            continue
        rc, out = run(path, want.get("gpu_name", "sm_80"))
        if rc == 0:
            fail("%s/%s: ptxas accepted it" % (label, name))
            continue
        line, msg = first_error(out)
        if line != want["line"] or msg != want["ptxas_message"]:
            fail("%s/%s: expected line %s %r, got line %s %r"
                 % (label, name, want["line"], want["ptxas_message"], line, msg))
        else:
            print("ok   %s/%s (line %s)" % (label, name, line))

# ---- accepted -------------------------------------------------------------
acc = {}
if os.path.isdir(acc_dir):
    with open(os.path.join(acc_dir, "expected.json")) as f:
        acc = json.load(f)["cases"]
for name in sorted(set(ptx_files(acc_dir) if os.path.isdir(acc_dir) else []) - set(acc)):
    fail("accepted/%s: file has no entry in expected.json" % name)
for name in sorted(acc):
    path = os.path.join(acc_dir, name)
    if not os.path.isfile(path):
        fail("accepted/%s: listed in expected.json but missing" % name)
        continue
    gpu = acc[name]["gpu_name"]
    rc, out = run(path, gpu)
    if rc != 0:
        fail("accepted/%s (%s): ptxas exit %d: %s"
             % (name, gpu, rc, out[0] if out else ""))
    else:
        print("ok   accepted/%s (%s)" % (name, gpu))

total = len(cases) + len(acc)
if failures:
    print("%d mismatch(es) out of %d cases" % (failures, total))
    sys.exit(1)
print("all %d cases match ptxas (%s)" % (total, version))
PY
