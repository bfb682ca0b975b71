// Writes contracts/json-schema/<operation>.<payload>.schema.json from the TypeBox schemas
// (every payload, mock-seller.scenario.schema.json for scenario files, and
// state-map.schema.json for the verification kit's state maps),
// and removes documents of payloads that no longer exist; and the buyer, internal and seller
// API documents a release of the contract carries (contracts/openapi/). Usage: npm run schemas
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderJsonSchemas } from '../contracts/json-schema-documents';
import { renderContractApiDocuments } from '../gateway/api-reference/contract-documents';
import { renderStateMapJsonSchema, STATE_MAP_SCHEMA_FILE } from '../verification/states/state-map';

/** Writes each file whose text differs (or is missing) under `dir`; the names written. */
function writeChanged(dir: string, files: Map<string, string>): string[] {
  mkdirSync(dir, { recursive: true });
  const written: string[] = [];
  for (const [name, text] of files) {
    let current: string | undefined;
    try {
      current = readFileSync(`${dir}${name}`, 'utf8');
    } catch {
      current = undefined;
    }
    if (current === text) continue;
    writeFileSync(`${dir}${name}`, text);
    written.push(name);
  }
  return written;
}

const dir = fileURLToPath(new URL('../contracts/json-schema/', import.meta.url));
const files = new Map([...renderJsonSchemas(), [STATE_MAP_SCHEMA_FILE, renderStateMapJsonSchema()]]);
const written = writeChanged(dir, files);
for (const name of written) console.log(`wrote   ${name}`);
for (const name of readdirSync(dir)) {
  if (name.endsWith('.schema.json') && !files.has(name)) {
    rmSync(`${dir}${name}`);
    console.log(`removed ${name}`);
  }
}
console.log(`${files.size} JSON Schema documents in contracts/json-schema/ (${written.length} changed)`);

const apiDir = fileURLToPath(new URL('../contracts/openapi/', import.meta.url));
for (const name of writeChanged(apiDir, renderContractApiDocuments())) console.log(`wrote   contracts/openapi/${name}`);
