// The TextMate grammar (clients/vscode/syntaxes/ptx.tmLanguage.json) under vscode-textmate: the
// scopes of chosen tokens in the client fixtures and in hand-written lines, the ISA tables'
// keywords, and an audit of every line of the project's corpus.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { dirname, resolve } from 'node:path';
import test from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { auditText, EXTENSION, loadGrammar, significantScopes, tokenizeText } from './textmate.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(here, '..', '..', '..');
const FIXTURES = resolve(ROOT, 'tests', 'clients', 'fixtures');
const grammar = await loadGrammar();

const fixtureText = (name) => readFileSync(resolve(FIXTURES, name), 'utf8');

// The nth token (0-based) whose text is exactly `text`, on the first line containing `onLine`
// when given. Tests name tokens by text, never by position, so fixtures may move.
function token(source, text, { onLine, nth = 0 } = {}) {
  let lines = tokenizeText(grammar, source);
  if (onLine !== undefined) {
    const index = source.split('\n').findIndex((l) => l.includes(onLine));
    assert.notEqual(index, -1, `no line contains ${JSON.stringify(onLine)}`);
    lines = [lines[index]];
  }
  const matches = lines.flat().filter((t) => t.text === text);
  assert.ok(matches.length > nth, `no token #${nth} ${JSON.stringify(text)}${onLine ? ` on the line with ${JSON.stringify(onLine)}` : ''}; tokens: ${JSON.stringify(lines.flat().map((t) => t.text))}`);
  return matches[nth];
}

function assertScope(source, text, scope, options = {}) {
  const found = token(source, text, options);
  assert.ok(found.scopes.includes(scope),
    `${JSON.stringify(text)}${options.onLine ? ` (line with ${JSON.stringify(options.onLine)})` : ''}: expected ${scope}, got ${found.scopes.join(' ')}`);
  return found;
}

const OPCODE = 'support.function.instruction.ptx';
const MODIFIER = 'entity.other.attribute-name.modifier.ptx';
const TYPE = 'storage.type.ptx';
const SPACE = 'storage.modifier.state-space.ptx';
const REGISTER = 'variable.other.register.ptx';
const SPECIAL = 'support.variable.special-register.ptx';
const LABEL = 'entity.name.label.ptx';
const FUNCTION = 'entity.name.function.ptx';
const DIRECTIVE = 'keyword.control.directive.ptx';

test('vecadd.ptx: module header, kernel signature, declarations', () => {
  const text = fixtureText('vecadd.ptx');
  assertScope(text, '//', 'punctuation.definition.comment.ptx');
  assertScope(text, '//', 'comment.line.double-slash.ptx');
  assertScope(text, '.version', DIRECTIVE);
  assertScope(text, '8.0', 'constant.numeric.float.decimal.ptx');
  assertScope(text, '.target', DIRECTIVE);
  assertScope(text, 'sm_80', 'support.constant.target.ptx');
  assertScope(text, '64', 'constant.numeric.integer.decimal.ptx', { onLine: '.address_size' });
  assertScope(text, '.visible', 'storage.modifier.linkage.ptx');
  assertScope(text, '.entry', 'storage.type.function.ptx');
  assertScope(text, 'vecAdd', FUNCTION);
  assertScope(text, 'vecAdd_param_0', 'variable.parameter.ptx', { onLine: '.param .u64 vecAdd_param_0' });
  assertScope(text, '.param', SPACE, { onLine: '.param .u64 vecAdd_param_0' });
  assertScope(text, '.u64', TYPE, { onLine: '.param .u64 vecAdd_param_0' });
  // `.reg .b64 %rd<8>;`: a register range declaration.
  assertScope(text, '.reg', SPACE, { onLine: '%rd<8>' });
  assertScope(text, '.b64', TYPE, { onLine: '%rd<8>' });
  assertScope(text, '%rd', REGISTER, { onLine: '%rd<8>' });
  assertScope(text, '<', 'punctuation.definition.register-count.begin.ptx', { onLine: '%rd<8>' });
  assertScope(text, '8', 'constant.numeric.integer.decimal.ptx', { onLine: '%rd<8>' });
  assertScope(text, '.pred', TYPE);
  // The helper function's return parameter, then its name.
  assertScope(text, 'retval', 'variable.parameter.ptx', { onLine: '.func' });
  assertScope(text, 'twice', FUNCTION);
});

