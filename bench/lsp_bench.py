#!/usr/bin/env python3
"""lsp_bench: drives the real `ptxls` binary over stdio and prints latency and memory figures.

A client written against LSP 3.17 (Content-Length framing, push diagnostics, incremental
sync) opens one large PTX file and measures what a user would feel:

  (f) didOpen -> first publishDiagnostics
  (a) one-character incremental edits, sent one at a time -> the publishDiagnostics that
      carries that document version (alternating edits that keep the file valid with edits
      that introduce and then fix an error)
  (b) hover and (c) definition at random opcode / register positions
  (d) completion at operand positions and after `opcode.` ("not supported" on -32601)
  (e) server memory: VmRSS / VmHWM from /proc/PID/status, and the ratio to the document size
  (g) a burst of edits sent without waiting -> diagnostics for the final version, then a check
      that the server's text is the expected text (the burst document's diagnostics, outline
      and hovers must equal those of a second document opened with the expected final text)

It prints PASS/MISS next to each figure against the targets but asserts nothing: the exit
status is 0 unless the server crashed or hung (2), or the command line was wrong (1).
Standard library only.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import queue
import random
import re
import subprocess
import sys
import threading
import time
from collections import Counter, deque
from pathlib import Path

# The client runs a reader and a writer thread. CPython hands the interpreter lock between
# threads every 5 ms by default, which would show up as multi-millisecond "latency" that is the
# client's own; a short interval keeps the figures about the server.
sys.setswitchinterval(0.0001)

SCRIPT_DIR = Path(__file__).resolve().parent
DEFAULT_FILE = SCRIPT_DIR.parent.parent / "shared" / "corpus" / "gpuocelot" / "tests" / "ptx" / "thrust" / "Sort.ptx"

# Targets (acceptance criteria).
TARGET_EDIT_P95_MS = 50.0
TARGET_QUERY_P95_MS = 5.0  # hover, definition
TARGET_COMPLETION_P95_MS = 20.0
TARGET_MEMORY_RATIO = 10.0  # peak RSS / document size

METHOD_NOT_FOUND = -32601


class ServerDied(Exception):
    pass


class ServerHung(Exception):
    pass


# --------------------------------------------------------------------------------------------
# The client: a writer thread (so replies to server requests never deadlock against a full
# stdin pipe), a reader thread that frames and dispatches, a thread draining stderr.
# --------------------------------------------------------------------------------------------


class LspClient:
    def __init__(self, argv: list[str]):
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, bufsize=0)
        self.pid = self.proc.pid
        self.cv = threading.Condition()
        self.responses: dict = {}          # id -> (time received, message)
        self.diag_first: dict = {}         # (uri, version) -> (time received, #diagnostics, #errors)
        self.diag_last: dict = {}          # uri -> (version, params) of the latest publish
        self.publishes = Counter()         # uri -> number of publishDiagnostics
        self.notifications = Counter()     # other server notifications by method
        self.server_requests = Counter()   # server -> client requests by method
        self.protocol_errors = 0
        self.last_received = time.perf_counter()  # any message from the server
        self.dead = False
        self.stderr_tail: deque = deque(maxlen=40)
        self._outq: queue.Queue = queue.Queue()
        self._next_id = 0
        self._threads = [threading.Thread(target=f, daemon=True)
                         for f in (self._reader, self._writer, self._stderr)]
        for thread in self._threads:
            thread.start()

    # -- sending ---------------------------------------------------------------------------

    @staticmethod
    def _frame(message: dict) -> bytes:
        body = json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
        return b"Content-Length: %d\r\n\r\n" % len(body) + body

    def send(self, message: dict) -> float:
        """Queues a message; returns the time it was handed to the writer (after encoding)."""
        data = self._frame(message)
        t = time.perf_counter()
        self._outq.put(data)
        return t

    def notify(self, method: str, params) -> float:
        return self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def new_id(self) -> int:
        self._next_id += 1
        return self._next_id

    def request(self, method: str, params, timeout: float):
        """Sends a request and waits: (latency in s or None on timeout, response or None)."""
        rid = self.new_id()
        t0 = self.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        got = self.wait(lambda: self.responses.pop(rid, None), timeout)
        if got is None:
            return None, None
        return got[0] - t0, got[1]

    def _writer(self):
        stdin = self.proc.stdin
        while True:
            data = self._outq.get()
            if data is None:
                break
            try:
                view = memoryview(data)
                while view:
                    written = stdin.write(view)
                    view = view[written:]
            except (BrokenPipeError, OSError, ValueError):
                with self.cv:
                    self.dead = True
                    self.cv.notify_all()
                break

    def close_stdin(self):
        self._outq.put(None)
        self._threads[1].join(timeout=5)
        try:
            self.proc.stdin.close()
        except OSError:
            pass

    # -- receiving -------------------------------------------------------------------------

    def _stderr(self):
        for line in self.proc.stderr:
            self.stderr_tail.append(line.decode("utf-8", "replace").rstrip())

    def _reader(self):
        fd = self.proc.stdout.fileno()
        buf = bytearray()
        need = None
        while True:
            try:
                chunk = os.read(fd, 1 << 20)
            except OSError:
                chunk = b""
            # The time the bytes completing a message were read, before any JSON decoding.
            t = time.perf_counter()
            if not chunk:
                break
            buf += chunk
            while True:
                if need is None:
                    end = buf.find(b"\r\n\r\n")
                    if end < 0:
                        break
                    header = bytes(buf[:end]).decode("ascii", "replace")
                    del buf[:end + 4]
                    length = None
                    for line in header.split("\r\n"):
                        name, _, value = line.partition(":")
                        if name.strip().lower() == "content-length":
                            try:
                                length = int(value.strip())
                            except ValueError:
                                pass
                    if length is None:
                        self.protocol_errors += 1
                        continue
                    need = length
                if len(buf) < need:
                    break
                body = bytes(buf[:need])
                del buf[:need]
                need = None
                self._dispatch(t, body)
        with self.cv:
            self.dead = True
            self.cv.notify_all()

    def _dispatch(self, t: float, body: bytes):
        self.last_received = t
        try:
            message = json.loads(body)
        except ValueError:
            self.protocol_errors += 1
            return
        if not isinstance(message, dict):
            self.protocol_errors += 1
            return
        method = message.get("method")
        if method is not None and "id" in message:
            # A request from the server (workDoneProgress/create, client/registerCapability,
            # workspace/configuration, ...): answer null.
            self.server_requests[method] += 1
            self.send({"jsonrpc": "2.0", "id": message["id"], "result": None})
            return
        if method is None:
            with self.cv:
                self.responses[message.get("id")] = (t, message)
                self.cv.notify_all()
            return
        if method == "textDocument/publishDiagnostics":
            params = message.get("params") or {}
            uri = params.get("uri")
            version = params.get("version")
            diagnostics = params.get("diagnostics") or []
            errors = sum(1 for d in diagnostics if isinstance(d, dict) and d.get("severity", 1) == 1)
            with self.cv:
                self.publishes[uri] += 1
                key = (uri, version)
                if key not in self.diag_first:
                    self.diag_first[key] = (t, len(diagnostics), errors)
                self.diag_last[uri] = (version, params)
                self.cv.notify_all()
            return
        self.notifications[method] += 1

    def wait(self, predicate, timeout: float):
        """Waits until predicate() returns something other than None; None on timeout.
        Raises ServerDied when the server's stdout closed before that."""
        deadline = time.perf_counter() + timeout
        with self.cv:
            while True:
                result = predicate()
                if result is not None:
                    return result
                if self.dead:
                    raise ServerDied()
                left = deadline - time.perf_counter()
                if left <= 0:
                    return None
                self.cv.wait(min(left, 1.0))

    def wait_diagnostics(self, uri: str, version: int, timeout: float):
        """(time received, #diagnostics, #errors) of the publish carrying `version`, or None."""
        return self.wait(lambda: self.diag_first.get((uri, version)), timeout)

    def memory(self) -> dict:
        figures = {}
        try:
            with open(f"/proc/{self.pid}/status") as status:
                for line in status:
                    key, _, value = line.partition(":")
                    if key in ("VmRSS", "VmHWM"):
                        figures[key] = int(value.split()[0]) * 1024
        except OSError:
            pass
        return figures


