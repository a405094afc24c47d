// Features being wired into ptxls now: completion, signature help, semantic tokens, inlay
// hints, rename, code actions, formatting, workspace symbols, pull diagnostics and
// configuration. Each test first checks that initialize advertises the capability and FAILS
// (does not skip) when it does not. Result shapes are only what LSP 3.17 specifies.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { P, startServer, fixture, positionOf, rangeOf, textIn, contains, applyEdits, editsFor, decodeTokens } from './client.mjs';

const T = { timeout: 15000 };
const vecadd = fixture('vecadd.ptx');
const calls = fixture('calls.ptx');
const broken = fixture('broken.ptx');
let s;   // one server for the read-only tests; tests that edit open their own documents under fresh URIs
let version = 100;

before(async () => {
  s = await startServer();
  await s.open(vecadd);
  await s.open(calls);
});
after(() => s?.kill());

function advertised(caps, name) {
  assert.ok(caps?.[name], `not wired yet: initialize does not advertise ${name} (it advertises ${Object.keys(caps ?? {}).join(', ')})`);
  return caps[name];
}

// A scratch document with its own URI, so edits do not disturb the shared fixtures.
let scratchCount = 0;
async function scratch(server, text, { wait = true } = {}) {
  const uri = `file:///tmp/ptxls-features-${process.pid}-${++scratchCount}.ptx`;
  const published = await server.open({ uri }, { text, wait });
  return { uri, text, published };
}

const labelText = label => typeof label === 'string' ? label : label.map(part => part.value).join('');
const completionItems = result => (Array.isArray(result) ? result : result?.items ?? []);
// What a completion item inserts: its textEdit, else insertText, else label.
const insertedText = item => item.textEdit?.newText ?? item.insertText ?? item.label;
const bare = word => word.replace(/^\./, '');

// ---------------------------------------------------------------------------------------------
// completion

test('completion: after `ld.global.` offers .u32 and not .shared', T, async () => {
  const provider = advertised(s.caps, 'completionProvider');
  const bodyEnd = positionOf(vecadd.text, '$L__BB0_2:');
  const text = vecadd.text.replace('$L__BB0_2:\n', '\tld.global.\n$L__BB0_2:\n');
  const doc = await scratch(s, text, { wait: false });
  const position = { line: bodyEnd.line, character: '\tld.global.'.length };
  const context = (provider.triggerCharacters ?? []).includes('.')
    ? { triggerKind: P.CompletionTriggerKind.TriggerCharacter, triggerCharacter: '.' }
    : { triggerKind: P.CompletionTriggerKind.Invoked };
  const result = await s.request(P.CompletionRequest.method, { textDocument: { uri: doc.uri }, position, context });
  const items = completionItems(result);
  const words = items.map(item => bare(item.label));
  assert.ok(words.includes('u32'), `.u32 offered: ${JSON.stringify(words.slice(0, 60))}`);
  assert.ok(!words.some(w => w.startsWith('shared')), 'a second state space is not offered after .global');
  assert.ok(!words.includes('global'), '.global is already there');
  const u32 = items.find(item => bare(item.label) === 'u32');
  // Whatever it inserts, the line must read ld.global.u32 afterwards.
  const range = u32.textEdit?.range ?? u32.textEdit?.insert ?? { start: position, end: position };
  assert.equal(range.start.line, position.line);
  assert.ok(range.end.character <= position.character && range.end.character >= range.start.character);
  const after = applyEdits(text, [{ range: { start: range.start, end: position }, newText: insertedText(u32) }]);
  assert.equal(after.split('\n')[position.line], '\tld.global.u32');
});

test('completion: `.` is a trigger character (PTX modifiers start with a dot)', T, async () => {
  const provider = advertised(s.caps, 'completionProvider');
  assert.ok((provider.triggerCharacters ?? []).includes('.'), JSON.stringify(provider));
});

test('completion: opcodes at the start of a statement', T, async () => {
  advertised(s.caps, 'completionProvider');
  const text = vecadd.text.replace('\tret;\n\n}', '\tmu\n\tret;\n\n}');
  const doc = await scratch(s, text, { wait: false });
  const position = positionOf(text, '\tmu\n', { delta: 3 });
  const result = await s.request(P.CompletionRequest.method, { textDocument: { uri: doc.uri }, position,
                                                                context: { triggerKind: P.CompletionTriggerKind.Invoked } });
  const labels = completionItems(result).map(item => item.label);
  assert.ok(labels.includes('mul'), JSON.stringify(labels.slice(0, 60)));
  assert.ok(labels.every(label => typeof label === 'string' && label.length > 0));
});

