import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../shared/package-root';

// Which tier V8 compiles WebAssembly with is the process's own, so a child does it: it opens the
// embedded store (which sets Liftoff only) and queries it, and V8 reports each compiled function
// on stdout. A low tiering budget makes hot functions tier up after hundreds of queries rather
// than tens of thousands, so a store that did tier up would show it here.
const CHILD = `
import { openPgliteStore } from './gateway/store/pglite-store.ts';
import { loadStoreImage } from './gateway/store/store-image.ts';
const store = await openPgliteStore({ loadDataDir: new Blob([await loadStoreImage()]) });
for (let i = 0; i < 1500; i++) await store.query('select $1::int + 1 as n', [i]);
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

describe('WebAssembly tiers with the embedded store open', () => {
  it('keeps PGlite on Liftoff: no TurboFan copies of its hot functions (Node 24 too)', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        '--trace-wasm-compilation-times',
        '--wasm-tiering-budget=20000',
        '--import',
        'tsx',
        '--input-type=module',
        '--eval',
        CHILD,
      ],
      { cwd: PACKAGE_ROOT, maxBuffer: 64 * 1024 * 1024, timeout: 60_000 },
    );
    // PGlite's module is the one with most functions compiled: ~1,000–2,000 (lazily, so it varies); the others, tens.
    const [pglite] = [...tiersByModule(stdout).values()].sort((a, b) => b.functions.size - a.functions.size);
    expect(pglite.functions.size).toBeGreaterThan(300);
    expect(pglite.turbofan).toBe(0);
  }, 90_000);
});
