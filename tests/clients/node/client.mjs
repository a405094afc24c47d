// A small LSP client for the ptxls tests, on the protocol library VS Code's own client uses
// (vscode-languageserver-protocol). Every request has a timeout and every server is killed at
// the end, so a hung or crashed server fails a test instead of hanging the suite.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
// run-node-tests.sh installs the dependencies outside the source tree and names that folder
// in PTXLS_NODE_PREFIX; without it, node_modules beside this file is used.
const require = createRequire(resolve(process.env.PTXLS_NODE_PREFIX || here, 'package.json'));
export const P = require('vscode-languageserver-protocol/node');

export const FIXTURES = resolve(here, '..', 'fixtures');
export const REQUEST_TIMEOUT_MS = Number(process.env.PTXLS_REQUEST_TIMEOUT_MS || 5000);

export function serverPath() {
  const binary = process.env.PTXLS_BINARY;
  if (!binary) throw new Error('PTXLS_BINARY is not set (run through tests/clients/run-node-tests.sh)');
  return binary;
}

export function fixture(name) {
  const path = resolve(FIXTURES, name);
  return { path, uri: pathToFileURL(path).href, text: readFileSync(path, 'utf8') };
}

// The position (UTF-16, as JS strings are) of the nth occurrence of needle in text, moved
// `delta` code units into the match. Tests find their positions this way, not by number.
export function positionOf(text, needle, { nth = 0, delta = 0 } = {}) {
  let at = -1;
  for (let i = 0; i <= nth; ++i) {
    at = text.indexOf(needle, at + 1);
    if (at < 0) throw new Error(`fixture has no occurrence #${nth} of ${JSON.stringify(needle)}`);
  }
  return offsetToPosition(text, at + delta);
}

export function offsetToPosition(text, offset) {
  const before = text.slice(0, offset);
  const line = before.split('\n').length - 1;
  return { line, character: offset - (before.lastIndexOf('\n') + 1) };
}

export function positionToOffset(text, { line, character }) {
  let offset = 0;
  for (let l = 0; l < line; ++l) {
    const next = text.indexOf('\n', offset);
    if (next < 0) return text.length;
    offset = next + 1;
  }
  const end = text.indexOf('\n', offset);
  return Math.min(offset + character, end < 0 ? text.length : end);
}

export function rangeOf(text, needle, opts = {}) {
  const start = positionOf(text, needle, opts);
  return { start, end: { line: start.line, character: start.character + needle.length } };
}

export function textIn(text, range) {
  return text.slice(positionToOffset(text, range.start), positionToOffset(text, range.end));
}

export function contains(range, position) {
  const le = (a, b) => a.line < b.line || (a.line === b.line && a.character <= b.character);
  return le(range.start, position) && le(position, range.end);
}

// Applies LSP TextEdits (non-overlapping, any order) to text.
export function applyEdits(text, edits) {
  const sorted = edits
    .map(e => ({ from: positionToOffset(text, e.range.start), to: positionToOffset(text, e.range.end), newText: e.newText }))
    .sort((a, b) => b.from - a.from || b.to - a.to);
  for (const e of sorted) text = text.slice(0, e.from) + e.newText + text.slice(e.to);
  return text;
}

// The TextEdits for one document out of a WorkspaceEdit (`changes` or `documentChanges`).
export function editsFor(workspaceEdit, uri) {
  const edits = [];
  if (workspaceEdit?.changes?.[uri]) edits.push(...workspaceEdit.changes[uri]);
  for (const change of workspaceEdit?.documentChanges ?? []) {
    if (change.textDocument?.uri === uri) edits.push(...change.edits);
  }
  return edits;
}