// ---------------------------------------------------------------------------------------------
// signature help

test('signatureHelp: inside the operands of add.s32, on the third operand', T, async () => {
  advertised(s.caps, 'signatureHelpProvider');
  const position = positionOf(vecadd.text, '%r4, %r3, %r2', { delta: '%r4, %r3, %'.length });
  const help = await s.request(P.SignatureHelpRequest.method, { textDocument: { uri: vecadd.uri }, position,
                                                               context: { triggerKind: P.SignatureHelpTriggerKind.Invoked, isRetrigger: false } });
  assert.ok(help && help.signatures.length > 0, JSON.stringify(help));
  const active = help.signatures[help.activeSignature ?? 0];
  assert.match(active.label, /\badd\b/);
  assert.ok(active.parameters && active.parameters.length >= 3, JSON.stringify(active));
  const index = active.activeParameter ?? help.activeParameter;
  assert.equal(index, 2, 'the third operand (b of add d, a, b) is active');
  // Parameter labels are substrings of the signature label or [start, end) offsets into it.
  for (const parameter of active.parameters) {
    if (typeof parameter.label === 'string') assert.ok(active.label.includes(parameter.label), parameter.label);
    else assert.ok(parameter.label[0] <= parameter.label[1] && parameter.label[1] <= active.label.length);
  }
});

test('signatureHelp: nothing on a declaration', T, async () => {
  advertised(s.caps, 'signatureHelpProvider');
  const help = await s.request(P.SignatureHelpRequest.method, { textDocument: { uri: vecadd.uri },
                                                               position: positionOf(vecadd.text, '%rd<8>', { delta: 2 }) });
  assert.ok(help === null || help.signatures.length === 0, JSON.stringify(help));
});

// ---------------------------------------------------------------------------------------------
// semantic tokens

function tokenProvider(caps) {
  const provider = advertised(caps, 'semanticTokensProvider');
  assert.ok(Array.isArray(provider.legend?.tokenTypes) && provider.legend.tokenTypes.length > 0, 'legend.tokenTypes');
  assert.ok(Array.isArray(provider.legend?.tokenModifiers), 'legend.tokenModifiers');
  return provider;
}

function checkTokens(data, legend, text) {
  assert.equal(data.length % 5, 0);
  const tokens = decodeTokens(data, legend);
  const lines = text.split('\n');
  let previous = null;
  for (const t of tokens) {
    assert.ok(t.typeIndex < legend.tokenTypes.length, `type index ${t.typeIndex}`);
    assert.ok(t.mods < 2 ** legend.tokenModifiers.length, `modifier bits ${t.mods}`);
    assert.ok(t.length > 0 && t.char + t.length <= lines[t.line].length, `token inside line ${t.line}: ${JSON.stringify(t)}`);
    if (previous && previous.line === t.line) assert.ok(previous.char + previous.length <= t.char, 'tokens do not overlap');
    previous = t;
  }
  return tokens;
}

test('semanticTokens/full: opcodes, registers and comments get distinct token types', T, async () => {
  const provider = tokenProvider(s.caps);
  assert.ok(provider.full, 'full is advertised');
  const result = await s.request(P.SemanticTokensRequest.method, { textDocument: { uri: vecadd.uri } });
  const tokens = checkTokens(result.data, provider.legend, vecadd.text);
  const tokenAt = needle => {
    const p = positionOf(vecadd.text, needle);
    return tokens.find(t => t.line === p.line && t.char === p.character);
  };
  const opcode = tokenAt('ld.param.u64');
  const register = tokenAt('%rd1,');
  const comment = tokenAt('// ptxls client-test');
  assert.ok(opcode, 'a token starts at the opcode ld');
  assert.ok(opcode.length >= 2, 'the opcode token covers `ld`');
  assert.ok(register, 'a token starts at %rd1');
  assert.equal(register.length, 4, 'the register token is `%rd1`');
  assert.ok(comment, 'a token starts at the comment');
  assert.notEqual(opcode.type, register.type);
  assert.notEqual(register.type, comment.type);
  assert.equal(comment.type, 'comment');
  const label = tokenAt('$L__BB0_2:');
  assert.ok(label && label.length === '$L__BB0_2'.length, 'the label is one token');
});

