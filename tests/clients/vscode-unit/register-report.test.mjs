// The register report page (clients/vscode/src/registerReport.ts) without VS Code: the module is
// bundled with the extension's own esbuild (run.sh passes its node_modules in
// PTXLS_VSCODE_EXT_MODULES) against an empty `vscode` stub, and its page is rendered from what
// the real server (PTXLS_BINARY) answers to `ptxls/registerReport` for
// tests/clients/vscode/registers.ptx: the Content-Security-Policy, the one nonce'd script, the
// figures and the server's SVG.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import test, { after, before } from 'node:test';
import { EXTENSION } from './textmate.mjs';

const modules = process.env.PTXLS_VSCODE_EXT_MODULES;
const binary = process.env.PTXLS_BINARY;
const skip = modules ? false : 'PTXLS_VSCODE_EXT_MODULES is not set (run through tests/clients/vscode-unit/run.sh)';
const FIXTURE = resolve(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..', 'vscode', 'registers.ptx');

let work;
let page;   // the bundled registerReport.ts

before(() => {
  if (skip) return;
  work = mkdtempSync(join(tmpdir(), 'ptxls-register-report-'));
  // The module reads `vscode` only inside the panel and the command, never at load time.
  mkdirSync(join(work, 'node_modules', 'vscode'), { recursive: true });
  writeFileSync(join(work, 'node_modules', 'vscode', 'index.js'), 'module.exports = {};\n');
  execFileSync(join(modules, '.bin', 'esbuild'), [resolve(EXTENSION, 'src', 'registerReport.ts'), '--bundle', '--platform=node',
    '--format=cjs', '--target=node18', '--external:vscode', '--external:vscode-languageclient', `--outfile=${join(work, 'registerReport.js')}`,
    '--log-level=warning'], { stdio: ['ignore', 'inherit', 'inherit'] });
  page = createRequire(join(work, 'index.js'))('./registerReport.js');
});
after(() => { if (work) rmSync(work, { recursive: true, force: true }); });

test('short names for the panel title', { skip }, () => {
  assert.equal(page.shortName('tile6x4'), 'tile6x4');
  assert.equal(page.shortName('_Z6vecAddPfS_S_i'), 'vecAdd');
  assert.equal(page.shortName('_ZN4gemm6kernelEv'), 'kernel');
  assert.equal(page.shortName('_Z'), '_Z');
  const long = 'k'.repeat(60);
  assert.equal(page.shortName(long), `${'k'.repeat(39)}…`);
});

test('percentages round as the server rounds them (halves to even)', { skip }, () => {
  assert.equal(page.percent(0.625), '62%');
  assert.equal(page.percent(0.375), '38%');
  assert.equal(page.percent(0.75), '75%');
  assert.equal(page.percent(1), '100%');
  assert.equal(page.percent(0.6251), '63%');
});

test("the plot's colour scheme follows VS Code's theme, not the system's", { skip }, () => {
  const svg = '<svg><style>.a{fill:#fff}@media (prefers-color-scheme:dark){.a{fill:#000}.b{stroke:#111}}</style><rect class="a"/></svg>';
  assert.equal(page.themedSvg(svg, false), '<svg><style>.a{fill:#fff}</style><rect class="a"/></svg>');
  assert.equal(page.themedSvg(svg, true), '<svg><style>.a{fill:#fff}.a{fill:#000}.b{stroke:#111}</style><rect class="a"/></svg>');
  assert.equal(page.themedSvg('<svg/>', true), '<svg/>');
  // An unbalanced block is left alone rather than cut.
  const broken = '<svg><style>@media (prefers-color-scheme:dark){.a{fill:#000}</style></svg>';
  assert.equal(page.themedSvg(broken, true), broken);
});

// A minimal LSP client over stdio: enough for initialize, didOpen and one request.
async function askServer(file) {
  const server = spawn(binary, [], { stdio: ['pipe', 'pipe', 'inherit'] });
  let buffer = Buffer.alloc(0);
  const waiting = new Map();
  server.stdout.on('data', (chunk) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
      const end = buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      const length = Number(/Content-Length:\s*(\d+)/i.exec(buffer.subarray(0, end).toString())?.[1]);
      if (buffer.length < end + 4 + length) return;
      const message = JSON.parse(buffer.subarray(end + 4, end + 4 + length).toString('utf8'));
      buffer = buffer.subarray(end + 4 + length);
      if (message.id !== undefined && !message.method && waiting.has(message.id)) waiting.get(message.id)(message);
    }
  });
  const send = (message) => {
    const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', ...message }), 'utf8');
    server.stdin.write(`Content-Length: ${body.length}\r\n\r\n`);
    server.stdin.write(body);
  };
  let nextId = 1;
  const request = (method, params) => new Promise((resolveReply, reject) => {
    const id = nextId++;
    const timer = setTimeout(() => reject(new Error(`${method}: no answer in 10 s`)), 10_000);
    waiting.set(id, (reply) => { clearTimeout(timer); reply.error ? reject(new Error(reply.error.message)) : resolveReply(reply.result); });
    send({ id, method, params });
  });
  try {
    const init = await request('initialize', { processId: process.pid, rootUri: null, capabilities: {} });
    const uri = pathToFileURL(file).href;
    send({ method: 'initialized', params: {} });
    send({ method: 'textDocument/didOpen', params: { textDocument: { uri, languageId: 'ptx', version: 1, text: readFileSync(file, 'utf8') } } });
    const lenses = await request('textDocument/codeLens', { textDocument: { uri } });
    const report = await request('ptxls/registerReport', { textDocument: { uri }, position: { line: 30, character: 2 } });
    await request('shutdown', null);
    send({ method: 'exit' });
    return { init, uri, lenses, report };
  } finally {
    setTimeout(() => server.kill(), 2000).unref();
  }
}