// What a client of 2024 says about itself: roughly VS Code's capabilities, minus pull
// diagnostics (Neovim 0.7 cannot pull; tests that pull pass `pull: true`).
export function clientCapabilities({ encodings, pull = false, configuration = true } = {}) {
  const caps = {
    workspace: {
      applyEdit: true,
      workspaceEdit: { documentChanges: true },
      configuration,
      didChangeConfiguration: { dynamicRegistration: false },
      symbol: { dynamicRegistration: false },
      workspaceFolders: true,
      semanticTokens: { refreshSupport: true },
      inlayHint: { refreshSupport: true },
      codeLens: { refreshSupport: true },
      ...(pull ? { diagnostics: { refreshSupport: true } } : {}),
    },
    textDocument: {
      synchronization: { dynamicRegistration: false, didSave: true },
      publishDiagnostics: { relatedInformation: true, versionSupport: true, codeDescriptionSupport: true },
      hover: { contentFormat: ['markdown', 'plaintext'] },
      completion: {
        completionItem: { snippetSupport: false, documentationFormat: ['markdown', 'plaintext'],
                          labelDetailsSupport: true, insertReplaceSupport: true },
        contextSupport: true,
      },
      signatureHelp: { signatureInformation: { documentationFormat: ['markdown', 'plaintext'],
                                               parameterInformation: { labelOffsetSupport: true },
                                               activeParameterSupport: true }, contextSupport: true },
      definition: { linkSupport: false },
      declaration: { linkSupport: false },
      references: {},
      documentHighlight: {},
      documentSymbol: { hierarchicalDocumentSymbolSupport: true },
      foldingRange: { lineFoldingOnly: false },
      selectionRange: {},
      rename: { prepareSupport: true },
      codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ['', 'quickfix', 'refactor', 'source'] } },
                    isPreferredSupport: true, resolveSupport: { properties: ['edit'] } },
      formatting: {},
      rangeFormatting: {},
      semanticTokens: {
        requests: { full: { delta: true }, range: true },
        tokenTypes: ['namespace', 'type', 'class', 'enum', 'interface', 'struct', 'typeParameter', 'parameter',
                     'variable', 'property', 'enumMember', 'event', 'function', 'method', 'macro', 'keyword',
                     'modifier', 'comment', 'string', 'number', 'regexp', 'operator', 'decorator'],
        tokenModifiers: ['declaration', 'definition', 'readonly', 'static', 'deprecated', 'abstract', 'async',
                         'modification', 'documentation', 'defaultLibrary'],
        formats: ['relative'], overlappingTokenSupport: false, multilineTokenSupport: false,
      },
      inlayHint: {},
    },
    window: { workDoneProgress: true },
  };
  if (pull) caps.textDocument.diagnostic = { relatedDocumentSupport: false };
  if (encodings) caps.general = { positionEncodings: encodings };
  return caps;
}

