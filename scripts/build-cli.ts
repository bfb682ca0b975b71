import { build } from 'esbuild';
import { chmodSync } from 'node:fs';

// npm run build (and prepack): the CLI as one ES module for Node 20, dependencies left to
// npm, so an installed package starts without compiling TypeScript on every call.
const outfile = 'dist/federated-gateway.mjs';
await build({
  entryPoints: ['cli/bin.ts'],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  banner: { js: '#!/usr/bin/env node' },
  logLevel: 'warning',
});
chmodSync(outfile, 0o755);
process.stderr.write(`build: wrote ${outfile}\n`);