test('semanticTokens/range: the tokens of the range are those of full', T, async () => {
  const provider = tokenProvider(s.caps);
  assert.ok(provider.range, 'range is advertised');
  const first = positionOf(vecadd.text, 'cvta.to.global.u64 \t%rd3').line;
  const last = positionOf(vecadd.text, 'st.global.u32').line;
  const range = { start: { line: first, character: 0 }, end: { line: last + 1, character: 0 } };
  const full = decodeTokens((await s.request(P.SemanticTokensRequest.method, { textDocument: { uri: vecadd.uri } })).data, provider.legend);
  const part = checkTokens((await s.request(P.SemanticTokensRangeRequest.method, { textDocument: { uri: vecadd.uri }, range })).data,
                           provider.legend, vecadd.text);
  const inRange = full.filter(t => t.line >= first && t.line <= last);
  const key = t => `${t.line}:${t.char}:${t.length}:${t.type}:${t.mods}`;
  const partKeys = new Set(part.map(key));
  assert.ok(inRange.length > 0);
  for (const t of inRange) assert.ok(partKeys.has(key(t)), `range result has ${key(t)}`);
  const fullKeys = new Set(full.map(key));
  for (const t of part) assert.ok(fullKeys.has(key(t)), `range token ${key(t)} is also in full`);
  assert.ok(part.length < full.length, 'range is smaller than the whole file');
});

test('semanticTokens/full/delta: edits applied to the old data give the new full data', T, async () => {
  const provider = tokenProvider(s.caps);
  assert.ok(provider.full?.delta === true, `full: {delta: true} is advertised: ${JSON.stringify(provider.full)}`);
  const doc = await scratch(s, vecadd.text);
  const first = await s.request(P.SemanticTokensRequest.method, { textDocument: { uri: doc.uri } });
  assert.equal(typeof first.resultId, 'string', 'a resultId to compute deltas against');
  // Insert a statement in the middle of the kernel.
  const at = positionOf(doc.text, '\tst.global.u32');
  await s.change(doc.uri, ++version, [{ range: { start: at, end: at }, text: '\tmov.u32 \t%r5, %r4;\n' }]);
  const delta = await s.request(P.SemanticTokensDeltaRequest.method, { textDocument: { uri: doc.uri }, previousResultId: first.resultId });
  const fresh = await s.request(P.SemanticTokensRequest.method, { textDocument: { uri: doc.uri } });
  let data;
  if (delta.edits) {
    assert.equal(typeof delta.resultId, 'string');
    data = [...first.data];
    for (const edit of [...delta.edits].sort((a, b) => b.start - a.start)) {
      data.splice(edit.start, edit.deleteCount, ...(edit.data ?? []));
    }
    assert.ok(delta.edits.reduce((n, e) => n + (e.data?.length ?? 0), 0) < fresh.data.length, 'a delta, not the whole array');
  } else {
    data = delta.data;
  }
  assert.deepEqual(data, fresh.data);
  // A delta against an unknown resultId falls back to full tokens (or an error), never garbage.
  const stale = await s.request(P.SemanticTokensDeltaRequest.method, { textDocument: { uri: doc.uri }, previousResultId: 'no-such-id' })
    .catch(e => ({ error: e.code }));
  if (!stale.error) assert.deepEqual(stale.data, fresh.data);
});

// ---------------------------------------------------------------------------------------------
// inlay hints

