#!/usr/bin/env python3
"""Checks `ptxlint --format sarif` (docs/sarif.md). Three modes, one CTest test each:

  check_sarif.py schema    PTXLINT [--node-cache DIR]
      Runs ptxlint over clean, broken, missing, odd-named, outside-the-tree and standard-input
      inputs and the repo's test cases, and validates every log against the SARIF 2.1.0 JSON
      schema with ajv (validate-sarif.mjs; npm packages pinned in package-lock.json, installed
      with `npm ci` into DIR, never into the source tree). Also checks that the validator rejects
      broken logs. Exit 77 (skip) without node 18+/npm or when the install fails (offline).

  check_sarif.py semantics PTXLINT
      Python only: driver.rules against --list-rules and --explain, ruleIndex, levels, URIs,
      UTF-16 regions, fingerprints that survive moved lines, fixes that remove their finding,
      I/O errors, determinism.

  check_sarif.py golden    PTXLINT [--update]
      Compares the log of findings.ptx with findings.sarif after removing what changes for
      reasons unrelated to the format: the tool version, the %SRCROOT% path, the rules no result
      references (ruleIndex renumbered to match), and the rules' documentation prose (checked
      against --explain by the semantics mode). `--update` or PTXLS_UPDATE_GOLDEN=1 rewrites
      the golden instead.

Exit status: 0 passed, 1 a check failed, 2 usage or harness error, 77 skipped.
"""
import argparse
import difflib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE_ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
RULE_DOCS_BASE = "https://github.com/ptxls/ptxls/blob/main/docs/rules/"
FINGERPRINT = "ptxlint/v1"
LEVELS = {"error": "error", "warning": "warning", "information": "note", "hint": "note"}

failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
        print("FAIL: " + message)
    return condition


