// Validates SARIF logs against the SARIF 2.1.0 JSON schema (the rtm.5 schema shipped in
// @microsoft/jest-sarif@1.0.0-beta.0, a draft-04 schema, hence ajv-draft-04).
//
// Usage: node validate-sarif.mjs FILE.sarif...    (modules from $SARIF_NODE_PREFIX/node_modules,
// else node_modules beside this file). Prints one line per file ("FILE: valid" or "FILE: INVALID"
// and the schema errors); exit 0 when all are valid, 1 otherwise.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(resolve(process.env.SARIF_NODE_PREFIX || here, 'package.json'));
const Ajv = require('ajv-draft-04');
const addFormats = require('ajv-formats');
const schema = require('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json');
// unicodeRegExp: false, because the schema's 'language' pattern is invalid under the u flag.
const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
addFormats(ajv);
const validate = ajv.compile(schema);

let bad = 0;
for (const file of process.argv.slice(2)) {
  if (validate(JSON.parse(readFileSync(file, 'utf8')))) {
    console.log(`${file}: valid`);
    continue;
  }
  bad++;
  console.log(`${file}: INVALID`);
  for (const e of validate.errors) console.log(`  ${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`);
}
process.exit(bad ? 1 : 0);
