import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { danglingPathsInText, danglingReferences } from '../shared/testing/markdown-references';
import { docBlock } from '../shared/testing/doc-blocks';
import { fillTemplateForSpecFaithfulSeller, startSpecFaithfulSeller } from '../fixtures/sellers/spec-faithful-seller';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTemporaryDirectory } from '../shared/testing/temporary-directory';
import { packagePath } from '../shared/package-root';
import { startMockSeller, type RunningMockSeller } from '../mock-seller/index';
import { buildPackages } from './build-package';
import { PUBLISHED_FOLDERS, publishedPackage, publishedPackages } from './published-packages';
import { consumerLockfile, type PackedPackage } from './consumer-lockfile';

// The packages as people get them: both built and packed once (as `npm run build`, `npm pack`),
// installed from the tarballs into an empty ES module project and an empty CommonJS one, then
// the command line run from there, the library imported and required, and a vendor's own
// vitest file run against the installed toolkit. No clone, no workspace link.
//
// The install is `npm ci --offline` from a lockfile cut from the workspace's own
// (consumer-lockfile.ts): the dependencies at the versions the workspace installed, whose
// tarballs `npm install` left in the npm cache. No registry is asked, so the test passes on a
// fresh machine whose cache holds only what `npm install` fetched (.ci/run starts empty).

const run = (command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(command, args, { cwd, env, timeout: 170_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout, stderr }),
    );
  });

const dir = useTemporaryDirectory('installed-packages');
/** Every command of the installed CLI. */
const COMMANDS = [
  'verify',
  'explore',
  'load',
  'replay',
  'rules-proxy',
  'mock-seller',
  'record',
  'states',
  'pact-path',
  'compat',
  'check-openapi',
];
/** The ES module project (the command line's tests run from it too) and the CommonJS one. */
let app: string;
let cjs: string;
let bin: string;
let mock: RunningMockSeller;

/** An empty project of one module kind with both tarballs installed. */
async function project(name: string, type: 'module' | 'commonjs', packed: PackedPackage[]): Promise<string> {
  const path = join(dir.path, name);
  mkdirSync(path);
  const { dependencies, lockfile } = consumerLockfile(`consumer-${name}`, packed);
  writeFileSync(
    join(path, 'package.json'),
    JSON.stringify({ name: `consumer-${name}`, private: true, type, dependencies }),
  );
  writeFileSync(join(path, 'package-lock.json'), JSON.stringify(lockfile, null, 2));
  const installed = await run('npm', ['ci', '--offline', '--no-audit', '--no-fund'], path);
  expect(installed.code, installed.stderr).toBe(0);
  return path;
}

beforeAll(async () => {
  // One build for both, in this process and without the type declarations (a TypeScript
  // program of the whole kit, most of the build's time; nothing here reads them), then each
  // packed as is. The declarations, and each package's own prepack, are checked by
  // `npm run release -- --dry-run` (publint, attw), which .ci/run runs.
  await buildPackages(PUBLISHED_FOLDERS.map(publishedPackage), { types: false });
  const packed = await run(
    'npm',
    [
      'pack',
      '--ignore-scripts',
      '-w',
      'packages/contracts',
      '-w',
      'packages/toolkit',
      '--pack-destination',
      dir.path,
      '--json',
    ],
    packagePath(),
  );
  expect(packed.code, packed.stderr).toBe(0);
  const tarballs = (JSON.parse(packed.stdout) as { name: string; filename: string }[]).map((p) => ({
    pkg: publishedPackages().find((pkg) => pkg.manifest.name === p.name)!,
    tarball: `../${p.filename}`,
  }));
  expect(tarballs.map((t) => t.pkg?.manifest.name).sort()).toEqual([
    '@federated-gateway/contracts',
    '@federated-gateway/toolkit',
  ]);
  [app, cjs] = await Promise.all([project('app', 'module', tarballs), project('cjs', 'commonjs', tarballs)]);
  bin = join(app, 'node_modules', '.bin', 'federated-gateway');
  mock = await startMockSeller();
}, 180_000);

afterAll(async () => {
  await mock?.close();
});