test('vecadd.ptx: instructions, registers, guard, labels', () => {
  const text = fixtureText('vecadd.ptx');
  const line = 'ld.param.u64 \t%rd1, [vecAdd_param_0]';
  assertScope(text, 'ld', OPCODE, { onLine: line });
  assertScope(text, '.param', SPACE, { onLine: line });
  assertScope(text, '.u64', TYPE, { onLine: line });
  assertScope(text, '%rd1', REGISTER, { onLine: line });
  assertScope(text, '[', 'punctuation.section.brackets.begin.ptx', { onLine: line });
  assertScope(text, 'vecAdd_param_0', 'variable.other.ptx', { onLine: line });
  assertScope(text, 'cvta', OPCODE);
  assertScope(text, '.to', MODIFIER);
  assertScope(text, '.global', SPACE, { onLine: 'cvta.to.global' });
  assertScope(text, 'setp', OPCODE);
  assertScope(text, '.ge', MODIFIER);
  assertScope(text, '%tid', SPECIAL);
  assertScope(text, '.x', 'variable.other.property.component.ptx');
  assertScope(text, '@', 'keyword.operator.guard.ptx');
  assertScope(text, '%p1', 'meta.guard.ptx', { onLine: '@%p1' });
  assertScope(text, '%p1', REGISTER, { onLine: '@%p1' });
  assertScope(text, 'bra', OPCODE);
  assertScope(text, '$L__BB0_2', LABEL, { onLine: 'bra' });
  assertScope(text, '$L__BB0_2', LABEL, { onLine: '$L__BB0_2:' });
  assertScope(text, ':', 'punctuation.separator.label.ptx', { onLine: '$L__BB0_2:' });
  assertScope(text, 'ret', OPCODE);
  assertScope(text, ';', 'punctuation.terminator.statement.ptx', { onLine: 'ret;' });
  assertScope(text, '{', 'punctuation.section.braces.begin.ptx');
});

test('calls.ptx: call with its callee, hex float', () => {
  const text = fixtureText('calls.ptx');
  assertScope(text, 'call', OPCODE);
  assertScope(text, 'add2', FUNCTION, { onLine: 'call (' });
  assertScope(text, '%r3', REGISTER, { onLine: 'call (' });
  assertScope(text, '0f3F800000', 'constant.numeric.float.hexadecimal.ptx');
});

test('broken.ptx: misspelt modifiers stay modifiers, not types or state spaces', () => {
  const text = fixtureText('broken.ptx');
  assertScope(text, '.globl', MODIFIER);
  assertScope(text, '.s33', MODIFIER);
  assertScope(text, '//', 'comment.line.double-slash.ptx', { onLine: '.s33' });
});

