// "PTX: Show Register Report": the server's register estimate of one kernel or function
// (request `ptxls/registerReport`) in a webview beside the editor — the figures, what limits the
// occupancy, and the server's plot of live registers along the function.
//
// The server's code lenses ("≈ 41 registers (35–49) · 62% occupancy on sm_90") run this command with the
// document's URI and the function's name; from the palette or the context menu it takes the
// function at the cursor.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { LanguageClient } from 'vscode-languageclient/node';

export const REGISTER_REPORT_REQUEST = 'ptxls/registerReport';
const VIEW_TYPE = 'ptxls.registerReport';
// Typing in the document asks for a new report once the typing pauses this long.
const REFRESH_DELAY_MS = 500;

interface Position { line: number; character: number }
interface Range { start: Position; end: Position }

export interface ReportOccupancy {
  target: string;
  threadsPerBlock: number;
  threadsAssumed: boolean;
  sharedBytes: number;
  blocksPerSm: number;
  activeWarpsPerSm: number;
  maxWarpsPerSm: number;
  fraction: number;
  limitedBy: string;
  fewerRegistersForMoreBlocks: number;
  blocksWithFewerRegisters: number;
}

export interface FunctionReport {
  name: string;
  kind: 'entry' | 'func';
  range: Range;
  registers: number;
  maxLive: number;
  spills: number;
  budget: number;
  budgetReason: string;
  peak: { range: Range; live: string[] };
  occupancy: ReportOccupancy | null;
  confidence: string;
  summary: string;
  svg: string;
}

export interface RegisterReport {
  uri: string;
  target: string;
  at: number | null;
  functions: FunctionReport[];
}

type ClientGetter = () => LanguageClient | undefined;

function errorText(error: unknown): string {
  // MethodNotFound: a ptxls from before the register report.
  if (error && typeof error === 'object' && (error as { code?: unknown }).code === -32601) {
    return `this ptxls does not offer ${REGISTER_REPORT_REQUEST}; a newer server is needed`;
  }
  return error instanceof Error ? error.message : String(error);
}