describe('the installed CLI', () => {
  it('verifies a seller from an installed tarball, with the pact it ships', async () => {
    const result = await run(
      bin,
      ['verify', '--seller-url', `${mock.url}/seller`, '--states-url', `${mock.url}/__admin/provider-state`],
      dir.path,
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/PASSED: (\d+) of \1 interactions passed/);
    expect(result.stderr).toMatch(
      /node_modules\/@federated-gateway\/toolkit\/contracts\/pacts\/federated-gateway-seller-system\.json/,
    );
  });

  it('explores a seller from an installed tarball (fast-check ships as a dependency), with the state map it ships', async () => {
    const result = await run(
      bin,
      [
        'verify',
        '--explore',
        '--seller-url',
        `${mock.url}/seller`,
        '--state-map',
        join(
          dir.path,
          'app',
          'node_modules',
          '@federated-gateway',
          'toolkit',
          'fixtures',
          'state-maps',
          'mock-seller-explore.json',
        ),
        '--runs',
        '100',
        '--seed',
        '1',
      ],
      dir.path,
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('PASSED: 100 exchanges');
  });

  it('answers --help for itself and every command, and 2 for an unknown one', async () => {
    // The installed binary each time, all at once: each is a process that only prints and exits.
    const [top, unknown, ...helps] = await Promise.all([
      run(bin, ['--help'], dir.path),
      run(bin, ['verfy'], dir.path),
      ...COMMANDS.map((command) => run(bin, [command, '--help'], dir.path)),
    ]);
    expect(top.code).toBe(0);
    COMMANDS.forEach((command, i) => {
      expect(top.stdout).toContain(`  ${command}`);
      expect(helps[i].code, command).toBe(0);
      expect(helps[i].stdout, command).toMatch(new RegExp(`^Usage: ${command}`));
    });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown command 'verfy'");
  });

  it('points only at files it ships: every link, anchor and path its pages and --help texts name', async () => {
    const helps = await Promise.all([
      run(bin, ['--help'], dir.path),
      ...COMMANDS.map((command) => run(bin, [command, '--help'], dir.path)),
    ]);
    const dangling = ['toolkit', 'contracts'].flatMap((name) => {
      const root = join(app, 'node_modules', '@federated-gateway', name);
      const check = {
        root,
        namedPaths: true,
        selfPrefixes: [`node_modules/@federated-gateway/${name}/`, `./node_modules/@federated-gateway/${name}/`],
        madeAtRunTime,
      };
      expect(
        shippedFiles(root).filter((file) => /\.test\.[cm]?[jt]s$/.test(file)),
        `${name} ships tests`,
      ).toEqual([]);
      const shippedPages = shippedFiles(root).filter((file) => file.endsWith('.md'));
      expect(shippedPages.length, name).toBeGreaterThan(0);
      const inHelp =
        name === 'toolkit'
          ? helps.flatMap((help, i) => danglingPathsInText(help.stdout, `${COMMANDS[i - 1] ?? ''} --help`, check))
          : [];
      return [...shippedPages.flatMap((page) => danglingReferences(page, check)), ...inHelp].map(
        (d) => `${name}/${d.file}:${d.line} ${d.reference}: ${d.why}`,
      );
    });
    expect(dangling).toEqual([]);
  });

  it('starts the mock seller on its shipped default scenario and stops on SIGTERM', async () => {
    const child = spawn(bin, ['mock-seller', '--port', '0'], { cwd: dir.path, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const exit = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
    await expect.poll(() => stdout, { timeout: 20_000 }).toMatch(/listening on (http:\/\/\S+) /);
    const url = /listening on (http:\/\/\S+) /.exec(stdout)![1];
    expect((await fetch(`${url}/health`)).status).toBe(200);
    expect(stdout).toMatch(/scenario 'default' from .*fixtures\/scenarios\/default\.json/);
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
  });

  it('compares what the contract it ships holds: its pact against itself, and the buyer API from v3.1 to v3.2', async () => {
    const pact = join(
      app,
      'node_modules',
      '@federated-gateway',
      'toolkit',
      'contracts',
      'pacts',
      'federated-gateway-seller-system.json',
    );
    const [same, paths] = await Promise.all([
      run(bin, ['compat', '--base', pact, '--head', pact], app),
      run(bin, ['compat', '--paths', '/json/federated/v3_1/=/json/federated/v3_2/', '--json'], app),
    ]);
    expect(same.code, same.stderr).toBe(0);
    expect(same.stdout).toContain('No change to the contract.');
    expect(paths.code, paths.stderr).toBe(0);
    expect(paths.stderr).toMatch(/node_modules\/@federated-gateway\/toolkit\/contracts\/openapi\/buyer\.openapi\.json/);
    expect((JSON.parse(paths.stdout) as { summary: { safe: number } }).summary.safe).toBeGreaterThan(0);
  });

  it('prints where the shipped pact is (pact-path), inside the installed package', async () => {
    const result = await run(bin, ['pact-path'], app);
    expect(result.code, result.stderr).toBe(0);
    const path = result.stdout.trim();
    expect(path).toBe(
      join(
        app,
        'node_modules',
        '@federated-gateway',
        'toolkit',
        'contracts',
        'pacts',
        'federated-gateway-seller-system.json',
      ),
    );
    expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({
      consumer: { name: 'federated-gateway' },
      provider: { name: 'seller-system' },
    });
  });

  // The guide's recipe, word for word but the ports and the request: under npx, $! is npm's pid
  // (npm → sh → the CLI), so the script signals the proxy's own pid from --pid-file, and npm
  // passes the proxy's exit code on.
  const guideScript = (body: string, signal: 'INT' | 'TERM') =>
    [
      `npx federated-gateway rules-proxy --upstream ${mock.url}/seller --report rules-${signal}.txt --pid-file rules-proxy.pid > proxy.out &`,
      'PROXY=$!',
      'for i in $(seq 300); do [ -s rules-proxy.pid ] && break; sleep 0.1; done',
      'URL=$(sed -n "s/^rules-proxy: listening on \\(http[^,]*\\),.*/\\1/p" proxy.out)',
      `curl -s -o /dev/null -H 'content-type: application/json' -d '${body}' "$URL/seller"`,
      `kill -${signal} "$(cat rules-proxy.pid)"`,
      'wait $PROXY; echo "exit $?"',
    ].join('\n');

  it('stops the proxy started with npx in the background as the guide says (kill -INT its pid file): exit 0 when every reply kept the rules', async () => {
    const honest = JSON.stringify({
      service: 'item_inquiry',
      integration: 'federated-gateway',
      terminal_id: 'T-01',
      locations: [{ id: 'L101', member: 'M100', account: 'A-1002' }],
      items: [{ id: 'a-1', mfr_code: 'GAT', part_number: '22433' }],
    });
    const result = await run('bash', ['-c', guideScript(honest, 'INT')], app);
    const report = readFileSync(join(app, 'rules-INT.txt'), 'utf8');
    expect(result.stdout.trim(), report).toBe('exit 0');
    expect(report).toMatch(/: 1 exchanges, 0 not passing the reply rules/);
    expect(existsSync(join(app, 'rules-proxy.pid'))).toBe(false);
  });

  it('… and on SIGTERM exits by what it found (1: a reply it could not pass), not 143', async () => {
    const result = await run('bash', ['-c', guideScript(JSON.stringify({ service: 'item_inquiry' }), 'TERM')], app);
    const report = readFileSync(join(app, 'rules-TERM.txt'), 'utf8');
    expect(result.stdout.trim(), report).toBe('exit 1');
    expect(report).toMatch(/: 1 exchanges, 1 not passing the reply rules/);
  });

  it('stops the proxy (no orphan) when the script kills npx itself, reporting what it saw', async () => {
    const script = [
      `npx federated-gateway rules-proxy --upstream ${mock.url}/seller --report killed.txt --pid-file killed.pid > /dev/null 2>&1 &`,
      'for i in $(seq 300); do [ -s killed.pid ] && break; sleep 0.1; done',
      'cat killed.pid',
      'kill %1; wait %1',
    ].join('\n');
    const result = await run('bash', ['-c', script], app);
    const pid = Number(result.stdout.trim());
    expect(pid).toBeGreaterThan(1);
    // Its launchers are gone: the proxy notices within a second or so, writes its report and exits.
    await expect.poll(() => existsSync(join(app, 'killed.pid')), { timeout: 5_000, interval: 100 }).toBe(false);
    await expect.poll(() => alive(pid), { timeout: 5_000, interval: 100 }).toBe(false);
    expect(readFileSync(join(app, 'killed.txt'), 'utf8')).toMatch(/: 0 exchanges/);
  });
});

// The vendor's quick start from the tarball, its blocks as the page shows them (the install
// step is the one above: the same tarballs, from the cache), against a seller written from
// the specification alone. cli/quick-start.test.ts follows the same page in-process.
describe('the quick start, from the installed tarball', () => {
  const PAGE = 'docs/vendor/quick-start.md';
  const block = (id: string) => docBlock(PAGE, id).text;

  it('takes a seller written from the specification from the template to PASSED', async () => {
    const seller = await startSpecFaithfulSeller();
    try {
      const version = await run('bash', ['-euc', block('quick-start-version')], app);
      expect(version.stdout).toBe(block('quick-start-version-output'));
      const template = await run('bash', ['-euc', block('quick-start-template')], app);
      expect(template.code, template.stderr).toBe(0);
      const written = JSON.parse(readFileSync(join(app, 'my-states.json'), 'utf8')) as Record<string, unknown>;
      // The schema the template names is there for the vendor's editor.
      expect(existsSync(join(app, String(written.$schema)))).toBe(true);
      const unfilled = await run('bash', ['-euc', block('quick-start-verify')], app);
      expect(unfilled.code).toBe(2);
      expect(unfilled.stderr).toContain("is still the template's placeholder");
      writeFileSync(join(app, 'my-states.json'), JSON.stringify(fillTemplateForSpecFaithfulSeller(written), null, 2));
      const verify = await run(
        'bash',
        ['-euc', block('quick-start-verify').replace('http://127.0.0.1:8080/seller', seller.url)],
        app,
      );
      expect(verify.code, verify.stdout + verify.stderr).toBe(0);
      expect(verify.stdout).toMatch(/^PASSED: 14 of 15 interactions passed, 1 NOT OFFERED/m);
    } finally {
      seller.close();
    }
  });
});

// The same few calls from either module system: the kit's mock seller answers an item inquiry,
// the contract core judges the reply (honest, then with the requested item dropped).
const LIBRARY_CALLS = `
const request = { service: 'item_inquiry', integration: 'federated-gateway', terminal_id: 'T-01',
  locations: [{ id: 'L101', member: 'M100', account: 'A-1002' }], items: [{ id: 'a-1', mfr_code: 'GAT', part_number: '22433' }] };
const seller = await startMockSeller({ port: 0 });
try {
  const response = await fetch(seller.url + '/seller', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(request) });
  const reply = await response.json();
  const honest = checkSellerReply('item-inquiry', request, reply);
  const broken = checkSellerReply('item-inquiry', request, { ...reply, items: [] });
  console.log(JSON.stringify({ status: response.status, honest: honest.ok, broken: broken.violations.map((v) => v.rule),
    contract: CONTRACT_VERSION, pact: PACT_FILE, pactInteractions: readPact(PACT_FILE).interactions.length }));
} finally {
  await seller.close();
}`;

// A vendor's own provider test, as the guide tells them to write it: the toolkit's mock seller
// stands in for their system; BREAK_RULE starts it with a fault that breaks one reply rule.
const VENDOR_TEST = `import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockSeller, verifySeller } from '@federated-gateway/toolkit';

let seller: Awaited<ReturnType<typeof startMockSeller>>;
beforeAll(async () => {
  const faults = process.env.BREAK_RULE ? [{ service: 'item_inquiry' as const, fault: { kind: process.env.BREAK_RULE as 'wrong-original-part' } }] : [];
  seller = await startMockSeller({ port: 0, faults });
});
afterAll(() => seller.close());

describe('our seller system', () => {
  it('keeps the Federated Gateway contract', async () => {
    const report = await verifySeller({ sellerUrl: seller.url + '/seller', statesUrl: seller.url + '/__admin/provider-state' });
    expect(report.ok).toBe(true);
  }, 120_000);
});
`;

describe('the toolkit and the contract core as libraries', () => {
  it('are imported from an ES module project: the mock seller answers, the contract judges its reply, the shipped pact is found', async () => {
    writeFileSync(
      join(app, 'check.mjs'),
      `import * as kit from '@federated-gateway/toolkit';
import { checkSellerReply, CONTRACT_VERSION, PACT_FILE, readPact } from '@federated-gateway/contracts';
const { startMockSeller } = kit;
${LIBRARY_CALLS}`,
    );
    const result = await run('node', ['check.mjs'], app);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      status: 200,
      honest: true,
      broken: expect.arrayContaining(['item.id-echo']),
      contract: expect.stringMatching(/^\d+\.\d+\.\d+$/),
      pact: join(
        app,
        'node_modules',
        '@federated-gateway',
        'contracts',
        'contracts',
        'pacts',
        'federated-gateway-seller-system.json',
      ),
      pactInteractions: expect.any(Number),
    });
  });

  it("run the contract package's README example as it stands: a reply without the asked item is named", async () => {
    const { text } = docBlock('packages/contracts/README.md', 'contracts-check');
    // The fixtures' exchange, the reply answering every item but the first.
    const payload = (name: string) => readFileSync(packagePath('fixtures', 'payloads', name), 'utf8');
    const setup = `const forwardedRequest = ${payload('item-inquiry.seller-request.json')};
const sellerReply = ${payload('item-inquiry.seller-reply.json')};
sellerReply.items = sellerReply.items.filter((item) => item.id !== forwardedRequest.items[0].id);
`;
    // An import must come first in a module: the README's import, then what it assumes, then the rest.
    const [imports, ...rest] = text.split('\n\n');
    writeFileSync(join(app, 'readme-check.mjs'), `${imports}\n${setup}${rest.join('\n\n')}`);
    const result = await run('node', ['readme-check.mjs'], app);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/^contract \d+\.\d+\.\d+:/);
    expect(result.stderr).toContain('item.id-echo');
  });

  it('are required from a CommonJS project (import.meta.url has no meaning there: the shipped files are found all the same)', async () => {
    writeFileSync(
      join(cjs, 'check.js'),
      `const kit = require('@federated-gateway/toolkit');
const { checkSellerReply, CONTRACT_VERSION, PACT_FILE, readPact } = require('@federated-gateway/contracts');
const { startMockSeller } = kit;
(async () => {${LIBRARY_CALLS}
})().catch((error) => { console.error(error); process.exitCode = 1; });`,
    );
    const result = await run('node', ['check.js'], cjs);
    expect(result.code, result.stderr).toBe(0);
    const seen = JSON.parse(result.stdout) as {
      honest: boolean;
      broken: string[];
      contract: string;
      pact: string;
      pactInteractions: number;
    };
    expect(seen).toMatchObject({ status: 200, honest: true, broken: expect.arrayContaining(['item.id-echo']) });
    expect(seen.contract).toMatch(/^\d+\.\d+\.\d+$/);
    expect(seen.pact).toBe(
      join(
        cjs,
        'node_modules',
        '@federated-gateway',
        'contracts',
        'contracts',
        'pacts',
        'federated-gateway-seller-system.json',
      ),
    );
    expect(seen.pactInteractions).toBeGreaterThan(10);
  });

  it("run a vendor's vitest file against the installed toolkit: it passes on the honest mock seller and fails on one breaking a reply rule", async () => {
    writeFileSync(join(app, 'seller-contract.test.ts'), VENDOR_TEST);
    // The repository's vitest, as the vendor's own devDependency would be.
    symlinkSync(packagePath('node_modules', 'vitest'), join(app, 'node_modules', 'vitest'), 'dir');
    const vitest = packagePath('node_modules', 'vitest', 'vitest.mjs');
    const args = [vitest, 'run', '--root', app, 'seller-contract.test.ts'];
    const [honest, broken] = await Promise.all([
      run('node', args, app, { ...process.env, BREAK_RULE: '' }),
      run('node', args, app, { ...process.env, BREAK_RULE: 'wrong-original-part' }),
    ]);
    expect(honest.code, honest.stdout + honest.stderr).toBe(0);
    expect(honest.stdout).toMatch(/1 passed/);
    expect(broken.code, broken.stdout + broken.stderr).toBe(1);
    // Failed on the verdict, not on a crash: the report said the seller broke the contract.
    expect(broken.stdout + broken.stderr).toMatch(
      /keeps the Federated Gateway contract[\s\S]*expected false to be true/,
    );
  });
});

/** Folders and files the kit writes when it runs, which its pages name but no package ships. */
const madeAtRunTime = ['verify-replays/'];

/** The files of an installed package, relative to its folder. */
function shippedFiles(root: string, dir = root): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : shippedFiles(root, path);
    return [relative(root, path)];
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
