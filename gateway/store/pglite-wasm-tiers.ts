import { createRequire } from 'node:module';
import { setFlagsFromString } from 'node:v8';

/**
 * V8 compiles PGlite's WebAssembly (9 MB) with Liftoff, then again with TurboFan for the
 * functions it finds hot; the optimised code stays for the life of the process. Liftoff only:
 * measured ~45–65 MB less RSS for an open store (bench:memory), a faster open, and ~5–7% more
 * time per store query (two indexed SELECTs 504 → 525 µs).
 *
 * Node 20 and 22 only: Node 24's V8 reads the tiering flags when a function is due to tier up,
 * so the flag set at run time no longer holds PGlite back there; only all three of --liftoff-only
 * --no-wasm-tier-up --no-wasm-dynamic-tiering do, and those stop undici's parser too.
 */
export const PGLITE_WASM_FLAGS = '--liftoff-only';

/**
 * The flag is process-wide, and PGlite is not the only WebAssembly here: undici's HTTP parser
 * (llhttp, the seller client's) is compiled on its first connection, after the store opens,
 * and under the flag stayed on Liftoff for good (perf, item inquiry through the gateway: its
 * parse function 3.3 µs per request on Liftoff, 1.9 on TurboFan, though the callbacks into
 * JavaScript took back most of it). Compiled before the flag and kept alive, its modules sit
 * in V8's native module cache with tier-up on, and undici's own compile of the same bytes gets
 * them. Both builds: undici picks SIMD where it can, the other elsewhere.
 */
const HTTP_PARSERS = ['undici/lib/llhttp/llhttp_simd-wasm.js', 'undici/lib/llhttp/llhttp-wasm.js'];
// The project's types (lib ES2023 + @types/node) describe WebAssembly's types but not its constructors.
const { Module } = (globalThis as unknown as { WebAssembly: { Module: new (bytes: Uint8Array) => object } }).WebAssembly;
const keptAlive: object[] = [];
let set = false;

/** Liftoff only for WebAssembly compiled from now on (PGlite's), once per process; undici's parser keeps its tiers. */
export function liftoffOnlyForPglite(): void {
  if (set) return;
  set = true;
  const require = createRequire(import.meta.url);
  for (const file of HTTP_PARSERS) {
    try {
      keptAlive.push(new Module(require(file) as Uint8Array));
    } catch {
      // No SIMD here, or undici moved its files: that parser gets Liftoff only, as before.
    }
  }
  setFlagsFromString(PGLITE_WASM_FLAGS);
}