// `_Z6vecAddPfS_S_i` → `vecAdd`, `_ZN4gemm6kernelEv` → `kernel`: enough of a mangled name for a
// tab title. Other names are kept, shortened when long.
export function shortName(name: string): string {
  let short = name;
  const mangled = /^_Z(N?)(.*)$/.exec(name);
  if (mangled) {
    let rest = mangled[2];
    const parts: string[] = [];
    for (;;) {
      const m = /^(?:[rVK]*)(\d+)/.exec(rest);
      if (!m) break;
      const length = Number(m[1]);
      const start = m[0].length;
      if (length <= 0 || start + length > rest.length) break;
      parts.push(rest.slice(start, start + length));
      rest = rest.slice(start + length);
      if (!mangled[1]) break;  // Not nested: one name.
    }
    if (parts.length > 0) short = parts[parts.length - 1];
  }
  return short.length > 40 ? `${short.slice(0, 39)}…` : short;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

// The plot styles itself for light and dark with `prefers-color-scheme`, which in a webview
// follows the operating system rather than VS Code's theme: keep the rules that match the theme.
export function themedSvg(svg: string, dark: boolean): string {
  const media = /@media\s*\(\s*prefers-color-scheme\s*:\s*dark\s*\)\s*\{/.exec(svg);
  if (!media) return svg;
  const open = media.index + media[0].length;
  let depth = 1;
  let i = open;
  for (; i < svg.length && depth > 0; ++i) {
    if (svg[i] === '{') depth += 1;
    else if (svg[i] === '}') depth -= 1;
  }
  if (depth !== 0) return svg;
  return svg.slice(0, media.index) + (dark ? svg.slice(open, i - 1) : '') + svg.slice(i);
}

function isDarkTheme(): boolean {
  const kind = vscode.window.activeColorTheme.kind;
  return kind === vscode.ColorThemeKind.Dark || kind === vscode.ColorThemeKind.HighContrast;
}

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

// As the server writes it (printf's %.0f: halves to even), so the table agrees with the summary.
export function percent(fraction: number): string {
  const exact = 100 * fraction;
  let rounded = Math.round(exact);
  if (Math.abs(exact - Math.floor(exact) - 0.5) < 1e-9 && rounded % 2 !== 0) rounded -= 1;
  return `${rounded}%`;
}

// The registers live at the peak: the first few, the rest folded away.
function liveNames(names: string[]): string {
  const code = (list: string[]) => list.map((name) => `<code>${escapeHtml(name)}</code>`).join(' ');
  if (names.length <= 12) return `<div class="live">${code(names)}</div>`;
  return `<div class="live">${code(names.slice(0, 10))} <details><summary>and ${names.length - 10} more</summary>`
    + `${code(names.slice(10))}</details></div>`;
}

// The table rows of one function: [label, HTML].
export function reportRows(f: FunctionReport, index: number): [string, string][] {
  const rows: [string, string][] = [];
  rows.push(['Registers', `≈ ${f.registers} per thread <span class="muted">(estimated from the PTX, as <code>ptxas -v</code> would report them)</span>`]);
  const peakLine = f.peak.range.start.line + 1;
  rows.push(['Peak', `${plural(f.maxLive, '32-bit register')} live at `
    + `<a href="#" class="reveal" data-action="revealPeak" data-index="${index}" title="Show this instruction in the editor">line ${peakLine}</a>`
    + (f.peak.live.length > 0 ? liveNames(f.peak.live) : '')]);
  rows.push(['Budget', `${f.budget} <span class="muted">(${escapeHtml(f.budgetReason)})</span>`]);
  rows.push(['Spills', f.spills > 0
    ? `<span class="bad">${plural(f.spills, '32-bit register')} over the budget would spill to local memory</span>`
    : 'none expected']);
  const o = f.occupancy;
  if (o) {
    const threads = `${o.threadsPerBlock} threads per block${o.threadsAssumed ? ' (assumed: no <code>.maxntid</code> or <code>.reqntid</code>)' : ''}`;
    const shared = o.sharedBytes > 0 ? `, ${o.sharedBytes} bytes of static shared memory` : '';
    let text = `<strong>${percent(o.fraction)}</strong> on ${escapeHtml(o.target)}: `
      + `${plural(o.blocksPerSm, 'block')} per SM, ${o.activeWarpsPerSm} of ${o.maxWarpsPerSm} warps `
      + `<span class="muted">(${threads}${shared})</span>; limited by <strong>${escapeHtml(o.limitedBy)}</strong>`;
    if (o.fewerRegistersForMoreBlocks > 0 && o.blocksWithFewerRegisters > o.blocksPerSm) {
      const warpsPerBlock = o.blocksPerSm > 0 ? o.activeWarpsPerSm / o.blocksPerSm : Math.ceil(o.threadsPerBlock / 32);
      const more = Math.min(1, (o.blocksWithFewerRegisters * warpsPerBlock) / o.maxWarpsPerSm);
      text += `<div class="cliff">At ${o.fewerRegistersForMoreBlocks} registers, ${plural(o.blocksWithFewerRegisters, 'block')} would fit `
        + `(${percent(more)} occupancy).</div>`;
    }
    rows.push(['Occupancy', text]);
  } else {
    rows.push(['Occupancy', `<span class="muted">${f.kind === 'func'
      ? 'not computed: a .func runs inside the kernels that call it'
      : 'not computed: no known target (a .target directive or the ptxls.target setting)'}</span>`]);
  }
  rows.push(['Confidence', escapeHtml(f.confidence)]);
  return rows;
}

export interface PageState {
  report: RegisterReport | undefined;
  selected: number;
  fileName: string;
  // A problem to show above the report (a refresh that failed) or instead of it.
  problem?: string;
}

export function reportHtml(state: PageState, nonce: string, dark: boolean): string {
  const csp = [
    "default-src 'none'",
    "style-src 'unsafe-inline'",
    'img-src data:',
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
  const body: string[] = [];
  const { report } = state;
  const f = report?.functions[state.selected];
  if (state.problem) body.push(`<div class="problem" role="alert">${escapeHtml(state.problem)}</div>`);
  if (report && report.functions.length > 1) {
    body.push('<nav aria-label="Functions">');
    report.functions.forEach((g, i) => {
      body.push(`<a href="#" class="fn${i === state.selected ? ' selected' : ''}" data-action="select" data-index="${i}"`
        + `${i === state.selected ? ' aria-current="true"' : ''}>${g.kind === 'entry' ? '.entry' : '.func'} ${escapeHtml(shortName(g.name))}</a>`);
    });
    body.push('</nav>');
  }
  if (f) {
    body.push(`<h1><a href="#" class="reveal" data-action="revealFunction" data-index="${state.selected}" title="Show it in the editor">`
      + `${escapeHtml(f.name)}</a> <span class="muted">${f.kind === 'entry' ? '.entry' : '.func'} · ${escapeHtml(state.fileName)}</span></h1>`);
    body.push(`<p class="summary" id="summary">${escapeHtml(f.summary)}</p>`);
    body.push('<table class="figures">');
    for (const [label, html] of reportRows(f, state.selected)) body.push(`<tr><th scope="row">${label}</th><td>${html}</td></tr>`);
    body.push('</table>');
    body.push(`<div class="plot">${themedSvg(f.svg, dark)}</div>`);
    body.push('<p class="muted note">Hover the plot for each instruction’s line and live count. Loops are shaded; '
      + 'the figures are estimates from the PTX: ptxas’s own allocation and scheduling differ.</p>');
  }
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>Registers</title>
<style>
body { padding: 0 16px 16px; line-height: 1.45; }
h1 { font-size: 1.25em; font-weight: 600; margin: 14px 0 2px; word-break: break-all; }
h1 a { color: inherit; text-decoration: none; }
h1 a:hover { text-decoration: underline; }
.muted { color: var(--vscode-descriptionForeground); font-weight: normal; }
.summary { font-size: 1.1em; margin: 4px 0 12px; }
.problem { margin: 12px 0; padding: 8px 10px; border-left: 3px solid var(--vscode-inputValidation-errorBorder, #be1100);
  background: var(--vscode-inputValidation-errorBackground, transparent); }
nav { display: flex; flex-wrap: wrap; gap: 4px 12px; margin-top: 12px; }
nav a.selected { font-weight: 600; color: var(--vscode-foreground); }
a { color: var(--vscode-textLink-foreground); }
a:focus { outline: 1px solid var(--vscode-focusBorder); outline-offset: 1px; }
table.figures { border-collapse: collapse; margin-bottom: 14px; }
table.figures th { text-align: left; vertical-align: top; padding: 3px 16px 3px 0; white-space: nowrap; font-weight: 600; }
table.figures td { padding: 3px 0; vertical-align: top; }
table.figures tr + tr th, table.figures tr + tr td { border-top: 1px solid var(--vscode-editorWidget-border, rgba(128,128,128,.25)); }
code { font-family: var(--vscode-editor-font-family); font-size: 0.95em; }
.live { margin-top: 2px; }
.live code { margin-right: 0.3em; }
.live details { display: inline; }
.live details[open] { display: block; }
.live summary { display: inline; cursor: pointer; color: var(--vscode-textLink-foreground); }
.cliff { margin-top: 2px; }
.bad { color: var(--vscode-errorForeground); }
.plot svg { display: block; width: 100%; max-width: 1100px; height: auto; border: 1px solid var(--vscode-editorWidget-border, rgba(128,128,128,.35)); }
body .ptxls-plot .bg { fill: var(--vscode-editor-background); }
.note { font-size: 0.9em; }
</style>
</head>
<body>
${body.join('\n')}
<script nonce="${nonce}">
const vscode = acquireVsCodeApi();
document.addEventListener('click', (event) => {
  const target = event.target instanceof Element ? event.target.closest('[data-action]') : null;
  if (!target) return;
  event.preventDefault();
  vscode.postMessage({ type: target.getAttribute('data-action'), index: Number(target.getAttribute('data-index')) });
});
// The page is rebuilt whenever the report is: keep the reader's place and the unfolded list.
const state = vscode.getState() || {};
const details = document.querySelector('.live details');
if (details && state.liveOpen) details.open = true;
if (state.scrollY) window.scrollTo(0, state.scrollY);
details?.addEventListener('toggle', () => vscode.setState({ ...(vscode.getState() || {}), liveOpen: details.open }));
let pending;
window.addEventListener('scroll', () => {
  clearTimeout(pending);
  pending = setTimeout(() => vscode.setState({ ...(vscode.getState() || {}), scrollY: window.scrollY }), 100);
});
</script>
</body>
</html>`;
}

function fileNameOf(uri: vscode.Uri): string {
  return uri.path.split('/').pop() || uri.toString(true);
}

// The one report panel: it follows a document and a function in it.
class ReportPanel implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private report: RegisterReport | undefined;
  private selected = 0;
  private functionName: string;
  private problem: string | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stale = false;
  private generation = 0;

  constructor(
    readonly panel: vscode.WebviewPanel,
    private document: vscode.Uri,
    private sourceColumn: vscode.ViewColumn | undefined,
    private readonly getClient: ClientGetter,
    report: RegisterReport,
    selected: number,
    private readonly onDispose: () => void,
  ) {
    this.functionName = report.functions[selected].name;
    this.disposables.push(
      panel.onDidDispose(() => this.dispose()),
      panel.webview.onDidReceiveMessage((message) => this.onMessage(message)),
      panel.onDidChangeViewState(() => { if (panel.visible && this.stale) this.refreshSoon(0); }),
      vscode.workspace.onDidChangeTextDocument((event) => {
        if (event.contentChanges.length === 0 || event.document.uri.toString() !== this.document.toString()) return;
        this.refreshSoon(REFRESH_DELAY_MS);
      }),
      vscode.window.onDidChangeActiveColorTheme(() => this.render()),
    );
    this.show(report, selected);
  }

  get uri(): vscode.Uri {
    return this.document;
  }

  // A new report from the command: another document or function, or the same one again.
  show(report: RegisterReport, selected: number, document?: vscode.Uri, sourceColumn?: vscode.ViewColumn): void {
    if (document) this.document = document;
    if (sourceColumn !== undefined) this.sourceColumn = sourceColumn;
    ++this.generation;  // A refresh still under way would bring back the previous choice.
    this.report = report;
    this.selected = selected;
    this.functionName = report.functions[selected].name;
    this.problem = undefined;
    this.stale = false;
    this.render();
  }

  // The document changed (or the server's settings did): ask again, soon, while the panel is seen.
  refreshSoon(delay: number): void {
    clearTimeout(this.timer);
    if (!this.panel.visible) {
      this.stale = true;
      return;
    }
    this.timer = setTimeout(() => void this.refresh(), delay);
  }

  private async refresh(): Promise<void> {
    this.stale = false;
    const generation = ++this.generation;
    const client = this.getClient();
    let report: RegisterReport | undefined;
    let problem: string | undefined;
    if (!client || !client.isRunning()) {
      problem = 'The ptxls language server is not running, so this report is not up to date. Restart it with "PTX: Restart Language Server".';
    } else {
      try {
        report = await client.sendRequest<RegisterReport>(REGISTER_REPORT_REQUEST, {
          textDocument: { uri: client.code2ProtocolConverter.asUri(this.document) },
        });
      } catch (error) {
        problem = `The register report could not be brought up to date: ${errorText(error)}`;
      }
    }
    if (generation !== this.generation) return;
    if (report) {
      if (report.functions.length === 0) {
        problem = `${fileNameOf(this.document)} has no kernel or function to report on at the moment; `
          + 'the report needs a file that parses (fix its syntax errors first).';
        this.report = undefined;
      } else {
        const index = report.functions.findIndex((f) => f.name === this.functionName);
        if (index < 0) {
          problem = `${this.functionName} is no longer in ${fileNameOf(this.document)}; showing ${report.functions[0].name}.`;
          this.selected = 0;
          this.functionName = report.functions[0].name;
        } else {
          this.selected = index;
        }
        this.report = report;
      }
    }
    this.problem = problem;
    this.render();
  }

  private render(): void {
    const f = this.report?.functions[this.selected];
    this.panel.title = `Registers: ${shortName(f?.name ?? this.functionName)}`;
    const nonce = randomBytes(16).toString('base64');
    this.panel.webview.html = reportHtml(
      { report: this.report, selected: this.selected, fileName: fileNameOf(this.document), problem: this.problem },
      nonce, isDarkTheme());
  }

  private onMessage(message: unknown): void {
    if (!message || typeof message !== 'object') return;
    const { type, index } = message as { type?: unknown; index?: unknown };
    const f = typeof index === 'number' ? this.report?.functions[index] : undefined;
    if (!f) return;
    if (type === 'select') {
      this.selected = index as number;
      this.functionName = f.name;
      this.problem = undefined;
      this.render();
    } else if (type === 'revealPeak') {
      void this.reveal(f.peak.range);
    } else if (type === 'revealFunction') {
      void this.reveal(f.range);
    }
  }

  // Shows a range of the report's document: in the editor that already shows it, else in the
  // column the report was opened from.
  private async reveal(range: Range): Promise<void> {
    const target = new vscode.Range(range.start.line, range.start.character, range.end.line, range.end.character);
    const editor = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === this.document.toString());
    let column = editor?.viewColumn ?? this.sourceColumn ?? vscode.ViewColumn.One;
    if (!editor && column === this.panel.viewColumn) column = vscode.ViewColumn.Beside;
    try {
      const document = editor?.document ?? await vscode.workspace.openTextDocument(this.document);
      const shown = await vscode.window.showTextDocument(document, {
        viewColumn: column, selection: target, preserveFocus: false, preview: editor === undefined,
      });
      shown.revealRange(target, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    } catch (error) {
      void vscode.window.showErrorMessage(`ptxls: could not open ${fileNameOf(this.document)}: ${errorText(error)}`);
    }
  }

  dispose(): void {
    clearTimeout(this.timer);
    ++this.generation;
    for (const d of this.disposables) d.dispose();
    this.disposables.length = 0;
    this.onDispose();
  }
}

export class RegisterReports implements vscode.Disposable {
  private current: ReportPanel | undefined;

  constructor(private readonly getClient: ClientGetter) {}

  // The server's settings changed (a target, say): the open report is out of date.
  settingsChanged(): void {
    this.current?.refreshSoon(0);
  }

  // The command: `ptxls.showRegisterReport [uri, functionName]` from a code lens, `[Uri]` from the
  // editor's context menu, `[]` from the palette.
  async command(...args: unknown[]): Promise<void> {
    const client = this.getClient();
    if (!client || !client.isRunning()) {
      const restart = 'Restart Server';
      const choice = await vscode.window.showWarningMessage(
        'The ptxls language server is not running; it computes the register report.', restart);
      if (choice === restart) await vscode.commands.executeCommand('ptxls.restartServer');
      return;
    }
    let document: vscode.Uri | undefined;
    let name: string | undefined;
    if (typeof args[0] === 'string') {
      document = client.protocol2CodeConverter.asUri(args[0]);
      if (typeof args[1] === 'string') name = args[1];
    } else if (args[0] instanceof vscode.Uri) {
      document = args[0];
    }
    const editor = vscode.window.activeTextEditor;
    if (document === undefined) {
      const ptxEditor = editor?.document.languageId === 'ptx'
        ? editor
        : vscode.window.visibleTextEditors.find((e) => e.document.languageId === 'ptx');
      if (!ptxEditor) {
        void vscode.window.showInformationMessage('Open a PTX file to see the register report of its kernels and functions.');
        return;
      }
      document = ptxEditor.document.uri;
    }
    const cursor = name === undefined && editor && editor.document.uri.toString() === document.toString()
      ? editor.selection.active : undefined;

    let report: RegisterReport;
    try {
      report = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Window, title: 'ptxls: register report' },
        () => client.sendRequest<RegisterReport>(REGISTER_REPORT_REQUEST, {
          textDocument: { uri: client.code2ProtocolConverter.asUri(document) },
          ...(cursor ? { position: { line: cursor.line, character: cursor.character } } : {}),
        }),
      );
    } catch (error) {
      void vscode.window.showErrorMessage(`ptxls: the register report of ${fileNameOf(document)} failed: ${errorText(error)}`);
      return;
    }
    if (!report || !Array.isArray(report.functions) || report.functions.length === 0) {
      const errors = vscode.languages.getDiagnostics(document)
        .filter((d) => d.source === 'ptxls' && d.severity === vscode.DiagnosticSeverity.Error).length;
      void vscode.window.showInformationMessage(errors > 0
        ? `ptxls: no register report for ${fileNameOf(document)}: it has ${plural(errors, 'error')}; the report needs a file that parses.`
        : `ptxls: ${fileNameOf(document)} has no kernel or function with a body to report on.`);
      return;
    }

    let selected: number | undefined;
    if (name !== undefined) {
      selected = report.functions.findIndex((f) => f.name === name);
      if (selected < 0) selected = undefined;  // Renamed since the lens was drawn: ask.
    } else if (typeof report.at === 'number' && report.functions[report.at]) {
      selected = report.at;
    }
    if (selected === undefined && report.functions.length === 1) selected = 0;
    if (selected === undefined) {
      const picked = await vscode.window.showQuickPick(
        report.functions.map((f, index) => ({
          label: `${f.kind === 'entry' ? '$(symbol-event)' : '$(symbol-function)'} ${f.name}`,
          description: f.summary,
          index,
        })),
        { title: `Register report: ${fileNameOf(document)}`, placeHolder: 'Which kernel or function?' },
      );
      if (!picked) return;
      selected = picked.index;
    }

    const sourceColumn = editor && editor.document.uri.toString() === document.toString() ? editor.viewColumn : undefined;
    if (this.current) {
      this.current.show(report, selected, document, sourceColumn);
      this.current.panel.reveal(undefined, true);
      return;
    }
    const panel = vscode.window.createWebviewPanel(
      VIEW_TYPE,
      `Registers: ${shortName(report.functions[selected].name)}`,
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
      // Scripts: only the page's own nonce'd handler of the links (see reportHtml's CSP).
      { enableScripts: true, enableCommandUris: false, enableFindWidget: true, localResourceRoots: [] },
    );
    this.current = new ReportPanel(panel, document, sourceColumn, this.getClient, report, selected, () => {
      if (this.current?.panel === panel) this.current = undefined;
    });
  }

  dispose(): void {
    this.current?.panel.dispose();
  }
}
