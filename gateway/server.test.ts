import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockSeller, type RunningMockSeller } from '../mock-seller/index';
import { mintDevToken } from './auth/dev-keys';
import { startGatewayServer, type RunningGateway } from './server';
import { listen, type Listening } from '../shared/http/listen';

// The server file: wired from the environment, seeded on a fresh store, and shut down
// gracefully — a request in flight when shutdown begins still gets its answer.

let seller: RunningMockSeller;
let gateway: RunningGateway;
// Between the gateway and the mock seller: holds each seller request until the test opens it,
// so a request is known to be in flight when shutdown begins, without timing it.
let door: Listening;
let arrived = () => {};
let open = () => {};
const arrival = new Promise<void>((resolve) => (arrived = resolve));
const opened = new Promise<void>((resolve) => (open = resolve));

beforeAll(async () => {
  seller = await startMockSeller();
  door = await listen(async (request) => {
    arrived();
    await opened;
    const answer = await fetch(`${seller.url}/seller`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: await request.text(),
    });
    return new Response(await answer.text(), {
      status: answer.status,
      headers: { 'content-type': 'application/json' },
    });
  });
  // The env given reaches the seeds (the seller URL every member points at).
  gateway = await startGatewayServer(
    {
      GATEWAY_DATA_DIR: 'memory',
      GATEWAY_HOST: '127.0.0.1',
      GATEWAY_LOG: 'off',
      MOCK_SELLER_URL: `${door.url}/seller`,
    },
    { port: 0 },
  );
});
afterAll(async () => {
  open();
  await gateway.close();
  await door.close();
  await seller.close();
});

describe('gateway server', () => {
  it('refuses to start on a variable set to something unusable, naming each one, before opening anything', async () => {
    await expect(
      startGatewayServer({
        GATEWAY_DATA_DIR: 'memory',
        GATEWAY_PORT: 'eighty',
        GATEWAY_RATE_LIMIT: '0',
        DATABASE_URL: 'mysql://db',
      }),
    ).rejects.toThrow(
      "GATEWAY_PORT must be an integer ≥ 0 and ≤ 65535, not 'eighty'; GATEWAY_RATE_LIMIT must be an " +
        "integer ≥ 1, not '0'; DATABASE_URL must be a URL (postgres://… or postgresql://…), not 'mysql://db'",
    );
  });

  it('serves a seeded store and lets an in-flight request finish on shutdown', async () => {
    const token = await mintDevToken();
    expect((await fetch(`${gateway.url}/health`)).status).toBe(200);

    const slow = fetch(`${gateway.url}/json/federated/v3_2/item_inquiry`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        items: [{ id: '1', mfr_code: 'WIX', part_number: '51515' }],
        locations: [{ id: 'L101', member: 'M100', account: 'A-1001' }],
      }),
    });
    await Promise.race([arrival, slow]); // at the seller: in flight (or answered early, which the checks below refuse)
    const closing = gateway.close();
    open();

    const response = await slow;
    expect(response.status).toBe(200);
    expect(((await response.json()) as { status_code: number }).status_code).toBe(2000);
    await closing;
    await expect(fetch(`${gateway.url}/health`)).rejects.toThrow();
  });
});
