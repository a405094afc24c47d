// Which target a document is checked against, as the server decides it: a `.ptxls.json` above the
// file wins over the editor's `ptxls.target`, which wins over the module's own `.target`. For CUDA
// sources, the architectures of their device passes: a `.ptxls.json`'s `cuda.arch`, else the
// editor's `ptxls.cuda.arch`, else what the server finds itself (compile_commands.json, guards).
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { cudaArchSetting, targetSetting } from './settings';

// `.target` follows `.version` at the top of a module; looking further only costs time on
// large files.
const HEADER_BYTES = 64 * 1024;

function withoutComments(text: string): string {
  // Blank out comments but keep strings, so a `.target` quoted in a `.file` name is not read as
  // a directive, and a commented-out one is ignored.
  return text.replace(/"[^"\n]*"|\/\/[^\n]*|\/\*[\s\S]*?(?:\*\/|$)/g, (match) => (match.startsWith('"') ? match : ' '));
}

// The first target name of the module's `.target` directive (`sm_90a` in `.target sm_90a, debug`).
export function moduleTarget(text: string): string | undefined {
  const header = withoutComments(text.slice(0, HEADER_BYTES));
  const match = /(?:^|[\s;}])\.target\s+([A-Za-z_][\w$]*(?:\s*,\s*[A-Za-z_][\w$]*)*)/.exec(header);
  if (!match) return undefined;
  const names = match[1].split(',').map((n) => n.trim());
  return names.find((n) => /^(sm|compute)_/.test(n)) ?? names[0];
}

// JSON with `//` and `/* */` comments, as ptxls reads `.ptxls.json`.
function parseJsonWithComments(text: string): unknown {
  return JSON.parse(text.replace(/"(?:[^"\\\n]|\\.)*"|\/\/[^\n]*|\/\*[\s\S]*?\*\//g, (m) => (m.startsWith('"') ? m : ' ')));
}

export interface ProjectTarget {
  file: string;
  // null: the file sets `"target": null`, which cancels the editor's override.
  target: string | null | undefined;
  // `cuda.arch`, when it lists names.
  cudaArch: string[] | undefined;
}

// The nearest `.ptxls.json` in the folder of `file` or above, and the target it sets.
export async function projectTarget(file: string): Promise<ProjectTarget | undefined> {
  let folder = path.dirname(file);
  for (let depth = 0; depth < 64; ++depth) {
    const candidate = path.join(folder, '.ptxls.json');
    const text = await fs.readFile(candidate, 'utf8').catch(() => undefined);
    if (text !== undefined) {
      try {
        const value = parseJsonWithComments(text) as { target?: unknown; cuda?: unknown; ptxls?: { target?: unknown; cuda?: unknown } };
        const object = value && typeof value === 'object' && value.ptxls && typeof value.ptxls === 'object' ? value.ptxls : value;
        const arch = object && typeof object.cuda === 'object' && object.cuda !== null ? (object.cuda as { arch?: unknown }).arch : undefined;
        const names = Array.isArray(arch) ? arch.filter((name): name is string => typeof name === 'string') : [];
        const cudaArch = names.length > 0 ? names : undefined;
        if (object && object.target === null) return { file: candidate, target: null, cudaArch };
        const target = object && typeof object.target === 'string' && object.target.startsWith('sm_') ? object.target : undefined;
        return { file: candidate, target, cudaArch };
      } catch {
        return { file: candidate, target: undefined, cudaArch: undefined };
      }
    }
    const parent = path.dirname(folder);
    if (parent === folder) break;
    folder = parent;
  }
  return undefined;
}

export interface EffectiveTarget {
  // A PTX target (`sm_90a`), or a CUDA source's architecture list (`sm_90a,sm_100a`).
  target: string | undefined;
  // Where it comes from, for the status bar's tooltip.
  origin: string;
  // Whether `target` lists the architectures of a CUDA source's device passes.
  cuda?: boolean;
}

export async function effectiveCudaArch(document: vscode.TextDocument): Promise<EffectiveTarget> {
  const project = document.uri.scheme === 'file' ? await projectTarget(document.uri.fsPath) : undefined;
  if (project?.cudaArch) return { target: project.cudaArch.join(','), origin: `${project.file} (cuda.arch)`, cuda: true };
  const setting = cudaArchSetting(document.uri);
  if (setting.length > 0) return { target: setting.join(','), origin: "the 'ptxls.cuda.arch' setting", cuda: true };
  return { target: undefined, origin: "the file's compile_commands.json entry, else the architectures its #if guards name, else sm_80", cuda: true };
}

export async function effectiveTarget(document: vscode.TextDocument): Promise<EffectiveTarget> {
  const project = document.uri.scheme === 'file' ? await projectTarget(document.uri.fsPath) : undefined;
  if (typeof project?.target === 'string') return { target: project.target, origin: project.file };
  const setting = project?.target === null ? undefined : targetSetting(document.uri);
  if (setting !== undefined) return { target: setting, origin: "the 'ptxls.target' setting" };
  const own = moduleTarget(document.getText(new vscode.Range(0, 0, Math.min(document.lineCount, 2000), 0)));
  if (own !== undefined) return { target: own, origin: 'the module’s .target directive' };
  return { target: undefined, origin: 'no .target directive' };
}