// Spawns ptxls and, unless initialize is false, runs initialize + initialized.
export async function startServer({ initialize = true, encodings, pull = false, configuration = true,
                                    settings = null, initializationOptions } = {}) {
  const child = spawn(serverPath(), [], { stdio: ['pipe', 'pipe', 'pipe'] });
  const stderr = [];
  child.stderr.on('data', d => stderr.push(d.toString()));
  const exited = new Promise(res => child.on('exit', (code, signal) => res({ code, signal })));
  child.stdin.on('error', () => {}); // EPIPE after a crash surfaces as a failed request instead

  const conn = P.createProtocolConnection(new P.StreamMessageReader(child.stdout), new P.StreamMessageWriter(child.stdin));
  conn.onError(() => {});
  const published = [];            // every publishDiagnostics, in order
  const logs = [];                 // window/logMessage and window/showMessage
  const serverRequests = [];       // requests the server sent us: {method, params}
  const waiters = new Set();
  const wake = () => { for (const w of [...waiters]) w(); };
  conn.onNotification(P.PublishDiagnosticsNotification.type, p => { published.push(p); wake(); });
  conn.onNotification(P.LogMessageNotification.type, p => logs.push(p));
  conn.onNotification(P.ShowMessageNotification.type, p => logs.push(p));
  conn.onRequest((method, params) => {
    serverRequests.push({ method, params });
    wake();
    if (method === P.ConfigurationRequest.method) return params.items.map(() => settings);
    return null; // client/registerCapability, window/workDoneProgress/create, */refresh, ...
  });
  conn.listen();

  // Resolves when predicate() holds, rejects after ms.
  function waitFor(predicate, ms, what) {
    return new Promise((res, rej) => {
      const check = () => {
        let value;
        try { value = predicate(); } catch (e) { done(); rej(e); return; }
        if (value) { done(); res(value); }
      };
      const timer = setTimeout(() => { done(); rej(new Error(`timed out after ${ms} ms waiting for ${what}`)); }, ms);
      const done = () => { clearTimeout(timer); waiters.delete(check); };
      waiters.add(check);
      check();
    });
  }

  // A request with a timeout. Rejects with the ResponseError (code, message) on an error reply.
  function request(method, params, ms = REQUEST_TIMEOUT_MS) {
    const source = new P.CancellationTokenSource();
    let timer;
    const timeout = new Promise((_, rej) => {
      timer = setTimeout(() => { source.cancel(); rej(new Error(`${method}: no response within ${ms} ms`)); }, ms);
    });
    const died = exited.then(({ code, signal }) => { throw new Error(`${method}: server exited (code ${code}, signal ${signal}) before answering; stderr: ${stderr.join('').slice(-2000)}`); });
    const call = params === undefined ? conn.sendRequest(method, source.token) : conn.sendRequest(method, params, source.token);
    return Promise.race([call, timeout, died]).finally(() => clearTimeout(timer));
  }
  const notify = (method, params) => conn.sendNotification(method, params);

  // The next publishDiagnostics for uri after `after` earlier ones (optionally with a version).
  async function diagnostics(uri, { version, after = 0, ms = REQUEST_TIMEOUT_MS } = {}) {
    return waitFor(() => published.slice(after).find(p => p.uri === uri && (version === undefined || p.version === version)),
                   ms, `publishDiagnostics for ${uri}${version === undefined ? '' : ` version ${version}`}`);
  }

  async function open(doc, { version = 1, text = doc.text, wait = true } = {}) {
    const mark = published.length;
    await notify(P.DidOpenTextDocumentNotification.method,
                 { textDocument: { uri: doc.uri, languageId: 'ptx', version, text } });
    return wait ? diagnostics(doc.uri, { version, after: mark }) : null;
  }

  async function change(uri, version, contentChanges, { wait = true } = {}) {
    const mark = published.length;
    await notify(P.DidChangeTextDocumentNotification.method, { textDocument: { uri, version }, contentChanges });
    return wait ? diagnostics(uri, { version, after: mark }) : null;
  }

  // The exit status ({code, signal}), or 'still running' after ms.
  async function exitStatus(ms = REQUEST_TIMEOUT_MS) {
    let timer;
    const late = new Promise(res => { timer = setTimeout(() => res('still running'), ms); });
    try { return await Promise.race([exited, late]); } finally { clearTimeout(timer); }
  }

  let killed = false;
  function kill() {
    if (killed) return;
    killed = true;
    conn.dispose();
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }

  // shutdown + exit; resolves with the exit status ({code, signal}); kills after ms.
  async function close(ms = REQUEST_TIMEOUT_MS) {
    try {
      await request(P.ShutdownRequest.method, undefined, ms);
      await notify(P.ExitNotification.method);
      const timer = setTimeout(() => child.kill('SIGKILL'), ms);
      const status = await exited;
      clearTimeout(timer);
      return status;
    } finally {
      kill();
    }
  }

  let init = null;
  if (initialize) {
    try {
      init = await request(P.InitializeRequest.method, {
        processId: process.pid, clientInfo: { name: 'ptxls-node-tests', version: '1' },
        rootUri: pathToFileURL(FIXTURES).href,
        workspaceFolders: [{ uri: pathToFileURL(FIXTURES).href, name: 'fixtures' }],
        capabilities: clientCapabilities({ encodings, pull, configuration }),
        ...(initializationOptions === undefined ? {} : { initializationOptions }),
      });
      await notify(P.InitializedNotification.method, {});
    } catch (e) {
      kill();
      throw e;
    }
  }
  // What later workspace/configuration requests are answered with.
  const setSettings = value => { settings = value; };
  return { P, conn, child, init, caps: init?.capabilities, published, logs, serverRequests, stderr, exited,
           request, notify, open, change, diagnostics, waitFor, close, kill, exitStatus, setSettings };
}

// Decodes semantic tokens (relative format) into absolute {line, char, length, type, mods}.
export function decodeTokens(data, legend) {
  const out = [];
  let line = 0, char = 0;
  for (let i = 0; i + 4 < data.length; i += 5) {
    line += data[i];
    char = data[i] === 0 ? char + data[i + 1] : data[i + 1];
    out.push({ line, char, length: data[i + 2], type: legend ? legend.tokenTypes[data[i + 3]] : data[i + 3],
               typeIndex: data[i + 3], mods: data[i + 4] });
  }
  return out;
}
