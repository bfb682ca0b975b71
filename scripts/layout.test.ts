import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT, packagePath } from '../shared/package-root';

// The layout shows the architecture: contracts/ is the contract, shared/ what every app
// shares, the apps and the vendor kit stand on both, and entry points (cli/, scripts/) sit on
// top. This test keeps that true: the import graph of every .ts file has no cycle and no arrow
// pointing up, and the layout tables (the README's and docs/reference/layout.md's) name exactly
// the folders that exist.

// Folders made at run time or by tools are not ours to list.
const MADE = new Set(['node_modules', 'var', 'dist', 'test-output', '.git']);

/** What each top-level folder's code may import besides itself. Entry points may import anything. */
const MAY_IMPORT: Record<string, readonly string[] | 'anything'> = {
  shared: [],
  contracts: ['shared'],
  inspector: ['contracts', 'shared'],
  gateway: ['contracts', 'shared', 'inspector'],
  'mock-seller': ['contracts', 'shared', 'inspector'],
  verification: ['contracts', 'shared', 'inspector'],
  fixtures: ['contracts', 'shared'],
  seeds: [],
  cli: ['contracts', 'shared', 'inspector', 'gateway', 'mock-seller', 'verification', 'fixtures'],
  // The published packages' entry points and their build: they gather the kit, never the gateway.
  packages: ['contracts', 'shared', 'inspector', 'mock-seller', 'verification'],
  scripts: 'anything',
  // The performance lab (benchmarks, soaks, agreement proofs): an entry point like scripts/.
  lab: 'anything',
};

/** The gateway's own npm packages (store, mail, metrics, tokens): only the private package installs them. */
const GATEWAY_PACKAGES = ['@electric-sql/pglite', 'pg', 'jose', 'nodemailer', 'prom-client'];
const HTTP_PACKAGES = ['hono', '@hono/node-server', 'undici'];
const RULES_PACKAGES = ['@sinclair/typebox', 'ajv'];
const KIT_PACKAGES = [...RULES_PACKAGES, ...HTTP_PACKAGES, 'fast-check', '@pact-foundation/pact-cli', 'yaml'];
/**
 * The npm packages each folder's code may import (tests and `testing/` helpers: any of the
 * workspace's). The published packages install only their own dependencies, so a wrong import
 * fails here before any build does.
 */
const MAY_IMPORT_PACKAGES: Record<string, readonly string[] | 'anything'> = {
  shared: [...RULES_PACKAGES, ...HTTP_PACKAGES],
  contracts: RULES_PACKAGES,
  inspector: ['hono'],
  'mock-seller': [...RULES_PACKAGES, ...HTTP_PACKAGES],
  // verifier-options.ts: a type of Pact's JavaScript verifier (a devDependency, so never in a published declaration).
  verification: [...KIT_PACKAGES, '@pact-foundation/pact'],
  cli: KIT_PACKAGES,
  fixtures: [],
  seeds: [],
  packages: ['esbuild', 'dts-bundle-generator'],
  gateway: 'anything',
  scripts: 'anything',
  lab: 'anything',
};
/** What the contract core's entry point may reach: the rules without any HTTP server, client or socket. */
const CONTRACTS_FACE = 'packages/contracts/index.ts';
const NOT_IN_THE_CONTRACT_CORE = [
  ...HTTP_PACKAGES,
  ...GATEWAY_PACKAGES,
  'node:http',
  'node:https',
  'node:http2',
  'node:net',
];
/**
 * Tests and their helpers (`testing/`) may also start the apps
 * and the kit's fixtures to drive them, never an entry point.
 */
const TESTS_MAY_ALSO_IMPORT = ['gateway', 'mock-seller', 'inspector', 'verification', 'fixtures'];

const folders = (...path: string[]) =>
  readdirSync(packagePath(...path), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !MADE.has(entry.name))
    .map((entry) => entry.name);

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(join(PACKAGE_ROOT, dir), { withFileTypes: true })) {
    if (MADE.has(entry.name)) continue;
    const path = dir === '' ? entry.name : `${dir}/${entry.name}`;
    if (entry.isDirectory()) sourceFiles(path, out);
    else if (/\.(ts|mts)$/.test(entry.name)) out.push(path);
  }
  return out;
}

// Relative specifiers of import/export … from, import(), vi.mock/vi.importActual/vi.doMock.
const SPECIFIER =
  /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\bvi\.(?:mock|doMock|importActual)\s*(?:<[^>]*>)?\s*\(\s*)['"](\.{1,2}\/[^'"\n]+)['"]/g;

// Bare specifiers (npm packages and node: modules) of import/export … from, import(), import '…'.
const BARE_SPECIFIER =
  /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"]((?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*(?::[\w/.-]+|\/[\w/.-]+)?)['"]/g;
