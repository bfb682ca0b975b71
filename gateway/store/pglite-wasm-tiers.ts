import { setFlagsFromString } from 'node:v8';

/**
 * V8 compiles PGlite's WebAssembly (9 MB) with Liftoff, then again with TurboFan for the
 * functions it finds hot; the optimised code stays for the life of the process. Liftoff only:
 * measured ~45–65 MB less RSS for an open store (bench:memory), a faster open, and ~5–7% more
 * time per store query (two indexed SELECTs 504 → 525 µs).
 *
 * The flag is process-wide, and PGlite is not the only WebAssembly here: undici's HTTP parser
 * (llhttp, the seller client's) is compiled on its first connection, after the store opens, so
 * it stays on Liftoff too. Compiling it before the flag (V8's native module cache then hands
 * undici that module, tier-up on) was tried: perf put its parse function at 3.3 µs per item
 * inquiry on Liftoff and 1.9 on TurboFan, but the calls back into JavaScript took the gain back
 * (5.2 µs in all either way), and the gateway alone on the embedded store held ~4–6 MB more
 * (bench:memory), against a 200 MB target it meets by little. So it is left on Liftoff.
 *
 * --liftoff-only alone held PGlite back on Node 20 and 22 but not on Node 24, where PGlite tiered
 * up as before (the test beside this file saw ~700 TurboFan compiles): the gateway alone on the
 * embedded store held 252 MB at start and 274 MB after 30,000 requests, against 187 and 200 MB
 * with all three flags (bench:memory, Node 24).
 */
export const PGLITE_WASM_FLAGS = '--liftoff-only --no-wasm-tier-up --no-wasm-dynamic-tiering';
let set = false;

/** Liftoff only for WebAssembly compiled from now on (PGlite's), once per process. */
export function liftoffOnlyForPglite(): void {
  if (set) return;
  set = true;
  setFlagsFromString(PGLITE_WASM_FLAGS);
}
