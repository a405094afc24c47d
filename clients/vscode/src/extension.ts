// The ptxls extension: starts the ptxls language server for PTX documents and for the inline PTX of
// CUDA sources (beside clangd: see cuda.ts), and adds what LSP does not cover (rule documentation,
// the register report, format on save, a status item).
import * as vscode from 'vscode';
import {
  Executable,
  LanguageClient,
  LanguageClientOptions,
  State,
  TransportKind,
} from 'vscode-languageclient/node';
import { CUDA_SELECTOR, cppColouringExtension, keepForPtxOnly, PTX_SELECTOR } from './cuda';
import { registerFormatOnSave } from './formatOnSave';
import { refreshHintsAndLenses, toggleLiveRegisterHints } from './liveRegisters';
import { RegisterReports } from './registerReport';
import { explainRuleCommand, openRuleDocsCommand, RULE_SCHEME, RuleDocumentProvider } from './ruleDocs';
import { findServer, ServerFound } from './serverLookup';
import { SECTION, serverSettings, setting } from './settings';
import { STATUS_MENU_COMMAND, StatusBar } from './status';

// The client id is also the settings prefix vscode-languageclient reads `trace.server` from.
const CLIENT_ID = 'ptxls';

let client: LanguageClient | undefined;
let output: vscode.LogOutputChannel;
let status: StatusBar;
let reports: RegisterReports;
// The settings last sent to the server (workspace/configuration), to see when they change.
let settingsSent: string | undefined;
let settingsTimer: NodeJS.Timeout | undefined;
// The C++ extension that colours CUDA documents when the client started (cuda.ts), if any.
let cudaColouring: string | undefined;
// Starts, stops and restarts run one after the other: a settings change during a start must not
// leave two servers running.
let lifecycle: Promise<void> = Promise.resolve();

function serialized(step: () => Promise<void>): Promise<void> {
  lifecycle = lifecycle.then(step, step);
  return lifecycle;
}

const SOURCE_NAMES: Record<ServerFound['source'], string> = {
  setting: "from the 'ptxls.server.path' setting",
  bundled: 'bundled with the extension',
  path: 'found on PATH',
};

async function reportStartFailure(problem: string, settingIsWrong: boolean): Promise<void> {
  status.setState('failed', problem);
  output.error(problem);
  const openSetting = settingIsWrong ? "Edit 'ptxls.server.path'" : "Set 'ptxls.server.path'";
  const choice = await vscode.window.showErrorMessage(
    `ptxls: the PTX language server could not be started: ${problem}.`,
    openSetting,
    'Show Log',
  );
  if (choice === openSetting) await vscode.commands.executeCommand('workbench.action.openSettings', 'ptxls.server.path');
  else if (choice === 'Show Log') output.show(true);
}

function clientOptions(): LanguageClientOptions {
  return {
    documentSelector: [...PTX_SELECTOR, ...CUDA_SELECTOR],
    outputChannel: output,
    // Evaluated at every (re)start, so a restart picks up the current settings.
    initializationOptions: () => {
      const settings = serverSettings();
      settingsSent = JSON.stringify([settings]);  // As a workspace/configuration answer would be.
      return settings;
    },
    synchronize: { configurationSection: SECTION },
    middleware: {
      workspace: {
        // The server pulls the `ptxls` section; it gets the settings it understands, cleaned (see
        // settings.ts), instead of VS Code's raw section with the client's own keys and defaults.
        configuration: async (params, token, next) => {
          const raw = await next(params, token);
          if (!Array.isArray(raw)) return raw;
          const answer = params.items.map((item, index) => {
            if (item.section !== SECTION) return raw[index];
            return serverSettings(item.scopeUri ? client?.protocol2CodeConverter.asUri(item.scopeUri) : undefined);
          });
          settingsPulled(answer);
          return answer;
        },
      },
    },
  };
}

// The server pulls its settings when they change and applies them as the answer arrives, but asks
// the editor to refresh only its diagnostics: the inlay hints (live registers), code lenses and an
// open register report are asked for again here, after the answer has gone out.
function settingsPulled(answer: unknown): void {
  const sent = JSON.stringify(answer);
  const changed = settingsSent !== undefined && sent !== settingsSent;
  settingsSent = sent;
  if (!changed) return;
  clearTimeout(settingsTimer);
  settingsTimer = setTimeout(() => {
    if (client?.isRunning()) refreshHintsAndLenses(client);
    reports.settingsChanged();
  }, 50);
}