# --------------------------------------------------------------------------------------------
# The document model: the text as lines, edited the way the server is told to edit it.
# --------------------------------------------------------------------------------------------

# An instruction line with operands: indentation, optional guard, opcode base, modifiers,
# whitespace, operands, ';'.
INSTRUCTION = re.compile(r"^([ \t]*)(@!?%[\w$]+[ \t]+)?([a-z][a-z0-9_]*)((?:\.[a-z0-9_]+)*)([ \t]+)([^;]*);")
REGISTER = re.compile(r"%[A-Za-z_$][\w$]*")
IMMEDIATE = re.compile(r"(?<=[\s,])\d+(?=\s*[,;]|\s*$)")


def utf16_column(line: str, index: int) -> int:
    prefix = line[:index]
    if prefix.isascii():
        return index
    return len(prefix.encode("utf-16-le")) // 2


class Model:
    def __init__(self, text: str):
        self.lines = text.splitlines(keepends=True)
        self.instructions = [i for i, line in enumerate(self.lines) if INSTRUCTION.match(line)]

    def text(self) -> str:
        return "".join(self.lines)

    def content(self, line: int) -> str:
        text = self.lines[line]
        return text.rstrip("\r\n")

    def position(self, line: int, index: int) -> dict:
        return {"line": line, "character": utf16_column(self.content(line), index)}

    def edit(self, line: int, begin: int, end: int, new: str) -> dict:
        """Applies a one-line edit (character indices) and returns the LSP content change."""
        content = self.content(line)
        change = {"range": {"start": self.position(line, begin), "end": self.position(line, end)},
                  "text": new}
        self.lines[line] = content[:begin] + new + content[end:] + self.lines[line][len(content):]
        return change

    # The one-character edits; each returns (line, begin, end, new) or None.

    def insert_space(self, line: int):
        """A space after the opcode: inside a function body, keeps the file valid."""
        m = INSTRUCTION.match(self.content(line))
        return None if m is None else (line, m.end(4), m.end(4), " ")

    def change_digit(self, line: int):
        """The last digit of an immediate operand, to another that keeps it non-zero."""
        content = self.content(line)
        m = INSTRUCTION.match(content)
        if m is None:
            return None
        numbers = list(IMMEDIATE.finditer(content, m.start(6), m.end(6)))
        if not numbers:
            return None
        number = numbers[-1]
        last = number.end() - 1
        digit = int(content[last])
        new = 1 if digit == 0 else digit - 1
        if new == 0 and number.end() - number.start() == 1:
            new = 2
        return (line, last, last + 1, str(new))

    def break_opcode(self, line: int):
        """An 'x' after the opcode's base name (`add.u32` -> `addx.u32`): an unknown opcode."""
        m = INSTRUCTION.match(self.content(line))
        return None if m is None else (line, m.end(3), m.end(3), "x")

    def fix_opcode(self, line: int):
        """Removes the 'x' that break_opcode inserted."""
        content = self.content(line)
        m = INSTRUCTION.match(content)
        if m is None or not m.group(3).endswith("x"):
            return None
        return (line, m.end(3) - 1, m.end(3), "")


