// Loads the extension's TextMate grammar with the engine VS Code itself uses (vscode-textmate on
// the Oniguruma WebAssembly build), so the tests see the same tokens an editor would.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const EXTENSION = resolve(here, '..', '..', '..', 'clients', 'vscode');
export const GRAMMAR_PATH = resolve(EXTENSION, 'syntaxes', 'ptx.tmLanguage.json');

// run.sh installs the dependencies outside the source tree and names that folder in
// PTXLS_VSCODE_UNIT_PREFIX; without it, node_modules beside this file is used.
const require = createRequire(resolve(process.env.PTXLS_VSCODE_UNIT_PREFIX || here, 'package.json'));
const vsctm = require('vscode-textmate');
const oniguruma = require('vscode-oniguruma');

let registryPromise;

async function registry() {
  registryPromise ??= (async () => {
    const wasm = readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm'));
    await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
    return new vsctm.Registry({
      onigLib: Promise.resolve({
        createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
        createOnigString: (text) => new oniguruma.OnigString(text),
      }),
      loadGrammar: async (scopeName) =>
        scopeName === 'source.ptx' ? vsctm.parseRawGrammar(readFileSync(GRAMMAR_PATH, 'utf8'), GRAMMAR_PATH) : null,
    });
  })();
  return registryPromise;
}

export async function loadGrammar() {
  const grammar = await (await registry()).loadGrammar('source.ptx');
  if (!grammar) throw new Error(`could not load ${GRAMMAR_PATH}`);
  return grammar;
}

// Tokenizes a whole text the way an editor does, line by line with the rule stack carried
// over. Returns per line an array of {line, start, end, text, scopes}.
export function tokenizeText(grammar, text) {
  const lines = text.split(/\r?\n/);
  let stack = vsctm.INITIAL;
  const result = [];
  lines.forEach((line, index) => {
    const { tokens, ruleStack, stoppedEarly } = grammar.tokenizeLine(line, stack, 0);
    if (stoppedEarly) throw new Error(`tokenizing stopped early on line ${index + 1}`);
    stack = ruleStack;
    result.push(tokens.map((t) => ({
      line: index, start: t.startIndex, end: Math.min(t.endIndex, line.length),
      text: line.slice(t.startIndex, t.endIndex), scopes: t.scopes,
    })));
  });
  return result;
}

// Scopes that say what a token is; `source.ptx` and the `meta.*` regions only say where it is.
export function significantScopes(token) {
  return token.scopes.filter((s) => s !== 'source.ptx' && !s.startsWith('meta.'));
}

export const REGISTER_SCOPE = /^(variable\.other\.register|support\.variable\.special-register)\.ptx$/;

// What every token of a PTX file must satisfy, whoever wrote the file: each piece of code has a
// scope of its own (nothing is left as bare `source.ptx`), nothing is marked invalid, and a
// `%name` is a register unless it sits in a comment or string. Returns one line per problem.
export function auditText(grammar, text, name) {
  const problems = [];
  for (const line of tokenizeText(grammar, text)) {
    for (const token of line) {
      if (token.text.trim() === '') continue;
      const where = `${name}:${token.line + 1}:${token.start + 1} ${JSON.stringify(token.text)} [${token.scopes.join(' ')}]`;
      const scopes = significantScopes(token);
      if (scopes.length === 0) problems.push(`unscoped ${where}`);
      else if (scopes.some((s) => s.startsWith('invalid.'))) problems.push(`invalid ${where}`);
      else if (/^%[\w$]/.test(token.text) && !scopes.some((s) => REGISTER_SCOPE.test(s) || /^(comment|string)\./.test(s))) {
        problems.push(`not a register ${where}`);
      }
    }
  }
  return problems;
}
