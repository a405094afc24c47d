#!/usr/bin/env python3
"""Checks docs/ci/github-code-scanning.yml and .pre-commit-hooks.yaml (docs/pre-commit.md).

Both must parse as YAML and have the shape GitHub Actions and pre-commit expect. The workflow's
"Run ptxlint" step is then run the way GitHub runs it (bash --noprofile --norc -eo pipefail)
with the given ptxlint on PATH, in a temporary folder standing for the checked-out repository:
  - findings: the step passes and writes a SARIF log whose results name the defective file by
    its path relative to the root, and nothing from the hidden .ptxls folder (ptxls's checkout);
  - no findings: the step passes with an empty result list;
  - ptxlint exits 2 (usage or I/O error; a stand-in script): the step fails.

Usage: check_ci_workflow.py PTXLINT_BINARY
Exit: 0 ok, 1 a check failed, 2 harness error, 77 skipped (no PyYAML or bash).
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
WORKFLOW = ROOT / "docs" / "ci" / "github-code-scanning.yml"
HOOKS = ROOT / ".pre-commit-hooks.yaml"
FIXTURES = HERE / "fixtures"

failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
        print(f"FAIL: {message}")
    return condition


def load_yaml(yaml, path):
    try:
        return yaml.safe_load(path.read_text())
    except yaml.YAMLError as error:
        check(False, f"{path.relative_to(ROOT)} does not parse: {error}")
        return None


def check_hooks(yaml):
    hooks = load_yaml(yaml, HOOKS)
    if not check(isinstance(hooks, list) and hooks, ".pre-commit-hooks.yaml is not a list of hooks"):
        return
    by_id = {hook.get("id"): hook for hook in hooks if isinstance(hook, dict)}
    hook = by_id.get("ptxlint")
    if not check(hook is not None, ".pre-commit-hooks.yaml has no hook with id ptxlint"):
        return
    check(hook.get("entry") == "ptxlint", "ptxlint hook: entry is not ptxlint")
    check(hook.get("language") == "system", "ptxlint hook: language is not system")
    check(hook.get("require_serial") is False, "ptxlint hook: require_serial is not false")
    check(hook.get("args") == [], "ptxlint hook: args is not []")
    check(bool(hook.get("name")) and bool(hook.get("description")), "ptxlint hook: no name or description")
    files = re.compile(hook.get("files", ""))
    for path in ["a.ptx", "kernels/sub/k.ptx"]:
        check(files.search(path), f"ptxlint hook: files does not match {path}")
    for path in ["k.cu", "k.cuh", "k.ptx.bak", "notes.txt"]:
        check(not files.search(path), f"ptxlint hook: files matches {path}")

    # The CUDA hook: identify's tags for CUDA sources and C++ headers, narrowed by `files` to what
    # ptxlint reads as CUDA (a .cpp or .cc named on its command line would be read as PTX).
    cuda = by_id.get("ptxlint-cuda")
    if not check(cuda is not None, ".pre-commit-hooks.yaml has no hook with id ptxlint-cuda"):
        return
    check(cuda.get("entry") == "ptxlint", "ptxlint-cuda hook: entry is not ptxlint")
    check(cuda.get("language") == "system", "ptxlint-cuda hook: language is not system")
    check(cuda.get("types_or") == ["cuda", "c++"], "ptxlint-cuda hook: types_or is not [cuda, c++]")
    check(cuda.get("args") == [], "ptxlint-cuda hook: args is not []")
    check(bool(cuda.get("name")) and bool(cuda.get("description")), "ptxlint-cuda hook: no name or description")
    files = re.compile(cuda.get("files", ""))
    for path in ["k.cu", "src/k.cuh", "include/a.h", "b.hpp", "c.hh", "d.hxx", "e.inl"]:
        check(files.search(path), f"ptxlint-cuda hook: files does not match {path}")
    for path in ["k.cpp", "k.cc", "k.cxx", "k.ptx", "k.cu.bak", "notes.txt"]:
        check(not files.search(path), f"ptxlint-cuda hook: files matches {path}")


def find_step(steps, name):
    return next((step for step in steps if step.get("name") == name), None)


def check_workflow_shape(yaml):
    workflow = load_yaml(yaml, WORKFLOW)
    if not check(isinstance(workflow, dict), "the workflow is not a mapping"):
        return None
    # PyYAML reads the key `on` as the boolean True (YAML 1.1); GitHub reads it as "on".
    triggers = workflow.get("on", workflow.get(True))
    check(isinstance(triggers, dict) and "push" in triggers and "pull_request" in triggers,
          "the workflow does not run on push and pull_request")
    permissions = workflow.get("permissions", {})
    check(permissions.get("security-events") == "write", "permissions: no security-events: write")
    check(permissions.get("contents") == "read", "permissions: no contents: read")
    jobs = workflow.get("jobs", {})
    if not check(isinstance(jobs, dict) and len(jobs) == 1, "the workflow does not have one job"):
        return None
    job = next(iter(jobs.values()))
    check("runs-on" in job, "the job has no runs-on")
    steps = job.get("steps", [])
    check(all("uses" in step or "run" in step for step in steps), "a step has neither uses nor run")
    uses = [step.get("uses", "") for step in steps]
    check("actions/checkout@v4" in uses, "no actions/checkout@v4 step")
    upload = next((step for step in steps if step.get("uses") == "github/codeql-action/upload-sarif@v3"), None)
    if check(upload is not None, "no github/codeql-action/upload-sarif@v3 step"):
        check(upload.get("with", {}).get("sarif_file") == "ptxlint.sarif", "upload-sarif: sarif_file is not ptxlint.sarif")
        check(steps.index(upload) == len(steps) - 1, "upload-sarif is not the last step")
    install = find_step(steps, "Install build dependencies")
    if check(install is not None, "no 'Install build dependencies' step"):
        for package in ["git", "cmake", "ninja-build", "pkg-config", "libtree-sitter-dev",
                        "nlohmann-json3-dev", "libboost-dev", "libre2-dev"]:
            check(re.search(rf"(?<![\w-]){re.escape(package)}(?![\w-])", install["run"]),
                  f"the install step does not install {package}")
    build = find_step(steps, "Build ptxlint")
    if check(build is not None, "no 'Build ptxlint' step"):
        check("--target ptxlint" in build["run"], "the build step does not build the ptxlint target")
        check("-DPTXLS_TESTS=OFF" in build["run"], "the build step builds the tests (needs catch2)")
    run = find_step(steps, "Run ptxlint")
    if not check(run is not None, "no 'Run ptxlint' step"):
        return None
    check(job.get("defaults", {}).get("run", {}).get("shell") == "bash", "the job's run shell is not bash")
    check("ptxlint --format sarif . > ptxlint.sarif" in run["run"], "the run step does not write ptxlint.sarif")
    return run["run"]


def run_step(script, cwd, bindir):
    env = dict(os.environ)
    env["PATH"] = f"{bindir}{os.pathsep}{env.get('PATH', '')}"
    script_path = Path(cwd).parent / "step.sh"
    script_path.write_text(script)
    # What GitHub runs for `shell: bash`.
    return subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script_path)],
                          cwd=cwd, env=env, capture_output=True, text=True, timeout=120)


def sarif_results(repo):
    log = json.loads((repo / "ptxlint.sarif").read_text())
    return log["runs"][0].get("results", [])


def result_uris(results):
    return [loc["physicalLocation"]["artifactLocation"].get("uri")
            for result in results for loc in result.get("locations", [])]


def check_run_step(script, ptxlint):
    with tempfile.TemporaryDirectory(prefix="ptxls-ci-workflow.") as tmp:
        tmp = Path(tmp)
        bindir = tmp / "bin"
        bindir.mkdir()
        (bindir / "ptxlint").symlink_to(ptxlint)

        # Findings, plus defective PTX under the hidden .ptxls checkout that must not be linted.
        repo = tmp / "findings" / "repo"
        (repo / "kernels").mkdir(parents=True)
        (repo / ".ptxls" / "tests").mkdir(parents=True)
        shutil.copy(FIXTURES / "undeclared_register.ptx", repo / "kernels")
        shutil.copy(FIXTURES / "clean.ptx", repo / "kernels")
        shutil.copy(FIXTURES / "misaligned_vector_load.ptx", repo / ".ptxls" / "tests")
        done = run_step(script, repo, bindir)
        print(f"run step with findings: exit {done.returncode}")
        if check(done.returncode == 0, f"with findings the run step fails (exit {done.returncode}): {done.stderr}"):
            results = sarif_results(repo)
            check([r.get("ruleId") for r in results] == ["SEM001"], f"with findings: rule ids {[r.get('ruleId') for r in results]}, not ['SEM001']")
            check(result_uris(results) == ["kernels/undeclared_register.ptx"], f"with findings: result paths {result_uris(results)}")

        # No findings.
        repo = tmp / "clean" / "repo"
        (repo / "kernels").mkdir(parents=True)
        shutil.copy(FIXTURES / "clean.ptx", repo / "kernels")
        done = run_step(script, repo, bindir)
        print(f"run step without findings: exit {done.returncode}")
        if check(done.returncode == 0, f"without findings the run step fails (exit {done.returncode}): {done.stderr}"):
            check(sarif_results(repo) == [], "without findings: the log has results")

        # ptxlint fails (exit 2): the step must fail.
        broken = tmp / "broken-bin"
        broken.mkdir()
        (broken / "ptxlint").write_text("#!/bin/sh\necho 'ptxlint: cannot read' >&2\nexit 2\n")
        (broken / "ptxlint").chmod(0o755)
        repo = tmp / "error" / "repo"
        repo.mkdir(parents=True)
        done = run_step(script, repo, broken)
        print(f"run step when ptxlint exits 2: exit {done.returncode}")
        check(done.returncode == 2, f"when ptxlint exits 2 the run step exits {done.returncode}, not 2")


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    ptxlint = Path(sys.argv[1]).resolve()
    try:
        import yaml
    except ImportError:
        print("check_ci_workflow: SKIP: PyYAML is not installed (apt-get install python3-yaml)", file=sys.stderr)
        return 77
    if shutil.which("bash") is None:
        print("check_ci_workflow: SKIP: no bash", file=sys.stderr)
        return 77
    if not os.access(ptxlint, os.X_OK):
        print(f"check_ci_workflow: no executable ptxlint at {ptxlint}", file=sys.stderr)
        return 2
    check_hooks(yaml)
    script = check_workflow_shape(yaml)
    if script is not None:
        check_run_step(script, ptxlint)
    if failures:
        print(f"check_ci_workflow: {len(failures)} check(s) failed")
        return 1
    print("check_ci_workflow: OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
