// The packaged extension (.vsix, built by clients/vscode/build-vsix.sh; run.sh passes it in
// PTXLS_VSIX): what it holds and what it leaves out, and that its manifest, bundle and sources
// agree (every command contributed is registered, every setting read is declared).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import test from 'node:test';
import { inflateRawSync } from 'node:zlib';
import { EXTENSION } from './textmate.mjs';

// A .vsix is a zip. Reads its central directory: name, Unix mode, and the data of each entry.
function readZip(path) {
  const zip = readFileSync(path);
  let end = zip.length - 22;
  while (end >= 0 && zip.readUInt32LE(end) !== 0x06054b50) --end;
  assert.ok(end >= 0, `${path}: no zip end-of-central-directory record`);
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries = new Map();
  for (let i = 0; i < count; ++i) {
    assert.equal(zip.readUInt32LE(at), 0x02014b50, `${path}: bad central directory entry ${i}`);
    const method = zip.readUInt16LE(at + 10);
    const compressedSize = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const madeBy = zip.readUInt16LE(at + 4) >> 8;
    const external = zip.readUInt32LE(at + 38);
    const localHeader = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    const data = () => {
      const start = localHeader + 30 + zip.readUInt16LE(localHeader + 26) + zip.readUInt16LE(localHeader + 28);
      const raw = zip.subarray(start, start + compressedSize);
      if (method === 0) return raw;
      assert.equal(method, 8, `${name}: compression method ${method}`);
      return inflateRawSync(raw);
    };
    // Made on Unix (3): the high 16 bits of the external attributes are the file mode.
    entries.set(name, { name, mode: madeBy === 3 ? external >>> 16 : undefined, data });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

const vsixPath = process.env.PTXLS_VSIX;
const binaryPath = process.env.PTXLS_BINARY;
const skip = vsixPath ? false : 'PTXLS_VSIX is not set (run through tests/clients/vscode-unit/run.sh)';
const entries = vsixPath ? readZip(vsixPath) : new Map();
const text = (name) => {
  const entry = entries.get(name);
  assert.ok(entry, `the .vsix has no ${name}; it has ${[...entries.keys()].join(', ')}`);
  return entry.data().toString('utf8');
};
const manifest = vsixPath ? JSON.parse(text('extension/package.json')) : {};
const bundle = vsixPath ? text('extension/dist/extension.js') : '';
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

test('the .vsix holds the bundle, the server, the grammar, the language configuration and the license', { skip }, () => {
  for (const name of ['extension/package.json', 'extension/dist/extension.js', 'extension/server/ptxls',
    'extension/syntaxes/ptx.tmLanguage.json', 'extension/language-configuration.json', 'extension/readme.md',
    'extension.vsixmanifest']) {
    assert.ok(entries.has(name), `missing ${name}`);
  }
  assert.ok(entries.has('extension/LICENSE.txt') || entries.has('extension/LICENSE'), 'missing the license');
  const server = entries.get('extension/server/ptxls');
  assert.ok(server.mode !== undefined, 'server/ptxls has no Unix mode in the zip');
  assert.equal(server.mode & 0o111, 0o111, `server/ptxls has mode ${server.mode.toString(8)}, not executable`);
  if (binaryPath) {
    const digest = (buffer) => createHash('sha256').update(buffer).digest('hex');
    assert.equal(digest(server.data()), digest(readFileSync(binaryPath)), 'server/ptxls is not the binary given to build-vsix.sh');
  }
});

test('the .vsix leaves out sources, dependencies and build files', { skip }, () => {
  const unwanted = [...entries.keys()].filter((name) =>
    /^extension\/(src|node_modules|out)\//.test(name)
    || /\.(ts|map|vsix)$/.test(name)
    || /(^|\/)(tsconfig\.json|package-lock\.json|build-vsix\.sh|\.vscodeignore|\.gitignore)$/.test(name));
  assert.deepEqual(unwanted, []);
  // Everything inside the extension is what it runs with (the whole list, so additions are seen).
  const license = entries.has('extension/LICENSE.txt') ? 'extension/LICENSE.txt' : 'extension/LICENSE';
  const inside = [...entries.keys()].filter((n) => n.startsWith('extension/')).sort();
  assert.deepEqual(inside, [license, 'extension/dist/extension.js', 'extension/language-configuration.json',
    'extension/package.json', 'extension/readme.md', 'extension/server/ptxls', 'extension/syntaxes/ptx.tmLanguage.json'].sort());
});

test('the packaged server runs', { skip }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'ptxls-vsix-'));
  try {
    const server = entries.get('extension/server/ptxls');
    const path = join(dir, 'ptxls');
    writeFileSync(path, server.data());
    chmodSync(path, server.mode & 0o777);
    const version = execFileSync(path, ['--version'], { encoding: 'utf8', timeout: 10000 });
    assert.match(version, /\d+\.\d+/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('identity, engine and platform', { skip }, () => {
  assert.equal(manifest.name, 'ptxls');
  assert.equal(manifest.publisher, 'ptxls');
  assert.equal(manifest.displayName, 'PTX — ptxls');
  assert.equal(manifest.version, '0.1.0');
  assert.equal(manifest.license, 'MIT');
  assert.equal(manifest.repository?.url, 'https://github.com/ptxls/ptxls');
  assert.equal(manifest.engines?.vscode, '^1.91.0');
  assert.equal(manifest.main, './dist/extension.js');
  const vsixManifest = text('extension.vsixmanifest');
  assert.match(vsixManifest, /<Identity [^>]*Id="ptxls"[^>]*Version="0\.1\.0"[^>]*Publisher="ptxls"[^>]*TargetPlatform="linux-x64"/);
  // vsce refuses @types/vscode newer than the engine, and the client library needs ^1.91.
  const sources = JSON.parse(readFileSync(resolve(EXTENSION, 'package.json'), 'utf8'));
  assert.equal(sources.devDependencies['@types/vscode'], sources.engines.vscode.replace(/^\^/, ''));
  assert.equal(sources.devDependencies['vscode-languageclient'], '11.0.0');
});

test('activation: on PTX and CUDA documents (explicitly) and on each command', { skip }, () => {
  // code-server never activates an extension whose activationEvents are implied (see
  // ../shared/docs/clients.md, section 3a).
  assert.ok(manifest.activationEvents.includes('onLanguage:ptx'));
  // VS Code's C++ extension names CUDA `cuda-cpp`; CUDA extensions may contribute `cuda`.
  assert.ok(manifest.activationEvents.includes('onLanguage:cuda-cpp'));
  assert.ok(manifest.activationEvents.includes('onLanguage:cuda'));
  for (const { command } of manifest.contributes.commands) {
    assert.ok(manifest.activationEvents.includes(`onCommand:${command}`), `no onCommand:${command}`);
  }
});

test('the language, grammar and configuration files it names are in the package', { skip }, () => {
  // PTX only: CUDA sources keep the language and grammar VS Code (or a C++ extension) gives them.
  assert.equal(manifest.contributes.languages.length, 1);
  assert.equal(manifest.contributes.grammars.length, 1);
  const [language] = manifest.contributes.languages;
  assert.equal(language.id, 'ptx');
  assert.deepEqual(language.extensions, ['.ptx']);
  const config = JSON.parse(text(`extension/${language.configuration.replace(/^\.\//, '')}`));
  assert.ok(config.wordPattern);
  const [grammar] = manifest.contributes.grammars;
  assert.equal(grammar.language, 'ptx');
  assert.equal(grammar.scopeName, 'source.ptx');
  assert.equal(JSON.parse(text(`extension/${grammar.path.replace(/^\.\//, '')}`)).scopeName, 'source.ptx');
});

test('every contributed command has a handler in the bundle; the server command is left to the client library', { skip }, () => {
  const titles = Object.fromEntries(manifest.contributes.commands.map((c) => [c.command, `${c.category}: ${c.title}`]));
  assert.deepEqual(titles, {
    'ptxls.restartServer': 'PTX: Restart Language Server',
    'ptxls.explainRule': 'PTX: Explain Rule Under Cursor',
    'ptxls.openRuleDocs': 'PTX: Open Rule Documentation',
    'ptxls.showRegisterReport': 'PTX: Show Register Report',
    'ptxls.toggleLiveRegisterHints': 'PTX: Toggle Live Register Hints',
  });
  for (const command of Object.keys(titles)) {
    assert.match(bundle, new RegExp(`registerCommand\\(\\s*["'\`]${escape(command)}["'\`]`), `${command} is never registered`);
  }
  // vscode-languageclient registers the server's executeCommand commands itself; registering one
  // here too would make activation fail with "command already exists".
  assert.doesNotMatch(bundle, /registerCommand\(\s*["'`]ptxls\.server\./);
  assert.match(bundle, /["'`]ptxls\.server\.explainRule["'`]/, 'the bundle never asks the server to explain a rule');
  // The server's code lenses name ptxls.showRegisterReport (a client command, registered above);
  // the command asks the server for the report.
  assert.match(bundle, /["'`]ptxls\/registerReport["'`]/, 'the bundle never asks the server for the register report');
  // Menus refer only to contributed commands.
  for (const items of Object.values(manifest.contributes.menus ?? {})) {
    for (const item of items) assert.ok(titles[item.command], `menu item for unknown command ${item.command}`);
  }
});

test('every setting the extension reads is declared, and every declared one is read', { skip }, () => {
  const src = resolve(EXTENSION, 'src');
  const files = readdirSync(src).filter((f) => f.endsWith('.ts'));
  const settingsSource = readFileSync(resolve(src, 'settings.ts'), 'utf8');
  const list = /SETTING_KEYS\s*=\s*\[([^\]]*)\]/.exec(settingsSource);
  assert.ok(list, 'settings.ts has no SETTING_KEYS list');
  const read = [...list[1].matchAll(/'([^']+)'/g)].map((m) => `ptxls.${m[1]}`).sort();
  // The list binds only if every read goes through setting(): one getConfiguration of the section.
  const sectionReads = files.flatMap((f) => [...readFileSync(resolve(src, f), 'utf8')
    .matchAll(/getConfiguration\(\s*(SECTION|['"`]ptxls['"`]|\)|undefined)/g)].map((m) => `${f}: ${m[0]}`));
  assert.deepEqual(sectionReads, ['settings.ts: getConfiguration(SECTION'], 'ptxls settings must be read through setting() in settings.ts');
  const sources = files.map((f) => readFileSync(resolve(src, f), 'utf8')).join('\n');
  for (const key of read) {
    const name = key.replace(/^ptxls\./, '');
    assert.match(sources, new RegExp(`setting(?:<[^(]*>)?\\(\\s*'${escape(name)}'`), `${key} is listed but never read`);
  }
  const properties = manifest.contributes.configuration.properties;
  assert.deepEqual(Object.keys(properties).sort(), read);
  for (const [key, property] of Object.entries(properties)) {
    assert.ok(property.markdownDescription || property.description, `${key} has no description`);
    assert.ok('default' in property, `${key} has no default`);
    assert.match(bundle, new RegExp(`["'\`]${escape(key.replace(/^ptxls\./, ''))}["'\`]`), `${key} is not in the bundle`);
  }
  assert.deepEqual(properties['ptxls.trace.server'].enum, ['off', 'messages', 'verbose']);
  assert.equal(properties['ptxls.formatOnSave'].default, false);
  assert.equal(properties['ptxls.inlayHints.liveRegisters'].type, 'boolean');
  assert.equal(properties['ptxls.inlayHints.liveRegisters'].default, false);
  assert.deepEqual(properties['ptxls.rules'].additionalProperties.anyOf[0].enum, ['off', 'on', 'error', 'warning', 'info', 'hint']);
  // ptxls.cuda.arch: nvcc's -arch names, sent to the server as `cuda.arch` (the .ptxls.json key).
  const arch = properties['ptxls.cuda.arch'];
  assert.equal(arch.type, 'array');
  assert.deepEqual(arch.default, []);
  assert.equal(arch.items.type, 'string');
  const name = new RegExp(arch.items.pattern);
  for (const good of ['sm_90a', 'sm_80', 'compute_90a', 'sm_100f', 'all', 'all-major']) assert.match(good, name);
  for (const bad of ['90a', 'sm90', 'sm_90a,sm_100a', 'native', '']) assert.doesNotMatch(bad, name);
  assert.match(bundle, /cuda:\s*\{\s*arch:/, 'the bundle never sends cuda.arch to the server');
  // ptxls.cuda.exactMode runs nvcc: off by default, and user settings only (a workspace cannot set it).
  const exactMode = properties['ptxls.cuda.exactMode'];
  assert.equal(exactMode.type, 'boolean');
  assert.equal(exactMode.default, false);
  assert.equal(exactMode.scope, 'machine');
});

test('CUDA documents: selected by language and by .cu/.cuh pattern; formatting and explain rule wired for them', { skip }, () => {
  for (const needle of ['"cuda-cpp"', '"**/*.cu"', '"**/*.cuh"', '"llvm-vs-code-extensions.vscode-clangd"'])
    assert.ok(bundle.includes(needle), `the bundle lacks ${needle}`);
  const explain = manifest.contributes.menus['editor/context'].find((item) => item.command === 'ptxls.explainRule');
  const when = /^editorLangId =~ \/(.*)\/$/.exec(explain.when);
  assert.ok(when, `explainRule's when clause is not a language match: ${explain.when}`);
  for (const language of ['ptx', 'cuda-cpp', 'cuda']) assert.match(language, new RegExp(when[1]));
  assert.doesNotMatch('cpp', new RegExp(when[1]));
});
