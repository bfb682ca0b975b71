import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, expectTypeOf, it, vi } from 'vitest';
import { packagePath } from '../../shared/package-root';
import { temporaryDirectory } from '../../shared/testing/temporary-directory';
import { docBlock } from '../../shared/testing/doc-blocks';
import * as toolkit from './index';
import {
  exploreSeller,
  KitInputError,
  loadSeller,
  SellerUnreachableError,
  startMockSeller,
  startRulesProxy,
  startStateServer,
  verifySeller,
  type ConformanceReport,
  type LoadReport,
  type RunningMockSeller,
  type StateMapFile,
  type VerificationReport,
  type VerifySellerOptions,
} from './index';

// The toolkit's entry point as a vendor's code meets it: the types it declares, and each function
// run in-process against our mock seller (honest, and breaking one reply rule). None of them
// may print or end the process: process.exit and both streams are watched throughout.

const STATE_MAP = 'fixtures/state-maps/mock-seller-explore.json';
const ALTERNATE_RULE = 'alternate.original-part';

let honest: RunningMockSeller;
let broken: RunningMockSeller;
const exit = vi.spyOn(process, 'exit');
const written = { stdout: vi.spyOn(process.stdout, 'write'), stderr: vi.spyOn(process.stderr, 'write') };

beforeAll(async () => {
  [honest, broken] = await Promise.all([
    startMockSeller(),
    // One broken rule: every alternate's original_part is wrong (Pact alone would pass it).
    startMockSeller({ faults: [{ service: 'item_inquiry', fault: { kind: 'wrong-original-part' } }] }),
  ]);
});
afterAll(async () => {
  await Promise.all([honest.close(), broken.close()]);
  expect(exit).not.toHaveBeenCalled();
});

/** Runs `call` and fails if anything reached stdout or stderr meanwhile. */
async function silently<T>(call: () => Promise<T>): Promise<T> {
  written.stdout.mockClear();
  written.stderr.mockClear();
  const result = await call();
  expect(written.stdout).not.toHaveBeenCalled();
  expect(written.stderr).not.toHaveBeenCalled();
  return result;
}

const mockStates = (seller: RunningMockSeller) => ({
  sellerUrl: `${seller.url}/seller`,
  statesUrl: `${seller.url}/__admin/provider-state`,
});

describe('the declared types', () => {
  it('are the options and reports of each function', () => {
    expectTypeOf(verifySeller).parameter(0).toEqualTypeOf<VerifySellerOptions>();
    expectTypeOf(verifySeller).returns.resolves.toEqualTypeOf<VerificationReport>();
    expectTypeOf(exploreSeller).returns.resolves.toEqualTypeOf<ConformanceReport>();
    expectTypeOf(loadSeller).returns.resolves.toEqualTypeOf<LoadReport>();
    expectTypeOf<VerifySellerOptions['stateMap']>().toEqualTypeOf<string | StateMapFile | undefined>();
    expectTypeOf(startStateServer).parameter(0).toHaveProperty('stateMap').toEqualTypeOf<string | StateMapFile>();
    expectTypeOf(startStateServer).returns.resolves.toHaveProperty('url').toBeString();
    expectTypeOf(startRulesProxy).parameter(0).toHaveProperty('port').toEqualTypeOf<number | undefined>();
    expectTypeOf<KitInputError['option']>().toBeString();
    expectTypeOf<SellerUnreachableError['sellerUrl']>().toBeString();
    // @ts-expect-error sellerUrl is required
    void verifySeller({ statesUrl: 'http://x' }).catch(() => {});
  });

  it('exports the six functions and the errors, nothing else at run time', () => {
    expect(Object.keys(toolkit).sort()).toEqual([
      'ExampleValuesError',
      'KitInputError',
      'ScenarioError',
      'SellerProtocolError',
      'SellerUnreachableError',
      'exploreSeller',
      'loadSeller',
      'startMockSeller',
      'startRulesProxy',
      'startStateServer',
      'verifySeller',
    ]);
  });
});

