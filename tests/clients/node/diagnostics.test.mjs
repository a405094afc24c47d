// Document sync and push diagnostics (what Neovim 0.7 and every other client relies on).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { P, startServer, fixture, rangeOf, positionOf, textIn } from './client.mjs';

const T = { timeout: 15000 };
const sortByLine = ds => [...ds].sort((a, b) => a.range.start.line - b.range.start.line);

test('didOpen of a file with errors publishes them with version, code, source, severity and range', T, async () => {
  const s = await startServer();
  try {
    const doc = fixture('broken.ptx');
    const published = await s.open(doc, { version: 7 });
    assert.equal(published.uri, doc.uri);
    assert.equal(published.version, 7);
    const ds = sortByLine(published.diagnostics);
    assert.equal(ds.length, 2, JSON.stringify(ds));

    const [globl, s33] = ds;
    assert.equal(globl.code, 'ISA004');
    assert.equal(globl.source, 'ptxls');
    assert.equal(globl.severity, P.DiagnosticSeverity.Error);
    assert.match(globl.message, /\.globl/);
    assert.match(globl.message, /\.global/, 'suggests the right spelling');
    assert.deepEqual(globl.range, rangeOf(doc.text, '.globl'));
    assert.equal(textIn(doc.text, globl.range), '.globl');

    assert.equal(s33.code, 'ISA004');
    assert.equal(s33.severity, P.DiagnosticSeverity.Error);
    assert.match(s33.message, /\.s33/);
    assert.deepEqual(s33.range, rangeOf(doc.text, '.s33'));
  } finally { s.kill(); }
});

test('a clean file publishes an empty list', T, async () => {
  const s = await startServer();
  try {
    const published = await s.open(fixture('vecadd.ptx'));
    assert.deepEqual(published.diagnostics, []);
    assert.equal(published.version, 1);
  } finally { s.kill(); }
});

test('an undeclared register is reported; an incremental edit that declares it clears it with the new version', T, async () => {
  const s = await startServer();
  try {
    const doc = fixture('typo.ptx');
    const first = await s.open(doc);
    assert.equal(first.diagnostics.length, 1);
    assert.equal(first.diagnostics[0].code, 'SEM001');
    assert.match(first.diagnostics[0].message, /%r9/);
    assert.deepEqual(first.diagnostics[0].range, rangeOf(doc.text, '%r9'));

    // Replace just the "9" of %r9 with "1".
    const at = positionOf(doc.text, '%r9', { delta: 2 });
    const fixed = await s.change(doc.uri, 2, [{ range: { start: at, end: { line: at.line, character: at.character + 1 } }, text: '1' }]);
    assert.equal(fixed.version, 2);
    assert.deepEqual(fixed.diagnostics, []);

    // Several changes in one notification apply in order: break it again, then rename the kernel.
    const kernel = rangeOf(doc.text, 'typo()');
    const again = await s.change(doc.uri, 3, [
      { range: { start: at, end: { line: at.line, character: at.character + 1 } }, text: '7' },
      { range: { start: kernel.start, end: { line: kernel.start.line, character: kernel.start.character + 4 } }, text: 'renamed' },
    ]);
    assert.equal(again.version, 3);
    assert.equal(again.diagnostics.length, 1);
    assert.match(again.diagnostics[0].message, /%r7/);
  } finally { s.kill(); }
});

test('the ISA004 errors of broken.ptx go away when fixed by incremental edits', T, async () => {
  const s = await startServer();
  try {
    const doc = fixture('broken.ptx');
    await s.open(doc);
    const globl = rangeOf(doc.text, '.globl');
    const s33 = rangeOf(doc.text, '.s33');
    const one = await s.change(doc.uri, 2, [{ range: globl, text: '.global' }]);
    assert.equal(one.diagnostics.length, 1);
    assert.match(one.diagnostics[0].message, /\.s33/);
    assert.deepEqual(one.diagnostics[0].range, s33, 'a change on an earlier line leaves later ranges right');
    const two = await s.change(doc.uri, 3, [{ range: s33, text: '.s32' }]);
    assert.equal(two.version, 3);
    assert.deepEqual(two.diagnostics, []);
  } finally { s.kill(); }
});

test('a full-text change (no range) replaces the document', T, async () => {
  const s = await startServer();
  try {
    const broken = fixture('broken.ptx');
    const clean = fixture('vecadd.ptx');
    const first = await s.open(broken);
    assert.ok(first.diagnostics.length > 0);
    const after = await s.change(broken.uri, 5, [{ text: clean.text }]);
    assert.equal(after.version, 5);
    assert.deepEqual(after.diagnostics, []);
  } finally { s.kill(); }
});