test('inlayHint: callee parameter names at the call arguments, the register type of a bit reinterpretation', T, async () => {
  advertised(s.caps, 'inlayHintProvider');
  const lines = calls.text.split('\n');
  const whole = { start: { line: 0, character: 0 }, end: { line: lines.length - 1, character: 0 } };
  const hints = await s.request(P.InlayHintRequest.method, { textDocument: { uri: calls.uri }, range: whole });
  assert.ok(Array.isArray(hints) && hints.length > 0, JSON.stringify(hints));
  for (const h of hints) {
    assert.ok(contains(whole, h.position), JSON.stringify(h));
    assert.ok(labelText(h.label).length > 0);
    assert.ok(h.kind === undefined || h.kind === 1 || h.kind === 2);
  }
  const callLine = positionOf(calls.text, 'call (').line;
  const onCall = hints.filter(h => h.position.line === callLine).sort((a, b) => a.position.character - b.position.character);
  const argA = positionOf(calls.text, '%r1, %r2);');
  const argB = positionOf(calls.text, '%r2);');
  const forA = onCall.find(h => /\ba\b/.test(labelText(h.label)));
  const forB = onCall.find(h => /\bb\b/.test(labelText(h.label)));
  assert.ok(forA && forB, `parameter hints a and b on the call line: ${JSON.stringify(onCall)}`);
  assert.ok(Math.abs(forA.position.character - argA.character) <= 1, `a at its argument: ${JSON.stringify(forA)}`);
  assert.ok(Math.abs(forB.position.character - argB.character) <= 1, `b at its argument: ${JSON.stringify(forB)}`);
  if (forA.kind !== undefined) assert.equal(forA.kind, P.InlayHintKind.Parameter);

  const movLine = positionOf(calls.text, 'mov.b32').line;
  const onMov = hints.filter(h => h.position.line === movLine);
  assert.ok(onMov.some(h => /f32/.test(labelText(h.label))), `the .f32 type of %f1 in mov.b32: ${JSON.stringify(onMov)}`);
  // Ordinary statements stay quiet.
  const quiet = positionOf(calls.text, 'mov.u32 \t%r1, 1').line;
  assert.equal(hints.filter(h => h.position.line === quiet).length, 0);

  // A range covering only the mov.b32 line returns no hint of the call line.
  const narrow = await s.request(P.InlayHintRequest.method, { textDocument: { uri: calls.uri },
    range: { start: { line: movLine, character: 0 }, end: { line: movLine + 1, character: 0 } } });
  assert.ok(narrow.length > 0 && narrow.every(h => h.position.line === movLine), JSON.stringify(narrow));
});

// ---------------------------------------------------------------------------------------------
// rename

test('prepareRename: the name under the cursor for a label, nothing for an opcode', T, async () => {
  const provider = advertised(s.caps, 'renameProvider');
  assert.ok(provider.prepareProvider === true, `renameProvider: {prepareProvider: true}: ${JSON.stringify(provider)}`);
  const label = await s.request(P.PrepareRenameRequest.method, { textDocument: { uri: vecadd.uri }, position: positionOf(vecadd.text, '$L__BB0_2;', { delta: 4 }) });
  assert.ok(label, 'a label can be renamed');
  if (!label.defaultBehavior) {
    const range = label.range ?? label;
    assert.equal(textIn(vecadd.text, range), '$L__BB0_2');
    if (label.placeholder !== undefined) assert.equal(label.placeholder, '$L__BB0_2');
  }
  const opcode = await s.request(P.PrepareRenameRequest.method, { textDocument: { uri: vecadd.uri }, position: positionOf(vecadd.text, 'mul.wide', { delta: 1 }) })
    .catch(e => ({ error: e.code }));
  assert.ok(opcode === null || opcode.error !== undefined, `an opcode cannot be renamed: ${JSON.stringify(opcode)}`);
});

test('rename: a label and a parameter, every occurrence and nothing else', T, async () => {
  advertised(s.caps, 'renameProvider');
  const cases = [
    { needle: '$L__BB0_2;', delta: 2, from: '$L__BB0_2', to: '$L__exit', count: 2 },
    { needle: '[vecAdd_param_1]', delta: 5, from: 'vecAdd_param_1', to: 'src_b', count: 2 },
  ];
  for (const c of cases) {
    const edit = await s.request(P.RenameRequest.method, { textDocument: { uri: vecadd.uri },
      position: positionOf(vecadd.text, c.needle, { delta: c.delta }), newName: c.to });
    const edits = editsFor(edit, vecadd.uri);
    assert.equal(edits.length, c.count, JSON.stringify(edit));
    assert.equal(applyEdits(vecadd.text, edits), vecadd.text.split(c.from).join(c.to));
  }
});

test('rename: a function parameter register is renamed only inside its function', T, async () => {
  advertised(s.caps, 'renameProvider');
  const edit = await s.request(P.RenameRequest.method, { textDocument: { uri: vecadd.uri },
    position: positionOf(vecadd.text, 'x, x', { delta: 0 }), newName: 'val' });
  const after = applyEdits(vecadd.text, editsFor(edit, vecadd.uri));
  assert.ok(after.includes('.reg .b32 val\n'));
  assert.ok(after.includes('add.s32 \tretval, val, val;'));
  assert.ok(after.includes('%tid.x'), 'the .x of %tid.x is not a use of x');
});