test('hand-written lines', () => {
  const text = [
    '#include "common.h"',
    '/* a block',
    '   comment */ .pragma "nounroll";',
    '\t@!%p2 bra.uni \tLOOP;',
    '\tmov.f64 \t%fd1, 0d3FF0000000000000;',
    '\tand.b32 \t%r5, %r4, 0x1F;',
    '\tcp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%r1], [%rd1, {%r2, %r3}], [%r4];',
    '\tmov.u32 \t%r6, %clock; mov.u32 %r7, %laneid; mov.u32 %r8, %ctaid.y; mov.b32 %r9, WARP_SZ;',
    '\t{.reg.b32 f;',
    '\t}',
    '.global .texref tex;',
    '\ttex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [tex, {%f5, %f6}];',
    '\tcall.uni (retval0),',
    '\t_Z3fooi,',
    '\t(',
    '\tparam0',
    '\t);',
    '\tadd.s32 %r1, %r2, %r3',
    '\tsub.s32 %r1, %r2, %r3;',
    '.section .debug_abbrev {',
    '.b32 .debug_info',
    '}',
    'LOOP:',
  ].join('\n');
  assertScope(text, '#', 'punctuation.definition.directive.ptx');
  assertScope(text, 'include', 'keyword.control.directive.preprocessor.include.ptx');
  assertScope(text, '"common.h"', 'string.quoted.double.include.ptx');
  assertScope(text, '   comment ', 'comment.block.ptx');
  assertScope(text, '.pragma', DIRECTIVE);
  assertScope(text, 'nounroll', 'string.quoted.double.ptx');
  assertScope(text, '!', 'keyword.operator.logical.negation.ptx');
  assertScope(text, '%p2', REGISTER);
  assertScope(text, '.uni', MODIFIER, { onLine: 'bra.uni' });
  assertScope(text, 'LOOP', LABEL, { onLine: 'bra.uni' });
  assertScope(text, 'LOOP', LABEL, { onLine: 'LOOP:' });
  assertScope(text, '0d3FF0000000000000', 'constant.numeric.float.hexadecimal.ptx');
  assertScope(text, '0x1F', 'constant.numeric.integer.hexadecimal.ptx');
  // Sub-qualified modifiers are single tokens.
  assertScope(text, '.shared::cluster', SPACE);
  assertScope(text, '.mbarrier::complete_tx::bytes', MODIFIER);
  assertScope(text, '.2d', MODIFIER, { onLine: 'cp.async' });
  for (const special of ['%clock', '%laneid', '%ctaid']) assertScope(text, special, SPECIAL);
  assertScope(text, '.y', 'variable.other.property.component.ptx');
  assertScope(text, 'WARP_SZ', 'support.constant.warp-size.ptx');
  // nvcc's inline-asm scopes glue keywords: `.reg.b32`.
  assertScope(text, '.reg', SPACE, { onLine: '{.reg.b32' });
  assertScope(text, '.b32', TYPE, { onLine: '{.reg.b32' });
  // A texture named like an opcode is an operand wherever it is not the statement's first word.
  assertScope(text, 'tex', 'variable.other.ptx', { onLine: '.texref' });
  assertScope(text, 'tex', OPCODE, { onLine: 'tex.2d' });
  assertScope(text, 'tex', 'variable.other.ptx', { onLine: 'tex.2d', nth: 1 });
  assertScope(text, '.v4', 'storage.type.vector.ptx', { onLine: 'tex.2d' });
  // nvcc's multi-line call: the callee on its own line.
  assertScope(text, '_Z3fooi', FUNCTION);
  assertScope(text, 'param0', 'variable.other.ptx');
  // A statement whose `;` is still missing does not swallow the next one.
  assertScope(text, 'sub', OPCODE);
  assertScope(text, '.section', DIRECTIVE);
  assertScope(text, '.debug_abbrev', 'entity.name.section.ptx');
  assertScope(text, '.debug_info', 'entity.name.section.ptx');
});

// The keyword lists of the ISA tables (core/isa/*.def), so that a family, directive, type or
// special register added there is not silently left uncoloured here.
function defNames(file, macro) {
  const source = readFileSync(resolve(ROOT, 'core', 'isa', file), 'utf8');
  return [...source.matchAll(new RegExp(`^${macro}\\(\\s*"?([^",\\s)]+)`, 'gm'))].map((m) => m[1]);
}

// `%pm0..%pm7` in the tables stands for the whole range.
function expandRange(name) {
  const range = /^(.*?)(\d+)\.\.(.*?)(\d+)$/.exec(name);
  if (!range) return [name];
  const names = [];
  for (let i = Number(range[2]); i <= Number(range[4]); ++i) names.push(range[1] + i + range[3].slice(range[1].length));
  return names;
}