test('typing an error character by character keeps diagnostics in step with the text', T, async () => {
  const s = await startServer();
  try {
    const doc = fixture('vecadd.ptx');
    await s.open(doc);
    // Insert a new statement, one character per didChange, at the start of the `ret;` line of vecAdd.
    const at = positionOf(doc.text, 'ret;');
    const typed = 'mov.u32 %r5, %r99;\n\t';
    let version = 1, last;
    let character = at.character, line = at.line;
    for (const ch of typed) {
      last = await s.change(doc.uri, ++version, [{ range: { start: { line, character }, end: { line, character } }, text: ch }]);
      if (ch === '\n') { line += 1; character = 0; } else character += 1;
    }
    assert.equal(last.version, version);
    assert.equal(last.diagnostics.length, 1, JSON.stringify(last.diagnostics));
    assert.equal(last.diagnostics[0].code, 'SEM001');
    assert.match(last.diagnostics[0].message, /%r99/);
    assert.equal(last.diagnostics[0].range.start.line, at.line);
  } finally { s.kill(); }
});

test('didClose clears the diagnostics of the document', T, async () => {
  const s = await startServer();
  try {
    const doc = fixture('broken.ptx');
    await s.open(doc);
    const mark = s.published.length;
    await s.notify(P.DidCloseTextDocumentNotification.method, { textDocument: { uri: doc.uri } });
    const cleared = await s.diagnostics(doc.uri, { after: mark });
    assert.deepEqual(cleared.diagnostics, []);
  } finally { s.kill(); }
});

// A line with characters outside the BMP and outside ASCII before the error: UTF-16 and UTF-8
// columns differ, and each client must get the encoding it negotiated.
const MIXED = '.version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n\t.reg .b32 %r<3>;\n' +
              '\t/* é→𝄞 */ add.s33 %r1, %r2, %r2;\n\tret;\n}\n';

for (const encoding of ['utf-16', 'utf-8']) {
  test(`diagnostic columns and incremental edits use the negotiated ${encoding} encoding`, T, async () => {
    const s = await startServer({ encodings: encoding === 'utf-8' ? ['utf-8', 'utf-16'] : ['utf-16'] });
    try {
      assert.equal(s.init.capabilities.positionEncoding ?? 'utf-16', encoding);
      const uri = `file:///tmp/ptxls-mixed-${encoding}.ptx`;
      const line = MIXED.split('\n').findIndex(l => l.includes('.s33'));
      const prefix = MIXED.split('\n')[line].slice(0, MIXED.split('\n')[line].indexOf('.s33'));
      const column = encoding === 'utf-8' ? Buffer.byteLength(prefix, 'utf8') : prefix.length;
      assert.notEqual(Buffer.byteLength(prefix, 'utf8'), prefix.length, 'the fixture line really mixes widths');

      const wide = MIXED.split('\n')[line];
      const col = text => encoding === 'utf-8' ? Buffer.byteLength(text, 'utf8') : text.length;
      const first = await s.open({ uri }, { text: MIXED });
      const isa = first.diagnostics.filter(d => d.code === 'ISA004');
      assert.equal(isa.length, 1, JSON.stringify(first.diagnostics));
      assert.deepEqual(isa[0].range, { start: { line, character: column }, end: { line, character: column + 4 } });
      // ptxas rejects non-ASCII even in comments: that one is reported too, over exactly the wide characters.
      const ascii = first.diagnostics.filter(d => d.code === 'SYN003');
      assert.equal(ascii.length, 1, JSON.stringify(first.diagnostics));
      const from = wide.indexOf('é'), to = wide.indexOf(' */');
      assert.deepEqual(ascii[0].range, { start: { line, character: col(wide.slice(0, from)) },
                                         end: { line, character: col(wide.slice(0, to)) } });

      // Fix it with an edit addressed in the same encoding.
      const fixed = await s.change(uri, 2, [{ range: isa[0].range, text: '.s32' }]);
      assert.deepEqual(fixed.diagnostics.map(d => d.code), ['SYN003']);
      assert.deepEqual(fixed.diagnostics[0].range, ascii[0].range);
      // Hover at the fixed modifier's opcode, addressed after the wide characters.
      const hover = await s.request(P.HoverRequest.method, { textDocument: { uri }, position: { line, character: column - 2 } });
      assert.match(hover.contents.value, /\badd\b/);
    } finally { s.kill(); }
  });
}