test('rename: an invalid new name is refused', T, async () => {
  advertised(s.caps, 'renameProvider');
  const result = await s.request(P.RenameRequest.method, { textDocument: { uri: vecadd.uri },
    position: positionOf(vecadd.text, '$L__BB0_2;', { delta: 2 }), newName: 'not a name' }).catch(e => ({ error: e.code }));
  assert.ok(result === null || result.error !== undefined, JSON.stringify(result));
});

// ---------------------------------------------------------------------------------------------
// code actions

test('codeAction: a quick fix for the misspelt modifier `ld.globl` that fixes the diagnostic', T, async () => {
  advertised(s.caps, 'codeActionProvider');
  const doc = await scratch(s, broken.text);
  const diagnostic = doc.published.diagnostics.find(d => /\.globl/.test(d.message));
  assert.ok(diagnostic, JSON.stringify(doc.published));
  const actions = await s.request(P.CodeActionRequest.method, { textDocument: { uri: doc.uri }, range: diagnostic.range,
    context: { diagnostics: [diagnostic], only: [P.CodeActionKind.QuickFix], triggerKind: 1 } });
  assert.ok(Array.isArray(actions) && actions.length > 0, JSON.stringify(actions));
  let fix = actions.find(a => a.kind?.startsWith('quickfix') && /global/.test(a.title));
  assert.ok(fix, `a quickfix titled with the replacement: ${JSON.stringify(actions)}`);
  if (!fix.edit && s.caps.codeActionProvider.resolveProvider) fix = await s.request(P.CodeActionResolveRequest.method, fix);
  assert.ok(fix.edit, 'the quick fix carries an edit');
  const fixed = applyEdits(doc.text, editsFor(fix.edit, doc.uri));
  assert.ok(fixed.includes('\tld.global.u32 \t%r1, [%rd2];'), fixed);
  // Apply it the way an editor would and the diagnostic is gone; the .s33 one stays.
  const after = await s.change(doc.uri, ++version, [{ text: fixed }]);
  assert.deepEqual(after.diagnostics.map(d => d.code), ['ISA004']);
  assert.match(after.diagnostics[0].message, /\.s33/);
});

test('codeAction: nothing to fix on a clean line', T, async () => {
  advertised(s.caps, 'codeActionProvider');
  const range = rangeOf(vecadd.text, 'mul.wide.u32');
  const actions = await s.request(P.CodeActionRequest.method, { textDocument: { uri: vecadd.uri }, range,
    context: { diagnostics: [], only: [P.CodeActionKind.QuickFix] } });
  assert.ok(actions === null || actions.filter(a => a.kind?.startsWith('quickfix')).length === 0, JSON.stringify(actions));
});

// ---------------------------------------------------------------------------------------------
// formatting

// vecadd.ptx with its layout scrambled: spaces for tabs, runs of blanks, trailing blanks.
const MESSY = vecadd.text
  .replace(/^\t/gm, '      ')
  .replace(/ \t/g, '   ')
  .replace(/;$/gm, ';   ')
  .replace(/, /g, ' ,  ');
const squeeze = text => text.replace(/\s+/g, '');

test('formatting: the result keeps every token, changes the messy layout and is stable', T, async () => {
  advertised(s.caps, 'documentFormattingProvider');
  const doc = await scratch(s, MESSY);
  const options = { tabSize: 4, insertSpaces: false, trimTrailingWhitespace: true, insertFinalNewline: true };
  const edits = await s.request(P.DocumentFormattingRequest.method, { textDocument: { uri: doc.uri }, options });
  assert.ok(Array.isArray(edits) && edits.length > 0, 'the messy file needs edits');
  const formatted = applyEdits(MESSY, edits);
  assert.notEqual(formatted, MESSY);
  assert.equal(squeeze(formatted), squeeze(MESSY), 'only whitespace changes');
  assert.ok(!/[ \t]+$/m.test(formatted), 'no trailing whitespace');
  const after = await s.change(doc.uri, ++version, [{ text: formatted }]);
  assert.deepEqual(after.diagnostics, [], 'the formatted file is still clean');
  const again = await s.request(P.DocumentFormattingRequest.method, { textDocument: { uri: doc.uri }, options });
  assert.equal(applyEdits(formatted, again ?? []), formatted, 'formatting is idempotent');
});

