// End-to-end test of ptxls's VS Code extension inside real VS Code: code-server (VS Code's server and
// web workbench) with the packaged .vsix installed, the real ptxls server, driven through headless
// Debian Chromium by Playwright. Run it through ../run-vscode-test.sh, which builds the .vsix and
// prepares code-server (setup-code-server.sh).
//
// node drive.mjs --cache CACHE_DIR --vsix EXT.vsix --server PTXLS [--out DIR] [--keep]
//   CACHE_DIR  prepared by setup-code-server.sh: node24/, package/ (code-server), driver/node_modules
//   --out      where the screenshots (and code-server's log) go; default a temporary folder
//   --keep     keep the temporary user-data, extensions and workspace folders
// env: PTXLS_CHROMIUM (default /usr/bin/chromium), PTXLS_VSCODE_VIEWPORT (default 1280x720),
//      PTXLS_VSCODE_SETTINGS (JSON merged into the user settings)
//
// Checks (all but activation save vscode-<check>.png in --out); a check that fails saves
// fail-<check>.png instead and the run goes on with the next one. A JSON summary goes to stdout.
// Exit 0 all passed, 1 a check failed, 2 usage error.
//   activation   our language (status bar "PTX") and the extension host activated ptxls.ptxls
//   diagnostics  broken.ptx: two .squiggly-error decorations, Problems shows 2 errors
//   hover        on the .globl squiggle: the server's ISA004 message; on `ld`: the server's hover
//   cuda         inline_asm.cu (../fixtures), a CUDA source: VS Code's own language (CUDA C++),
//                the status bar item with ptxls.cuda.arch, two error squiggles (ISA004 on
//                `.relaxd` inside an asm string, its hover the server's message; ASM013 naming the
//                compute_90 pass that ptxls.cuda.arch ["sm_90a"] implies), the server's hover on the
//                opcode `mov` inside an asm string, its semantic token from ptxls (no C++ extension
//                colours the file here), and no formatter for CUDA from ptxls (Format Document says
//                there is none, so clangd's would be the only one)
//   definition   F12 on a branch target and on a register use moves the cursor to the declaration
//   completion   `ld.global.` opens the suggest widget with .u32 and without .shared
//   grammar      Inspect Editor Tokens: our TextMate grammar scoped the opcode (*.ptx scopes)
//   registers    registers.ptx (beside this script): the server's code lens above the kernel
//                ("≈ N registers · …"); PTX: Toggle Live Register Hints puts "N live" after the
//                instructions; clicking the lens opens the register report webview (its <svg> plot
//                and the lens's register count), and its peak link moves the editor's cursor there;
//                toggled again, the hints go
import { spawn, execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, createWriteStream } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const started = Date.now();
const elapsed = () => ((Date.now() - started) / 1000).toFixed(1).padStart(5);
const log = (...a) => console.error(`[${elapsed()} s]`, ...a);

// ---------------------------------------------------------------------------------------------
// arguments
const args = { out: '', keep: false };
for (let i = 2; i < process.argv.length; ++i) {
  const a = process.argv[i];
  if (a === '--keep') args.keep = true;
  else if (['--cache', '--vsix', '--server', '--out'].includes(a) && i + 1 < process.argv.length) args[a.slice(2)] = process.argv[++i];
  else { console.error(`drive.mjs: unknown argument ${a}`); process.exit(2); }
}
for (const need of ['cache', 'vsix', 'server']) {
  if (!args[need]) { console.error(`usage: node drive.mjs --cache CACHE_DIR --vsix EXT.vsix --server PTXLS [--out DIR] [--keep] (missing --${need})`); process.exit(2); }
}
const CACHE = resolve(args.cache);
const NODE = join(CACHE, 'node24/bin/node');
const ENTRY = join(CACHE, 'package/out/node/entry.js');
const VSIX = resolve(args.vsix);
const SERVER = resolve(args.server);
const FIXTURES = resolve(here, '..', 'fixtures');
const CHROMIUM = process.env.PTXLS_CHROMIUM || '/usr/bin/chromium';
const [VW, VH] = (process.env.PTXLS_VSCODE_VIEWPORT || '1280x720').split('x').map(Number);
for (const [what, path] of [['node', NODE], ['code-server', ENTRY], ['.vsix', VSIX], ['server', SERVER], ['chromium', CHROMIUM]]) {
  if (!existsSync(path)) { console.error(`drive.mjs: no ${what} at ${path}`); process.exit(2); }
}
const require = createRequire(join(CACHE, 'driver', 'package.json'));
const { chromium } = require('playwright-core');

const tmp = mkdtempSync(join(tmpdir(), 'ptxls-vscode-'));
const OUT = resolve(args.out || join(tmp, 'screenshots'));
const UD = join(tmp, 'user-data'), EXT = join(tmp, 'extensions'), WS = join(tmp, 'workspace');
for (const d of [join(UD, 'User'), EXT, WS, OUT]) mkdirSync(d, { recursive: true });