# --------------------------------------------------------------------------------------------
# Figures
# --------------------------------------------------------------------------------------------


def percentile(values: list[float], p: float):
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, math.ceil(p / 100.0 * len(ordered)))
    return ordered[rank - 1]


def summary(samples_s: list[float], failures: int, target_p95_ms: float | None) -> dict:
    ms = [s * 1000.0 for s in samples_s]
    out = {"n": len(ms) + failures, "ok": len(ms), "failures": failures,
           "p50_ms": percentile(ms, 50), "p95_ms": percentile(ms, 95),
           "max_ms": max(ms) if ms else None, "mean_ms": (sum(ms) / len(ms)) if ms else None}
    if target_p95_ms is not None:
        out["target_p95_ms"] = target_p95_ms
        out["verdict"] = "PASS" if (ms and failures == 0 and out["p95_ms"] <= target_p95_ms) else "MISS"
    return out


def fmt_ms(value) -> str:
    if value is None:
        return "-"
    if value >= 1000:
        return f"{value / 1000.0:.2f} s"
    if value >= 100:
        return f"{value:.0f} ms"
    if value >= 10:
        return f"{value:.1f} ms"
    return f"{value:.2f} ms"


def fmt_bytes(value) -> str:
    if value is None:
        return "-"
    return f"{value / (1 << 20):.1f} MiB"


def print_latency(label: str, s: dict, extra: str = ""):
    line = (f"{label:<44} p50 {fmt_ms(s['p50_ms']):>9}  p95 {fmt_ms(s['p95_ms']):>9}  "
            f"max {fmt_ms(s['max_ms']):>9}  n={s['ok']}")
    if s["failures"]:
        line += f" ({s['failures']} timed out)"
    if "verdict" in s:
        line += f"   target p95 <= {s['target_p95_ms']:g} ms: {s['verdict']}"
    print(line + extra, flush=True)


# --------------------------------------------------------------------------------------------
# The benchmark
# --------------------------------------------------------------------------------------------