describe('verifySeller', () => {
  it('passes the honest mock seller: ok, every interaction passed, a progress event per interaction', async () => {
    const events: string[] = [];
    const report = await silently(() =>
      verifySeller({ ...mockStates(honest), onProgress: (e) => events.push(e.kind) }),
    );
    expect(report.rules).toEqual([]);
    expect(report.ok).toBe(true);
    expect(events.filter((k) => k === 'interaction')).toHaveLength(report.interactions.length);
  });

  it('fails a seller breaking one reply rule, naming that rule and only it', async () => {
    const report = await silently(() => verifySeller(mockStates(broken)));
    expect(report.ok).toBe(false);
    expect(report.rules.map((r) => r.rule)).toEqual([ALTERNATE_RULE]);
  });

  it('throws KitInputError naming the option at fault, SellerUnreachableError for a seller not listening', async () => {
    const option = (options: VerifySellerOptions) =>
      verifySeller(options).then(
        () => 'no error',
        (error: unknown) => error,
      );
    const bad = await option({ sellerUrl: 'not a url' });
    expect(bad).toBeInstanceOf(KitInputError);
    expect(bad).toMatchObject({
      option: 'sellerUrl',
      message: expect.stringMatching(/^sellerUrl: must be an http\(s\) URL/),
    });
    expect(await option({ ...mockStates(honest), statesUrl: undefined, stateMap: 'no-such-map.json' })).toMatchObject({
      option: 'stateMap',
      message: expect.stringContaining('no-such-map.json'),
    });
    expect(await option({ ...mockStates(honest), timeoutMs: -1 })).toMatchObject({ option: 'timeoutMs' });
    expect(await option({ ...mockStates(honest), notOffered: ['part exists'] })).toMatchObject({
      option: 'notOffered',
    });
    const down = await option({ sellerUrl: 'http://127.0.0.1:1/seller' });
    expect(down).toBeInstanceOf(SellerUnreachableError);
    expect(down).toMatchObject({
      sellerUrl: 'http://127.0.0.1:1/seller',
      reason: expect.stringContaining('ECONNREFUSED'),
    });
  });

  it('returns a report that says it stopped when its signal is aborted, with nothing run', async () => {
    const report = await silently(() => verifySeller({ ...mockStates(honest), signal: AbortSignal.abort('enough') }));
    expect(report.stopped).toBe('enough');
    expect(report.ok).toBe(false);
    expect(report.interactions.every((i) => i.pact === 'not-run')).toBe(true);
  });
});

describe('exploreSeller and loadSeller', () => {
  it('explore: a small seeded run on the honest seller, the conformance report the command prints', async () => {
    const report = await silently(() =>
      exploreSeller({ sellerUrl: `${honest.url}/seller`, stateMap: STATE_MAP, runs: 30, seed: 7, concurrency: 2 }),
    );
    expect(report.runs).toEqual({ planned: 30, done: 30 });
    expect(report.failures).toEqual([]);
    expect(report.ok).toBe(true);
  });

  it('explore: a state map given as an object, and one that names parts the seller lacks (KitInputError naming stateMap)', async () => {
    const map = JSON.parse(readFileSync(packagePath(STATE_MAP), 'utf8')) as StateMapFile;
    const report = await exploreSeller({ sellerUrl: `${honest.url}/seller`, stateMap: map, runs: 5, seed: 1 });
    expect(report.catalogue).toBe('state map (given as an object)');
    const lacking = await exploreSeller({
      sellerUrl: `${honest.url}/seller`,
      stateMap: { ...map, states: { ...map.states, 'part exists': { mfr_code: 'ACD', part_number: '41-999' } } },
      runs: 5,
    }).catch((e: unknown) => e);
    expect(lacking).toMatchObject({
      option: 'stateMap',
      message: expect.stringContaining('your system does not have'),
    });
  });

  it('load: two short closed steps on the honest seller, the verdict and every step', async () => {
    const steps: number[] = [];
    const report = await silently(() =>
      loadSeller({
        sellerUrl: `${honest.url}/seller`,
        stateMap: STATE_MAP,
        concurrency: [1, 2],
        stepSeconds: 0.3,
        orders: false,
        seed: 3,
        onProgress: (e) => e.kind === 'step' && steps.push(e.step.exchanges),
      }),
    );
    expect(report.steps).toHaveLength(2);
    expect(steps).toEqual(report.steps.map((s) => s.exchanges));
    expect(report.verdict.rules_broken).toEqual([]);
    expect(report.verdict.ok).toBe(true);
    await expect(
      loadSeller({ sellerUrl: `${honest.url}/seller`, stateMap: STATE_MAP, concurrency: [4, 2] }),
    ).rejects.toMatchObject({ option: 'concurrency' });
  });
});