// ---------------------------------------------------------------------------------------------
// cleanup: code-server runs in its own process group (it starts the extension host, which starts
// ptxls), so the whole group is ended; then the temporary folders go.
let codeServer, browser;
async function cleanup() {
  await browser?.close().catch(() => {});
  if (codeServer?.pid && codeServer.exitCode === null) {
    try { process.kill(-codeServer.pid, 'SIGTERM'); } catch {}
    const exited = await Promise.race([new Promise(r => codeServer.once('exit', () => r(true))), new Promise(r => setTimeout(r, 3000, false))]);
    if (!exited) try { process.kill(-codeServer.pid, 'SIGKILL'); } catch {}
  }
  if (!args.keep) rmSync(tmp, { recursive: true, force: true, maxRetries: 3 });
  else log(`kept ${tmp}`);
}
process.on('SIGINT', async () => { await cleanup(); process.exit(130); });
process.on('SIGTERM', async () => { await cleanup(); process.exit(143); });
const watchdog = setTimeout(async () => {
  console.error('drive.mjs: FAILED: the whole run took longer than 240 s');
  await page?.screenshot({ path: join(OUT, 'fail-timeout.png') }).catch(() => {});
  await cleanup();
  process.exit(1);
}, 240_000);

// ---------------------------------------------------------------------------------------------
// workspace, settings, extension
for (const f of ['broken.ptx', 'vecadd.ptx', 'inline_asm.cu']) copyFileSync(join(FIXTURES, f), join(WS, f));
copyFileSync(join(here, 'registers.ptx'), join(WS, 'registers.ptx'));
// The server is started through a wrapper that leaves a mark, so the run proves that
// `ptxls.server.path` was honoured (and not the binary inside the .vsix). The setting is
// machine-overridable: a remote window such as code-server reads it from Machine/settings.json,
// not User/settings.json.
const SERVER_MARK = join(tmp, 'server-started');
const WRAPPER = join(tmp, 'ptxls-wrapper.sh');
writeFileSync(WRAPPER, `#!/bin/sh\necho "$$" >> '${SERVER_MARK}'\nexec '${SERVER}' "$@"\n`, { mode: 0o755 });
mkdirSync(join(UD, 'Machine'), { recursive: true });
writeFileSync(join(UD, 'Machine/settings.json'), JSON.stringify({ 'ptxls.server.path': WRAPPER }, null, 2));
writeFileSync(join(UD, 'User/settings.json'), JSON.stringify({
  'telemetry.telemetryLevel': 'off',
  'security.workspace.trust.enabled': false,
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'workbench.startupEditor': 'none',
  'workbench.colorTheme': 'Dark 2026',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'chat.disableAIFeatures': true,
  'chat.commandCenter.enabled': false,
  'window.commandCenter': false,
  'editor.hover.delay': 100,
  'editor.hover.sticky': true,
  'editor.minimap.enabled': false,
  'editor.stickyScroll.enabled': false,
  'editor.fontSize': 14,
  'editor.tabSize': 4,
  'editor.detectIndentation': false,
  'breadcrumbs.enabled': false,
  'git.enabled': false,
  'files.autoSave': 'off',
  // inline_asm.cu's passes: compute_90 and compute_90a.
  'ptxls.cuda.arch': ['sm_90a'],
  ...JSON.parse(process.env.PTXLS_VSCODE_SETTINGS || '{}'),
}, null, 1));
// code-server writes a default config.yaml and logs under XDG_CONFIG_HOME / XDG_DATA_HOME, and
// Chromium its crash-report folder under XDG_CONFIG_HOME: all of it goes into the temporary folder.
const csEnv = { ...process.env, XDG_CONFIG_HOME: join(tmp, 'xdg-config'), XDG_DATA_HOME: join(tmp, 'xdg-data'), XDG_CACHE_HOME: join(tmp, 'xdg-cache') };

let page;
const results = [];
let failed = 0;

