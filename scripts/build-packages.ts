import { buildPackages } from '../packages/build-package';
import { PUBLISHED_FOLDERS, publishedPackage, type PublishedFolder } from '../packages/published-packages';

// npm run build [-- <package folder>…]: every published package under packages/ (or the ones
// named, as each package's prepack asks) into packages/<folder>/dist/, so an installed package
// starts without compiling TypeScript. The private gateway is run from source and needs no build.

const USAGE = `Usage: npm run build [-- <package>…]

Builds the published packages (${PUBLISHED_FOLDERS.join(', ')}) into packages/<package>/dist/:
ESM and CommonJS bundles, bundled type declarations, the toolkit's command line, and the
files each ships. Without a name, all of them.`;

const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const unknown = args.filter((a) => !(PUBLISHED_FOLDERS as readonly string[]).includes(a));
if (unknown.length > 0) {
  process.stderr.write(
    `build: unknown package ${unknown.map((a) => `'${a}'`).join(', ')} (one of ${PUBLISHED_FOLDERS.join(', ')})\n`,
  );
  process.exit(2);
}
const folders = args.length > 0 ? (args as PublishedFolder[]) : [...PUBLISHED_FOLDERS];
const started = performance.now();
await buildPackages(folders.map(publishedPackage));
const seconds = ((performance.now() - started) / 1000).toFixed(1);
process.stderr.write(`build: ${folders.map((f) => `packages/${f}/dist/`).join(', ')} in ${seconds} s\n`);
