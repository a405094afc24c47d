// `ptxls.formatOnSave`: formats PTX documents through the server as they are saved, without the
// user having to turn on VS Code's editor-wide `editor.formatOnSave`.
import * as vscode from 'vscode';
import { setting } from './settings';

// A save must not hang on a busy or stuck server; the document is then saved unformatted.
const FORMAT_TIMEOUT_MS = 3000;

function formattingOptions(document: vscode.TextDocument): vscode.FormattingOptions {
  const editor = vscode.window.visibleTextEditors.find((e) => e.document === document);
  const config = vscode.workspace.getConfiguration('editor', document);
  return {
    tabSize: typeof editor?.options.tabSize === 'number' ? editor.options.tabSize : config.get<number>('tabSize', 4),
    insertSpaces: typeof editor?.options.insertSpaces === 'boolean' ? editor.options.insertSpaces : config.get<boolean>('insertSpaces', true),
  };
}

async function formatEdits(document: vscode.TextDocument, log: vscode.LogOutputChannel): Promise<vscode.TextEdit[]> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => { timer = setTimeout(() => resolve(undefined), FORMAT_TIMEOUT_MS); });
  try {
    const edits = await Promise.race([
      vscode.commands.executeCommand<vscode.TextEdit[] | undefined>('vscode.executeFormatDocumentProvider', document.uri, formattingOptions(document)),
      timeout,
    ]);
    if (edits === undefined) log.warn(`Format on save: no answer for ${document.uri.toString(true)} within ${FORMAT_TIMEOUT_MS} ms; saved as is.`);
    return edits ?? [];
  } catch (error) {
    log.warn(`Format on save failed for ${document.uri.toString(true)}: ${error instanceof Error ? error.message : String(error)}`);
    return [];
  } finally {
    clearTimeout(timer);
  }
}

export function registerFormatOnSave(log: vscode.LogOutputChannel): vscode.Disposable {
  return vscode.workspace.onWillSaveTextDocument((event) => {
    const document = event.document;
    if (document.languageId !== 'ptx') return;
    // Like VS Code's own format on save: not while auto-save writes in the middle of typing.
    if (event.reason === vscode.TextDocumentSaveReason.AfterDelay) return;
    if (setting<boolean>('formatOnSave', document) !== true) return;
    // VS Code formats by itself then; a second pass would only cost time.
    if (vscode.workspace.getConfiguration('editor', document).get<boolean>('formatOnSave', false)) return;
    event.waitUntil(formatEdits(document, log));
  });
}
