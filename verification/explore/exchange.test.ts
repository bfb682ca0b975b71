import { Agent, getGlobalDispatcher, setGlobalDispatcher } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFixture } from '../../contracts/testing/fixtures';
import { listen, type Listening } from '../../shared/http/listen';
import { startMisbehavingSeller, type MisbehavingSeller } from '../testing/misbehaving-seller';
import { exchange } from './exchange';
import type { ExploreCase } from './generators';

// `verify --explore` meets a seller answering HTML, and one streaming without end: the
// finding is named, the seller's bytes are quoted escaped, and the read stops at the limit.

let seller: MisbehavingSeller;
beforeAll(async () => {
  seller = await startMisbehavingSeller();
});
afterAll(async () => {
  await seller.close();
});

const inquiry: ExploreCase = {
  operation: 'item-inquiry',
  request: {
    service: 'item_inquiry',
    locations: [{ id: 'L101', member: 'M100', account: 'A-1001' }],
    items: [{ id: 'a', mfr_code: 'WIX', part_number: '51515' }],
  },
};
const target = (path: string, maxReplyBytes?: number) => ({
  sellerUrl: `${seller.url}${path}`,
  timeoutMs: 10_000,
  ...(maxReplyBytes !== undefined ? { maxReplyBytes } : {}),
});

describe('an explored exchange with a reply that is not JSON, or too large', () => {
  it('names reply.not-json for an HTML 200, quoting the first bytes escaped', async () => {
    const outcome = await exchange(target('/html-200'), inquiry);
    expect(outcome.findings).toHaveLength(1);
    const [finding] = outcome.findings;
    expect(finding.rule).toBe('reply.answer');
    expect(finding.message).toMatch(
      /^reply\.not-json: the seller answered HTTP 200 with content-type 'text\/html', not application\/json; first bytes: "\\u003chtml\\u003e/,
    );
    expect(finding.found).toMatchObject({ content_type: 'text/html' });
    expect(JSON.stringify(outcome)).not.toContain('<script');
  });

  it('says HTTP 500 and reply.not-json for an HTML error page', async () => {
    const outcome = await exchange(target('/html-500'), inquiry);
    expect(outcome.httpStatus).toBe(500);
    expect(outcome.findings[0].message).toMatch(/^HTTP 500: reply\.not-json: the seller answered HTTP 500 with content-type 'text\/html; charset=utf-8'/);
    expect(outcome.findings[0].message).not.toContain('<');
  });

  it('names reply.not-json for HTML under a JSON content type', async () => {
    const outcome = await exchange(target('/html-as-json'), inquiry);
    expect(outcome.findings[0].message).toMatch(/^reply\.not-json: the seller answered HTTP 200 with a body that is not JSON/);
  });

  it('stops an endless reply at the limit: reply.too-large, and the seller sees the reader hang up', async () => {
    const outcome = await exchange(target('/endless', 32 * 1024), inquiry);
    expect(outcome.findings).toEqual([
      expect.objectContaining({
        rule: 'reply.answer',
        message: expect.stringMatching(/^reply\.too-large: the seller's reply \(HTTP 200\) passed the limit of 32 KiB \(32768 bytes\) \(--max-reply-bytes\)/),
      }),
    ]);
    const stream = seller.streams[seller.streams.length - 1];
    await expect.poll(() => stream.closedByReader, { timeout: 5_000 }).toBe(true);
    expect(stream.written).toBeLessThan(32 * 1024 * 1024);
  });
});

// fetch() goes through the global dispatcher, whose headers and body timeouts (300 s) would end
// a longer --timeout first. Waiting 300 s is no test, so the global dispatcher here stands in
// with 300 ms ones (undici's coarse timers fire them after about 1 to 1.5 s): a reply whose
// headers or rest come 2 s late under a 2.6 s --timeout must still be answered, which holds
// only if the exchange does not leave its timeouts to the global dispatcher.
describe('undici timeouts under --timeout', () => {
  const LATE_MS = 2_000;
  const request = loadFixture('item-inquiry', 'seller-request');
  const replyText = JSON.stringify(loadFixture('item-inquiry', 'seller-reply'));
  const half = Math.floor(replyText.length / 2);
  let late: Listening;
  beforeAll(async () => {
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

  async function withStandInGlobalDispatcher<T>(run: () => Promise<T>): Promise<T> {
    const original = getGlobalDispatcher();
    const standIn = new Agent({ headersTimeout: 300, bodyTimeout: 300 });
    setGlobalDispatcher(standIn);
    try {
      return await run();
    } finally {
      setGlobalDispatcher(original);
      await standIn.destroy();
    }
  }

  it('the stand-in fails both late replies for a fetch left to it (the test can see the fault)', async () => {
    const settled = await withStandInGlobalDispatcher(() =>
      Promise.allSettled(['/late-headers', '/late-body'].map(async (path) => (await fetch(`${late.url}${path}`, { method: 'POST', body: '{}' })).text())),
    );
    expect(settled.map((s) => s.status)).toEqual(['rejected', 'rejected']);
  });

  it('answers replies 2 s late under a 2.6 s --timeout, headers or body late', async () => {
    const inquiryOfFixture = { operation: 'item-inquiry', request } as ExploreCase;
    const outcomes = await withStandInGlobalDispatcher(() =>
      Promise.all(['/late-headers', '/late-body'].map((path) => exchange({ sellerUrl: `${late.url}${path}`, timeoutMs: 2_600 }, inquiryOfFixture))),
    );
    for (const outcome of outcomes) {
      expect(outcome).toMatchObject({ httpStatus: 200, findings: [] });
      expect(outcome.waitMs).toBeGreaterThanOrEqual(LATE_MS - 50);
    }
  });
});