class Bench:
    def __init__(self, args):
        self.args = args
        self.rng = random.Random(args.seed)
        self.path = Path(args.file).resolve()
        self.text = self.path.read_text(encoding="utf-8", errors="surrogateescape")
        self.size = len(self.text.encode("utf-8", errors="surrogateescape"))
        self.uri = self.path.as_uri()
        self.model = Model(self.text)
        self.version = 1
        self.results: dict = {"server": str(args.server), "file": str(self.path), "document_bytes": self.size,
                              "document_lines": len(self.model.lines)}
        self.client: LspClient | None = None
        self.consecutive_timeouts = 0
        self.abandoned = False  # the server was left busy after a burst timeout

    def note_timeout(self, what: str, ok: bool):
        """A timed-out sample is a failure of that sample; the server is taken as hung only after
        several in a row with nothing at all received from it for --timeout seconds (a slow
        server that is still publishing is slow, not hung)."""
        if ok:
            self.consecutive_timeouts = 0
            return
        self.consecutive_timeouts += 1
        silent = time.perf_counter() - self.client.last_received
        if self.consecutive_timeouts >= self.args.hung_after and silent >= self.args.timeout:
            raise ServerHung(f"{self.consecutive_timeouts} consecutive timeouts ({what}), "
                             f"nothing received for {silent:.0f} s")

    def memory_point(self, name: str):
        m = self.client.memory()
        self.results.setdefault("memory", {})[name] = {"rss_bytes": m.get("VmRSS"), "peak_rss_bytes": m.get("VmHWM")}
        return m

    def run(self) -> int:
        args = self.args
        print(f"ptxls lsp_bench: {args.server}", flush=True)
        print(f"document: {self.path} ({self.size:,} bytes, {len(self.model.lines):,} lines, "
              f"{len(self.model.instructions):,} instruction lines)", flush=True)
        self.client = LspClient([str(args.server)] + args.server_arg)
        status = 0
        try:
            self.initialize()
            self.open_document()
            self.queries("hover", "textDocument/hover", args.hovers, "(b) hover", TARGET_QUERY_P95_MS)
            self.queries("definition", "textDocument/definition", args.hovers, "(c) definition", TARGET_QUERY_P95_MS)
            self.completion()
            self.edits()
            self.burst()
            self.report_memory()
            self.verify()
            status = self.shutdown()
        except ServerDied:
            try:
                code = self.client.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                code = "still running"
            print(f"\nSERVER CRASHED (stdout closed; exit status {code})", flush=True)
            self.results["error"] = "server crashed"
            status = 2
        except ServerHung as hung:
            print(f"\nSERVER HUNG: {hung}", flush=True)
            self.results["error"] = f"server hung: {hung}"
            status = 2
        finally:
            if status == 2:
                if self.client.stderr_tail:
                    print("server stderr (tail):\n  " + "\n  ".join(self.client.stderr_tail))
                if self.client.proc.poll() is None:
                    self.client.proc.kill()
                if "memory" not in self.results.get("summary", {}):
                    pass
            self.results["exit_status"] = status
            self.results["server_notifications"] = dict(self.client.notifications)
            self.results["server_requests"] = dict(self.client.server_requests)
            self.results["protocol_errors"] = self.client.protocol_errors
            if args.json:
                Path(args.json).write_text(json.dumps(self.results, indent=2) + "\n")
                print(f"figures written to {args.json}")
        return status

    # -- phases ----------------------------------------------------------------------------

    def initialize(self):
        client = self.client
        params = {
            "processId": os.getpid(),
            "clientInfo": {"name": "ptxls-lsp-bench"},
            "rootUri": None,
            "capabilities": {
                "general": {"positionEncodings": ["utf-16"]},
                "textDocument": {
                    "synchronization": {"didSave": False, "dynamicRegistration": False},
                    "publishDiagnostics": {"relatedInformation": True, "versionSupport": True},
                    "hover": {"contentFormat": ["markdown", "plaintext"]},
                    "completion": {"completionItem": {"snippetSupport": False}},
                    "definition": {"linkSupport": False},
                    "documentSymbol": {"hierarchicalDocumentSymbolSupport": True},
                },
                "window": {"workDoneProgress": True},
            },
        }
        latency, response = client.request("initialize", params, self.args.timeout)
        if response is None:
            raise ServerHung("no reply to initialize")
        if "error" in response:
            raise ServerHung(f"initialize failed: {response['error']}")
        result = response.get("result") or {}
        self.capabilities = result.get("capabilities") or {}
        info = result.get("serverInfo") or {}
        client.notify("initialized", {})
        sync = self.capabilities.get("textDocumentSync")
        change = sync.get("change") if isinstance(sync, dict) else sync
        print(f"server: {info.get('name', '?')} {info.get('version', '?')}, position encoding "
              f"{self.capabilities.get('positionEncoding', 'utf-16')}, textDocumentSync.change={change}, "
              f"completionProvider={'yes' if self.capabilities.get('completionProvider') else 'no'}", flush=True)
        self.results["server_info"] = info
        self.results["initialize_ms"] = latency * 1000.0
        if change != 2:
            print("  note: the server does not advertise incremental sync; sending ranges anyway")
        self.memory_point("after_initialize")
        print(flush=True)

    def open_document(self):
        client = self.client
        t0 = client.notify("textDocument/didOpen", {"textDocument": {
            "uri": self.uri, "languageId": "ptx", "version": self.version, "text": self.text}})
        got = client.wait_diagnostics(self.uri, self.version, self.args.open_timeout)
        if got is None:
            raise ServerHung(f"no diagnostics within {self.args.open_timeout:g} s of didOpen")
        t, count, errors = got
        self.baseline_errors = errors
        ms = (t - t0) * 1000.0
        self.results["open_to_diagnostics"] = {"ms": ms, "diagnostics": count, "errors": errors}
        print(f"{'(f) didOpen -> first diagnostics':<44} {fmt_ms(ms):>9}   ({count} diagnostics, {errors} errors)",
              flush=True)
        self.memory_point("after_open")

    def query_positions(self, count: int):
        """Random opcode and register positions on instruction lines of the current text."""
        positions = []
        lines = self.model.instructions
        while len(positions) < count:
            line = self.rng.choice(lines)
            content = self.model.content(line)
            m = INSTRUCTION.match(content)
            if m is None:
                continue
            if self.rng.random() < 0.5:
                begin, end, kind = m.start(3), m.end(4), "opcode"
            else:
                registers = list(REGISTER.finditer(content, m.start(6), m.end(6)))
                if not registers:
                    continue
                r = self.rng.choice(registers)
                begin, end, kind = r.start(), r.end(), "register"
            positions.append((kind, self.model.position(line, self.rng.randrange(begin, end))))
        return positions

    def queries(self, key: str, method: str, count: int, label: str, target: float):
        client = self.client
        samples, failures, nonnull, errors = [], 0, Counter(), 0
        for kind, position in self.query_positions(count):
            latency, response = client.request(method, {"textDocument": {"uri": self.uri}, "position": position},
                                               self.args.timeout)
            self.note_timeout(method, response is not None)
            if response is None:
                failures += 1
                continue
            if "error" in response:
                errors += 1
                if response["error"].get("code") == METHOD_NOT_FOUND:
                    print(f"{label:<44} not supported (-32601)")
                    self.results[key] = {"supported": False}
                    return
            samples.append(latency)
            if response.get("result"):
                nonnull[kind] += 1
        s = summary(samples, failures, target)
        s["non_null"] = dict(nonnull)
        s["errors"] = errors
        self.results[key] = s
        print_latency(label, s, f"   [non-null: {nonnull['opcode']} opcode, {nonnull['register']} register"
                                + (f"; {errors} errors" if errors else "") + "]")

    def completion(self):
        client = self.client
        label = "(d) completion"
        samples, failures, nonempty, errors = [], 0, Counter(), 0
        by_kind = {"operand": [], "after-dot": []}
        count = self.args.completions
        done = 0
        while done < count:
            line = self.rng.choice(self.model.instructions)
            content = self.model.content(line)
            m = INSTRUCTION.match(content)
            if m is None:
                continue
            if done % 2 == 0:
                # An operand position: the start of an operand, or just after its '%'.
                starts = [m.start(6)] + [i + 1 + len(content[i + 1:]) - len(content[i + 1:].lstrip())
                                         for i in range(m.start(6), m.end(6)) if content[i] == ","]
                index = self.rng.choice(starts)
                if content[index:index + 1] == "%" and self.rng.random() < 0.5:
                    index += 1
                kind = "operand"
            else:
                # After `opcode.`: just after the first dot of the opcode (or after the base name).
                index = m.end(3) + 1 if m.group(4) else m.end(3)
                kind = "after-dot"
            position = self.model.position(line, index)
            done += 1
            latency, response = client.request("textDocument/completion", {
                "textDocument": {"uri": self.uri}, "position": position,
                "context": {"triggerKind": 2, "triggerCharacter": "."} if kind == "after-dot" else {"triggerKind": 1}},
                self.args.timeout)
            self.note_timeout("completion", response is not None)
            if response is None:
                failures += 1
                continue
            if "error" in response:
                if response["error"].get("code") == METHOD_NOT_FOUND:
                    print(f"{label:<44} not supported (-32601 method not found)", flush=True)
                    self.results["completion"] = {"supported": False, "target_p95_ms": TARGET_COMPLETION_P95_MS,
                                                  "verdict": "MISS"}
                    return
                errors += 1
                continue
            samples.append(latency)
            by_kind[kind].append(latency)
            result = response.get("result")
            items = result.get("items", []) if isinstance(result, dict) else (result or [])
            if items:
                nonempty[kind] += 1
        s = summary(samples, failures, TARGET_COMPLETION_P95_MS)
        s["non_empty"] = dict(nonempty)
        s["errors"] = errors
        s["by_kind"] = {k: summary(v, 0, None) for k, v in by_kind.items()}
        self.results["completion"] = s
        print_latency(label, s, f"   [non-empty: {nonempty['operand']} operand, {nonempty['after-dot']} after-dot"
                                + (f"; {errors} errors" if errors else "") + "]")

    def send_change(self, change: dict) -> float:
        self.version += 1
        return self.client.notify("textDocument/didChange", {
            "textDocument": {"uri": self.uri, "version": self.version}, "contentChanges": [change]})

    def pick(self, operation):
        """A random instruction line where `operation` applies."""
        for _ in range(1000):
            line = self.rng.choice(self.model.instructions)
            edit = operation(line)
            if edit is not None:
                return edit
        raise RuntimeError("no instruction line accepts the edit")

    def edits(self):
        client, model = self.client, self.model
        cycle = ["space", "digit", "break", "fix"]
        samples, failures = [], 0
        by_kind = {k: [] for k in cycle}
        raised, restored, breaks, fixes = 0, 0, 0, 0
        errors_before_break = None
        broken_line = None
        last_errors = self.baseline_errors
        for i in range(self.args.edits):
            kind = cycle[i % 4]
            if kind == "space":
                edit = self.pick(model.insert_space)
            elif kind == "digit":
                edit = self.pick(model.change_digit)
            elif kind == "break":
                edit = self.pick(model.break_opcode)
                broken_line = edit[0]
                errors_before_break = last_errors
            else:
                edit = model.fix_opcode(broken_line) if broken_line is not None else None
                if edit is None:
                    edit, kind = self.pick(model.insert_space), "space"
            change = model.edit(*edit)
            t0 = self.send_change(change)
            got = client.wait_diagnostics(self.uri, self.version, self.args.timeout)
            self.note_timeout("edit diagnostics", got is not None)
            if got is None:
                failures += 1
                broken_line = None if kind == "fix" else broken_line
                continue
            t, _, errors = got
            samples.append(t - t0)
            by_kind[kind].append(t - t0)
            if kind == "break":
                breaks += 1
                raised += errors_before_break is not None and errors > errors_before_break
            elif kind == "fix":
                fixes += 1
                restored += errors_before_break is not None and errors == errors_before_break
                broken_line = None
            last_errors = errors
            if self.args.pause_ms > 0:
                # A typist's pause: long enough for the server's full analysis to start.
                time.sleep(self.args.pause_ms / 1000.0)
        s = summary(samples, failures, TARGET_EDIT_P95_MS)
        s["by_kind"] = {k: summary(v, 0, None) for k, v in by_kind.items()}
        s["sanity"] = {"breaks": breaks, "breaks_raising_errors": raised, "fixes": fixes,
                       "fixes_restoring_errors": restored}
        self.results["edit_to_diagnostics"] = s
        apart = f", {self.args.pause_ms:g} ms apart" if self.args.pause_ms > 0 else ""
        print_latency(f"(a) edit -> diagnostics ({self.args.edits} edits{apart})", s)
        print(f"{'':<44} by kind p50: " + ", ".join(
            f"{k} {fmt_ms(s['by_kind'][k]['p50_ms'])}" for k in cycle)
            + f"; error raised by {raised}/{breaks} breaks, cleared by {restored}/{fixes} fixes", flush=True)
        self.memory_point("after_edits")

    def burst(self):
        client, model = self.client, self.model
        n = self.args.burst
        if n <= 0:
            return
        pending: list[int] = []  # lines with an inserted 'x'
        first_version = self.version + 1
        publishes_before = client.publishes[self.uri]
        self.burst_lines: list[int] = []
        t_first = None
        for i in range(n):
            roll = self.rng.random()
            edit = None
            if roll < 0.15 and pending and i < n * 9 // 10:
                line = pending.pop(self.rng.randrange(len(pending)))
                edit = model.fix_opcode(line)
            elif roll < 0.30:
                edit = self.pick(model.break_opcode)
                if edit[0] in pending:
                    edit = None
                else:
                    pending.append(edit[0])
            elif roll < 0.55:
                edit = self.pick(model.change_digit)
            if edit is None:
                edit = self.pick(model.insert_space)
            self.burst_lines.append(edit[0])
            t = self.send_change(model.edit(*edit))
            if t_first is None:
                t_first = t
        t_last = t
        final = self.version
        got = client.wait_diagnostics(self.uri, final, self.args.burst_timeout)
        publishes = client.publishes[self.uri] - publishes_before
        if got is None:
            published = [v for (uri, v) in client.diag_first if uri == self.uri and v >= first_version]
            reached = max(published) if published else None
            silent = time.perf_counter() - client.last_received
            self.results["burst"] = {"edits": n, "timed_out": True, "timeout_s": self.args.burst_timeout,
                                     "publishes": publishes, "final_version": final,
                                     "highest_version_published": reached, "verdict": "MISS"}
            progress = (f"published up to version {reached} of {first_version}..{final}" if reached is not None
                        else "no version of the burst published")
            print(f"{f'(g) burst of {n} edits -> final diagnostics':<44} TIMED OUT after "
                  f"{self.args.burst_timeout:g} s: {publishes} publishes, {progress}   MISS", flush=True)
            if silent >= self.args.timeout:
                raise ServerHung(f"nothing received for {silent:.0f} s after the burst")
            # Slow, not hung: it is still working through the queue. Waiting for it could take
            # hours; the memory figures are taken now and the server is stopped afterwards.
            self.memory_point("after_burst")
            self.abandoned = True
            return
        t, count, errors = got
        after_last = (t - t_last) * 1000.0
        total = (t - t_first) * 1000.0
        superseded = sum(1 for v in range(first_version, final) if (self.uri, v) in client.diag_first)
        self.results["burst"] = {"edits": n, "send_ms": (t_last - t_first) * 1000.0,
                                 "last_edit_to_final_diagnostics_ms": after_last,
                                 "first_edit_to_final_diagnostics_ms": total,
                                 "publishes": publishes, "intermediate_versions_published": superseded,
                                 "final_version": final, "final_diagnostics": count, "final_errors": errors,
                                 "pending_errors": len(pending)}
        print(f"{f'(g) burst of {n} edits -> final diagnostics':<44} {fmt_ms(after_last):>9} after the last edit, "
              f"{fmt_ms(total)} after the first (sent in {fmt_ms((t_last - t_first) * 1000.0)}); "
              f"{publishes} publishes, {superseded} intermediate versions published; "
              f"final: {count} diagnostics, {errors} errors", flush=True)
        self.memory_point("after_burst")

    def report_memory(self):
        mem = self.results["memory"]
        size = self.size

        def ratio(v):
            return None if v is None else v / size

        print()
        for name in ("after_initialize", "after_open", "after_edits", "after_burst"):
            if name in mem:
                m = mem[name]
                r = ratio(m["rss_bytes"])
                print(f"(e) memory {name.replace('_', ' '):<33} RSS {fmt_bytes(m['rss_bytes']):>10}"
                      f" ({r:.1f}x doc)   peak {fmt_bytes(m['peak_rss_bytes']):>10}" if r is not None else
                      f"(e) memory {name}: unavailable")
        last = mem.get("after_burst") or mem.get("after_edits") or mem.get("after_open")
        peak = last.get("peak_rss_bytes") if last else None
        base = mem.get("after_initialize", {}).get("rss_bytes")
        if peak is not None:
            verdict = "PASS" if peak <= TARGET_MEMORY_RATIO * size else "MISS"
            above = f", {(peak - base) / size:.1f}x above the empty server" if base is not None else ""
            print(f"{'(e) peak RSS / document size':<44} {peak / size:.1f}x{above}   "
                  f"target <= {TARGET_MEMORY_RATIO:g}x: {verdict}", flush=True)
            self.results["memory_summary"] = {"peak_rss_bytes": peak, "ratio": peak / size,
                                              "ratio_above_empty": (peak - base) / size if base else None,
                                              "target_ratio": TARGET_MEMORY_RATIO, "verdict": verdict}
        print(flush=True)

    def verify(self):
        """The server's text must be the expected one: compare the burst document with a second
        document opened with the expected text (diagnostics, outline, hovers)."""
        if self.args.burst <= 0 or self.args.no_verify or self.abandoned:
            if self.abandoned:
                print(f"{'(g) server text == expected text':<44} not checked (the burst did not finish)")
                self.results["burst_text_check"] = {"verdict": "MISS", "checked": False}
            return
        client = self.client
        expected_uri = self.uri.rsplit(".", 1)[0] + ".expected.ptx"
        version, params = client.diag_last.get(self.uri, (None, None))
        t0 = client.notify("textDocument/didOpen", {"textDocument": {
            "uri": expected_uri, "languageId": "ptx", "version": 1, "text": self.model.text()}})
        got = client.wait_diagnostics(expected_uri, 1, self.args.open_timeout)
        if got is None:
            raise ServerHung("no diagnostics for the verification document")
        _, expected_params = client.diag_last[expected_uri]

        def normalized(value):
            return json.loads(json.dumps(value).replace(json.dumps(expected_uri)[1:-1], json.dumps(self.uri)[1:-1]))

        checks = {}
        checks["final_version_published"] = version == self.version
        checks["diagnostics_equal"] = (params is not None and
                                       normalized(expected_params.get("diagnostics")) == params.get("diagnostics"))
        symbols = []
        for uri in (self.uri, expected_uri):
            _, response = client.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}},
                                         self.args.open_timeout)
            symbols.append(None if response is None else response.get("result", response.get("error")))
        checks["document_symbols_equal"] = symbols[0] is not None and normalized(symbols[1]) == symbols[0]
        # Hovers at the burst's edited lines: every token after an edit would shift on a mismatch.
        lines = sorted(set(self.burst_lines))
        self.rng.shuffle(lines)
        hover_mismatch = 0
        hovers = 0
        for line in lines[:self.args.verify_hovers]:
            content = self.model.content(line)
            m = INSTRUCTION.match(content)
            if m is None:
                continue
            targets = [m.start(3)] + [r.start() + 1 for r in REGISTER.finditer(content, m.start(6), m.end(6))]
            for index in targets:
                position = self.model.position(line, index)
                answers = []
                for uri in (self.uri, expected_uri):
                    _, response = client.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                                        "position": position}, self.args.timeout)
                    answers.append(None if response is None else response.get("result"))
                hovers += 1
                hover_mismatch += normalized(answers[1]) != answers[0]
        checks["hovers_equal"] = f"{hovers - hover_mismatch}/{hovers}"
        client.notify("textDocument/didClose", {"textDocument": {"uri": expected_uri}})
        ok = (checks["final_version_published"] and checks["diagnostics_equal"] and checks["document_symbols_equal"]
              and hover_mismatch == 0)
        checks["verdict"] = "PASS" if ok else "MISS"
        self.results["burst_text_check"] = checks
        print(f"{'(g) server text == expected text':<44} {checks['verdict']}   (final version published: "
              f"{checks['final_version_published']}, diagnostics equal: {checks['diagnostics_equal']}, "
              f"outline equal: {checks['document_symbols_equal']}, hovers equal: {checks['hovers_equal']})",
              flush=True)

    def shutdown(self) -> int:
        client = self.client
        self.memory_point("at_end")
        if self.abandoned:
            client.proc.kill()
            client.proc.wait()
            print("server still busy with the burst: killed (slow, not hung)", flush=True)
            return 0
        _, response = client.request("shutdown", None, self.args.timeout)
        if response is None:
            raise ServerHung("no reply to shutdown")
        client.notify("exit", None)
        client.close_stdin()
        try:
            code = client.proc.wait(timeout=self.args.timeout)
        except subprocess.TimeoutExpired:
            raise ServerHung("the server did not exit after shutdown/exit")
        self.results["server_exit_status"] = code
        print(f"server exited with status {code}"
              + (f"; {client.protocol_errors} malformed messages" if client.protocol_errors else "")
              + (f"; requests from the server: {dict(client.server_requests)}" if client.server_requests else ""),
              flush=True)
        if code < 0:
            print("SERVER CRASHED at exit")
            return 2
        return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--server", required=True, help="the ptxls binary")
    parser.add_argument("--server-arg", action="append", default=[], help="an extra argument for the server")
    parser.add_argument("--file", default=str(DEFAULT_FILE), help=f"the PTX document (default {DEFAULT_FILE})")
    parser.add_argument("--edits", type=int, default=100, help="sequential one-character edits (a)")
    parser.add_argument("--pause-ms", type=float, default=0.0,
                        help="quiet time after each edit's diagnostics before the next edit (a); the server "
                             "starts its full analysis after 150 ms of quiet, so a pause longer than that "
                             "measures edits that meet a running full analysis")
    parser.add_argument("--hovers", type=int, default=300, help="hover requests (b) and definition requests (c)")
    parser.add_argument("--completions", type=int, default=300, help="completion requests (d)")
    parser.add_argument("--burst", type=int, default=1000, help="edits sent without waiting (g); 0 skips")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds to wait for one reply or diagnostics")
    parser.add_argument("--open-timeout", type=float, default=120.0, help="seconds to wait for the first diagnostics")
    parser.add_argument("--burst-timeout", type=float, default=600.0,
                        help="seconds to wait for the burst's final diagnostics")
    parser.add_argument("--hung-after", type=int, default=3, help="consecutive timeouts that mean the server hung")
    parser.add_argument("--verify-hovers", type=int, default=40, help="edited lines hovered in the text check")
    parser.add_argument("--no-verify", action="store_true", help="skip the text check after the burst")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", help="also write the figures as JSON to this file")
    args = parser.parse_args(argv)
    if not os.access(args.server, os.X_OK):
        print(f"lsp_bench: {args.server} is not an executable", file=sys.stderr)
        return 1
    if not Path(args.file).is_file():
        print(f"lsp_bench: no such file: {args.file}", file=sys.stderr)
        return 1
    return Bench(args).run()


if __name__ == "__main__":
    sys.exit(main())
