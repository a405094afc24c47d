#!/usr/bin/env python3
"""Runs the real ptxls binary over stdio: a session with garbage framing, invalid JSON, a
document with an error, an incremental fix, hover, shutdown and exit. Checks every reply and
the exit status, and that the server neither hangs nor crashes.

Usage: stdio_smoke.py PATH_TO_PTXLS
"""
import json
import subprocess
import sys


def frame(message):
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def parse_replies(data):
    replies = []
    while data:
        header, _, rest = data.partition(b"\r\n\r\n")
        length = int(header.split(b":")[1])
        replies.append(json.loads(rest[:length]))
        data = rest[length:]
    return replies


def main():
    server = sys.argv[1]
    uri = "file:///smoke.ptx"
    text = ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n\t.reg .b32 %r<2>;\n\tmov.u32 %r1, %rd1;\n\tret;\n}\n"
    stream = b"".join([
        b"Content-Type: nothing\r\n\r\n",  # no Content-Length
        b"Content-Length: 9\r\n\r\n{not json",
        frame({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}),
        frame({"jsonrpc": "2.0", "method": "initialized", "params": {}}),
        frame({"jsonrpc": "2.0", "method": "textDocument/didOpen",
               "params": {"textDocument": {"uri": uri, "languageId": "ptx", "version": 1, "text": text}}}),
        frame({"jsonrpc": "2.0", "method": "textDocument/didOpen",
               "params": {"textDocument": {"uri": "file:///broken.ptx", "languageId": "ptx", "version": 7, "text": text}}}),
        frame({"jsonrpc": "2.0", "method": "textDocument/didChange",
               "params": {"textDocument": {"uri": uri, "version": 2},
                          "contentChanges": [{"range": {"start": {"line": 6, "character": 14},
                                                        "end": {"line": 6, "character": 18}}, "text": "%r0"}]}}),
        frame({"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover",
               "params": {"textDocument": {"uri": uri}, "position": {"line": 6, "character": 2}}}),
        frame({"jsonrpc": "2.0", "id": 3, "method": "shutdown"}),
        frame({"jsonrpc": "2.0", "method": "exit"}),
    ])
    result = subprocess.run([server], input=stream, capture_output=True, timeout=60)
    replies = parse_replies(result.stdout)
    errors = [r["error"]["code"] for r in replies if "error" in r]
    # Diagnostics are debounced: a version superseded before its analysis ran is not
    # published. The last publish of each document must describe its final text.
    published = [r["params"] for r in replies if r.get("method") == "textDocument/publishDiagnostics"]
    broken = [p for p in published if p["uri"] == "file:///broken.ptx"]
    fixed = [p for p in published if p["uri"] == uri]
    by_id = {r["id"]: r for r in replies if "id" in r and r["id"] is not None}
    checks = [
        (result.returncode == 0, f"exit status {result.returncode}"),
        (errors[:2] == [-32700, -32700], f"framing and JSON errors: {errors}"),
        (by_id[1]["result"]["serverInfo"]["name"] == "ptxls", "initialize result"),
        (len(broken) == 1 and broken[0]["version"] == 7, f"{len(broken)} diagnostics notifications for the broken file"),
        (broken and broken[-1]["diagnostics"][0]["code"] == "SEM001", "the undeclared %rd1 is reported"),
        (fixed and fixed[-1]["version"] == 2 and fixed[-1]["diagnostics"] == [], "the fix clears it"),
        ("**mov**" in by_id[2]["result"]["contents"]["value"], "hover on mov"),
        (by_id[3]["result"] is None, "shutdown result"),
    ]
    failed = [what for ok, what in checks if not ok]
    for what in failed:
        print("FAILED:", what)
    print(f"{len(checks) - len(failed)}/{len(checks)} checks passed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