/** `@scope/name/deep` → `@scope/name`; `node:fs` stays. */
const packageOf = (specifier: string) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

/** The npm packages and node: modules each file imports. */
function packageImports(files: string[]): Map<string, string[]> {
  return new Map(
    files.map((file) => [
      file,
      [
        ...new Set(
          [...readFileSync(join(PACKAGE_ROOT, file), 'utf8').matchAll(BARE_SPECIFIER)].map((m) => packageOf(m[1])),
        ),
      ],
    ]),
  );
}

function importGraph(): Map<string, string[]> {
  const files = sourceFiles('');
  const known = new Set(files);
  const resolve = (from: string, spec: string) => {
    const base = normalize(join(dirname(from), spec));
    return [base, `${base}.ts`, base.replace(/\.js$/, '.ts'), `${base}/index.ts`].find((candidate) =>
      known.has(candidate),
    );
  };
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(join(PACKAGE_ROOT, file), 'utf8');
    const targets = [...text.matchAll(SPECIFIER)]
      .map((m) => resolve(file, m[1]))
      .filter((t): t is string => t !== undefined);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** One cycle of the graph as a path (a → b → … → a), or undefined when there is none. */
function findCycle(graph: Map<string, string[]>): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string): string[] | undefined => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') return [...stack.slice(stack.indexOf(next)), next];
      if (state.get(next) === undefined) {
        const cycle = visit(next);
        if (cycle) return cycle;
      }
    }
    stack.pop();
    state.set(file, 'done');
    return undefined;
  };
  for (const file of graph.keys()) {
    if (state.get(file) !== undefined) continue;
    const cycle = visit(file);
    if (cycle) return cycle;
  }
  return undefined;
}

const topOf = (file: string) => (file.includes('/') ? file.slice(0, file.indexOf('/')) : '(root)');
const isTestCode = (file: string) => file.endsWith('.test.ts') || file.split('/').includes('testing');

function arrowsUp(graph: Map<string, string[]>): string[] {
  const wrong: string[] = [];
  for (const [file, targets] of graph) {
    const from = topOf(file);
    // The lab measures the product; nothing of the product may stand on it.
    for (const target of targets)
      if (topOf(target) === 'lab' && from !== 'lab') wrong.push(`${file} → ${target} (nothing imports the lab)`);
    const allowed = MAY_IMPORT[from];
    if (allowed === 'anything') continue;
    for (const target of targets) {
      const to = topOf(target);
      if (to === from) continue;
      const ok =
        allowed !== undefined && (allowed.includes(to) || (isTestCode(file) && TESTS_MAY_ALSO_IMPORT.includes(to)));
      if (!ok)
        wrong.push(
          `${file} → ${target} (${from} may import ${allowed === undefined ? 'nothing: add it to MAY_IMPORT' : allowed.join(', ') || 'nothing'})`,
        );
    }
  }
  return wrong;
}

function packagesNotAllowed(imports: Map<string, string[]>): string[] {
  const wrong: string[] = [];
  for (const [file, packages] of imports) {
    const allowed = MAY_IMPORT_PACKAGES[topOf(file)];
    // Tests and the tools' configuration files at the root (vitest.config.ts) run only in the workspace.
    if (allowed === 'anything' || isTestCode(file) || topOf(file) === '(root)') continue;
    for (const name of packages)
      if (!name.startsWith('node:') && !allowed?.includes(name))
        wrong.push(
          `${file} → ${name} (${topOf(file)} may import ${allowed === undefined ? 'nothing: add it to MAY_IMPORT_PACKAGES' : allowed.join(', ') || 'no npm package'})`,
        );
  }
  return wrong;
}

/** The files `from` reaches through the graph, itself included. */
function reachable(graph: Map<string, string[]>, from: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const next of graph.get(file) ?? []) visit(next);
  };
  visit(from);
  return seen;
}

