import { execFile } from 'node:child_process';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { transform } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packagePath } from '../shared/package-root';
import { docBlock } from '../shared/testing/doc-blocks';
import { temporaryDirectory } from '../shared/testing/temporary-directory';
import { mockSellerCommand } from '../cli/mock-seller-command';
import { startInProcess } from '../cli/testing/run-in-process';
import { readDefaultScenario, startMockSeller, type RunningMockSeller } from '../mock-seller/index';
import { parseFaultHeader } from '../mock-seller/faults';
import * as toolkit from '../packages/toolkit/index';

// The mock seller's guide ships in the toolkit package and stands alone there: every block
// it shows runs as shown (against an in-process mock seller where it names one). Its links are
// checked in the packed toolkit by packages/installed-packages.test.ts.

const PAGE = 'mock-seller/README.md';
const block = (id: string) => docBlock(PAGE, id).text;
/** Where the page's commands reach the mock seller; the tests put the one they started there. */
const PAGE_URL = 'http://127.0.0.1:9090';
/** The installed package keeps the repository's paths: its files are these. */
const INSTALLED = 'node_modules/@federated-gateway/toolkit/';
const sh = (script: string) => promisify(execFile)('sh', ['-e', '-c', script], { encoding: 'utf8' });
const json = (text: string) => JSON.parse(text) as Record<string, unknown>;

/** `npx federated-gateway mock-seller …` lines: each one's environment and argv (comments dropped). */
function mockSellerLines(text: string): { env: Record<string, string>; argv: string[] }[] {
  return text
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line !== '')
    .map((line) => {
      const words = line.split(/\s+/);
      const env: Record<string, string> = {};
      while (/^[A-Z_]+=/.test(words[0])) {
        const [name, value] = words.shift()!.split('=');
        env[name] = value;
      }
      expect(words.slice(0, 3)).toEqual(['npx', 'federated-gateway', 'mock-seller']);
      return { env, argv: words.slice(3) };
    });
}

/** Runs `mock-seller` in-process as the line says, on a free port; what it printed once listening. */
async function runMockSeller(env: Record<string, string>, argv: string[], probe = '/health'): Promise<string> {
  const free = argv.map((word, i) => (argv[i - 1] === '--port' ? '0' : word));
  const run = startInProcess(mockSellerCommand, free, {
    env: { MOCK_SELLER_PORT: '0', ...env, PATH: process.env.PATH ?? '' },
  });
  try {
    const url = await run.printed(/listening on (http:\/\/\S+)/);
    expect((await fetch(`${url}${probe}`)).status).toBe(200);
    return run.stdout();
  } finally {
    run.stop();
    expect(await run.exit).toBe(0);
  }
}

describe("the mock seller's guide", () => {
  it('id=start: each command starts the mock seller', async () => {
    const scenario = join(temporaryDirectory('readme'), 'my-scenario.json');
    copyFileSync(packagePath('fixtures/scenarios/default.json'), scenario);
    const lines = mockSellerLines(block('start'));
    expect(lines).toHaveLength(3);
    for (const { env, argv } of lines)
      expect(
        await runMockSeller(
          env,
          argv.map((w) => (w === 'my-scenario.json' ? scenario : w)),
        ),
      ).toContain("scenario 'default'");
  });

  it('id=pact-replay: replays the installed pact', async () => {
    const [{ env, argv }] = mockSellerLines(block('pact-replay'));
    const local = argv.map((w) => (w.startsWith(INSTALLED) ? w.slice(INSTALLED.length) : w));
    expect(await runMockSeller(env, local, '/__replay/interactions')).toMatch(
      /replaying \d+ interactions from contracts\/pacts\//,
    );
  });

  it("id=in-process: a vendor's test, importing from the toolkit's entry point", async () => {
    const code = block('in-process');
    const entry = "import { startMockSeller } from '@federated-gateway/toolkit';";
    expect(code.startsWith(`${entry}\n`)).toBe(true);
    expect(toolkit.startMockSeller).toBeTypeOf('function');
    const js = (await transform(code.replace(entry, ''), { loader: 'ts' })).code;
    const printed: unknown[] = [];
    const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (
      ...args: string[]
    ) => (...values: unknown[]) => Promise<void>;
    await new AsyncFunction('startMockSeller', 'console', js)(toolkit.startMockSeller, {
      log: (...values: unknown[]) => printed.push(...values),
    });
    expect(printed).toEqual([1]);
  });

  it('id=fault-header: every header parses', () => {
    const lines = block('fault-header').trim().split('\n');
    for (const line of lines) {
      expect(line).toMatch(/^x-mock-fault: /);
      expect(parseFaultHeader(line.slice('x-mock-fault: '.length)).length).toBeGreaterThan(0);
    }
  });

  it("id=load-section: a scenario's load section the mock takes", async () => {
    const scenario = { ...readDefaultScenario(), ...json(`{${block('load-section')}}`) };
    const seller = await startMockSeller({ scenario });
    await seller.close();
    expect(scenario.load).toMatchObject({ workers: 4 });
  });

  describe('the control API, with curl', () => {
    let mock: RunningMockSeller;
    beforeAll(async () => {
      mock = await startMockSeller();
    });
    afterAll(async () => {
      await mock?.close();
    });
    const run = async (id: string) => {
      const text = block(id);
      expect(text).toContain(PAGE_URL);
      return (await sh(text.replaceAll(PAGE_URL, mock.url))).stdout;
    };
    const faults = async () =>
      ((await (await fetch(`${mock.url}/__admin/faults`)).json()) as { faults: { service: string }[] }).faults;

    it('id=admin: the journal, a reset, the orders', async () => {
      const out = await run('admin');
      expect(out).toContain('{"count":0,"entries":[]}');
      expect(out).toContain('"reset":true');
      expect(out).toContain('{"orders":[]}');
    });

    it('id=fault-rules: one rule, a list of rules, all cleared', async () => {
      const out = await run('fault-rules');
      expect(out).toMatch(/^\{"service":"item_inquiry","count":1,.*"id":"fault-\d+"/);
      expect(out).toMatch(/\[\{"service":"item_inquiry",.*\},\{"service":"place_order",.*\}\]$/);
      expect(await faults()).toEqual([]);
    });

    it('id=seeded-faults: three seeded rules', async () => {
      await run('seeded-faults');
      expect((await faults()).map((f) => f.service)).toEqual(['item_inquiry', '*', '*']);
      await fetch(`${mock.url}/__admin/faults`, { method: 'DELETE' });
    });

    it('id=provider-state: the flat values a verifier injects', async () => {
      expect(json(await run('provider-state'))).toMatchObject({
        mfr_code: 'GAT',
        part_number: 'K060882',
        related_part_number: expect.any(String),
      });
    });
  });
});
