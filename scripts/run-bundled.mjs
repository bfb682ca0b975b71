// npm start and npm run gateway: the TypeScript bundled by esbuild into one ES module under
// var/build/, then run by plain node, rather than compiled file by file by `--import tsx`. tsx
// keeps a loader thread with a heap of its own and every module's source and inline source map
// for the life of the process (docs/performance.md, "Memory"). Bundled again at every start
// (a fraction of a second), so the bundle never trails the source; a cluster worker imports the
// bundle its primary built. Plain JavaScript, since nothing compiles TypeScript before it runs.
import { build, stop } from 'esbuild';
import cluster from 'node:cluster';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import console from 'node:console';
import process from 'node:process';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const ENTRIES = {
  start: "import './scripts/start.ts';",
  gateway: "import { runGatewayProcess } from './gateway/server.ts';\nawait runGatewayProcess();",
  // The lab's gateway benchmark's yardstick, run the way the gateway is so that the two compare on code alone.
  'bare-proxy': "import './lab/bare-proxy.ts';",
};

const name = process.argv[2];
if (!Object.hasOwn(ENTRIES, name)) {
  console.error(`usage: node scripts/run-bundled.mjs ${Object.keys(ENTRIES).join('|')}`);
  process.exit(2);
}
const outfile = join(ROOT, 'var', 'build', `${name}.mjs`);

if (cluster.isPrimary) {
  try {
    const { outputFiles } = await build({
      stdin: { contents: ENTRIES[name], resolveDir: ROOT, sourcefile: `${name}-entry.ts`, loader: 'ts' },
      outfile,
      write: false,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      // Dependencies stay in node_modules, loaded by node as usual.
      packages: 'external',
      // Stack traces name the bundle's lines; node --enable-source-maps maps them to the source.
      sourcemap: 'linked',
      logLevel: 'warning',
    });
    mkdirSync(dirname(outfile), { recursive: true });
    // Written aside and renamed into place: another start at the same moment never imports half a file.
    for (const file of outputFiles) {
      const partial = `${file.path}.${process.pid}.partial`;
      writeFileSync(partial, file.contents);
      renameSync(partial, file.path);
    }
  } catch (error) {
    console.error(`${name}: could not bundle the TypeScript: ${error.message}`);
    process.exit(1);
  } finally {
    // esbuild's service process would otherwise live as long as this one.
    await stop();
  }
}
// The script reads its own arguments from process.argv, as it would run by `node --import tsx
// <file>`; a cluster worker is forked with the entry's name again, to import the same bundle.
const rest = process.argv.splice(3);
process.argv.splice(2, 1, ...rest);
if (cluster.isPrimary) cluster.setupPrimary({ args: [name, ...rest] });
await import(pathToFileURL(outfile).href);