test('rangeFormatting: lines outside the range keep their text (trailing blanks aside)', T, async () => {
  advertised(s.caps, 'documentRangeFormattingProvider');
  const doc = await scratch(s, MESSY);
  const first = positionOf(MESSY, 'ld.param.u64').line;
  const last = positionOf(MESSY, 'ld.param.u32').line;
  const range = { start: { line: first, character: 0 }, end: { line: last, character: MESSY.split('\n')[last].length } };
  const edits = await s.request(P.DocumentRangeFormattingRequest.method,
    { textDocument: { uri: doc.uri }, range, options: { tabSize: 4, insertSpaces: false } });
  assert.ok(Array.isArray(edits) && edits.length > 0);
  const formatted = applyEdits(MESSY, edits);
  const before = MESSY.split('\n'), now = formatted.split('\n');
  assert.equal(now.length, before.length);
  for (let i = 0; i < before.length; ++i) {
    // The gap before the first statement may take the previous line's trailing blanks along.
    if (i < first || i > last) assert.equal(now[i].trimEnd(), before[i].trimEnd(), `line ${i} is outside the range`);
  }
  assert.notEqual(now.slice(first, last + 1).join('\n'), before.slice(first, last + 1).join('\n'));
  assert.equal(squeeze(formatted), squeeze(MESSY));
});

// ---------------------------------------------------------------------------------------------
// workspace symbols

test('workspace/symbol: kernels and functions of the open documents by name', T, async () => {
  const server = await startServer();   // only the two fixtures open
  try {
    advertised(server.caps, 'workspaceSymbolProvider');
    await server.open(vecadd);
    await server.open(calls);
    const find = async query => (await server.request(P.WorkspaceSymbolRequest.method, { query })) ?? [];
    const kernels = (await find('vecAdd')).filter(sym => sym.name === 'vecAdd');
    assert.equal(kernels.length, 1, 'vecAdd is found once');
    assert.equal(kernels[0].location.uri, vecadd.uri);
    if (kernels[0].location.range) assert.equal(kernels[0].location.range.start.line, positionOf(vecadd.text, '.entry vecAdd').line);
    assert.equal(kernels[0].kind, P.SymbolKind.Function);
    const callee = (await find('add2')).filter(sym => sym.name === 'add2');
    assert.ok(callee.length === 1 && callee[0].location.uri === calls.uri, `add2 from the other document: ${JSON.stringify(callee)}`);
    assert.deepEqual((await find('zzzNoSuchSymbolzzz')).filter(sym => sym.name.includes('zzz')), []);
  } finally { server.kill(); }
});

// ---------------------------------------------------------------------------------------------
// pull diagnostics

test('textDocument/diagnostic: a full report, then unchanged or equal, then the fix', T, async () => {
  const server = await startServer({ pull: true });
  try {
    const provider = advertised(server.caps, 'diagnosticProvider');
    assert.equal(typeof provider.interFileDependencies, 'boolean');
    assert.equal(typeof provider.workspaceDiagnostics, 'boolean');
    const doc = await scratch(server, broken.text, { wait: false });
    const report = await server.request(P.DocumentDiagnosticRequest.method, { textDocument: { uri: doc.uri } });
    assert.equal(report.kind, 'full');
    assert.deepEqual(report.items.map(d => d.code).sort(), ['ISA004', 'ISA004']);
    assert.deepEqual(report.items.find(d => /\.globl/.test(d.message)).range, rangeOf(doc.text, '.globl'));
    if (report.resultId !== undefined) {
      const again = await server.request(P.DocumentDiagnosticRequest.method, { textDocument: { uri: doc.uri }, previousResultId: report.resultId });
      if (again.kind === 'unchanged') assert.equal(again.resultId, report.resultId);
      else assert.deepEqual(again.items, report.items);
    }
    const fixed = broken.text.replace('.globl', '.global').replace('.s33', '.s32');
    await server.change(doc.uri, 2, [{ text: fixed }], { wait: false });
    const after = await server.request(P.DocumentDiagnosticRequest.method,
      { textDocument: { uri: doc.uri }, ...(report.resultId !== undefined ? { previousResultId: report.resultId } : {}) });
    assert.equal(after.kind, 'full', 'the text changed, so the report is full');
    assert.deepEqual(after.items, []);
  } finally { server.kill(); }
});

