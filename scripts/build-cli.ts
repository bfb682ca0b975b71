import { build } from 'esbuild';
import { chmodSync, rmSync } from 'node:fs';

// npm run build (and prepack): the CLI as ES modules for Node 20, dependencies left to npm,
// so an installed package starts without compiling TypeScript on every call. Split into
// chunks: each command (and what it imports: Ajv, undici, fast-check…) loads only when run,
// so --help and usage errors print at once.
const outfile = 'dist/federated-gateway.mjs';
rmSync('dist', { recursive: true, force: true });
await build({
  entryPoints: { 'federated-gateway': 'cli/bin.ts' },
  outdir: 'dist',
  outExtension: { '.js': '.mjs' },
  chunkNames: 'chunks/[name]-[hash]',
  splitting: true,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  banner: { js: '#!/usr/bin/env node' },
  logLevel: 'warning',
});
chmodSync(outfile, 0o755);
process.stderr.write(`build: wrote ${outfile} and its chunks under dist/chunks/\n`);