/** A page's section from its `## Layout` heading to the next `## ` heading (or the end). */
function layoutSection(page: string): string {
  const text = readFileSync(packagePath(page), 'utf8');
  const start = text.indexOf('# Layout');
  if (start === -1) throw new Error(`${page} has no Layout heading`);
  const next = text.indexOf('\n## ', start + '# Layout'.length);
  return text.slice(start, next === -1 ? undefined : next);
}
/** The first column of a layout table: `name/`. */
const tableFolders = (section: string) => [...section.matchAll(/^\| `([^`]+)\/` \|/gm)].map((m) => m[1]);

describe('the import graph', () => {
  const graph = importGraph();

  it('covers the code (a regex that stopped matching would make every check below pass)', () => {
    expect(graph.size).toBeGreaterThan(300);
    expect([...graph.values()].reduce((n, targets) => n + targets.length, 0)).toBeGreaterThan(1000);
  });

  it('has no cycle between files', () => {
    const cycle = findCycle(graph);
    expect(cycle?.join(' → ')).toBeUndefined();
  });

  it('has no arrow up: each folder imports only the folders below it, and nothing imports an entry point', () => {
    expect(arrowsUp(graph)).toEqual([]);
  });

  it('keeps testing/ folders out of the product: only tests, other testing/ helpers and entry points import them', () => {
    const isEntryPoint = (file: string) => MAY_IMPORT[topOf(file)] === 'anything';
    const wrong = [...graph]
      .filter(([file]) => !isTestCode(file) && !isEntryPoint(file))
      .flatMap(([file, targets]) =>
        targets.filter((t) => t.split('/').includes('testing')).map((t) => `${file} → ${t}`),
      );
    expect(wrong).toEqual([]);
  });

  it('has no arrow up inside the gateway either: store/ stands on no other gateway folder, orders/ not on protection/', () => {
    const wrong = [...graph]
      .filter(([file]) => !isTestCode(file))
      .flatMap(([file, targets]) => targets.map((target) => [file, target] as const))
      .filter(
        ([file, target]) =>
          (file.startsWith('gateway/store/') &&
            target.startsWith('gateway/') &&
            !target.startsWith('gateway/store/')) ||
          (file.startsWith('gateway/orders/') && target.startsWith('gateway/protection/')),
      );
    expect(wrong.map(([file, target]) => `${file} → ${target}`)).toEqual([]);
  });

  it('would see a cycle and an arrow up (the checks can fail)', () => {
    const broken = new Map([
      ['contracts/a.ts', ['contracts/b.ts']],
      ['contracts/b.ts', ['contracts/a.ts', 'gateway/app.ts']],
      ['gateway/app.ts', ['cli/main.ts']],
    ]);
    expect(findCycle(broken)).toEqual(['contracts/a.ts', 'contracts/b.ts', 'contracts/a.ts']);
    expect(arrowsUp(broken)).toHaveLength(2);
  });

  it('knows every top-level folder that holds code', () => {
    const withCode = new Set([...graph.keys()].map(topOf));
    withCode.delete('(root)');
    expect([...withCode].filter((folder) => !(folder in MAY_IMPORT))).toEqual([]);
    expect([...withCode].filter((folder) => !(folder in MAY_IMPORT_PACKAGES))).toEqual([]);
  });
});

describe('the npm packages each folder imports', () => {
  const graph = importGraph();
  const imports = packageImports([...graph.keys()]);

  it('are read (a regex that stopped matching would make the checks below pass)', () => {
    expect(imports.get('contracts/validator.ts')).toContain('ajv');
    expect(imports.get('gateway/store/pglite-store.ts')).toContain('@electric-sql/pglite');
    expect(imports.get('shared/http/listen.ts')).toContain('node:http');
  });

  it("are among the folder's allowed ones: the kit and the contract never import the gateway's store, mail or metrics", () => {
    expect(packagesNotAllowed(imports)).toEqual([]);
  });

  it("reach no HTTP server, client or socket, and none of the gateway's packages, from the contract core's entry point", () => {
    const reached = [...reachable(graph, CONTRACTS_FACE)];
    expect(reached.length).toBeGreaterThan(20);
    const wrong = reached.flatMap((file) =>
      (imports.get(file) ?? [])
        .filter((name) => NOT_IN_THE_CONTRACT_CORE.includes(name))
        .map((name) => `${file} → ${name}`),
    );
    expect(wrong).toEqual([]);
  });

  it('would see a package a folder may not import', () => {
    const broken = new Map([
      ['verification/a.ts', ['pg', 'hono', 'node:fs']],
      ['contracts/b.ts', ['undici']],
      ['contracts/b.test.ts', ['undici']],
    ]);
    expect(packagesNotAllowed(broken)).toHaveLength(2);
  });
});

describe.each(['README.md', 'docs/reference/layout.md'])('the layout table of %s', (page) => {
  const section = layoutSection(page);

  it('names exactly the top-level folders there are', () => {
    expect([...tableFolders(section)].sort()).toEqual(folders().sort());
  });
});

describe('docs/reference/layout.md', () => {
  it('names every folder inside contracts/, shared/, verification/, gateway/ and mock-seller/', () => {
    const layout = layoutSection('docs/reference/layout.md');
    const inner = ['contracts', 'shared', 'verification', 'gateway', 'mock-seller'].flatMap((parent) =>
      folders(parent),
    );
    expect(inner.length).toBeGreaterThan(20);
    expect(inner.filter((folder) => !layout.includes(`\`${folder}/\``))).toEqual([]);
  });
});