def run_ptxlint(ptxlint, args, cwd, stdin=None):
    """Runs ptxlint with --format sarif; returns (exit status, parsed log, raw stdout)."""
    process = subprocess.run([ptxlint, "--format", "sarif", "--no-config", *args], cwd=cwd,
                             input=stdin, capture_output=True, timeout=120)
    try:
        log = json.loads(process.stdout.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        check(False, f"ptxlint {' '.join(args)}: output is not JSON ({error}); stderr: {process.stderr[-500:]!r}")
        log = None
    return process.returncode, log, process.stdout


def the_run(log):
    return log["runs"][0]


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(text)


def read(path):
    with open(path, encoding="utf-8", newline="") as f:
        return f.read()


# ---- Regions: SARIF's 1-based lines and UTF-16 columns over a Python string ----------------------

def offset_of(text, line, column):
    lines = text.split("\n")
    start = sum(len(l) + 1 for l in lines[: line - 1])
    units = 0
    for index, ch in enumerate(lines[line - 1] if line - 1 < len(lines) else ""):
        if units >= column - 1:
            return start + index
        units += 2 if ord(ch) > 0xFFFF else 1
    return start + len(lines[line - 1] if line - 1 < len(lines) else "")


def region_text(text, region):
    return text[offset_of(text, region["startLine"], region["startColumn"]):
                offset_of(text, region["endLine"], region["endColumn"])]


def apply_fix(text, fix):
    edits = []
    for change in fix["artifactChanges"]:
        for replacement in change["replacements"]:
            region = replacement["deletedRegion"]
            begin = offset_of(text, region["startLine"], region["startColumn"])
            end = offset_of(text, region["endLine"], region["endColumn"])
            edits.append((begin, end, replacement.get("insertedContent", {}).get("text", "")))
    edits.sort(reverse=True)
    for begin, end, inserted in edits:
        text = text[:begin] + inserted + text[end:]
    return text


# ---- The registry as ptxlint prints it ---------------------------------------------------------

def list_rules(ptxlint):
    output = subprocess.run([ptxlint, "--list-rules"], capture_output=True, text=True, check=True).stdout
    rules = []
    for match in re.finditer(r"^(\S+)  (\S+)  \[([^,]+), (\w+)\]\n    (.*)$", output, re.M):
        rules.append({"code": match[1], "name": match[2], "category": match[3], "severity": match[4],
                      "summary": match[5]})
    return rules


def explain(ptxlint, code):
    """The documentation part of --explain (after the header and the summary)."""
    output = subprocess.run([ptxlint, "--explain", code], capture_output=True, text=True, check=True).stdout
    parts = output.split("\n\n", 2)
    return parts[2].strip() if len(parts) > 2 else ""


# ---- Shared structural checks ------------------------------------------------------------------

def check_structure(log, name):
    if not check(log is not None, f"{name}: no log"):
        return
    check(log.get("version") == "2.1.0", f"{name}: version is {log.get('version')!r}")
    check(log.get("$schema") == "https://json.schemastore.org/sarif-2.1.0.json", f"{name}: $schema")
    check(len(log.get("runs", [])) == 1, f"{name}: expected one run")
    run = the_run(log)
    check(run.get("columnKind") == "utf16CodeUnits", f"{name}: columnKind")
    rules = run["tool"]["driver"]["rules"]
    for result in run["results"]:
        index = result.get("ruleIndex")
        check(isinstance(index, int) and 0 <= index < len(rules) and rules[index]["id"] == result["ruleId"],
              f"{name}: result {result['ruleId']} has ruleIndex {index} pointing at "
              f"{rules[index]['id'] if isinstance(index, int) and 0 <= index < len(rules) else 'nothing'}")
        check(result["level"] in ("error", "warning", "note"), f"{name}: level {result['level']}")
        location = result["locations"][0]["physicalLocation"]
        region = location["region"]
        check(region["startLine"] >= 1 and region["startColumn"] >= 1, f"{name}: region not 1-based: {region}")
        check((region["endLine"], region["endColumn"]) >= (region["startLine"], region["startColumn"]),
              f"{name}: region ends before it starts: {region}")
        check(FINGERPRINT in result.get("partialFingerprints", {}), f"{name}: no {FINGERPRINT} fingerprint")
        ids = [related["id"] for related in result.get("relatedLocations", [])]
        check(len(ids) == len(set(ids)), f"{name}: related location ids repeat: {ids}")
        for fix in result.get("fixes", []):
            check(fix["description"]["text"] != "", f"{name}: fix without description")
            for change in fix["artifactChanges"]:
                check(change["artifactLocation"] == location["artifactLocation"],
                      f"{name}: a fix changes another artifact than the result's")


# ---- schema -------------------------------------------------------------------------------------

def skip(message):
    print("check_sarif: SKIP: " + message)
    sys.exit(77)


def install_validator(cache):
    if not shutil.which("node") or not shutil.which("npm"):
        skip("node and npm are needed for the schema validation (apt-get install nodejs npm)")
    major = subprocess.run(["node", "-p", "process.versions.node.split('.')[0]"], capture_output=True,
                           text=True).stdout.strip()
    if not major.isdigit() or int(major) < 18:
        skip(f"node {major} is too old (need 18+)")
    os.makedirs(cache, exist_ok=True)
    lock = os.path.join(HERE, "package-lock.json")
    cached_lock = os.path.join(cache, "package-lock.json")
    fresh = os.path.exists(cached_lock) and read(lock) == read(cached_lock)
    if fresh and os.path.isdir(os.path.join(cache, "node_modules", "@microsoft", "jest-sarif")):
        return
    print(f"check_sarif: npm ci into {cache}")
    shutil.rmtree(os.path.join(cache, "node_modules"), ignore_errors=True)
    for name in ("package.json", "package-lock.json"):
        shutil.copy(os.path.join(HERE, name), cache)
    process = subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=cache,
                             capture_output=True, text=True)
    if process.returncode != 0:
        print(process.stdout + process.stderr)
        os.remove(cached_lock)  # Retry next time.
        skip("npm ci failed (no network or no registry?); log above")


def validate(cache, files):
    """Runs the ajv validator; returns {file: (valid, error lines)}."""
    process = subprocess.run(["node", os.path.join(HERE, "validate-sarif.mjs"), *files], capture_output=True,
                             text=True, env={**os.environ, "SARIF_NODE_PREFIX": cache}, timeout=120)
    verdicts, current = {}, None
    for line in process.stdout.splitlines():
        if line.endswith(": valid"):
            verdicts[line[: -len(": valid")]] = (True, [])
        elif line.endswith(": INVALID"):
            current = line[: -len(": INVALID")]
            verdicts[current] = (False, [])
        elif current is not None and line.startswith("  "):
            verdicts[current][1].append(line.strip())
    if process.returncode not in (0, 1) or len(verdicts) != len(files):
        print(process.stdout + process.stderr)
        check(False, f"the validator failed to run (exit {process.returncode})")
    return verdicts


