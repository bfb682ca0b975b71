import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { undiciTimeoutsFor } from '../../shared/http/undici-timeouts';
import {
  bothLeftToStandIn,
  DEADLINE_MS,
  LATE_MS,
  LATE_PATHS,
  listenLate,
  STAND_IN_DEFAULTS,
  STAND_IN_FAILURES,
} from '../../shared/testing/late-replies';
import { listen, type Listening } from '../../shared/http/listen';
import { loadFixture } from '../../contracts/payload-examples';
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

// undici's own timeouts must not end an exchange the deadline still allows (shared/testing/
// late-replies.ts): the pool here stands in for undici's defaults at 300 ms, the load client's
// options on top, as they go on top of undici's real ones.
describe('undici timeouts under the deadline', () => {
  const given: Pool.Options[] = [];
  const poolWithStandInDefaults: LoadPoolFactory = (origin, options) => {
    given.push(options);
    return new Pool(origin, { ...STAND_IN_DEFAULTS, ...options });
  };
  let late: Listening;
  beforeAll(async () => {
    late = await listenLate(JSON.stringify(honest));
  });
  afterAll(() => late.close());

  it('the stand-in defaults alone fail both late replies (the test can see the fault)', async () => {
    expect(await bothLeftToStandIn(late.url)).toEqual(STAND_IN_FAILURES);
  });

  it(`counts replies ${LATE_MS} ms late under a ${DEADLINE_MS} ms deadline as answered, headers or body late`, async () => {
    const clients = LATE_PATHS.map((path) =>
      createLoadClient({ sellerUrl: `${late.url}${path}`, timeoutMs: DEADLINE_MS }, 1, poolWithStandInDefaults),
    );
    try {
      expect(given).toHaveLength(2);
      for (const options of given) expect(options).toMatchObject(undiciTimeoutsFor(DEADLINE_MS));
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
