// The settings ptxls itself understands, read from the `ptxls` section of VS Code's settings.
//
// The server merges every key it receives and logs the ones it cannot use, and it starts each
// `workspace/configuration` answer from its `initializationOptions`. So the extension sends only
// server keys, never VS Code's declared defaults for options the user left unset (an empty target
// or a `null` format option would be reported as bad values), and an explicit `target: null` when
// no target is set, so that clearing the setting also clears a target given at start-up. For the
// same reason `cuda.arch` is always sent, empty when unset (the server's default passes then).
import * as vscode from 'vscode';

export const SECTION = 'ptxls';

export type RuleValue = string | boolean | { enabled?: boolean; severity?: string };

export interface ServerSettings {
  target: string | null;
  rules?: Record<string, RuleValue>;
  diagnostics?: { debounceMs?: number; maxFileMiB?: number };
  format?: { indentWidth?: number; useTabs?: boolean; maxBlankLines?: number };
  inlayHints?: { liveRegisters?: boolean };
  registers?: { verifyWithPtxas?: boolean };
  // The device passes of CUDA sources, as nvcc's -arch names (`sm_90a` is compute_90 and compute_90a).
  // exactMode: nvcc and ptxas on saved CUDA files (a user-only setting: machine scope).
  cuda: { arch: string[]; exactMode?: boolean };
}

// Every `ptxls.*` key the extension reads. All reads go through `setting()`, so the compiler holds
// the code to this list, and tests/clients/vscode-unit holds package.json to it: a key read here
// is declared there, and a key declared there is read here.
export const SETTING_KEYS = [
  'server.path',
  'server.args',
  'target',
  'rules',
  'diagnostics.debounceMs',
  'diagnostics.maxFileMiB',
  'format.indentWidth',
  'format.useTabs',
  'format.maxBlankLines',
  'formatOnSave',
  'inlayHints.liveRegisters',
  'registers.verifyWithPtxas',
  'cuda.arch',
  'cuda.exactMode',
  'trace.server',
] as const;

export type SettingKey = (typeof SETTING_KEYS)[number];

function section(scope?: vscode.ConfigurationScope | null): vscode.WorkspaceConfiguration {
  return vscode.workspace.getConfiguration(SECTION, scope);
}

export function setting<T>(key: SettingKey, scope?: vscode.ConfigurationScope | null): T | undefined {
  return section(scope).get<T>(key);
}

// Flips a boolean setting where it is set: in the workspace's settings when it has a value there,
// else in the user's. Returns the new value.
export async function toggleSetting(key: SettingKey): Promise<boolean> {
  const value = setting<boolean>(key) === true;
  const where = section().inspect<boolean>(key);
  const target = where?.workspaceValue !== undefined ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
  await section().update(key, !value, target);
  return !value;
}

function wholeNumber(value: unknown, min: number, max: number): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max ? value : undefined;
}

export function serverSettings(scope?: vscode.ConfigurationScope): ServerSettings {
  const result: ServerSettings = { target: null, cuda: { arch: cudaArchSetting(scope) } };
  const target = setting<string>('target', scope);
  if (typeof target === 'string' && target.trim() !== '') result.target = target.trim();

  const rules = setting<Record<string, RuleValue>>('rules', scope);
  if (rules && typeof rules === 'object' && Object.keys(rules).length > 0) result.rules = { ...rules };

  const diagnostics: NonNullable<ServerSettings['diagnostics']> = {};
  const debounceMs = wholeNumber(setting('diagnostics.debounceMs', scope), 0, 10000);
  if (debounceMs !== undefined) diagnostics.debounceMs = debounceMs;
  const maxFileMiB = wholeNumber(setting('diagnostics.maxFileMiB', scope), 1, 1024);
  if (maxFileMiB !== undefined) diagnostics.maxFileMiB = maxFileMiB;
  if (Object.keys(diagnostics).length > 0) result.diagnostics = diagnostics;

  // Unset format options leave the choice to the editor's own tab settings, which the server
  // receives with every formatting request.
  const format: NonNullable<ServerSettings['format']> = {};
  const indentWidth = wholeNumber(setting('format.indentWidth', scope), 0, 16);
  if (indentWidth !== undefined) format.indentWidth = indentWidth;
  const useTabs = setting('format.useTabs', scope);
  if (typeof useTabs === 'boolean') format.useTabs = useTabs;
  const maxBlankLines = wholeNumber(setting('format.maxBlankLines', scope), 0, 1000);
  if (maxBlankLines !== undefined) format.maxBlankLines = maxBlankLines;
  if (Object.keys(format).length > 0) result.format = format;

  // Off is the server's default: sent only when on.
  if (setting('inlayHints.liveRegisters', scope) === true) result.inlayHints = { liveRegisters: true };
  if (setting('registers.verifyWithPtxas', scope) === true) result.registers = { verifyWithPtxas: true };
  if (setting('cuda.exactMode', scope) === true) result.cuda.exactMode = true;

  return result;
}

// `ptxls.cuda.arch`: its names, trimmed, without empty or non-string entries (the server reports
// names it does not know, so they are passed on).
export function cudaArchSetting(scope?: vscode.ConfigurationScope): string[] {
  const arch = setting<unknown>('cuda.arch', scope);
  if (!Array.isArray(arch)) return [];
  return arch.filter((name): name is string => typeof name === 'string').map((name) => name.trim()).filter((name) => name !== '');
}

// The target override from the settings, or undefined.
export function targetSetting(scope?: vscode.Uri): string | undefined {
  const target = setting<string>('target', scope);
  return typeof target === 'string' && target.trim() !== '' ? target.trim() : undefined;
}
