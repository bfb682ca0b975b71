import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockSeller, type RunningMockSeller } from '../mock-seller/index';
import { mintDevToken } from './auth/dev-keys';
import { startGatewayProcess, type GatewayProcess } from './testing/gateway-process';
import { killAllNodeChildren } from './testing/node-child';

// The gateway process and its signals (npm run gateway): SIGHUP without workers is logged and
// ignored; SIGTERM drains (/health 503, buyers still served); a second SIGTERM skips the rest of
// the drain and the process exits 0. The drain itself, on a hand-driven clock, is in
// shared/http/drain.test.ts.

let seller: RunningMockSeller;
let gateway: GatewayProcess;
// node-child keeps only the start-up lines; the signal lines come after.
let stderr = '';
beforeAll(async () => {
  seller = await startMockSeller();
  // A drain far longer than the test: the second SIGTERM must be what ends it. Its own store in
  // memory, whatever DATABASE_URL CI sets: a shared PostgreSQL's members call other tests' sellers.
  gateway = await startGatewayProcess({
    env: {
      DATABASE_URL: '',
      GATEWAY_DATA_DIR: 'memory',
      GATEWAY_LOG: 'off',
      GATEWAY_DRAIN_MS: '60000',
      MOCK_SELLER_URL: `${seller.url}/seller`,
    },
  });
  gateway.process.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
}, 60_000);
afterAll(async () => {
  await killAllNodeChildren();
  await seller.close();
});

const until = async (what: string, check: () => boolean | Promise<boolean>) => {
  const giveUp = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > giveUp) throw new Error(`waited 10 s for ${what}:\n${gateway.output()}${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

describe('gateway process signals', () => {
  it('refuses an unparsable GATEWAY_DRAIN_MS at start, naming it (exit 2)', async () => {
    const error = await startGatewayProcess({
      env: { DATABASE_URL: '', GATEWAY_DATA_DIR: 'memory', GATEWAY_DRAIN_MS: '2s' },
    }).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).toContain('code 2');
    expect(error?.message).toContain("GATEWAY_DRAIN_MS must be an integer ≥ 0, not '2s'");
  });

  it('logs and ignores SIGHUP without workers, then drains on SIGTERM and exits 0 at a second one', async () => {
    process.kill(gateway.pid, 'SIGHUP');
    await until('the SIGHUP line', () => stderr.includes('gateway: SIGHUP ignored'));
    expect((await fetch(`${gateway.url}/health`)).status).toBe(200);

    process.kill(gateway.pid, 'SIGTERM');
    await until('/health to say draining', async () => (await fetch(`${gateway.url}/health`)).status === 503);
    const health = await fetch(`${gateway.url}/health`);
    expect(await health.json()).toMatchObject({ status: 'unavailable', reason: 'draining' });
    // Still serving buyers while the balancer takes it out.
    const inquiry = await fetch(`${gateway.url}/json/federated/v3_2/item_inquiry`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await mintDevToken()}`, 'content-type': 'application/json' },
      body: JSON.stringify({ items: [{ id: '1', mfr_code: 'WIX', part_number: '51515' }] }),
    });
    expect(inquiry.status).toBe(200);

    const started = Date.now();
    expect(await gateway.kill('SIGTERM')).toEqual({ code: 0, signal: null });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(stderr).toContain('gateway: SIGTERM while draining, skipping the rest of the drain');
  });

  it('writes the log line of every request answered before a stop (lines are written in batches)', async () => {
    const logged = await startGatewayProcess({
      env: { DATABASE_URL: '', GATEWAY_DATA_DIR: 'memory', GATEWAY_LOG: 'on', GATEWAY_DRAIN_MS: '0' },
    });
    let stdout = '';
    logged.process.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const stdoutClosed = new Promise((resolve) => logged.process.stdout!.once('close', resolve));
    const ids = Array.from({ length: 40 }, (_, i) => `last-before-stop-${i}`);
    // The stop comes with the first answer, the others still in flight: their lines are logged
    // as the server stops, while the batch of their turn may not have been written yet.
    let stopped: Promise<{ code: number | null; signal: NodeJS.Signals | null }> | undefined;
    const answered = await Promise.all(
      ids.map((id) =>
        fetch(`${logged.url}/no/such/path`, { headers: { 'x-request-id': id } }).then(
          async (r) => {
            stopped ??= logged.kill('SIGTERM');
            await r.text();
            return id;
          },
          () => undefined,
        ),
      ),
    );
    expect(await stopped).toEqual({ code: 0, signal: null });
    await stdoutClosed;
    const written = stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => (JSON.parse(line) as { request_id: string }).request_id);
    const answeredIds = answered.filter((id) => id !== undefined);
    expect(answeredIds.length).toBeGreaterThan(0);
    expect(written).toEqual(expect.arrayContaining(answeredIds));
  });
});