def mode_schema(ptxlint, cache):
    install_validator(cache)
    with tempfile.TemporaryDirectory(prefix="ptxlint-sarif-") as scratch:
        work = os.path.join(scratch, "work")
        outside = os.path.join(scratch, "outside")
        os.makedirs(work)
        for name in ("clean.ptx", "findings.ptx"):
            shutil.copy(os.path.join(HERE, name), os.path.join(work, name))
        findings = read(os.path.join(HERE, "findings.ptx"))
        write(os.path.join(work, "sub dir", "k\u00e9 #1%.ptx"), findings)  # Needs percent-encoding.
        write(os.path.join(outside, "far.ptx"), findings)                  # Outside %SRCROOT%.
        write(os.path.join(work, "unicode.ptx"),
              findings.replace("\t@%p1 bra", "\t/* \U0001F680 \u00e9 */ @%p1 bra"))

        cases = {
            "clean": (["clean.ptx"], 0, None),
            "findings": (["findings.ptx"], 1, None),
            "missing": (["missing.ptx"], 2, None),
            "mixed": (["clean.ptx", "missing.ptx", "sub dir", os.path.join(outside, "far.ptx"), "unicode.ptx",
                       "findings.ptx"], 1, None),
            "stdin": (["-"], 1, findings.encode()),
            "test-cases": ([os.path.join(SOURCE_ROOT, "tests", folder) for folder in
                            ("syntax_cases", "rules", "clients/fixtures", "cuda/cases")], 1, None),
        }
        logs = {}
        for name, (args, expected, stdin) in cases.items():
            status, log, raw = run_ptxlint(ptxlint, args, work, stdin)
            check(status == expected, f"{name}: exit status {status}, expected {expected}")
            check_structure(log, name)
            path = os.path.join(scratch, name + ".sarif")
            with open(path, "wb") as f:
                f.write(raw)
            logs[path] = log
        check(len(the_run(logs[os.path.join(scratch, "test-cases.sarif")])["results"]) > 20,
              "test-cases: expected findings from the repo's rejected cases")

        # Negative controls: the validator must reject what the schema forbids.
        base = logs[os.path.join(scratch, "findings.sarif")]
        broken = {
            "bad-level": lambda log: the_run(log)["results"][0].__setitem__("level", "fatal"),
            "bad-line": lambda log: the_run(log)["results"][0]["locations"][0]["physicalLocation"]["region"]
            .__setitem__("startLine", 0),
            "no-driver-name": lambda log: the_run(log)["tool"]["driver"].pop("name"),
            "bad-version": lambda log: log.__setitem__("version", "2.0.0"),
        }
        negatives = []
        for name, breakIt in broken.items():
            log = json.loads(json.dumps(base))
            breakIt(log)
            path = os.path.join(scratch, name + ".sarif")
            with open(path, "w") as f:
                json.dump(log, f)
            negatives.append(path)

        verdicts = validate(cache, list(logs) + negatives)
        for path in logs:
            valid, errors = verdicts.get(path, (False, ["not validated"]))
            check(valid, f"{os.path.basename(path)} is not valid SARIF 2.1.0: " + "; ".join(errors[:10]))
        for path in negatives:
            valid, _ = verdicts.get(path, (True, []))
            check(not valid, f"the validator accepted {os.path.basename(path)}, which the schema forbids")
        print(f"check_sarif: validated {len(logs)} logs, rejected {len(negatives)} broken ones")


# ---- semantics ----------------------------------------------------------------------------------

