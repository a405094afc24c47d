// Hover, go to definition, references, highlights, outline, folding and selection ranges on
// one open document (tests/clients/fixtures/vecadd.ptx), one server for the whole file.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { P, startServer, fixture, positionOf, rangeOf, textIn, contains } from './client.mjs';

const T = { timeout: 10000 };
const doc = fixture('vecadd.ptx');
const lines = doc.text.split('\n');
const lineOf = needle => lines.findIndex(l => l.includes(needle));
let s;

before(async () => {
  s = await startServer();
  const d = await s.open(doc);
  assert.deepEqual(d.diagnostics, [], 'the fixture is clean');
});
after(async () => {
  if (!s) return;
  try { assert.deepEqual(await s.close(), { code: 0, signal: null }); } finally { s.kill(); }
});

const at = (needle, opts) => ({ textDocument: { uri: doc.uri }, position: positionOf(doc.text, needle, opts) });

test('hover on an opcode: markdown that names the instruction, range = the opcode', T, async () => {
  const hover = await s.request(P.HoverRequest.method, at('ld.global.u32', { delta: 1 }));
  assert.equal(hover.contents.kind, 'markdown');
  assert.match(hover.contents.value, /\bld\b/);
  assert.match(hover.contents.value, /\.global/, 'the forms mention the state space');
  assert.equal(textIn(doc.text, hover.range), 'ld');

  const setp = await s.request(P.HoverRequest.method, at('setp.ge.u32', { delta: 2 }));
  assert.match(setp.contents.value, /\bsetp\b/);
});

test('hover on a register: its declaration and type', T, async () => {
  // %r3 in `add.s32 %r4, %r3, %r2;` (the 2nd occurrence; the 1st is the ld.global destination).
  const hover = await s.request(P.HoverRequest.method, at('%r3', { nth: 1, delta: 1 }));
  assert.equal(hover.contents.kind, 'markdown');
  assert.match(hover.contents.value, /\.b32/);
  assert.match(hover.contents.value, /\.reg/);
  assert.equal(textIn(doc.text, hover.range), '%r3');

  const rd = await s.request(P.HoverRequest.method, at('%rd5', { delta: 2 }));
  assert.match(rd.contents.value, /\.b64/);
});

test('hover on a directive, a special register and blank space', T, async () => {
  const version = await s.request(P.HoverRequest.method, at('.version', { delta: 2 }));
  assert.match(version.contents.value, /version/i);
  const tid = await s.request(P.HoverRequest.method, at('%tid.x', { delta: 2 }));
  assert.match(tid.contents.value, /%tid/);
  const blank = await s.request(P.HoverRequest.method, { textDocument: { uri: doc.uri }, position: { line: lineOf('.address_size') + 1, character: 0 } });
  assert.equal(blank, null);
});

test('definition of a register use jumps to its .reg declaration', T, async () => {
  const def = await s.request(P.DefinitionRequest.method, at('%r3', { nth: 1, delta: 1 }));
  const location = Array.isArray(def) ? def[0] : def;
  assert.equal(location.uri, doc.uri);
  assert.equal(location.range.start.line, lineOf('.reg .b32'));
  assert.match(textIn(doc.text, location.range), /^%r/);
  // declaration is the same for PTX
  const decl = await s.request(P.DeclarationRequest.method, at('%r3', { nth: 1, delta: 1 }));
  assert.deepEqual(Array.isArray(decl) ? decl[0] : decl, location);
});

test('definition of a branch target jumps to the label; of a parameter to the parameter', T, async () => {
  const def = await s.request(P.DefinitionRequest.method, at('$L__BB0_2', { delta: 3 }));
  const location = Array.isArray(def) ? def[0] : def;
  assert.equal(location.uri, doc.uri);
  assert.equal(location.range.start.line, lineOf('$L__BB0_2:'));
  assert.equal(textIn(doc.text, location.range), '$L__BB0_2');

  const param = await s.request(P.DefinitionRequest.method, at('[vecAdd_param_1]', { delta: 3 }));
  const p = Array.isArray(param) ? param[0] : param;
  assert.deepEqual(p.range, rangeOf(doc.text, 'vecAdd_param_1'));
});

test('definition on an opcode or blank space is empty', T, async () => {
  const def = await s.request(P.DefinitionRequest.method, at('cvta.to', { delta: 1 }));
  assert.ok(def === null || (Array.isArray(def) && def.length === 0), JSON.stringify(def));
});

test('references of a function parameter register, with and without the declaration', T, async () => {
  const where = at('x, x', { delta: 0 });
  const withDecl = await s.request(P.ReferencesRequest.method, { ...where, context: { includeDeclaration: true } });
  assert.equal(withDecl.length, 3, JSON.stringify(withDecl));
  for (const loc of withDecl) {
    assert.equal(loc.uri, doc.uri);
    assert.equal(textIn(doc.text, loc.range), 'x');
  }
  assert.ok(withDecl.some(l => l.range.start.line === lineOf('.reg .b32 x')), 'includes the declaration');
  const without = await s.request(P.ReferencesRequest.method, { ...where, context: { includeDeclaration: false } });
  assert.equal(without.length, 2);
  assert.ok(without.every(l => l.range.start.line === lineOf('x, x')));
});