async function start(context: vscode.ExtensionContext): Promise<void> {
  status.setState('starting');
  status.setServer('');
  const found = await findServer(context, output);
  if ('problem' in found) {
    void reportStartFailure(found.problem, found.settingIsWrong);
    return;
  }
  const description = `${found.command}${found.args.length ? ` ${found.args.join(' ')}` : ''} (${SOURCE_NAMES[found.source]})`;
  output.info(`Starting ${description}`);
  status.setServer(description);

  const executable: Executable = { command: found.command, args: found.args, transport: TransportKind.stdio };
  const next = new LanguageClient(CLIENT_ID, 'ptxls', { run: executable, debug: executable }, clientOptions());
  cudaColouring = cppColouringExtension();
  keepForPtxOnly(next, cudaColouring === undefined);
  if (cudaColouring !== undefined) output.info(`${cudaColouring} colours CUDA sources; ptxls's semantic tokens are for PTX documents only`);
  client = next;
  next.onDidChangeState((event) => {
    if (client !== next) return;
    if (event.newState === State.Running) {
      const info = next.initializeResult?.serverInfo;
      status.setServer(`${description}${info?.version ? `, version ${info.version}` : ''}`);
      status.setState('running');
    } else if (event.newState === State.Starting) {
      status.setState('starting');
    } else {
      status.setState('stopped');
    }
  });
  try {
    await next.start();
  } catch (error) {
    if (client === next) {
      const message = error instanceof Error ? error.message : String(error);
      await reportStartFailure(`${found.command} failed to start (${message})`, found.source === 'setting');
    }
  }
}

async function stop(): Promise<void> {
  const previous = client;
  client = undefined;
  if (previous === undefined) return;
  try {
    // dispose() also unregisters the providers, so a new client does not add a second set.
    await previous.dispose(2000);
  } catch (error) {
    output.warn(`Stopping the server: ${error instanceof Error ? error.message : String(error)}`);
  }
  status.setState('stopped');
}

function restart(context: vscode.ExtensionContext): Promise<void> {
  return serialized(async () => {
    await stop();
    await start(context);
  });
}

// vscode-languageclient writes the message trace at the Trace log level of the output channel, so
// `ptxls.trace.server` alone shows nothing until that level is chosen.
function checkTraceLevel(): void {
  const trace = setting<string>('trace.server') ?? 'off';
  if (trace === 'off' || output.logLevel === vscode.LogLevel.Trace) return;
  const setLevel = 'Set Log Level…';
  void vscode.window.showInformationMessage(
    `ptxls writes its message trace ('ptxls.trace.server': ${trace}) to the "ptxls" output at log level Trace.`,
    setLevel,
  ).then((choice) => {
    if (choice !== setLevel) return;
    output.show(true);
    void vscode.commands.executeCommand('workbench.action.setLogLevel');
  });
}

async function statusMenu(context: vscode.ExtensionContext): Promise<void> {
  const running = status.current === 'running' || status.current === 'starting';
  const items: (vscode.QuickPickItem & { run: () => unknown })[] = [
    { label: '$(output) Show the ptxls log', run: () => output.show(true) },
    { label: `$(debug-restart) ${running ? 'Restart' : 'Start'} the language server`, run: () => restart(context) },
    { label: '$(settings-gear) Open ptxls settings', run: () => vscode.commands.executeCommand('workbench.action.openSettings', '@ext:ptxls.ptxls') },
  ];
  if (!running) items.unshift(items.splice(1, 1)[0]);
  const picked = await vscode.window.showQuickPick(items, { title: 'ptxls' });
  await picked?.run();
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  output = vscode.window.createOutputChannel('ptxls', { log: true });
  status = new StatusBar();
  reports = new RegisterReports(() => client);
  const rules = new RuleDocumentProvider();
  context.subscriptions.push(
    output,
    status,
    rules,
    reports,
    vscode.workspace.registerTextDocumentContentProvider(RULE_SCHEME, rules),
    vscode.commands.registerCommand('ptxls.restartServer', () => restart(context)),
    vscode.commands.registerCommand('ptxls.explainRule', () => explainRuleCommand(client, rules)),
    vscode.commands.registerCommand('ptxls.openRuleDocs', () => openRuleDocsCommand(client)),
    // The server's code lenses run this one with [uri, functionName].
    vscode.commands.registerCommand('ptxls.showRegisterReport', (...args: unknown[]) => reports.command(...args)),
    vscode.commands.registerCommand('ptxls.toggleLiveRegisterHints', () => toggleLiveRegisterHints()),
    vscode.commands.registerCommand(STATUS_MENU_COMMAND, () => statusMenu(context)),
    registerFormatOnSave(output),
    vscode.workspace.onDidChangeConfiguration((event) => {
      // How the server is started changed: start it again the new way.
      if (event.affectsConfiguration('ptxls.server')) void restart(context);
      if (event.affectsConfiguration('ptxls.trace.server')) checkTraceLevel();
    }),
    // clangd or cpptools installed or removed: whether ptxls colours CUDA documents changes, and
    // the client registers its features only when it starts.
    vscode.extensions.onDidChange(() => {
      if (client !== undefined && cppColouringExtension() !== cudaColouring) void restart(context);
    }),
  );
  checkTraceLevel();
  await serialized(() => start(context));
}

export function deactivate(): Promise<void> | undefined {
  clearTimeout(settingsTimer);
  return serialized(stop);
}
