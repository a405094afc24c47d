// clients/vscode/language-configuration.json: the word pattern behind double-click, word
// highlighting and whole-word search, and the comment, bracket and folding settings.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import test from 'node:test';
import { EXTENSION, loadGrammar, significantScopes, tokenizeText } from './textmate.mjs';

const config = JSON.parse(readFileSync(resolve(EXTENSION, 'language-configuration.json'), 'utf8'));

// VS Code compiles the pattern with the flags given (none here) plus `g`, and takes as the word
// at a position the match that contains it; a position at the end of a word still belongs to it
// (the cursor after `%r12` is on `%r12`).
const source = typeof config.wordPattern === 'string' ? config.wordPattern : config.wordPattern.pattern;
const flags = typeof config.wordPattern === 'string' ? '' : (config.wordPattern.flags ?? '');
const wordPattern = new RegExp(source, flags.includes('g') ? flags : `${flags}g`);

function words(line) {
  return [...line.matchAll(wordPattern)].map((m) => ({ text: m[0], start: m.index, end: m.index + m[0].length }));
}

function wordAt(line, column) {
  const all = words(line);
  return (all.find((w) => w.start <= column && column < w.end) ?? all.find((w) => w.end === column))?.text;
}

// The word a double-click on the first character of `needle` (its nth occurrence) selects.
function clickOn(line, needle, { nth = 0, into = 0 } = {}) {
  let at = -1;
  for (let i = 0; i <= nth; ++i) at = line.indexOf(needle, at + 1);
  assert.notEqual(at, -1, `${JSON.stringify(line)} has no ${JSON.stringify(needle)}`);
  return wordAt(line, at + into);
}

test('the word pattern never matches the empty string', () => {
  // VS Code rejects such a pattern (it would loop forever finding words).
  assert.equal(new RegExp(source, flags.replace('g', '')).test(''), false);
  assert.equal(words('   ,;[]{}()').length, 0);
});

test('registers, modifiers, labels and numbers are single words', () => {
  const line = '\t@%p1 bra.uni $L__BB0_2; ld.global.u32 %r12, [%rd4+16]; mov.f32 %f1, 0f3F800000;';
  assert.equal(clickOn(line, '%r12'), '%r12');
  assert.equal(clickOn(line, '%r12', { into: 2 }), '%r12');
  assert.equal(clickOn(line, '%rd4', { into: 3 }), '%rd4');
  assert.equal(clickOn(line, '.u32'), '.u32');
  assert.equal(clickOn(line, '.u32', { into: 2 }), '.u32');
  assert.equal(clickOn(line, '.global', { into: 3 }), '.global');
  assert.equal(clickOn(line, 'ld'), 'ld');
  assert.equal(clickOn(line, '$L__BB0_2'), '$L__BB0_2');
  assert.equal(clickOn(line, '$L__BB0_2', { into: 5 }), '$L__BB0_2');
  assert.equal(clickOn(line, '%p1'), '%p1');
  assert.equal(clickOn(line, '16'), '16');
  assert.equal(clickOn(line, '0f3F800000', { into: 4 }), '0f3F800000');
  assert.equal(clickOn('\tmul.f32 %f2, %f1, 1.5e3;', '1.5e3', { into: 2 }), '1.5e3');
});

test('a special register and its component are separate words', () => {
  const line = '\tmov.u32 %r2, %tid.x;';
  assert.equal(clickOn(line, '%tid', { into: 1 }), '%tid');
  assert.equal(clickOn(line, '.x'), '.x');
});

test('sub-qualified modifiers are one word', () => {
  const line = '\tcp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r1], [%rd1], 16, [%r2];';
  assert.equal(clickOn(line, '.shared::cluster', { into: 9 }), '.shared::cluster');
  assert.equal(clickOn(line, '.mbarrier::complete_tx::bytes', { into: 20 }), '.mbarrier::complete_tx::bytes');
  assert.equal(clickOn('\tcp.async.bulk.tensor.2d.global', '.2d'), '.2d');
});

test('operands without spaces are not glued', () => {
  assert.deepEqual(words('%r1,%r2').map((w) => w.text), ['%r1', '%r2']);
  assert.deepEqual(words('add.s32 %r3,%r1,%r2;').map((w) => w.text), ['add', '.s32', '%r3', '%r1', '%r2']);
  assert.deepEqual(words('[%rd1+-4]').map((w) => w.text), ['%rd1', '4']);
  assert.deepEqual(words('{%f1,%f2}').map((w) => w.text), ['%f1', '%f2']);
  assert.deepEqual(words('@!%p1').map((w) => w.text), ['%p1']);
});

test('every token the grammar colours as one thing is one word', async () => {
  // The grammar and the word pattern must agree, or double-click selects half a register.
  const grammar = await loadGrammar();
  const text = readFileSync(resolve(EXTENSION, '..', '..', 'tests', 'clients', 'fixtures', 'vecadd.ptx'), 'utf8')
    + '\n\tcp.async.bulk.tensor.2d.shared::cluster.global [%r1], [%rd1, {%r2}], [%r4];\n\tmov.f64 %fd1, 0d3FF0000000000000;\n';
  const lines = text.split('\n');
  const wordy = /^(support\.function\.instruction|entity\.other\.attribute-name|storage\.(type|modifier)|variable\.(other\.register|other\.property\.component|other\.ptx|parameter)|support\.variable|entity\.name\.(label|function)|constant\.numeric|keyword\.control\.directive\.ptx)/;
  let checked = 0;
  for (const token of tokenizeText(grammar, text).flat()) {
    if (!significantScopes(token).some((s) => wordy.test(s))) continue;
    assert.equal(wordAt(lines[token.line], token.start), token.text,
      `line ${token.line + 1}: ${JSON.stringify(token.text)} (${significantScopes(token).join(' ')})`);
    ++checked;
  }
  assert.ok(checked > 100, `only ${checked} tokens checked`);
});

test('comments, brackets, auto-closing pairs', () => {
  assert.equal(config.comments.lineComment, '//');
  assert.deepEqual(config.comments.blockComment, ['/*', '*/']);
  for (const pair of [['{', '}'], ['[', ']'], ['(', ')']]) {
    assert.ok(config.brackets.some((b) => b[0] === pair[0] && b[1] === pair[1]), `brackets lack ${pair}`);
    assert.ok(config.autoClosingPairs.some((p) => p.open === pair[0] && p.close === pair[1]), `auto-closing lacks ${pair}`);
  }
  assert.ok(config.autoClosingPairs.some((p) => p.open === '"'), 'auto-closing lacks quotes');
});

test('folding markers: // #region and // #endregion', () => {
  const start = new RegExp(config.folding.markers.start);
  const end = new RegExp(config.folding.markers.end);
  assert.ok(start.test('// #region loads'));
  assert.ok(start.test('\t//#region'));
  assert.ok(end.test('  // #endregion'));
  assert.ok(!start.test('// #endregion'));
  assert.ok(!end.test('// #region'));
  assert.ok(!start.test('// regional code'));
  assert.ok(!start.test('\tld.global.u32 %r1, [%rd1]; // #region'), 'a marker must start its line');
});