test('ptx.tmLanguage.json is what syntaxes/generate.mjs writes', async () => {
  const { grammarText, GRAMMAR_JSON } = await import(pathToFileURL(resolve(EXTENSION, 'syntaxes', 'generate.mjs')).href);
  assert.ok(readFileSync(GRAMMAR_JSON, 'utf8') === grammarText(),
    'the grammar JSON is stale or was edited by hand: edit clients/vscode/syntaxes/generate.mjs and run it');
});

test('every instruction family of the ISA table is an opcode', () => {
  const families = defNames('Opcodes.def', 'PTX_OPCODE');
  assert.equal(families.length, 135, 'PTX ISA Table 2 has 135 instruction keywords');
  for (const family of families) {
    for (const line of [`\t${family}.sync.u32 %r1, %r2;`, `\t@%p1 ${family} %r1;`]) {
      const first = tokenizeText(grammar, line)[0].find((t) => t.text === family);
      assert.ok(first?.scopes.includes(OPCODE), `${JSON.stringify(line)}: ${family} is ${first?.scopes.join(' ')}`);
    }
  }
});

test('every special register, directive and type of the ISA tables has its scope', () => {
  const specials = defNames('SpecialRegisters.def', 'PTX_SPECIAL_REGISTER').flatMap(expandRange);
  assert.ok(specials.length > 40, `only ${specials.length} special registers read`);
  for (const name of specials) {
    const scope = name === 'WARP_SZ' ? 'support.constant.warp-size.ptx' : SPECIAL;
    assertScope(`\tmov.u32 %r1, ${name};`, name, scope);
  }
  const types = defNames('Types.def', 'PTX_TYPE');
  assert.ok(types.length > 30, `only ${types.length} types read`);
  for (const type of types) {
    assertScope(`\tcvt.rn${type}.f32 %r1, %f1;`, type, TYPE);
    assertScope(`.global ${type} x;`, type, TYPE);
  }
  const directives = defNames('Directives.def', 'PTX_DIRECTIVE');
  assert.ok(directives.length > 30, `only ${directives.length} directives read`);
  for (const directive of directives) {
    const found = token(`${directive} 1`, directive);
    const scopes = significantScopes(found);
    assert.ok(scopes.some((s) => /^(keyword\.control\.directive|storage\.(type|modifier))/.test(s)),
      `${directive} is ${found.scopes.join(' ')}`);
  }
});

test('every line of corpus/ and the client fixtures tokenizes, fully scoped', async () => {
  const corpus = resolve(ROOT, 'corpus');
  const files = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = resolve(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ptx')) files.push(path);
    }
  };
  walk(corpus);
  walk(FIXTURES);
  assert.ok(files.length > 4, `only ${files.length} .ptx files under ${corpus}`);
  // About 5 MB of PTX: one worker per core.
  const workers = Math.max(1, Math.min(files.length, typeof availableParallelism === 'function' ? availableParallelism() : cpus().length));
  const shares = Array.from({ length: workers }, (_, i) => files.filter((_, j) => j % workers === i));
  const results = (await Promise.all(shares.map((share) => new Promise((resolveShare, reject) => {
    const worker = new Worker(new URL('./corpus-worker.mjs', import.meta.url), { workerData: { files: share } });
    worker.once('message', resolveShare);
    worker.once('error', reject);
    worker.once('exit', (code) => { if (code !== 0) reject(new Error(`corpus worker exited with ${code}`)); });
  })))).flat();
  assert.equal(results.length, files.length);
  const problems = results.flatMap((r) => r.problems);
  assert.deepEqual(problems.slice(0, 20), [], `${problems.length} problems`);
});

test('the audit itself finds what it looks for', () => {
  // Guards the corpus test against passing vacuously.
  assert.deepEqual(auditText(grammar, '\tmov.u32 %r1, 09;', 'x').map((p) => p.split(' ')[0]), ['invalid']);
  assert.equal(auditText(grammar, '\tmov.u32 %r1, %r2; // %r3', 'x').length, 0);
});
