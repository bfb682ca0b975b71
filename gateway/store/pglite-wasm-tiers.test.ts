import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../shared/package-root';

// Which tier V8 compiles WebAssembly with is the process's own, so a child does it: it opens the
// embedded store (which sets Liftoff only), then makes seller-like calls through an undici client
// while querying the store. V8 reports each compiled function on stdout; at the end the child asks
// V8 (natives syntax) which tier the client's own llhttp_execute runs on. A low tiering budget
// makes hot functions tier up after hundreds of calls rather than tens of thousands.
const CHILD = `
import { createServer } from 'node:http';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { Client } from 'undici';
import { openPgliteStore } from './gateway/store/pglite-store.ts';
import { loadStoreImage } from './gateway/store/store-image.ts';
const store = await openPgliteStore({ loadDataDir: new Blob([await loadStoreImage()]) });
const server = createServer((_, res) => res.end('{"items":[]}')).listen(0, '127.0.0.1');
await once(server, 'listening');
const client = new Client('http://127.0.0.1:' + server.address().port);
for (let i = 0; i < 1500; i++) {
  const reply = await client.request({ path: '/', method: 'POST', body: '{}' });
  await reply.body.text();
  await store.query('select $1::int + 1 as n', [i]);
}
const { kSocket, kParser } = createRequire(import.meta.url)('undici/lib/core/symbols.js');
const tier = new Function('f', 'return %IsTurboFanFunction(f) ? "TurboFan" : %IsLiftoffFunction(f) ? "Liftoff" : "not compiled"');
process.stderr.write('llhttp_execute: ' + tier(client[kSocket][kParser].llhttp.llhttp_execute) + '\\\\n');
await client.close();
server.close();
await store.close();
`;

/** Distinct functions compiled, and TurboFan compiles, per WebAssembly module (by native module address). */
function tiersByModule(trace: string): Map<string, { functions: Set<string>; turbofan: number }> {
  const modules = new Map<string, { functions: Set<string>; turbofan: number }>();
  for (const [, module, index, tier] of trace.matchAll(/Compiled function (0x[0-9a-f]+)#(\d+) using (\w+)/g)) {
    const entry = modules.get(module) ?? { functions: new Set<string>(), turbofan: 0 };
    entry.functions.add(index);
    if (tier === 'TurboFan') entry.turbofan++;
    modules.set(module, entry);
  }
  return modules;
}

// Node 24's V8 reads the tiering flags when a function is due to tier up, so --liftoff-only set
// at run time no longer holds PGlite back there (see pglite-wasm-tiers.ts).
const liftoffOnlyHolds = Number(process.versions.node.split('.')[0]) < 24;

describe('WebAssembly tiers with the embedded store open', () => {
  it(`lets undici's HTTP parser tier up to TurboFan${liftoffOnlyHolds ? ' and keeps PGlite on Liftoff' : ''}`, async () => {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['--trace-wasm-compilation-times', '--wasm-tiering-budget=20000', '--allow-natives-syntax', '--import', 'tsx', '--input-type=module', '--eval', CHILD],
      { cwd: PACKAGE_ROOT, maxBuffer: 64 * 1024 * 1024, timeout: 60_000 },
    );
    expect(stderr).toContain('llhttp_execute: TurboFan');
    // PGlite's module is the one with thousands of functions compiled.
    const [pglite] = [...tiersByModule(stdout).values()].sort((a, b) => b.functions.size - a.functions.size);
    expect(pglite.functions.size).toBeGreaterThan(1000);
    if (liftoffOnlyHolds) expect(pglite.turbofan).toBe(0);
  }, 90_000);
});
