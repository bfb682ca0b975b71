import { setFlagsFromString } from 'node:v8';

/**
 * V8 compiles PGlite's WebAssembly (9 MB) with Liftoff, then again with TurboFan for the
 * functions it finds hot, and the optimised code stays for the life of the process: Liftoff
 * only costs a little time per store query for tens of MB less RSS. The flags are process-wide,
 * so undici's HTTP parser (compiled later, on the first seller connection) stays on Liftoff too,
 * which costs nothing measurable. Node 24 needs all three flags: --liftoff-only alone does not
 * stop PGlite tiering up there. Figures: docs/performance.md, "PGlite's WebAssembly on Liftoff only".
 */
export const PGLITE_WASM_FLAGS = '--liftoff-only --no-wasm-tier-up --no-wasm-dynamic-tiering';
let set = false;

/** Liftoff only for WebAssembly compiled from now on (PGlite's), once per process. */
export function liftoffOnlyForPglite(): void {
  if (set) return;
  set = true;
  setFlagsFromString(PGLITE_WASM_FLAGS);
}