try {
  log(`installing ${VSIX}`);
  const installed = execFileSync(NODE, [ENTRY, '--user-data-dir', UD, '--extensions-dir', EXT, '--install-extension', VSIX],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: csEnv });
  if (!/successfully installed/i.test(installed)) throw new Error(`--install-extension did not report success:\n${installed}`);
  log(installed.trim().split('\n').pop());

  // ---- code-server on a free port (port 0: it prints the one it got) -------------------------
  const csLog = createWriteStream(join(OUT, 'code-server.log'));
  codeServer = spawn(NODE, [ENTRY, '--auth', 'none', '--bind-addr', '127.0.0.1:0', '--disable-telemetry', '--disable-update-check',
    '--disable-workspace-trust', '--disable-getting-started-override', '--user-data-dir', UD, '--extensions-dir', EXT, WS],
  { stdio: ['ignore', 'pipe', 'pipe'], detached: true, env: csEnv });
  codeServer.stderr.pipe(csLog, { end: false });
  const url = await new Promise((res, rej) => {
    let seen = '';
    const timer = setTimeout(() => rej(new Error(`code-server did not start listening in 60 s:\n${seen}`)), 60_000);
    codeServer.stdout.on('data', d => {
      csLog.write(d);
      seen += d;
      const m = /HTTP server listening on (http:\/\/[^\s]+)/.exec(seen);
      if (m) { clearTimeout(timer); res(m[1].replace(/\/$/, '')); }
    });
    codeServer.on('exit', c => { clearTimeout(timer); rej(new Error(`code-server exited with ${c}:\n${seen}`)); });
  });
  log(`code-server listening on ${url}`);

  // ---- Chromium ------------------------------------------------------------------------------
  browser = await chromium.launch({
    executablePath: CHROMIUM, headless: true, env: csEnv,   // (its crash-report folder goes under XDG_CONFIG_HOME)
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
  const context = await browser.newContext({ viewport: { width: VW, height: VH }, deviceScaleFactor: 1, colorScheme: 'dark' });
  page = await context.newPage();
  page.setDefaultTimeout(20_000);
  await page.goto(`${url}/?folder=${encodeURIComponent(WS)}`);
  await page.waitForSelector('.monaco-workbench', { timeout: 60_000 });
  // The workbench is ready for input once the explorer lists the workspace.
  await explorerRow('vecadd.ptx').waitFor({ timeout: 60_000 });
  log('workbench loaded');

  // ---- a. diagnostics --------------------------------------------------------------------------
  await check('diagnostics', async () => {
    await openFile('broken.ptx', 'ld.globl.u32');
    log('  broken.ptx open');
    const squiggles = page.locator('.monaco-editor .view-overlays .squiggly-error');
    await waitFor(async () => (await squiggles.count()) === 2, 30_000,
      async () => `expected 2 error squiggles in broken.ptx, saw ${await squiggles.count()}`);
    log('  2 squiggles');
    const errors = await waitForValue(problemCounts, v => v?.errors === 2, 15_000,
      v => `the status bar's Problems item should count 2 errors, it reads ${JSON.stringify(v)}`);
    // The Problems panel lists both, with the server's messages.
    await page.keyboard.press('Control+Shift+M');
    const markers = page.locator('.markers-panel .monaco-list-row');
    await waitFor(async () => (await markers.allInnerTexts()).join('\n').includes("'.s33'"), 15_000,
      async () => `the Problems panel should list both ISA004 errors; it shows:\n${(await markers.allInnerTexts()).join('\n')}`);
    const panel = (await markers.allInnerTexts()).join('\n');
    for (const want of ["unknown modifier '.globl' for 'ld'", "unknown modifier '.s33' for 'add'", 'ISA004'])
      if (!panel.includes(want)) throw new Error(`the Problems panel does not show ${JSON.stringify(want)}:\n${panel}`);
    await shot('vscode-diagnostics.png');
    await closePanel();
    return { squiggles: 2, statusBarProblems: errors, problemsPanel: panel.split('\n').filter(Boolean) };
  });

  // ---- b. hover --------------------------------------------------------------------------------
  await check('hover', async () => {
    await focusEditor();
    // The squiggle under .globl: the diagnostic (message, code, source) in the hover.
    await hoverText('ld.globl.u32', 3, 6);       // the middle of ".globl"
    const diag = await waitForHover(t => t.includes("unknown modifier '.globl' for 'ld'"),
      "the hover on the .globl squiggle should show the server's message \"unknown modifier '.globl' for 'ld'; did you mean '.global'?\"");
    for (const want of ["did you mean '.global'?", 'ISA004'])
      if (!diag.includes(want)) throw new Error(`the squiggle's hover lacks ${JSON.stringify(want)}:\n${diag}`);
    // `ld` on the same line: the server's hover (markdown rendered by VS Code).
    await page.mouse.move(5, VH / 2);           // off the editor, so the first hover closes
    await page.locator('.monaco-hover-content').first().waitFor({ state: 'hidden', timeout: 5000 }).catch(() => {});
    await hoverText('ld.globl.u32', 0, 2);
    const hover = await waitForHover(t => /ld\s+—\s+instruction/.test(t),
      'the hover on `ld` should show the server\'s markdown "**ld** — instruction"');
    if (!hover.includes('Loads a scalar or vector value from a state space'))
      throw new Error(`the hover on ld lacks the instruction's description:\n${hover}`);
    await shot('vscode-hover.png');
    await page.mouse.move(5, VH / 2);
    return { squiggleHover: firstLines(diag, 3), ldHover: firstLines(hover, 3) };
  });

  // ---- b2. a CUDA source ------------------------------------------------------------------------
  await check('cuda', async () => {
    await openFile('inline_asm.cu', 'ld.global.relaxd.u32', { lenses: false });
    log('  inline_asm.cu open');
    // The language is VS Code's (the C++ extension built in), not one of ours.
    const mode = (await page.locator('[id="status.editor.mode"]').innerText()).trim();
    if (mode !== 'CUDA C++') throw new Error(`the status bar's language mode should read CUDA C++, it reads ${JSON.stringify(mode)}`);
    const item = page.locator('.statusbar-item', { hasText: 'ptxls' }).first();
    const itemText = await waitForValue(async () => (await item.innerText()).trim(), t => /ptxls sm_90a/.test(t ?? ''), 10_000,
      t => `the ptxls status bar item should show the CUDA architectures (ptxls sm_90a), it reads ${JSON.stringify(t)}`);
    // No formatter from ptxls for CUDA: VS Code's fallback Format Document asks to install one.
    await focusEditor();
    await runCommand('Format Document');
    const dialog = page.locator('.monaco-dialog-box', { hasText: 'There is no formatter' }).first();
    await dialog.waitFor({ state: 'visible', timeout: 10_000 }).catch(async () => {
      const shown = await page.locator('.monaco-dialog-box, .notifications-toasts').allInnerTexts().catch(() => []);
      throw new Error(`Format Document on a CUDA source should find no formatter (ptxls formats PTX only); dialogs and notifications: ${JSON.stringify(shown)}`);
    });
    const formatter = (await dialog.innerText()).split('\n').find(l => l.includes('There is no formatter'));
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden', timeout: 5000 });
    const squiggles = page.locator('.monaco-editor .view-overlays .squiggly-error');
    await waitFor(async () => (await squiggles.count()) === 2, 30_000,
      async () => `expected 2 error squiggles in inline_asm.cu (ISA004, ASM013), saw ${await squiggles.count()}`);
    log('  2 squiggles');
    // The squiggle under `.relaxd`, inside the asm string: its hover is the server's diagnostic.
    await hoverText('ld.global.relaxd.u32', 11, 16);
    const diag = await waitForHover(t => t.includes("unknown modifier '.relaxd' for 'ld'"),
      "the hover on the .relaxd squiggle should show the server's message \"unknown modifier '.relaxd' for 'ld'\"");
    for (const want of ["did you mean '.relaxed'?", 'ISA004'])
      if (!diag.includes(want)) throw new Error(`the .relaxd squiggle's hover lacks ${JSON.stringify(want)}:\n${diag}`);
    await shot('vscode-cuda-diagnostic.png');
    await page.mouse.move(5, VH / 2);
    await page.locator('.monaco-hover-content').first().waitFor({ state: 'hidden', timeout: 5000 }).catch(() => {});
    // `mov` inside the asm string of lane_id: the server's hover for the instruction.
    await hoverText('mov.u32 %0, %%laneid;', 0, 2);
    const hover = await waitForHover(t => /mov\s+—\s+instruction/.test(t),
      'the hover on `mov` inside an asm string should show the server\'s markdown "**mov** — instruction"');
    await shot('vscode-cuda-hover.png');
    await page.mouse.move(5, VH / 2);
    await page.locator('.monaco-hover-content').first().waitFor({ state: 'hidden', timeout: 5000 }).catch(() => {});
    // ptxls.cuda.arch reached the server: the wgmma is reported for the compute_90 pass of sm_90a.
    await page.keyboard.press('Control+Shift+M');
    const markers = page.locator('.markers-panel .monaco-list-row');
    await waitFor(async () => (await markers.allInnerTexts()).join('\n').includes('ASM013'), 15_000,
      async () => `the Problems panel should list ASM013 for inline_asm.cu; it shows:\n${(await markers.allInnerTexts()).join('\n')}`);
    const panel = (await markers.allInnerTexts()).join('\n');
    const asm013 = panel.split('\n').find(l => l.includes('wgmma')) ?? '';
    if (!/compute_90\b/.test(asm013) || !asm013.includes('sm_90a'))
      throw new Error(`ASM013 should name the compute_90 pass of sm_90a (from ptxls.cuda.arch):\n${panel}`);
    await closePanel();
    // No C++ extension colours this CUDA source, so ptxls's semantic tokens colour the asm strings:
    // the token inspector on `mov` shows a semantic token over VS Code's C++ string scope.
    const text = readFileSync(join(WS, 'inline_asm.cu'), 'utf8').split('\n');
    const movLine = text.findIndex(l => l.includes('mov.u32 %0')) + 1;
    await goToLine(movLine, text[movLine - 1].indexOf('mov') + 1, text[movLine - 1]);
    await runCommand('Developer: Inspect Editor Tokens and Scopes');
    const inspector = page.locator('.token-inspect-widget');
    await inspector.waitFor({ state: 'visible', timeout: 10_000 });
    const tokenInfo = await waitForValue(() => inspector.innerText(), t => /semantic token type/i.test(t ?? ''), 10_000,
      t => `the token inspector on \`mov\` in the asm string shows no semantic token from ptxls:\n${t}`);
    const semantic = /semantic token type\s+(\S+)/i.exec(tokenInfo)?.[1];
    if (!/string/.test(tokenInfo)) throw new Error(`\`mov\` should sit in VS Code's C++ string scope:\n${tokenInfo}`);
    await page.keyboard.press('Escape');
    return { languageMode: mode, statusItem: itemText, squiggles: 2, squiggleHover: firstLines(diag, 3), movHover: firstLines(hover, 3),
      asm013: asm013.trim(), formatDocument: formatter, movSemanticToken: semantic };
  });

  // ---- c. go to definition ---------------------------------------------------------------------
  await check('definition', async () => {
    await openFile('vecadd.ptx', 'setp.ge.u32');
    const text = readFileSync(join(WS, 'vecadd.ptx'), 'utf8').split('\n');
    const lineOf = needle => text.findIndex(l => l.includes(needle)) + 1;
    // A branch target: `@%p1 bra $L__BB0_2;` -> the label `$L__BB0_2:`.
    const braLine = lineOf('bra \t$L__BB0_2'), labelLine = lineOf('$L__BB0_2:');
    await goToLine(braLine, text[braLine - 1].indexOf('$L__BB0_2') + 2, text[braLine - 1]);
    await page.keyboard.press('F12');
    const label = await waitForValue(cursor, c => c?.line === labelLine, 10_000,
      c => `F12 on $L__BB0_2 in line ${braLine} should move the cursor to line ${labelLine} (the label), it is at ${JSON.stringify(c)}`);
    if (label.col !== 1) throw new Error(`F12 on $L__BB0_2 should land at the label's first column, status bar: Ln ${label.line}, Col ${label.col}`);
    // A register use: %r1 in `setp.ge.u32 %p1, %r2, %r1;` -> `.reg .b32 %r<6>;`.
    const setpLine = lineOf('setp.ge.u32'), regLine = lineOf('.reg .b32');
    await goToLine(setpLine, text[setpLine - 1].lastIndexOf('%r1') + 2, text[setpLine - 1]);
    await page.keyboard.press('F12');
    const reg = await waitForValue(cursor, c => c?.line === regLine, 10_000,
      c => `F12 on %r1 in line ${setpLine} should move the cursor to line ${regLine} (.reg .b32 %r<6>), it is at ${JSON.stringify(c)}`);
    // Peek the label's definition for the screenshot: the declaration shown inline.
    await goToLine(braLine, text[braLine - 1].indexOf('$L__BB0_2') + 2, text[braLine - 1]);
    await runCommand('Peek Definition');
    await page.locator('.peekview-widget .monaco-editor .view-line').first().waitFor({ state: 'visible', timeout: 10_000 });
    await page.locator('.peekview-widget .peekview-title').waitFor({ state: 'visible', timeout: 5000 });
    await shot('vscode-definition.png');
    await page.keyboard.press('Escape');
    await page.locator('.peekview-widget').waitFor({ state: 'hidden', timeout: 5000 }).catch(() => {});
    return { label: `Ln ${braLine} -> Ln ${label.line}, Col ${label.col}`, register: `Ln ${setpLine} -> Ln ${reg.line}, Col ${reg.col}` };
  });

  // ---- d. completion ---------------------------------------------------------------------------
  await check('completion', async () => {
    // A new line after the last store of vecAdd, then `ld.global.`: the `.` triggers suggest.
    const text = readFileSync(join(WS, 'vecadd.ptx'), 'utf8').split('\n');
    const stLine = text.findIndex(l => l.includes('st.global.u32')) + 1;
    await goToLine(stLine, text[stLine - 1].length, text[stLine - 1]);
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    const widget = page.locator('.editor-widget.suggest-widget');
    const rows = widget.locator('.monaco-list-row');
    // Typing `ld.global` may open word-based quick suggestions; close them so that what is read
    // below is the list the `.` trigger character asked the server for.
    await page.keyboard.type('ld.global', { delay: 20 });
    if (await widget.isVisible()) {
      await page.keyboard.press('Escape');
      await widget.waitFor({ state: 'hidden', timeout: 3000 }).catch(() => {});
    }
    await page.keyboard.type('.');
    // The list is virtual: only the rows in view exist. It must settle on the server's items.
    const ok = await waitFor(async () => (await widget.isVisible()) && (await rows.count()) > 0 &&
      (await rows.first().getAttribute('aria-setsize')) !== null, 10_000).then(() => true, () => false);
    if (!ok) {                                    // no trigger-character suggest: ask explicitly
      await page.keyboard.press('Control+Space');
      await waitFor(async () => (await widget.isVisible()) && (await rows.count()) > 0, 10_000,
        async () => 'the suggest widget did not open after `ld.global.` (nor on Ctrl+Space)');
    }
    const labels = await allSuggestions(widget);
    const bare = labels.map(l => l.replace(/^\./, ''));
    // (VS Code falls back to words from the document when no provider answers, and vecadd.ptx has
    // a `u32` word: the server's item is told apart by its documentation below.)
    if (!bare.includes('u32')) throw new Error(`the suggest widget after \`ld.global.\` should list .u32; it lists ${JSON.stringify(labels)}`);
    const shared = labels.filter(l => /^\.?shared/.test(l));
    if (shared.length) throw new Error(`the suggest widget after \`ld.global.\` should not offer a second state space, it lists ${JSON.stringify(shared)}`);
    // Select .u32 with its documentation beside it for the screenshot.
    const u32 = labels.findIndex(l => l.replace(/^\./, '') === 'u32');
    await focusSuggestion(widget, labels[u32], u32 + 1);
    const details = page.locator('.suggest-details-container .suggest-details');
    if (!(await details.isVisible().catch(() => false))) {
      await page.keyboard.press('Control+Space');    // toggles the details pane
      await details.waitFor({ state: 'visible', timeout: 3000 }).catch(() => {});
    }
    const docs = await waitForValue(() => details.innerText(), t => /Unsigned 32-bit integer/.test(t ?? ''), 5000,
      t => `the details of .u32 should show the server's documentation "Unsigned 32-bit integer." (else the list is not the server's); they read ${JSON.stringify(t ?? '(nothing)')}`);
    await shot('vscode-completion.png');
    await page.keyboard.press('Escape');
    return { trigger: ok ? "'.'" : 'Ctrl+Space', count: labels.length, u32: firstLines(docs, 3), labels };
  });

  // ---- e. TextMate grammar ---------------------------------------------------------------------
  await check('grammar', async () => {
    const text = readFileSync(join(WS, 'vecadd.ptx'), 'utf8').split('\n');
    const line = text.findIndex(l => l.includes('mul.wide.u32')) + 1;
    await goToLine(line, text[line - 1].indexOf('mul') + 1, text[line - 1]);
    await runCommand('Developer: Inspect Editor Tokens and Scopes');
    const widget = page.locator('.token-inspect-widget');
    await widget.waitFor({ state: 'visible', timeout: 10_000 });
    const info = await waitForValue(() => widget.innerText(), t => /textmate scopes/i.test(t), 10_000,
      t => `the token inspector shows no TextMate scopes:\n${t}`);
    const lang = /language\s+(\S+)/i.exec(info)?.[1];
    const scopes = (/textmate scopes\s+([\s\S]*?)(?:\n\s*(?:foreground|background|fontStyle)|$)/i.exec(info)?.[1] ?? '')
      .split(/\s+/).filter(Boolean);
    if (lang !== 'ptx') throw new Error(`the token inspector's language should be ptx, it reads ${JSON.stringify(lang)}:\n${info}`);
    const ours = scopes.filter(s => s.endsWith('.ptx') && !/^source\.ptx$/.test(s));
    if (!scopes.includes('source.ptx') || ours.length === 0)
      throw new Error(`our grammar should scope \`mul\` (a *.ptx scope inside source.ptx); the scopes are ${JSON.stringify(scopes)}:\n${info}`);
    await shot('vscode-grammar.png');
    await page.keyboard.press('Escape');
    return { token: 'mul', scopes, foreground: /foreground\s+(#[0-9a-f]+)/i.exec(info)?.[1] };
  });

  // ---- f. register report and live register hints ---------------------------------------------
  await check('registers', async () => {
    await openFile('registers.ptx', '.entry tile6x4');
    // Room for the editor and the report side by side (the side bar comes back at the end).
    await page.keyboard.press('Control+B');
    await page.locator('.part.sidebar').waitFor({ state: 'hidden', timeout: 5000 });
    await focusEditor();
    // The code lens above the kernel's name: the server's "≈ N registers · P% occupancy on sm_90".
    const lens = page.locator('.editor-instance .monaco-editor .codelens-decoration a', { hasText: 'registers' }).first();
    await lens.waitFor({ state: 'visible', timeout: 20_000 }).catch(async () => {
      const seen = await page.locator('.editor-instance .monaco-editor .codelens-decoration').allInnerTexts().catch(() => []);
      throw new Error(`no code lens with "registers" above the kernel in registers.ptx; code lenses: ${JSON.stringify(seen)}`);
    });
    const lensText = (await lens.innerText()).trim();
    const registers = /(\d+)\s+registers/.exec(lensText)?.[1];
    if (!registers) throw new Error(`the code lens does not give a register count: ${JSON.stringify(lensText)}`);
    log(`  code lens: ${lensText}`);

    // Live register hints: off by default, on after the toggle command, without an edit.
    const editorText = async () => (await page.locator('.editor-instance .view-lines').first().innerText()).replace(/\u00a0/g, ' ');
    if (/\d+ live/.test(await editorText())) throw new Error('"N live" inlay hints are shown before ptxls.inlayHints.liveRegisters is turned on');
    await focusEditor();
    await runCommand('PTX: Toggle Live Register Hints');
    const hinted = await waitForValue(editorText, t => /\d+ live/.test(t ?? ''), 15_000,
      t => `after PTX: Toggle Live Register Hints the editor should show "N live" inlay hints; its lines read:\n${(t ?? '').slice(0, 1500)}`);
    const hints = hinted.match(/\d+ live/g);
    log(`  ${hints.length} live register hints in view`);

    // Clicking the lens opens the report beside the editor.
    await lens.click();
    await page.locator('.tabs-container .tab[aria-label*="Registers: tile6x4"]').first().waitFor({ timeout: 15_000 });
    // A webview is an iframe in an iframe; find the frame that holds the report's plot.
    const frame = await waitForValue(async () => {
      for (const f of page.frames()) {
        if (await f.locator('svg.ptxls-plot').count().catch(() => 0)) return f;
      }
      return undefined;
    }, f => f !== undefined, 20_000, () => 'the register report webview did not show an <svg class="ptxls-plot"> plot');
    const report = (await frame.locator('body').innerText()).replace(/\u00a0/g, ' ');
    if (!report.includes(`≈ ${registers} registers`)) throw new Error(`the report's summary should repeat the lens's ${registers} registers:\n${report.slice(0, 1500)}`);
    if (!report.includes(`≈ ${registers} per thread`)) throw new Error(`the report's table should give ≈ ${registers} registers per thread:\n${report.slice(0, 1500)}`);
    for (const want of ['Peak', 'Budget', 'Occupancy', 'limited by', 'Confidence'])
      if (!report.includes(want)) throw new Error(`the report lacks ${JSON.stringify(want)}:\n${report.slice(0, 1500)}`);
    const svgTitle = await frame.locator('svg.ptxls-plot title').first().textContent();
    await page.mouse.move(VW / 2, VH - 5);
    await shot('vscode-register-report.png');

    // The peak link reveals the peak's instruction in the editor.
    const peakLink = frame.locator('a[data-action="revealPeak"]').first();
    const peakLine = Number(/line (\d+)/.exec(await peakLink.innerText())?.[1]);
    await peakLink.click();
    await waitForValue(cursor, c => c?.line === peakLine, 10_000,
      c => `the report's peak link (line ${peakLine}) should move the editor's cursor there; the status bar reads ${JSON.stringify(c)}`);
    // Close the report (the focus may have gone back to it with the click) and restore the side bar.
    await page.locator('.tabs-container .tab[aria-label*="Registers: tile6x4"] .tab-actions .action-label').first().click();
    await page.locator('.tabs-container .tab[aria-label*="Registers: tile6x4"]').waitFor({ state: 'detached', timeout: 5000 });
    await focusEditor();
    await page.keyboard.press('Control+B');
    await page.locator('.part.sidebar').waitFor({ state: 'visible', timeout: 5000 });
    await page.locator('[id="status.editor.mode"]').waitFor({ state: 'visible', timeout: 5000 });
    // Toggled again, the hints go.
    await focusEditor();
    await runCommand('PTX: Toggle Live Register Hints');
    await waitFor(async () => !/\d+ live/.test(await editorText()), 15_000,
      async () => `after toggling the live register hints off, the editor still shows them:\n${(await editorText()).slice(0, 800)}`);
    return { lens: lensText, liveHints: hints.length, webview: firstLines(report, 4), plotTitle: svgTitle, peak: `line ${peakLine}` };
  });

  // ---- activation (read last: the extension host log is written as it goes) -------------------
  await check('activation', async () => {
    const mode = (await page.locator('[id="status.editor.mode"]').innerText()).trim();
    if (mode !== 'PTX') throw new Error(`the status bar's language mode should read PTX, it reads ${JSON.stringify(mode)}`);
    const hostLog = extensionHostLog();
    const activated = /ExtensionService#_doActivateExtension ptxls\.ptxls/.test(hostLog);
    if (!activated) throw new Error(`the extension host log has no activation of ptxls.ptxls:\n${hostLog.slice(-3000)}`);
    if (!existsSync(SERVER_MARK)) throw new Error('the server was not started from ptxls.server.path (the wrapper left no mark)');
    return { languageMode: mode, activated, serverFromSetting: true };
  });
} catch (e) {
  failed++;
  results.push({ check: 'harness', ok: false, error: e.message });
  console.error(`drive.mjs: FAILED (harness): ${e.stack || e.message}`);
  if (page) await page.screenshot({ path: join(OUT, 'fail-harness.png') }).catch(() => {});
}

clearTimeout(watchdog);
if (failed) {
  const hostLog = extensionHostLog();
  if (hostLog) console.error(`--- extension host log (last lines) ---\n${hostLog.split('\n').slice(-40).join('\n')}`);
}
console.log(JSON.stringify({ ok: failed === 0, seconds: Number(elapsed()), screenshots: OUT, results }, null, 1));
await cleanup();
process.exit(failed ? 1 : 0);

// =============================================================================================
// helpers

async function check(name, fn) {
  const t0 = Date.now();
  try {
    const detail = await fn();
    results.push({ check: name, ok: true, seconds: (Date.now() - t0) / 1000, ...detail });
    log(`ok   ${name}`);
  } catch (e) {
    failed++;
    const shotPath = join(OUT, `fail-${name}.png`);
    await page.screenshot({ path: shotPath }).catch(() => {});
    results.push({ check: name, ok: false, error: e.message, screenshot: shotPath });
    log(`FAIL ${name}: ${e.message}`);
    await page.keyboard.press('Escape').catch(() => {});
    await page.keyboard.press('Escape').catch(() => {});
  }
}

// Polls an async predicate (no blind sleeps: every wait ends as soon as the state is there).
async function waitFor(pred, timeout, describe) {
  const end = Date.now() + timeout;
  for (;;) {
    if (await pred().catch(() => false)) return;
    if (Date.now() > end) throw new Error(describe ? await describe() : 'timed out');
    await new Promise(r => setTimeout(r, 100));
  }
}
async function waitForValue(get, pred, timeout, describe) {
  let value;
  await waitFor(async () => pred(value = await get().catch(() => undefined)), timeout, async () => describe(value));
  return value;
}

function explorerRow(name) { return page.locator(`.explorer-folders-view .monaco-list-row[aria-label="${name}"]`); }

async function openFile(name, expectText, { lenses = true } = {}) {
  await explorerRow(name).click();
  await page.locator(`.tabs-container .tab.active[aria-label*="${name}"]`).first().waitFor({ timeout: 15_000 });
  await waitFor(async () => (await page.locator('.editor-instance .view-lines').first().innerText()).replace(/\u00a0/g, ' ').includes(expectText),
    15_000, async () => `${name} opened, but its text (${JSON.stringify(expectText)}) did not appear in the editor`);
  // The server's code lenses (one above each function: every fixture has one) push the lines below
  // them down when they arrive; positions are read from the screen only after that.
  if (lenses) await page.locator('.editor-instance .monaco-editor .codelens-decoration').first().waitFor({ state: 'visible', timeout: 10_000 }).catch(() => {});
  await focusEditor();
}

async function focusEditor() {
  await page.locator('.editor-instance .monaco-editor textarea.inputarea, .editor-instance .monaco-editor .native-edit-context').first().focus();
}

// Errors and warnings from the status bar's Problems item (its aria-label is "Errors: N, Warnings: M"
// or "No Problems").
async function problemCounts() {
  const item = page.locator('[id="status.problems"]');
  const label = (await item.locator('a, [role="button"]').first().getAttribute('aria-label')) ?? await item.innerText();
  if (/no problems/i.test(label)) return { errors: 0, warnings: 0, label };
  const errors = /(\d+)\s*errors?|errors?:\s*(\d+)/i.exec(label), warnings = /(\d+)\s*warnings?|warnings?:\s*(\d+)/i.exec(label);
  return { errors: errors ? Number(errors[1] ?? errors[2]) : undefined, warnings: warnings ? Number(warnings[1] ?? warnings[2]) : undefined, label };
}

// "Ln X, Col Y" from the status bar.
async function cursor() {
  const t = await page.locator('[id="status.editor.selection"]').innerText();
  const m = /Ln\s+(\d+),\s*Col\s+(\d+)/.exec(t);
  return m ? { line: Number(m[1]), col: Number(m[2]), text: t.trim() } : { text: t };
}

async function quickInput(open, value, rowText) {
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await waitFor(async () => {
    if (await input.isVisible()) return true;
    await open();
    await input.waitFor({ state: 'visible', timeout: 2000 });
    return true;
  }, 15_000, async () => 'the quick input did not open');
  await input.fill(value);
  if (rowText) {
    await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: rowText }).first().waitFor({ timeout: 10_000 });
  }
  await input.press('Enter');
  await input.waitFor({ state: 'hidden', timeout: 5000 });
}

async function runCommand(title) {
  await quickInput(() => page.keyboard.press('F1'), `>${title}`, title);
}

// Puts the cursor on line `line` (1-based) before character `index` (0-based) of lineText. Go to
// Line and the status bar count columns with tabs expanded (editor.tabSize 4).
async function goToLine(line, index, lineText) {
  const col = visualColumn(lineText, index);
  await focusEditor();
  await quickInput(() => page.keyboard.press('Control+G'), `:${line}:${col}`);
  await waitForValue(cursor, c => c?.line === line && c?.col === col, 5000, c => `Go to Line ${line}:${col} left the cursor at ${JSON.stringify(c)}`);
}

function visualColumn(lineText, index, tabSize = 4) {
  let col = 0;
  for (const ch of lineText.slice(0, index)) col = ch === '\t' ? col + tabSize - (col % tabSize) : col + 1;
  return col + 1;
}

async function closePanel() {
  if (await page.locator('.monaco-workbench.nopanel').count()) return;
  await page.keyboard.press('Control+J');
  await page.locator('.monaco-workbench.nopanel').waitFor({ state: 'attached', timeout: 5000 });
}

// Moves the mouse onto characters [from, to) of the first occurrence of needle in the visible lines.
async function hoverText(needle, from, to) {
  const box = await page.evaluate(({ needle, from, to }) => {
    for (const line of document.querySelectorAll('.editor-instance .monaco-editor .view-lines .view-line')) {
      const i = line.textContent.replace(/\u00a0/g, ' ').indexOf(needle);
      if (i < 0) continue;
      const range = document.createRange(), walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
      let pos = 0, startSet = false;
      while (walker.nextNode()) {
        const n = walker.currentNode, len = n.data.length;
        if (!startSet && i + from < pos + len) { range.setStart(n, i + from - pos); startSet = true; }
        if (startSet && i + to <= pos + len) { range.setEnd(n, i + to - pos); break; }
        pos += len;
      }
      const r = range.getBoundingClientRect();
      return { x: r.x, y: r.y, width: r.width, height: r.height };
    }
    return null;
  }, { needle, from, to });
  if (!box) throw new Error(`${JSON.stringify(needle)} is not visible in the editor`);
  await page.mouse.move(box.x + box.width / 2 - 3, box.y + box.height / 2);
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 3 });
}

