// "PTX: Toggle Live Register Hints" (`ptxls.inlayHints.liveRegisters`: the server's "N live" inlay
// hint after each instruction), and bringing the server's inlay hints and code lenses up to date
// when its settings change: the server does not send `workspace/inlayHint/refresh` or
// `workspace/codeLens/refresh` then, so VS Code would go on showing the old ones until an edit.
import * as vscode from 'vscode';
import { CodeLensRequest, InlayHintRequest, LanguageClient } from 'vscode-languageclient/node';
import { toggleSetting } from './settings';

export async function toggleLiveRegisterHints(): Promise<void> {
  let on: boolean;
  try {
    on = await toggleSetting('inlayHints.liveRegisters');
  } catch (error) {
    void vscode.window.showErrorMessage(`ptxls: could not change 'ptxls.inlayHints.liveRegisters': ${error instanceof Error ? error.message : String(error)}`);
    return;
  }
  vscode.window.setStatusBarMessage(`ptxls: live register hints ${on ? 'on' : 'off'}`, 4000);
  if (!on) return;
  const active = vscode.window.activeTextEditor?.document;
  const scope = active?.languageId === 'ptx' ? active : { languageId: 'ptx' };
  if (vscode.workspace.getConfiguration('editor', scope).get<string>('inlayHints.enabled') === 'off') {
    const open = 'Open Setting';
    const choice = await vscode.window.showInformationMessage(
      "Live register hints are on, but the editor shows no inlay hints ('editor.inlayHints.enabled' is off).", open);
    if (choice === open) await vscode.commands.executeCommand('workbench.action.openSettings', 'editor.inlayHints.enabled');
  }
}

// Asks VS Code to request the inlay hints and code lenses of the open PTX documents again, as a
// server's refresh request would.
export function refreshHintsAndLenses(client: LanguageClient): void {
  const hints = client.getFeature(InlayHintRequest.method);
  const lenses = client.getFeature(CodeLensRequest.method);
  const emitters = new Set<vscode.EventEmitter<void>>();
  for (const document of vscode.workspace.textDocuments) {
    if (document.languageId !== 'ptx') continue;
    const hint = hints?.getProvider(document);
    if (hint) emitters.add(hint.onDidChangeInlayHints);
    const lens = lenses?.getProvider(document);
    if (lens) emitters.add(lens.onDidChangeCodeLensEmitter);
  }
  for (const emitter of emitters) emitter.fire();
}