test('textDocument/diagnostic: new settings give a new report, announced by workspace/diagnostic/refresh', T, async () => {
  const server = await startServer({ pull: true, configuration: true });
  try {
    const doc = await scratch(server, broken.text, { wait: false });
    const before = await server.request(P.DocumentDiagnosticRequest.method, { textDocument: { uri: doc.uri } });
    assert.deepEqual(before.items.map(d => d.code), ['ISA004', 'ISA004']);
    const mark = server.serverRequests.length;
    server.setSettings({ rules: { ISA004: 'off' } });
    await server.notify(P.DidChangeConfigurationNotification.method, { settings: null });
    // Pull after each refresh until the new settings show: a refresh from the settings read at
    // startup may come first, but one must follow the new settings, and the old result id must
    // not match the same text under them.
    const refreshes = () => server.serverRequests.slice(mark).filter(r => r.method === P.DiagnosticRefreshRequest.method).length;
    let seen = 0;
    let after;
    for (let attempt = 0; attempt < 3; ++attempt) {
      await server.waitFor(() => refreshes() > seen, 5000, 'workspace/diagnostic/refresh after the settings changed');
      seen = refreshes();
      after = await server.request(P.DocumentDiagnosticRequest.method,
                                   { textDocument: { uri: doc.uri }, previousResultId: before.resultId });
      if (after.kind === 'full' && after.items.length === 0) break;
    }
    assert.equal(after.kind, 'full');
    assert.deepEqual(after.items, []);
  } finally { server.kill(); }
});

// ---------------------------------------------------------------------------------------------
// configuration

test('workspace/didChangeConfiguration: the server pulls its settings with workspace/configuration', T, async () => {
  const server = await startServer({ configuration: true });
  try {
    const mark = server.serverRequests.length;
    await server.notify(P.DidChangeConfigurationNotification.method, { settings: null });
    const asked = await server.waitFor(() => server.serverRequests.slice(mark).find(r => r.method === P.ConfigurationRequest.method),
                                       3000, 'a workspace/configuration request after didChangeConfiguration');
    assert.ok(Array.isArray(asked.params.items) && asked.params.items.length > 0);
    for (const item of asked.params.items) {
      assert.ok(item.section === undefined || typeof item.section === 'string');
    }
  } finally { server.kill(); }
});

test('workspace/configuration: the answer is the whole configuration; a rule removed since initialize is gone', T, async () => {
  // Editors such as VS Code send their settings both as initializationOptions and when asked.
  const server = await startServer({ pull: true, configuration: true, settings: { rules: { ISA004: 'off' } },
                                     initializationOptions: { rules: { ISA004: 'off' } } });
  try {
    const doc = await scratch(server, broken.text, { wait: false });
    const pull = previousResultId => server.request(P.DocumentDiagnosticRequest.method,
      { textDocument: { uri: doc.uri }, ...(previousResultId ? { previousResultId } : {}) });
    const first = await pull();
    assert.deepEqual(first.items, []);
    const mark = server.serverRequests.length;
    server.setSettings({});   // The user removed the rule setting.
    await server.notify(P.DidChangeConfigurationNotification.method, { settings: null });
    let after = first;
    for (let seen = 0, attempt = 0; attempt < 3 && after.items.length === 0; ++attempt) {
      const refreshes = () => server.serverRequests.slice(mark).filter(r => r.method === P.DiagnosticRefreshRequest.method).length;
      await server.waitFor(() => refreshes() > seen, 5000, 'workspace/diagnostic/refresh after the settings changed');
      seen = refreshes();
      after = await pull(first.resultId);
    }
    assert.deepEqual(after.items.map(d => d.code), ['ISA004', 'ISA004']);
  } finally { server.kill(); }
});

test('workspace/didChangeConfiguration: settings pushed by the client (any shape) do not break the server', T, async () => {
  const server = await startServer({ configuration: false });
  try {
    for (const settings of [null, {}, { ptxls: {} }, { ptxls: { unknownKey: [1, 2] } }, 'junk']) {
      await server.notify(P.DidChangeConfigurationNotification.method, { settings });
    }
    const d = await server.open(broken);
    assert.equal(d.diagnostics.length, 2);
    assert.deepEqual(await server.close(), { code: 0, signal: null });
  } finally { server.kill(); }
});

// ---------------------------------------------------------------------------------------------
// workspace/executeCommand: a rule's documentation (editors' "explain rule" commands)

