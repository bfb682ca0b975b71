import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { packagePath } from '../shared/package-root';
import { temporaryDirectory } from '../shared/testing/temporary-directory';
import { startMockSeller, type RunningMockSeller } from '../mock-seller/index';
import { verifySeller } from '../verification/verify/verify-seller';

// Prism (Stoplight's validation proxy, a devDependency) reads the committed seller API document
// and stands between the kit and the mock seller, checking every request the kit sends and
// every reply the mock gives against it: a whole verify run through it draws no violation, and
// a reply that drops a required field draws one naming it. Prism joins the upstream URL and the
// path, so its copy of the document names the mock's `/seller` as the path (the document's `/`
// stands for wherever a vendor listens).

const PRISM = packagePath('node_modules', '.bin', 'prism');
const committed = () =>
  JSON.parse(readFileSync(packagePath('contracts/openapi/seller.openapi.json'), 'utf8')) as {
    servers: unknown[];
    paths: Record<string, unknown>;
  };

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });

interface RunningPrism {
  url: string;
  output: () => string;
  process: ChildProcess;
}

async function startPrism(upstream: string): Promise<RunningPrism> {
  const document = committed();
  document.paths = { '/seller': document.paths['/'] };
  document.servers = [{ url: upstream }];
  const file = join(temporaryDirectory('seller-api-prism'), 'seller.openapi.json');
  writeFileSync(file, JSON.stringify(document));
  const port = await freePort();
  const child = spawn(PRISM, ['proxy', file, upstream, '--port', String(port), '--errors', 'false'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`prism did not start:\n${output}`)), 30_000);
    const check = () => (output.includes('Prism is listening') ? (clearTimeout(timer), resolve()) : undefined);
    child.stdout.on('data', check);
    child.on('exit', (code) => reject(new Error(`prism exited ${code}:\n${output}`)));
  });
  return { url: `http://127.0.0.1:${port}`, output: () => output, process: child };
}

const violations = (output: string) => output.split('\n').filter((line) => line.includes('Violation:'));

describe('Prism, proxying a verify run against the seller API document', () => {
  let seller: RunningMockSeller | undefined;
  let prism: RunningPrism | undefined;
  afterEach(async () => {
    prism?.process.kill();
    await seller?.close();
  });

  it('finds nothing to say of an honest seller, every exchange through it', { timeout: 90_000 }, async () => {
    seller = await startMockSeller();
    prism = await startPrism(seller.url);
    const report = await verifySeller({
      sellerUrl: `${prism.url}/seller`,
      statesUrl: `${seller.url}/__admin/provider-state`,
    });
    expect(report.ok).toBe(true);
    expect(prism.output().match(/Forwarding "post" request/g)?.length ?? 0).toBeGreaterThanOrEqual(15);
    expect(violations(prism.output())).toEqual([]);
  });

  it('names the required field a reply drops', { timeout: 90_000 }, async () => {
    seller = await startMockSeller({
      faults: [{ service: 'place_order', fault: { kind: 'missing-field', field: '/order_number' } }],
    });
    prism = await startPrism(seller.url);
    const report = await verifySeller({
      sellerUrl: `${prism.url}/seller`,
      statesUrl: `${seller.url}/__admin/provider-state`,
    });
    expect(report.ok).toBe(false);
    expect(violations(prism.output())).toContainEqual(
      expect.stringMatching(/Violation: response\.body .*required property 'order_number'/),
    );
    expect(violations(prism.output()).filter((line) => line.includes('request'))).toEqual([]);
  });
});
