// Lifecycle and JSON-RPC error handling of ptxls, through VS Code's protocol library.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { P, startServer, fixture, positionOf } from './client.mjs';

const T = { timeout: 15000 };

test('initialize returns the capabilities and server info, UTF-16 by default', T, async () => {
  const s = await startServer();
  try {
    const { capabilities, serverInfo } = s.init;
    assert.equal(serverInfo?.name, 'ptxls');
    assert.equal(typeof serverInfo.version, 'string');
    assert.equal(capabilities.positionEncoding ?? 'utf-16', 'utf-16');
    // Incremental sync with open/close notifications.
    const sync = capabilities.textDocumentSync;
    assert.equal(typeof sync, 'object');
    assert.equal(sync.openClose, true);
    assert.equal(sync.change, P.TextDocumentSyncKind.Incremental);
    for (const provider of ['hoverProvider', 'definitionProvider', 'declarationProvider', 'referencesProvider',
                            'documentHighlightProvider', 'documentSymbolProvider', 'foldingRangeProvider',
                            'selectionRangeProvider']) {
      assert.ok(capabilities[provider], `${provider} is advertised`);
    }
    assert.deepEqual(await s.close(), { code: 0, signal: null });
  } finally { s.kill(); }
});

test('positionEncoding utf-8 when the client offers it, utf-16 when it offers only utf-16/utf-32', T, async () => {
  const a = await startServer({ encodings: ['utf-16', 'utf-8'] });
  const b = await startServer({ encodings: ['utf-16'] });
  try {
    assert.equal(a.init.capabilities.positionEncoding, 'utf-8');
    assert.equal(b.init.capabilities.positionEncoding ?? 'utf-16', 'utf-16');
  } finally { a.kill(); b.kill(); }
});

test('a request before initialize is answered with ServerNotInitialized (-32002)', T, async () => {
  const s = await startServer({ initialize: false });
  try {
    await assert.rejects(s.request(P.HoverRequest.method, { textDocument: { uri: 'file:///x.ptx' }, position: { line: 0, character: 0 } }),
                         e => e.code === P.ErrorCodes.ServerNotInitialized);
    // Still usable afterwards.
    const init = await s.request(P.InitializeRequest.method, { processId: null, rootUri: null, capabilities: {} });
    assert.ok(init.capabilities.hoverProvider);
    await assert.rejects(s.request(P.InitializeRequest.method, { processId: null, rootUri: null, capabilities: {} }),
                         e => e.code === P.ErrorCodes.InvalidRequest, 'a second initialize is an InvalidRequest');
  } finally { s.kill(); }
});

test('an unknown method is MethodNotFound (-32601) and the server keeps going', T, async () => {
  const s = await startServer();
  try {
    await assert.rejects(s.request('ptx/noSuchMethod', {}), e => e.code === P.ErrorCodes.MethodNotFound);
    // An unknown notification gets no answer and breaks nothing ($/ ones included).
    await s.notify('ptx/noSuchNotification', { x: 1 });
    await s.notify('$/noSuchNotification', {});
    const doc = fixture('vecadd.ptx');
    const d = await s.open(doc);
    assert.equal(d.diagnostics.length, 0);
    assert.deepEqual(await s.close(), { code: 0, signal: null });
  } finally { s.kill(); }
});

test('invalid params are InvalidParams (-32602)', T, async () => {
  const s = await startServer();
  try {
    const doc = fixture('vecadd.ptx');
    await s.open(doc);
    const bad = [
      [P.HoverRequest.method, { textDocument: { uri: doc.uri } }],                                       // no position
      [P.HoverRequest.method, { textDocument: { uri: doc.uri }, position: { line: -1, character: 0 } }],
      [P.HoverRequest.method, { textDocument: { uri: doc.uri }, position: { line: 'one', character: 0 } }],
      [P.DefinitionRequest.method, { position: { line: 0, character: 0 } }],                              // no textDocument
      [P.DocumentSymbolRequest.method, { textDocument: { uri: 42 } }],
      [P.SelectionRangeRequest.method, { textDocument: { uri: doc.uri }, positions: 'nope' }],
    ];
    for (const [method, params] of bad) {
      await assert.rejects(s.request(method, params), e => e.code === P.ErrorCodes.InvalidParams,
                           `${method} ${JSON.stringify(params)}`);
    }
    // A valid request afterwards still works.
    const hover = await s.request(P.HoverRequest.method, { textDocument: { uri: doc.uri }, position: positionOf(doc.text, 'mov.u32', { delta: 1 }) });
    assert.match(hover.contents.value, /mov/);
  } finally { s.kill(); }
});

test('a request for a document that is not open fails with an error, not a hang or a crash', T, async () => {
  const s = await startServer();
  try {
    await assert.rejects(s.request(P.HoverRequest.method, { textDocument: { uri: 'file:///never/opened.ptx' }, position: { line: 0, character: 0 } }),
                         e => typeof e.code === 'number');
    assert.deepEqual(await s.close(), { code: 0, signal: null });
  } finally { s.kill(); }
});

test('after shutdown, requests are InvalidRequest (-32600); exit ends the process with 0', T, async () => {
  const s = await startServer();
  try {
    assert.equal(await s.request(P.ShutdownRequest.method), null);
    await assert.rejects(s.request(P.HoverRequest.method, { textDocument: { uri: 'file:///x.ptx' }, position: { line: 0, character: 0 } }),
                         e => e.code === P.ErrorCodes.InvalidRequest);
    await s.notify(P.ExitNotification.method);
    const status = await s.exitStatus();
    assert.deepEqual(status, { code: 0, signal: null });
  } finally { s.kill(); }
});

test('exit without shutdown ends the process with 1 (LSP 3.17)', T, async () => {
  const s = await startServer();
  try {
    await s.notify(P.ExitNotification.method);
    const status = await s.exitStatus();
    assert.deepEqual(status, { code: 1, signal: null });
  } finally { s.kill(); }
});

test('closing stdin ends the server', T, async () => {
  const s = await startServer();
  try {
    s.child.stdin.end();
    const status = await s.exitStatus();
    assert.notEqual(status, 'still running');
    assert.equal(status.signal, null, 'the server was not killed by a signal (no crash)');
  } finally { s.kill(); }
});
