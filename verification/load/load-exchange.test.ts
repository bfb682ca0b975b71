import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { undiciTimeoutsFor } from '../../shared/http/undici-timeouts';
import { listen, type Listening } from '../../shared/http/listen';
import { loadFixture } from '../../contracts/testing/fixtures';
import type { ExploreCase } from '../explore/generators';
import { createLoadClient, type LoadClient, type LoadPoolFactory } from './load-exchange';

// The load exchange remembers the last reply judged per request: a byte-identical reply gets
// the same verdict, any other is judged afresh — so a seller that starts breaking a rule
// mid-run is caught on the first changed reply. A seller of our own here, answering the
// contract's example reply (or a spoiled copy, or late) as the test says.

const request = loadFixture('item-inquiry', 'seller-request');
const honest = loadFixture('item-inquiry', 'seller-reply');
const inquiry = { operation: 'item-inquiry', request } as ExploreCase;
let next: { body: unknown; delayMs?: number } = { body: honest };

let seller: Listening;
let client: LoadClient;
beforeAll(async () => {
  seller = await listen(async () => {
    const { body, delayMs } = next;
    if (delayMs !== undefined) await new Promise((r) => setTimeout(r, delayMs));
    return Response.json(body);
  });
  client = createLoadClient({ sellerUrl: `${seller.url}/seller`, timeoutMs: 5000 }, 2);
});
afterAll(async () => {
  await client.close();
  await seller.close();
});

it('judges a changed reply afresh, and a repeated one the same', async () => {
  expect((await client.exchange(inquiry)).findings).toEqual([]);
  expect((await client.exchange(inquiry)).findings).toEqual([]);
  const spoiled = structuredClone(honest);
  spoiled.items[0].id = 'not-asked-for';
  next = { body: spoiled };
  expect((await client.exchange(inquiry)).findings.map((f) => f.rule)).toContain('item.unknown-id');
  expect((await client.exchange(inquiry)).findings.map((f) => f.rule)).toContain('item.unknown-id');
  next = { body: honest };
  expect((await client.exchange(inquiry)).findings).toEqual([]);
});

it('reports a reply past the deadline as a timeout', async () => {
  const slow = createLoadClient({ sellerUrl: `${seller.url}/seller`, timeoutMs: 50 }, 1);
  next = { body: honest, delayMs: 400 };
  const outcome = await slow.exchange(inquiry);
  next = { body: honest };
  await slow.close();
  expect(outcome).toMatchObject({ httpStatus: null, timedOut: true });
  expect(outcome.findings[0].message).toMatch(/no answer within 50 ms/);
});

it('stops reading a reply past --max-reply-bytes and reports reply.too-large', async () => {
  const small = createLoadClient({ sellerUrl: `${seller.url}/seller`, timeoutMs: 5000, maxReplyBytes: 256 }, 1);
  const outcome = await small.exchange(inquiry);
  await small.close();
  expect(outcome.httpStatus).toBe(200);
  expect(outcome.findings).toHaveLength(1);
  expect(outcome.findings[0].message).toMatch(/^reply\.too-large: .*limit of 256 bytes/);
});

// undici's own timeouts (300 s for headers and between body chunks) must not end an exchange
// the deadline still allows. Waiting 300 s is no test, so the pool here stands in for undici's
// defaults with 300 ms ones (undici's coarse timers fire them after about 1 to 1.5 s) and the
// load client's options go on top: without the client's own timeouts, a reply whose headers
// or rest come 2 s late under a 2.6 s deadline is a transport error; with them, it is answered.
describe('undici timeouts under the deadline', () => {
  const LATE_MS = 2000;
  const STAND_IN_DEFAULTS = { headersTimeout: 300, bodyTimeout: 300 };
  const given: Pool.Options[] = [];
  const poolWithStandInDefaults: LoadPoolFactory = (origin, options) => {
    given.push(options);
    return new Pool(origin, { ...STAND_IN_DEFAULTS, ...options });
  };
  const replyText = JSON.stringify(honest);
  const half = Math.floor(replyText.length / 2);
  let late: Listening;
  beforeAll(async () => {
    // The path says what is late: /late-headers, or /late-body (headers and half the body now, the rest later).
    late = await listen(async (req) => {
      const headers = { 'content-type': 'application/json' };
      if (new URL(req.url).pathname === '/late-headers') {
        await new Promise((r) => setTimeout(r, LATE_MS));
        return new Response(replyText, { headers });
      }
      const body = new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(new TextEncoder().encode(replyText.slice(0, half)));
          await new Promise((r) => setTimeout(r, LATE_MS));
          controller.enqueue(new TextEncoder().encode(replyText.slice(half)));
          controller.close();
        },
      });
      return new Response(body, { headers });
    });
  });
  afterAll(() => late.close());

  it('the stand-in defaults alone fail both late replies (the test can see the fault)', async () => {
    const pool = new Pool(late.url, { ...STAND_IN_DEFAULTS, connections: 2 });
    try {
      const read = async (path: string) => (await pool.request({ method: 'POST', path, body: '{}' })).body.text();
      const [headersLate, bodyLate] = await Promise.allSettled([read('/late-headers'), read('/late-body')]);
      expect(headersLate).toMatchObject({ status: 'rejected', reason: { code: 'UND_ERR_HEADERS_TIMEOUT' } });
      expect(bodyLate).toMatchObject({ status: 'rejected', reason: { code: 'UND_ERR_BODY_TIMEOUT' } });
    } finally {
      await pool.destroy();
    }
  });

  it('counts replies 2 s late under a 2.6 s deadline as answered, headers or body late', async () => {
    const clients = ['/late-headers', '/late-body'].map((path) =>
      createLoadClient({ sellerUrl: `${late.url}${path}`, timeoutMs: 2600 }, 1, poolWithStandInDefaults),
    );
    try {
      expect(given).toHaveLength(2);
      for (const options of given) expect(options).toMatchObject(undiciTimeoutsFor(2600));
      const outcomes = await Promise.all(clients.map((client) => client.exchange(inquiry)));
      for (const outcome of outcomes) {
        expect(outcome).toMatchObject({ httpStatus: 200, timedOut: false, findings: [] });
        expect(outcome.waitMs).toBeGreaterThanOrEqual(LATE_MS - 50);
      }
    } finally {
      await Promise.all(clients.map((client) => client.close()));
    }
  });
});
