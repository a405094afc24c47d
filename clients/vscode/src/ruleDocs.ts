// "Explain rule" and "open rule documentation": the rule of the ptxls diagnostic under the cursor,
// documented by the server (workspace/executeCommand `ptxls.server.explainRule`).
import * as vscode from 'vscode';
import { ExecuteCommandRequest, LanguageClient } from 'vscode-languageclient/node';

// The server's command. vscode-languageclient registers it as a VS Code command of the same name
// when the server advertises it, so the extension must never register it itself.
export const SERVER_EXPLAIN_COMMAND = 'ptxls.server.explainRule';
export const RULE_SCHEME = 'ptxls-rule';

export interface RuleExplanation {
  code: string;
  name: string;
  category: string;
  severity: string;
  summary: string;
  documentation: string;
  href: string;
}

export function diagnosticCode(diagnostic: vscode.Diagnostic): string | undefined {
  const code = diagnostic.code;
  if (code === undefined || code === null) return undefined;
  if (typeof code === 'string' || typeof code === 'number') return String(code);
  return String(code.value);
}

function ptxlsDiagnostics(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'ptxls' && diagnosticCode(d) !== undefined);
}

// The rule codes of the diagnostics at the cursor, else on its line; distinct, in order.
function codesAt(editor: vscode.TextEditor): { code: string; message: string }[] {
  const all = ptxlsDiagnostics(editor.document.uri);
  const position = editor.selection.active;
  let here = all.filter((d) => d.range.contains(position));
  if (here.length === 0) here = all.filter((d) => d.range.start.line <= position.line && position.line <= d.range.end.line);
  const seen = new Set<string>();
  const result: { code: string; message: string }[] = [];
  for (const diagnostic of here) {
    const code = diagnosticCode(diagnostic)!;
    if (seen.has(code)) continue;
    seen.add(code);
    result.push({ code, message: diagnostic.message });
  }
  return result;
}

const ENTER_CODE = '$(edit) Enter a rule code or name…';

async function askForRule(editor: vscode.TextEditor | undefined, action: string): Promise<string | undefined> {
  const here = editor ? codesAt(editor) : [];
  if (here.length === 1) return here[0].code;
  if (here.length > 1) {
    const picked = await vscode.window.showQuickPick(
      here.map((h) => ({ label: h.code, detail: h.message })),
      { title: `${action}: several ptxls diagnostics here`, placeHolder: 'Which rule?' },
    );
    return picked?.label;
  }
  // Nothing under the cursor: offer the rules reported elsewhere in the file, or a name.
  const elsewhere = editor ? ptxlsDiagnostics(editor.document.uri) : [];
  const counts = new Map<string, { count: number; message: string }>();
  for (const d of elsewhere) {
    const code = diagnosticCode(d)!;
    const entry = counts.get(code);
    if (entry) entry.count += 1;
    else counts.set(code, { count: 1, message: d.message });
  }
  let typed = true;
  if (counts.size > 0) {
    const items = [...counts].map(([code, { count, message }]) => ({
      label: code, description: `${count} in this file`, detail: message,
    }));
    const picked = await vscode.window.showQuickPick([...items, { label: ENTER_CODE, description: '', detail: undefined }], {
      title: `${action}: no ptxls diagnostic under the cursor`,
      placeHolder: 'Pick a rule reported in this file, or enter one',
    });
    if (picked === undefined) return undefined;
    typed = picked.label === ENTER_CODE;
    if (!typed) return picked.label;
  }
  const entered = await vscode.window.showInputBox({
    title: `${action}: ${counts.size === 0 ? 'no ptxls diagnostic under the cursor' : 'which rule?'}`,
    prompt: 'A rule code such as ISA004, or a name such as unknown-modifier',
    validateInput: (value) => (/^\s*[A-Za-z][\w-]*\s*$/.test(value) ? undefined : 'A rule code or name'),
  });
  return entered?.trim() || undefined;
}

