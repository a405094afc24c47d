// Finding the ptxls executable: the `ptxls.server.path` setting, else the binary packaged in the
// extension (server/ptxls), else `ptxls` on PATH.
import { execFile } from 'node:child_process';
import { constants, promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { setting } from './settings';

export type ServerSource = 'setting' | 'bundled' | 'path';

export interface ServerFound {
  command: string;
  args: string[];
  source: ServerSource;
}

export interface ServerMissing {
  problem: string;
  // Whether the user pointed the setting at something that does not work (the fix is to edit
  // it) rather than nothing having been found.
  settingIsWrong: boolean;
}

const EXE = process.platform === 'win32' ? '.exe' : '';

// The packaged binary is built for linux-x64 only (vsce --target linux-x64); elsewhere it is not
// even tried.
const BUNDLED_PLATFORM = 'linux-x64';

async function isExecutableFile(file: string): Promise<boolean> {
  try {
    const stat = await fs.stat(file);
    if (!stat.isFile()) return false;
    if (process.platform === 'win32') return true;
    await fs.access(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

async function searchPath(name: string): Promise<string | undefined> {
  const directories = (process.env.PATH ?? '').split(path.delimiter).filter((d) => d !== '');
  const suffixes = process.platform === 'win32'
    ? ['', ...(process.env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';').map((s) => s.toLowerCase())]
    : [''];
  for (const directory of directories) {
    for (const suffix of suffixes) {
      const candidate = path.join(directory, name + suffix);
      if (await isExecutableFile(candidate)) return candidate;
    }
  }
  return undefined;
}

// `~`, `${userHome}` and `${workspaceFolder}` as in VS Code's own path settings; a relative path
// is taken from the first workspace folder, and a bare name is looked up on PATH.
async function resolveSettingPath(value: string): Promise<string | undefined> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  let expanded = value.trim()
    .replace(/^~(?=$|[\\/])/, os.homedir())
    .replace(/\$\{userHome\}/g, os.homedir());
  if (folder !== undefined) expanded = expanded.replace(/\$\{workspaceFolder\}/g, folder);
  if (!expanded.includes('/') && !expanded.includes('\\')) return searchPath(expanded);
  if (!path.isAbsolute(expanded) && folder !== undefined) expanded = path.join(folder, expanded);
  return path.resolve(expanded);
}

// Runs `ptxls --version`: a binary that cannot run here (another architecture, a missing shared
// library in a dynamically linked build) fails this instead of failing the language client.
function probe(command: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(command, ['--version'], { timeout: 5000 }, (error, stdout, stderr) => {
      if (error) resolve(`${error.message}${stderr ? `: ${stderr.trim()}` : ''}`);
      else resolve(stdout.trim() === '' && stderr.trim() !== '' ? stderr.trim() : undefined);
    });
  });
}

export async function findServer(
  context: vscode.ExtensionContext,
  log: vscode.LogOutputChannel,
): Promise<ServerFound | ServerMissing> {
  const args = (setting<unknown[]>('server.args') ?? []).filter((a): a is string => typeof a === 'string');

  const configured = setting<string>('server.path')?.trim() ?? '';
  if (configured !== '') {
    const resolved = await resolveSettingPath(configured);
    if (resolved === undefined || !(await isExecutableFile(resolved))) {
      return {
        problem: `'ptxls.server.path' is "${configured}", which is not an executable file`
          + (resolved !== undefined && resolved !== configured ? ` (looked at ${resolved})` : ''),
        settingIsWrong: true,
      };
    }
    return { command: resolved, args, source: 'setting' };
  }

  const bundled = context.asAbsolutePath(path.join('server', `ptxls${EXE}`));
  const platform = `${process.platform}-${process.arch}`;
  if (platform !== BUNDLED_PLATFORM) {
    log.info(`No bundled server for ${platform} (the package carries one for ${BUNDLED_PLATFORM}).`);
  } else if (await fs.stat(bundled).then((s) => s.isFile(), () => false)) {
    // Unpacking may lose the executable bit; the file is ours to fix.
    if (!(await isExecutableFile(bundled))) await fs.chmod(bundled, 0o755).catch(() => undefined);
    const failure = await probe(bundled);
    if (failure === undefined) return { command: bundled, args, source: 'bundled' };
    log.warn(`The bundled server ${bundled} does not run on this machine (${failure}); looking on PATH.`);
  }

  const onPath = await searchPath(`ptxls`);
  if (onPath !== undefined) return { command: onPath, args, source: 'path' };
  return {
    problem: 'no ptxls language server was found: none is bundled for this platform or it does not run here, '
      + 'and there is no ptxls on PATH',
    settingIsWrong: false,
  };
}