test('executeCommand: ptxls.server.explainRule returns the documentation of a rule by code or name', T, async () => {
  const provider = advertised(s.caps, 'executeCommandProvider');
  assert.ok(provider.commands.includes('ptxls.server.explainRule'), JSON.stringify(provider.commands));
  const byCode = await s.request(P.ExecuteCommandRequest.method, { command: 'ptxls.server.explainRule', arguments: ['ISA004'] });
  assert.equal(byCode.code, 'ISA004');
  assert.ok(byCode.name.length > 0 && byCode.summary.length > 0, JSON.stringify(byCode));
  assert.match(byCode.documentation, /Why is this bad/);
  assert.ok(byCode.href.endsWith('/docs/rules/ISA004.md'), byCode.href);
  const byName = await s.request(P.ExecuteCommandRequest.method, { command: 'ptxls.server.explainRule', arguments: [byCode.name] });
  assert.deepEqual(byName, byCode);
  await assert.rejects(s.request(P.ExecuteCommandRequest.method, { command: 'ptxls.server.explainRule', arguments: ['NOPE999'] }),
    error => error.code === P.ErrorCodes.InvalidParams && /NOPE999/.test(error.message));
  await assert.rejects(s.request(P.ExecuteCommandRequest.method, { command: 'ptxls.nothing', arguments: [] }),
    error => error.code === P.ErrorCodes.InvalidParams);
});

// ---------------------------------------------------------------------------------------------
// register pressure: code lenses, the register report request, live-register inlay hints

test('codeLens: one lens per kernel and function with the register estimate', T, async () => {
  advertised(s.caps, 'codeLensProvider');
  const all = await s.request(P.CodeLensRequest.method, { textDocument: { uri: vecadd.uri } });
  assert.ok(Array.isArray(all), JSON.stringify(all));
  // Where ptxas is installed, each function also gets a "verify with ptxas" lens (a server command).
  const lenses = all.filter((lens) => lens.command.command !== 'ptxls.server.verifyRegisters');
  assert.ok(lenses.length >= 1, JSON.stringify(all));
  assert.ok(all.length === lenses.length || all.length === 2 * lenses.length, JSON.stringify(all));
  for (const lens of lenses) {
    assert.match(lens.command.title, /^≈ \d+ registers/);
    assert.equal(lens.command.command, 'ptxls.showRegisterReport');
    assert.equal(lens.command.arguments[0], vecadd.uri);
  }
  const kernel = lenses.find(l => / occupancy on sm_/.test(l.command.title));
  assert.ok(kernel, 'a kernel lens names its occupancy');
});

test('ptxls/registerReport: the function at the position, with its figures and plot', T, async () => {
  const position = positionOf(vecadd.text, 'ret;');
  const report = await s.request('ptxls/registerReport', { textDocument: { uri: vecadd.uri }, position });
  assert.ok(report.functions.length >= 1);
  assert.equal(typeof report.at, 'number');
  const fn = report.functions[report.at];
  assert.ok(fn.registers >= 2 && fn.registers <= 255, JSON.stringify(fn));
  assert.ok(fn.maxLive <= fn.registers + 1);
  assert.match(fn.svg, /^<svg[\s\S]*<\/svg>\s*$/);
  assert.ok(Array.isArray(fn.peak.live));
});

test('inlayHint: live-register hints follow the setting, announced by workspace/inlayHint/refresh', T, async () => {
  const server = await startServer({ configuration: true });
  try {
    const doc = await scratch(server, vecadd.text);
    const whole = { start: { line: 0, character: 0 }, end: { line: vecadd.text.split('\n').length, character: 0 } };
    const hints = () => server.request(P.InlayHintRequest.method, { textDocument: { uri: doc.uri }, range: whole });
    assert.ok(!(await hints()).some(h => / live$/.test(h.label)), 'off by default');
    const mark = server.serverRequests.length;
    server.setSettings({ inlayHints: { liveRegisters: true } });
    await server.notify(P.DidChangeConfigurationNotification.method, { settings: null });
    let live = [];
    for (let seen = 0, attempt = 0; attempt < 3 && live.length === 0; ++attempt) {
      const refreshes = () => server.serverRequests.slice(mark).filter(r => r.method === P.InlayHintRefreshRequest.method).length;
      await server.waitFor(() => refreshes() > seen, 5000, 'workspace/inlayHint/refresh after the settings changed');
      seen = refreshes();
      live = (await hints()).filter(h => /^\d+ live$/.test(h.label));
    }
    assert.ok(live.length > 0, 'live-register hints once the setting is on');
    // The server sends workspace/codeLens/refresh right after the inlay-hint refresh; under
    // load it can arrive after the hints were answered, so wait for it rather than peek.
    await server.waitFor(() => server.serverRequests.slice(mark).some(r => r.method === P.CodeLensRefreshRequest.method),
      5000, 'code lenses refreshed too');
  } finally { server.kill(); }
});