def mode_semantics(ptxlint):
    registry = list_rules(ptxlint)
    check(len(registry) > 0, "--list-rules printed no rules")
    with tempfile.TemporaryDirectory(prefix="ptxlint-sarif-") as scratch:
        work = os.path.realpath(os.path.join(scratch, "work"))
        findings = read(os.path.join(HERE, "findings.ptx"))
        write(os.path.join(work, "findings.ptx"), findings)
        write(os.path.join(work, "clean.ptx"), read(os.path.join(HERE, "clean.ptx")))

        # driver.rules: every registered rule, in registry order, described from the registry.
        status, log, raw = run_ptxlint(ptxlint, ["findings.ptx"], work)
        check(status == 1, f"findings.ptx: exit status {status}, expected 1")
        check_structure(log, "findings")
        run = the_run(log)
        driver = run["tool"]["driver"]
        check(driver["name"] == "ptxlint", "driver.name")
        version = subprocess.run([ptxlint, "--version"], capture_output=True, text=True).stdout.split()[-1]
        check(driver["version"] == version, f"driver.version {driver['version']!r} is not --version's {version!r}")
        check(driver["informationUri"].startswith("https://"), "driver.informationUri")
        rules = driver["rules"]
        check([r["id"] for r in rules] == [r["code"] for r in registry],
              "driver.rules does not list --list-rules' rules in order: "
              f"{sorted({r['code'] for r in registry} ^ {r['id'] for r in rules})}")
        for rule, meta in zip(rules, registry):
            code = meta["code"]
            check(rule["name"] == meta["name"], f"{code}: name {rule['name']!r}")
            check(rule["shortDescription"]["text"] == meta["summary"], f"{code}: shortDescription")
            check(rule["defaultConfiguration"]["level"] == LEVELS[meta["severity"]], f"{code}: default level")
            check(rule["properties"]["tags"] == [meta["category"]], f"{code}: tags {rule['properties']['tags']}")
            # The page itself is docs.rules_fresh's business (generated for every rule).
            check(rule["helpUri"] == RULE_DOCS_BASE + code + ".md", f"{code}: helpUri {rule['helpUri']}")
            documentation = explain(ptxlint, code)
            full = rule["fullDescription"]["text"]
            if documentation:
                check(rule["help"]["text"] == documentation, f"{code}: help.text is not the --explain documentation")
                check(full and not full.startswith("What it does") and "\n" not in full
                      and full.lower()[:40] in " ".join(documentation.split()).lower(),
                      f"{code}: fullDescription {full!r} is not the documentation's first paragraph")
                if re.search(r"^    \S", documentation, re.M):
                    check("```ptx\n" in rule["help"]["markdown"], f"{code}: help.markdown has no fenced example")
                check(rule["help"]["markdown"].count("```") % 2 == 0, f"{code}: help.markdown has an open fence")
            else:
                check(full == meta["summary"] and rule["help"]["text"] == meta["summary"],
                      f"{code}: without documentation the descriptions should be the summary")

        # Results: levels, URIs, regions, related locations.
        check(len(run["results"]) == 3, f"findings.ptx: expected 3 results, got {len(run['results'])}")
        by_code = {meta["code"]: meta for meta in registry}
        for result in run["results"]:
            meta = by_code.get(result["ruleId"], {"severity": "?"})
            check(result["level"] == LEVELS[meta["severity"]], f"{result['ruleId']}: level {result['level']}")
            artifact = result["locations"][0]["physicalLocation"]["artifactLocation"]
            check(artifact == {"uri": "findings.ptx", "uriBaseId": "%SRCROOT%"}, f"artifactLocation {artifact}")
            region = result["locations"][0]["physicalLocation"]["region"]
            quoted = re.search(r"'([^']+)'", result["message"]["text"])
            if result["ruleId"] in ("SEM002", "SEM003") and quoted:
                check(region_text(findings, region) == quoted[1],
                      f"{result['ruleId']}: region {region} covers {region_text(findings, region)!r}, not {quoted[1]!r}")
        related = [r for r in run["results"] if r.get("relatedLocations")]
        check(len(related) == 1 and related[0]["relatedLocations"][0]["id"] == 1
              and related[0]["relatedLocations"][0]["message"]["text"] != ""
              and region_text(findings, related[0]["relatedLocations"][0]["physicalLocation"]["region"]) == "%p1",
              "SEM002's related location (the first declaration of %p1)")
        base = run["originalUriBaseIds"]["%SRCROOT%"]["uri"]
        check(base == "file://" + urllib.parse.quote(work) + "/", f"%SRCROOT% is {base}, expected the working directory")
        invocation = run["invocations"][0]
        check(invocation["executionSuccessful"] is True and "toolExecutionNotifications" not in invocation,
              f"findings.ptx: invocation {invocation}")

        # A severity set on the command line shows in the result; the rule's default stays.
        _, log, _ = run_ptxlint(ptxlint, ["--severity", "SEM003=hint", "findings.ptx"], work)
        levels = {r["ruleId"]: r["level"] for r in the_run(log)["results"]}
        default = [r for r in the_run(log)["tool"]["driver"]["rules"] if r["id"] == "SEM003"]
        check(levels.get("SEM003") == "note" and default and default[0]["defaultConfiguration"]["level"] == "error",
              f"--severity SEM003=hint: levels {levels}")

        # Columns are UTF-16 code units: a non-BMP character counts two.
        unicode_text = findings.replace("\t@%p1 bra", "\t/* \U0001F680 \u00e9 */ @%p1 bra")
        write(os.path.join(work, "unicode.ptx"), unicode_text)
        _, log, _ = run_ptxlint(ptxlint, ["unicode.ptx"], work)
        for result in the_run(log)["results"]:
            if result["ruleId"] == "SEM003":
                region = result["locations"][0]["physicalLocation"]["region"]
                check(region_text(unicode_text, region) == "$L__exti",
                      f"unicode.ptx: SEM003 region {region} covers {region_text(unicode_text, region)!r}")
                line = unicode_text.split("\n")[region["startLine"] - 1]
                prefix = line[: line.index("$L__exti")]
                utf16_column = len(prefix.encode("utf-16-le")) // 2 + 1  # One more than in code points.
                check(region["startColumn"] == utf16_column,
                      f"unicode.ptx: SEM003 startColumn {region['startColumn']}, expected {utf16_column} (UTF-16)")

        # Fingerprints: stable when lines above move, different when the flagged line changes,
        # different for two identical findings on identical lines.
        def fingerprints(text, name):
            write(os.path.join(work, name), text)
            _, log, _ = run_ptxlint(ptxlint, [name], work)
            return [(r["ruleId"], r["locations"][0]["physicalLocation"]["region"]["startLine"],
                     r["partialFingerprints"][FINGERPRINT]) for r in the_run(log)["results"]]

        original = fingerprints(findings, "findings.ptx")
        first_line, rest = findings.split("\n", 1)
        moved = fingerprints(first_line + "\n\n\n\n" + rest, "moved.ptx")
        check([(r, l + 3, f) for r, l, f in original] == moved,
              f"fingerprints changed when three blank lines were inserted above the findings:\n  {original}\n  {moved}")
        retyped = fingerprints(findings.replace("$L__exti", "$L__exty"), "retyped.ptx")
        check(len(retyped) == len(original) and all(
            (a[2] == b[2]) == (a[0] != "SEM003") for a, b in zip(original, retyped)),
            f"only SEM003's fingerprint should change when its line changes:\n  {original}\n  {retyped}")
        twice = fingerprints(findings.replace("\t@%p1 bra \t$L__exti;\n", "\t@%p1 bra \t$L__exti;\n" * 2), "twice.ptx")
        twins = [f for r, _, f in twice if r == "SEM003"]
        check(len(twins) == 2 and twins[0] != twins[1], f"identical findings on identical lines share a fingerprint: {twins}")

        # Fixes: applying a result's first fix makes that finding go away.
        fixed_any = 0
        for result in run["results"]:
            if not result.get("fixes"):
                continue
            fixed_any += 1
            text = apply_fix(findings, result["fixes"][0])
            write(os.path.join(work, "fixed.ptx"), text)
            _, after, _ = run_ptxlint(ptxlint, ["fixed.ptx"], work)
            remaining = [r["ruleId"] for r in the_run(after)["results"]]
            check(result["ruleId"] not in remaining and len(remaining) == len(run["results"]) - 1,
                  f"applying {result['ruleId']}'s fix {result['fixes'][0]['description']['text']!r} left {remaining}")
        check(fixed_any >= 2, f"findings.ptx: expected at least two results with fixes, got {fixed_any}")

        # I/O errors: reported as notifications, executionSuccessful false, exit 2.
        status, log, _ = run_ptxlint(ptxlint, ["clean.ptx", "missing.ptx"], work)
        check(status == 1, f"missing.ptx beside clean.ptx: exit status {status}, expected 1")
        invocation = the_run(log)["invocations"][0]
        notes = invocation.get("toolExecutionNotifications", [])
        check(invocation["executionSuccessful"] is False and len(notes) == 1
              and "missing.ptx" in notes[0]["message"]["text"] and notes[0]["level"] == "error",
              f"missing.ptx: invocation {invocation}")
        check(the_run(log)["results"] == [], "clean.ptx + missing.ptx: expected no results")
        status, log, _ = run_ptxlint(ptxlint, ["clean.ptx"], work)
        check(status == 0 and the_run(log)["results"] == [] and the_run(log)["invocations"][0]["executionSuccessful"],
              "clean.ptx: expected exit 0, no results, executionSuccessful")

        # URIs: percent-encoded below the working directory, absolute file URIs outside it.
        write(os.path.join(work, "sub dir", "k\u00e9 #1%.ptx"), findings)
        write(os.path.join(scratch, "outside", "far.ptx"), findings)
        _, log, _ = run_ptxlint(ptxlint, ["sub dir", "../outside/far.ptx"], work)
        uris = sorted({json.dumps(r["locations"][0]["physicalLocation"]["artifactLocation"], sort_keys=True)
                       for r in the_run(log)["results"]})
        expected = sorted(json.dumps(a, sort_keys=True) for a in (
            {"uri": "sub%20dir/k%C3%A9%20%231%25.ptx", "uriBaseId": "%SRCROOT%"},
            {"uri": "file://" + urllib.parse.quote(os.path.join(os.path.realpath(scratch), "outside", "far.ptx"))}))
        check(uris == expected, f"artifact locations {uris}, expected {expected}")

        # Standard input has no URI, only a description.
        status, log, _ = run_ptxlint(ptxlint, ["-"], work, findings.encode())
        artifacts = {json.dumps(r["locations"][0]["physicalLocation"]["artifactLocation"]) for r in the_run(log)["results"]}
        check(status == 1 and artifacts == {json.dumps({"description": {"text": "standard input"}})},
              f"stdin: artifact locations {artifacts}")

        # Deterministic: the same bytes twice, and with one worker or several.
        cases = os.path.join(SOURCE_ROOT, "tests", "rules")
        _, _, once = run_ptxlint(ptxlint, ["--jobs", "1", cases], work)
        _, _, again = run_ptxlint(ptxlint, ["--jobs", "2", cases], work)
        check(once == again, "two runs over tests/rules gave different output")

        # The option itself.
        usage = subprocess.run([ptxlint, "--format", "sarif-ish", "clean.ptx"], cwd=work, capture_output=True, text=True)
        check(usage.returncode == 2 and "sarif" in usage.stderr, f"--format sarif-ish: {usage.returncode} {usage.stderr!r}")
        help_text = subprocess.run([ptxlint, "--help"], capture_output=True, text=True).stdout
        check("sarif" in help_text and "docs/sarif.md" in help_text, "--help does not mention sarif")


