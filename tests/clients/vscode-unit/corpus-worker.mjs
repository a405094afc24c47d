// Audits a share of the corpus files (see grammar.test.mjs) on its own thread.
import { readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { auditText, loadGrammar } from './textmate.mjs';

const grammar = await loadGrammar();
const results = [];
for (const file of workerData.files) {
  try {
    results.push({ file, problems: auditText(grammar, readFileSync(file, 'utf8'), file) });
  } catch (error) {
    results.push({ file, problems: [`${file}: tokenizing threw ${error?.stack ?? error}`] });
  }
}
parentPort.postMessage(results);