async function explain(client: LanguageClient | undefined, code: string): Promise<RuleExplanation | undefined> {
  if (!client || !client.isRunning()) {
    void vscode.window.showWarningMessage('The ptxls language server is not running; it documents the rules.');
    return undefined;
  }
  try {
    return (await client.sendRequest(ExecuteCommandRequest.type, {
      command: SERVER_EXPLAIN_COMMAND,
      arguments: [code],
    })) as RuleExplanation;
  } catch (error) {
    void vscode.window.showErrorMessage(`ptxls could not explain '${code}': ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
}

// The server's rule documentation is plain text written as a source comment: an example block
// indented under "Example:" would read as part of the paragraph in Markdown, so a blank line is
// put before each indented block that directly follows text. Fenced blocks are left alone.
export function documentationAsMarkdown(text: string): string {
  const out: string[] = [];
  let fenced = false;
  for (const line of text.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const previous = out.length > 0 ? out[out.length - 1] : '';
    if (!fenced && /^( {4}|\t)/.test(line) && previous.trim() !== '' && !/^( {4}|\t)/.test(previous)) out.push('');
    out.push(line);
  }
  return out.join('\n');
}

export function explanationMarkdown(rule: RuleExplanation): string {
  const body = documentationAsMarkdown(rule.documentation ?? '').trim();
  return [
    `# ${rule.code} ${rule.name}`,
    '',
    `Category: \`${rule.category}\` · default severity: \`${rule.severity}\``,
    '',
    `> ${rule.summary}`,
    '',
    body,
    '',
    `[Online documentation](${rule.href})`,
    '',
  ].join('\n');
}

// Read-only documents `ptxls-rule:/CODE.md` holding the explanations shown so far.
export class RuleDocumentProvider implements vscode.TextDocumentContentProvider {
  private readonly pages = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  static uriFor(code: string): vscode.Uri {
    return vscode.Uri.from({ scheme: RULE_SCHEME, path: `/${code}.md` });
  }

  set(code: string, markdown: string): vscode.Uri {
    const uri = RuleDocumentProvider.uriFor(code);
    const before = this.pages.get(uri.path);
    this.pages.set(uri.path, markdown);
    if (before !== undefined && before !== markdown) this.changed.fire(uri);
    return uri;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.pages.get(uri.path) ?? `# ${uri.path.replace(/^\/|\.md$/g, '')}\n\nRun "PTX: Explain Rule Under Cursor" to load this rule.\n`;
  }

  dispose(): void {
    this.changed.dispose();
  }
}

async function show(uri: vscode.Uri): Promise<void> {
  // The built-in Markdown extension renders it; where it is disabled the page opens as text.
  // (Its command is not listed by getCommands before that extension activates, so just try it:
  // executing it activates the extension.)
  try {
    await vscode.commands.executeCommand('markdown.showPreviewToSide', uri);
    return;
  } catch {
    // No Markdown preview here.
  }
  const document = await vscode.workspace.openTextDocument(uri);
  await vscode.languages.setTextDocumentLanguage(document, 'markdown');
  await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.Beside, preview: true, preserveFocus: true });
}

export async function explainRuleCommand(client: LanguageClient | undefined, provider: RuleDocumentProvider): Promise<void> {
  const code = await askForRule(vscode.window.activeTextEditor, 'Explain rule');
  if (code === undefined) return;
  const rule = await explain(client, code);
  if (rule === undefined) return;
  await show(provider.set(rule.code, explanationMarkdown(rule)));
}

export async function openRuleDocsCommand(client: LanguageClient | undefined): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  const code = await askForRule(editor, 'Open rule documentation');
  if (code === undefined) return;
  // A diagnostic already carries its rule's link (LSP codeDescription); the server is asked only
  // for a rule that is not reported in this file.
  const reported = editor ? ptxlsDiagnostics(editor.document.uri).find((d) => diagnosticCode(d) === code) : undefined;
  let href: vscode.Uri | undefined;
  if (reported && typeof reported.code === 'object' && reported.code.target) href = reported.code.target;
  if (href === undefined) {
    const rule = await explain(client, code);
    if (rule === undefined) return;
    href = vscode.Uri.parse(rule.href);
  }
  if (!(await vscode.env.openExternal(href))) {
    void vscode.window.showWarningMessage(`Could not open ${href.toString(true)}`);
  }
}
