// The status bar item shown with PTX and CUDA editors: the server's state and the active module's
// target (for a CUDA source, the architectures of its device passes when they are set).
import * as vscode from 'vscode';
import { isCudaDocument } from './cuda';
import { effectiveCudaArch, effectiveTarget, EffectiveTarget } from './target';

export type ServerState = 'starting' | 'running' | 'stopped' | 'failed';

export const STATUS_MENU_COMMAND = 'ptxls.statusMenu';

const ICONS: Record<ServerState, string> = {
  starting: '$(loading~spin)',
  running: '$(check)',
  stopped: '$(circle-slash)',
  failed: '$(error)',
};

export class StatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private readonly disposables: vscode.Disposable[] = [];
  private state: ServerState = 'stopped';
  private detail = '';
  private server = '';
  private target: EffectiveTarget | undefined;
  // Target lookups are asynchronous (they read .ptxls.json); only the latest one may land.
  private generation = 0;
  private typingTimer: NodeJS.Timeout | undefined;

  constructor() {
    this.item = vscode.window.createStatusBarItem('ptxls.status', vscode.StatusBarAlignment.Left, 10);
    this.item.name = 'ptxls';
    this.item.command = STATUS_MENU_COMMAND;
    const watcher = vscode.workspace.createFileSystemWatcher('**/.ptxls.json');
    this.disposables.push(
      this.item,
      watcher,
      watcher.onDidChange(() => this.refreshTarget()),
      watcher.onDidCreate(() => this.refreshTarget()),
      watcher.onDidDelete(() => this.refreshTarget()),
      vscode.window.onDidChangeActiveTextEditor(() => this.refreshTarget()),
      vscode.workspace.onDidSaveTextDocument((d) => { if (d.fileName.endsWith('.ptxls.json')) this.refreshTarget(); }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('ptxls.target') || e.affectsConfiguration('ptxls.cuda.arch')) this.refreshTarget();
      }),
      vscode.workspace.onDidChangeTextDocument((e) => {
        // The `.target` line is rarely edited, but when it is the item should follow; waiting for a
        // pause in typing keeps this off the keystroke path.
        if (e.document !== vscode.window.activeTextEditor?.document || e.document.languageId !== 'ptx') return;
        clearTimeout(this.typingTimer);
        this.typingTimer = setTimeout(() => this.refreshTarget(), 300);
      }),
    );
    this.refreshTarget();
  }

  setState(state: ServerState, detail = ''): void {
    this.state = state;
    this.detail = detail;
    this.render();
  }

  setServer(description: string): void {
    this.server = description;
    this.render();
  }

  get current(): ServerState {
    return this.state;
  }

  refreshTarget(): void {
    const editor = vscode.window.activeTextEditor;
    const generation = ++this.generation;
    if (!editor || !shownFor(editor.document)) {
      this.target = undefined;
      this.render();
      return;
    }
    (editor.document.languageId === 'ptx' ? effectiveTarget(editor.document) : effectiveCudaArch(editor.document)).then(
      (target) => {
        if (generation !== this.generation) return;
        this.target = target;
        this.render();
      },
      () => undefined,
    );
  }

  private render(): void {
    const editor = vscode.window.activeTextEditor;
    if (!editor || !shownFor(editor.document)) {
      this.item.hide();
      return;
    }
    const target = this.target?.target;
    this.item.text = `${ICONS[this.state]} ptxls${target ? ` ${target}` : ''}`;
    this.item.backgroundColor = this.state === 'failed' ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
    const tooltip = new vscode.MarkdownString(undefined, true);
    tooltip.appendMarkdown(`**ptxls**: ${this.state}`);
    if (this.detail) tooltip.appendMarkdown(` — ${escape(this.detail)}`);
    if (this.server) tooltip.appendMarkdown(`\n\n${escape(this.server)}`);
    if (this.target?.cuda) {
      tooltip.appendMarkdown(this.target.target
        ? `\n\nInline PTX checked for \`${this.target.target}\`, from ${escape(this.target.origin)}`
        : `\n\nInline PTX checked for the architectures of ${escape(this.target.origin)}`);
    } else if (this.target) {
      tooltip.appendMarkdown(this.target.target
        ? `\n\nTarget \`${this.target.target}\`, from ${escape(this.target.origin)}`
        : `\n\nNo target: ${escape(this.target.origin)}`);
    }
    tooltip.appendMarkdown(`\n\nClick for the log, a restart or the settings.`);
    this.item.tooltip = tooltip;
    // Screen readers would otherwise read the tooltip's Markdown source.
    this.item.accessibilityInformation = {
      label: `ptxls ${this.state}${target ? `, target ${target}` : ''}`,
      role: 'button',
    };
    this.item.show();
  }

  dispose(): void {
    clearTimeout(this.typingTimer);
    for (const d of this.disposables) d.dispose();
  }
}

function shownFor(document: vscode.TextDocument): boolean {
  return document.languageId === 'ptx' || isCudaDocument(document);
}

function escape(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
}