async function waitForHover(pred, message) {
  const hover = page.locator('.monaco-hover:not(.hidden) .monaco-hover-content');
  return waitForValue(async () => (await hover.allInnerTexts()).join('\n'), t => t && pred(t), 10_000,
    t => `${message}; the hover shows: ${JSON.stringify(t ?? '(nothing)')}`);
}

// Every label in the (virtual) suggest list: page down through it.
async function allSuggestions(widget) {
  const seen = new Map();
  const visible = async () => widget.locator('.monaco-list-row').evaluateAll(rows => rows.map(r => ({
    pos: Number(r.getAttribute('aria-posinset')), size: Number(r.getAttribute('aria-setsize')),
    label: r.querySelector('.label-name')?.textContent ?? '', focused: r.classList.contains('focused') })));
  let rows = await visible();
  const size = rows[0]?.size ?? 0;
  for (let guard = 0; guard < 50; ++guard) {
    for (const r of rows) seen.set(r.pos, r.label);
    if (seen.size >= size) break;
    const focusedBefore = rows.find(r => r.focused)?.pos;
    await page.keyboard.press('PageDown');
    await waitFor(async () => (await visible()).find(r => r.focused)?.pos !== focusedBefore, 3000).catch(() => {});
    rows = await visible();
  }
  return [...seen.entries()].sort((a, b) => a[0] - b[0]).map(e => e[1]);
}