# ---- golden -------------------------------------------------------------------------------------

def normalize(log):
    run = the_run(log)
    driver = run["tool"]["driver"]
    driver["version"] = "<version>"
    run["originalUriBaseIds"]["%SRCROOT%"]["uri"] = "file:///<working directory>/"
    used = sorted({result["ruleIndex"] for result in run["results"]})
    renumber = {old: new for new, old in enumerate(used)}
    driver["rules"] = [driver["rules"][index] for index in used]
    for result in run["results"]:
        result["ruleIndex"] = renumber[result["ruleIndex"]]
    for rule in driver["rules"]:
        rule["fullDescription"]["text"] = f"<first paragraph of {rule['id']}'s documentation>"
        rule["help"]["text"] = f"<{rule['id']}'s documentation>"
        rule["help"]["markdown"] = f"<{rule['id']}'s documentation as Markdown>"
    return json.dumps(log, indent=2, ensure_ascii=False) + "\n"


def mode_golden(ptxlint, update):
    status, log, _ = run_ptxlint(ptxlint, ["findings.ptx"], HERE)
    check(status == 1, f"findings.ptx: exit status {status}, expected 1")
    if log is None:
        return
    actual = normalize(log)
    golden = os.path.join(HERE, "findings.sarif")
    if update:
        write(golden, actual)
        print(f"check_sarif: wrote {golden}")
        return
    expected = read(golden) if os.path.exists(golden) else ""
    if actual != expected:
        sys.stdout.writelines(difflib.unified_diff(expected.splitlines(True), actual.splitlines(True),
                                                   "findings.sarif (golden)", "ptxlint --format sarif findings.ptx"))
        check(False, "the SARIF log of findings.ptx differs from findings.sarif; if the change is intended, "
                     "rerun with --update (or PTXLS_UPDATE_GOLDEN=1) and review the diff")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=("schema", "semantics", "golden"))
    parser.add_argument("ptxlint")
    parser.add_argument("--node-cache", default=os.environ.get("PTXLS_SARIF_NODE_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "ptxls-sarif-tests"))
    parser.add_argument("--update", action="store_true", default=os.environ.get("PTXLS_UPDATE_GOLDEN") == "1")
    args = parser.parse_args()
    ptxlint = os.path.abspath(args.ptxlint)
    if not os.access(ptxlint, os.X_OK):
        print(f"check_sarif: no executable ptxlint at {ptxlint}")
        return 2
    if args.mode == "schema":
        mode_schema(ptxlint, os.path.abspath(args.node_cache))
    elif args.mode == "semantics":
        mode_semantics(ptxlint)
    else:
        mode_golden(ptxlint, args.update)
    if failures:
        print(f"check_sarif {args.mode}: {len(failures)} check(s) failed")
        return 1
    print(f"check_sarif {args.mode}: passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