describe('the servers', () => {
  it('startStateServer answers a state change from the map; startRulesProxy relays and judges through its options', async () => {
    const states = await startStateServer({ stateMap: STATE_MAP });
    const proxy = await startRulesProxy({
      sellerUrl: `${broken.url}/seller`,
      rejectBroken: true,
      host: '127.0.0.1',
      port: 0,
    });
    try {
      const answer = await fetch(`${states.url}/states`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ state: 'part exists', params: {}, action: 'setup' }),
      });
      expect(answer.status).toBe(200);
      expect(await answer.json()).toHaveProperty('part_number');
      const inquiry = await fetch(proxy.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          service: 'item_inquiry',
          locations: [{ id: 'L101', member: 'M1', account: 'A1' }],
          items: [{ id: 'a-1', mfr_code: 'MOT', part_number: 'BRF1478' }],
        }),
      });
      expect(inquiry.status).toBe(502);
      expect(JSON.stringify(await inquiry.json())).toContain(ALTERNATE_RULE);
    } finally {
      await Promise.all([states.close(), proxy.close()]);
    }
    await expect(
      startStateServer({ stateMap: { states: { 'no such state': {} } } as unknown as StateMapFile }),
    ).rejects.toMatchObject({ option: 'stateMap' });
  });
});

describe("the vendor's programmatic API page", () => {
  const PAGE = 'docs/vendor/programmatic-api.md';
  const example = (name: string) => readFileSync(packagePath('packages/toolkit/examples', name), 'utf8');

  it("shows the examples exactly as they run here (the vitest one importing the package's name)", () => {
    expect(docBlock(PAGE, 'example-seller-contract').text).toBe(
      example('seller-contract.test.ts').replace("from '../index'", "from '@federated-gateway/toolkit'"),
    );
    expect(docBlock(PAGE, 'example-verify-seller').text).toBe(example('verify-seller.mjs'));
  });

  describe('its plain Node script', () => {
    const env = { ...process.env };
    afterEach(() => {
      process.env = { ...env };
      process.exitCode = undefined;
    });
    /**
     * The script as a vendor runs it (its import resolved to this entry point), in-process: what it
     * printed and its exit code.
     */
    async function runScript(settings: Record<string, string>) {
      const file = join(temporaryDirectory('toolkit-script'), 'verify-seller.mjs');
      writeFileSync(
        file,
        example('verify-seller.mjs').replace(
          "'@federated-gateway/toolkit'",
          `'${pathToFileURL(packagePath('packages/toolkit/index.ts')).href}'`,
        ),
      );
      Object.assign(process.env, settings);
      const log = vi.spyOn(console, 'log').mockImplementation(() => {});
      const error = vi.spyOn(console, 'error').mockImplementation(() => {});
      try {
        await import(/* @vite-ignore */ pathToFileURL(file).href);
        return {
          out: log.mock.calls.flat().join('\n'),
          err: error.mock.calls.flat().join('\n'),
          code: process.exitCode,
        };
      } finally {
        log.mockRestore();
        error.mockRestore();
      }
    }

    it('exits 1 naming the broken rule, 2 for a seller that cannot be reached', async () => {
      const failed = await runScript({
        SELLER_URL: `${broken.url}/seller`,
        STATES_URL: `${broken.url}/__admin/provider-state`,
      });
      expect(failed.out).toContain(`broken: ${ALTERNATE_RULE}`);
      expect(failed.out).toMatch(/FAILED$/);
      expect(failed.err).toMatch(/^\[1\/\d+\] /);
      expect(failed.code).toBe(1);
      const down = await runScript({
        SELLER_URL: 'http://127.0.0.1:1/seller',
        STATES_URL: 'http://127.0.0.1:1/states',
      });
      expect(down.err).toContain('cannot be reached');
      expect(down.code).toBe(2);
    });
  });
});