test('references of one register of a %rd<8> range: only that register', T, async () => {
  const refs = await s.request(P.ReferencesRequest.method, { ...at('%rd4', { delta: 1 }), context: { includeDeclaration: false } });
  assert.equal(refs.length, 3, JSON.stringify(refs));
  assert.ok(refs.every(l => textIn(doc.text, l.range) === '%rd4'));
});

test('document highlights of a register', T, async () => {
  const highlights = await s.request(P.DocumentHighlightRequest.method, at('%rd4', { nth: 1, delta: 2 }));
  const uses = highlights.filter(h => textIn(doc.text, h.range) === '%rd4');
  assert.equal(uses.length, 3, JSON.stringify(highlights));
  for (const h of highlights) {
    assert.ok(h.kind === undefined || [1, 2, 3].includes(h.kind));
  }
  // Sorted or not, there is one per line of use.
  assert.deepEqual([...new Set(uses.map(h => h.range.start.line))].sort((a, b) => a - b),
                   [lineOf('mul.wide.u32'), lineOf('add.s64 \t%rd5'), lineOf('add.s64 \t%rd7')]);
});

test('document symbols: the kernel and the function with their parameters, registers and label', T, async () => {
  const symbols = await s.request(P.DocumentSymbolRequest.method, { textDocument: { uri: doc.uri } });
  assert.ok(Array.isArray(symbols));
  assert.ok(symbols.every(sym => 'selectionRange' in sym), 'hierarchical DocumentSymbol[] (the client supports it)');
  const names = symbols.map(sym => sym.name);
  assert.deepEqual(names, ['vecAdd', 'twice']);
  const [kernel, func] = symbols;
  assert.equal(kernel.kind, P.SymbolKind.Function);
  assert.equal(kernel.range.start.line, lineOf('.entry vecAdd'));
  assert.equal(kernel.range.end.line, lineOf('}'));
  assert.equal(textIn(doc.text, kernel.selectionRange), 'vecAdd');
  assert.ok(contains(kernel.range, kernel.selectionRange.start));
  const children = kernel.children.map(c => c.name);
  for (const name of ['vecAdd_param_0', 'vecAdd_param_1', 'vecAdd_param_2', '$L__BB0_2']) {
    assert.ok(children.includes(name), `${name} in ${JSON.stringify(children)}`);
  }
  assert.ok(children.some(n => n.startsWith('%rd')), 'the %rd registers are listed');
  for (const child of kernel.children) {
    assert.ok(contains(kernel.range, child.range.start) && contains(kernel.range, child.range.end), child.name);
    assert.ok(contains(child.range, child.selectionRange.start), child.name);
  }
  assert.equal(textIn(doc.text, func.selectionRange), 'twice');
  assert.ok(func.children.some(c => c.name === 'x'));
});

test('folding ranges: the comment header, the parameter list and both bodies', T, async () => {
  const ranges = await s.request(P.FoldingRangeRequest.method, { textDocument: { uri: doc.uri } });
  const has = (start, end) => ranges.some(r => r.startLine === start && r.endLine === end);
  assert.ok(ranges.some(r => r.startLine === 0 && r.endLine === 3 && r.kind === 'comment'), JSON.stringify(ranges));
  assert.ok(has(lineOf('.entry vecAdd'), lineOf(')')), 'kernel parameter list');
  assert.ok(has(lineOf('{'), lineOf('}')), 'kernel body');
  const funcBody = lines.findIndex((l, i) => i > lineOf('.func') && l === '{');
  assert.ok(has(funcBody, lines.length - 2), 'function body');
  for (const r of ranges) assert.ok(r.startLine < r.endLine, JSON.stringify(r));
});

test('selection ranges grow from the register to the file', T, async () => {
  const position = positionOf(doc.text, '%rd5]', { delta: 1 });
  const [selection] = await s.request(P.SelectionRangeRequest.method, { textDocument: { uri: doc.uri }, positions: [position] });
  const chain = [];
  for (let r = selection; r; r = r.parent) chain.push(r.range);
  assert.ok(chain.length >= 4, JSON.stringify(chain));
  assert.equal(textIn(doc.text, chain[0]), '%rd5');
  assert.ok(chain.some(r => textIn(doc.text, r) === 'ld.global.u32 \t%r3, [%rd5];' || textIn(doc.text, r) === 'ld.global.u32 \t%r3, [%rd5]'),
            'one step is the statement');
  for (let i = 1; i < chain.length; ++i) {
    assert.ok(contains(chain[i], chain[i - 1].start) && contains(chain[i], chain[i - 1].end), `step ${i} contains step ${i - 1}`);
  }
  assert.deepEqual(chain.at(-1).start, { line: 0, character: 0 });
});