test('the page of a real report: CSP, one nonce\'d script, the figures and the plot', { skip: skip || (!binary && 'PTXLS_BINARY is not set') }, async () => {
  const { init, uri, lenses: allLenses, report } = await askServer(FIXTURE);
  let lenses = allLenses;
  assert.ok(init.capabilities.codeLensProvider, 'the server does not offer code lenses');
  // The lens runs the extension's command with the document and the function's name (where
  // ptxas is installed, a second lens runs the server's "verify with ptxas" command).
  const verify = lenses.filter((lens) => lens.command.command === 'ptxls.server.verifyRegisters');
  assert.ok(verify.length <= 1, JSON.stringify(lenses));
  lenses = lenses.filter((lens) => lens.command.command !== 'ptxls.server.verifyRegisters');
  assert.equal(lenses.length, 1);
  assert.equal(lenses[0].command.command, 'ptxls.showRegisterReport');
  assert.deepEqual(lenses[0].command.arguments, [uri, 'tile6x4']);
  assert.match(lenses[0].command.title, /registers/);

  assert.equal(report.uri, uri);
  assert.equal(report.at, 0);
  const [f] = report.functions;
  assert.equal(f.name, 'tile6x4');
  assert.equal(f.kind, 'entry');
  assert.ok(f.registers >= 30 && f.registers <= 60, `registers: ${f.registers}`);
  assert.match(f.svg, /^<svg[\s>]/);
  // The page allows no script but its own: the server's plot must carry none.
  assert.doesNotMatch(f.svg, /<script|\son[a-z]+\s*=|javascript:/i);

  const nonce = 'bm9uY2Utbm9uY2Utbm9uY2U=';
  const html = page.reportHtml({ report, selected: 0, fileName: 'registers.ptx' }, nonce, true);
  const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1];
  assert.equal(csp, `default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src 'nonce-${nonce}'`);
  const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
  assert.deepEqual(scripts, [`<script nonce="${nonce}">`]);
  assert.ok(html.includes(`<p class="summary" id="summary">${f.summary.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)}</p>`));
  assert.ok(html.includes(`≈ ${f.registers} per thread`));
  assert.ok(html.includes('<svg'), 'the plot is inlined');
  assert.doesNotMatch(html, /prefers-color-scheme/, 'the plot keeps only the theme\'s colours');
  assert.match(html, /data-action="revealPeak" data-index="0"[^>]*>line \d+<\/a>/);
  for (const name of f.peak.live) assert.ok(html.includes(`<code>${name}</code>`), `the registers live at the peak lack ${name}`);
  const o = f.occupancy;
  assert.ok(o, 'a kernel on sm_90 has an occupancy');
  assert.ok(html.includes(`limited by <strong>${o.limitedBy}</strong>`));
  if (o.fewerRegistersForMoreBlocks > 0) {
    assert.ok(html.includes(`At ${o.fewerRegistersForMoreBlocks} registers, ${o.blocksWithFewerRegisters} blocks would fit`), 'the register cliff is missing');
  }
  assert.ok(html.includes(f.budgetReason.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)));
});

test('text from the server is escaped', { skip }, () => {
  const f = {
    name: 'k<img src=x onerror=alert(1)>', kind: 'func', range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } },
    registers: 3, maxLive: 2, spills: 1, budget: 2, budgetReason: '.maxnreg <2>',
    peak: { range: { start: { line: 4, character: 1 }, end: { line: 4, character: 9 } }, live: ['%r<1>'] },
    occupancy: null, confidence: 'good & <b>bold</b>', summary: '≈ 3 registers "x"', svg: '<svg class="ptxls-plot"></svg>',
  };
  const html = page.reportHtml({ report: { uri: 'file:///x.ptx', target: '', at: null, functions: [f, { ...f, name: 'other' }] }, selected: 0, fileName: 'x<y>.ptx', problem: 'bad <thing>' }, 'n', false);
  assert.doesNotMatch(html, /<img|<b>|<thing>|<y>|%r<1>/);
  assert.ok(html.includes('k&#60;img src=x onerror=alert(1)&#62;'));
  assert.ok(html.includes('would spill'));
  assert.ok(html.includes('a .func runs inside the kernels that call it'));
  // Two functions: links to switch between them.
  assert.match(html, /data-action="select" data-index="1"[^>]*>\.func other<\/a>/);
  // Line numbers are 1-based.
  assert.match(html, />line 5<\/a>/);
});