// `targetPos`: the label's aria-posinset, when known, so that a label out of view is looked for
// in the right direction.
async function focusSuggestion(widget, label, targetPos) {
  const rows = () => widget.locator('.monaco-list-row').evaluateAll(rs => rs.map(r => ({
    pos: Number(r.getAttribute('aria-posinset')), label: r.querySelector('.label-name')?.textContent ?? '',
    focused: r.classList.contains('focused') })));
  for (let guard = 0; guard < 60; ++guard) {
    const visible = await rows();
    const focused = visible.find(r => r.focused);
    if (focused?.label === label) return;
    const target = visible.find(r => r.label === label);
    const below = target ? target.pos > (focused?.pos ?? 0) : targetPos !== undefined && targetPos > (focused?.pos ?? 0);
    await page.keyboard.press(!focused ? 'ArrowDown' : target ? (below ? 'ArrowDown' : 'ArrowUp') : below ? 'PageDown' : 'PageUp');
    // Generous: under a loaded CI machine the widget can take over a second to move its focus.
    await waitFor(async () => (await rows()).find(r => r.focused)?.pos !== focused?.pos, 3000).catch(() => {});
  }
  throw new Error(`could not select ${label} in the suggest widget`);
}

async function shot(name) {
  // animations 'disabled': fade-ins (hover, suggest) are finished, not caught halfway.
  await page.screenshot({ path: join(OUT, name), animations: 'disabled' });
}

function extensionHostLog() {
  try {
    const logs = join(UD, 'logs');
    let text = '';
    for (const session of readdirSync(logs)) {
      for (const dir of ['exthost1', 'remoteexthost1']) {
        const d = join(logs, session, dir);
        if (!existsSync(d)) continue;
        for (const f of readdirSync(d)) if (f.endsWith('.log')) text += readFileSync(join(d, f), 'utf8');
      }
      const direct = join(logs, session, 'remoteexthost.log');
      if (existsSync(direct)) text += readFileSync(direct, 'utf8');
    }
    return text;
  } catch { return ''; }
}

function firstLines(text, n) { return text.split('\n').filter(Boolean).slice(0, n).join(' | '); }
