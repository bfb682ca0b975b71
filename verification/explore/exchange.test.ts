import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFixture } from '../../contracts/payload-examples';
import type { Listening } from '../../shared/http/listen';
import {
  bothLeftToStandIn,
  DEADLINE_MS,
  LATE_MS,
  LATE_PATHS,
  listenLate,
  STAND_IN_FAILURES,
  withStandInGlobalDispatcher,
} from '../../shared/testing/late-replies';
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
  it('names reply.not-json for an HTML 200, quoting the first bytes as the text they were', async () => {
    const outcome = await exchange(target('/html-200'), inquiry);
    expect(outcome.findings).toHaveLength(1);
    const [finding] = outcome.findings;
    expect(finding.rule).toBe('reply.answer');
    expect(finding.message).toMatch(
      /^reply\.not-json: the seller answered HTTP 200 with content-type 'text\/html', not application\/json; first bytes: "<html><head><title>seller error<\/title>/,
    );
    expect(finding.found).toMatchObject({ content_type: 'text/html' });
    expect(JSON.stringify(outcome)).not.toContain('\\u003c');
  });

  it('says HTTP 500 and reply.not-json for an HTML error page', async () => {
    const outcome = await exchange(target('/html-500'), inquiry);
    expect(outcome.httpStatus).toBe(500);
    expect(outcome.findings[0].message).toMatch(
      /^HTTP 500: reply\.not-json: the seller answered HTTP 500 with content-type 'text\/html; charset=utf-8'/,
    );
    expect(outcome.findings[0].message).toContain('first bytes: "<html><head>');
  });

  it('names reply.not-json for HTML under a JSON content type', async () => {
    const outcome = await exchange(target('/html-as-json'), inquiry);
    expect(outcome.findings[0].message).toMatch(
      /^reply\.not-json: the seller answered HTTP 200 with a body that is not JSON/,
    );
  });

  it('stops an endless reply at the limit: reply.too-large, and the seller sees the reader hang up', async () => {
    const outcome = await exchange(target('/endless', 32 * 1024), inquiry);
    expect(outcome.findings).toEqual([
      expect.objectContaining({
        rule: 'reply.answer',
        message: expect.stringMatching(
          /^reply\.too-large: the seller's reply \(HTTP 200\) passed the limit of 32 KiB \(32768 bytes\) \(--max-reply-bytes\)/,
        ),
      }),
    ]);
    const stream = seller.streams[seller.streams.length - 1];
    await expect.poll(() => stream.closedByReader, { timeout: 5_000 }).toBe(true);
    expect(stream.written).toBeLessThan(32 * 1024 * 1024);
  });
});

// fetch() goes through the global dispatcher unless told, whose 300 s timeouts would end a
// longer --timeout first (shared/testing/late-replies.ts): with the global dispatcher standing in
// at 300 ms, late replies under the deadline are still answered only if the exchange does not
// leave its timeouts to it.
describe('undici timeouts under --timeout', () => {
  const inquiryOfFixture = {
    operation: 'item-inquiry',
    request: loadFixture('item-inquiry', 'seller-request'),
  } as ExploreCase;
  let late: Listening;
  beforeAll(async () => {
    late = await listenLate(JSON.stringify(loadFixture('item-inquiry', 'seller-reply')));
  });
  afterAll(() => late.close());

  it('the stand-in fails both late replies for a fetch left to it (the test can see the fault)', async () => {
    expect(await bothLeftToStandIn(late.url)).toEqual(STAND_IN_FAILURES);
  });

  it(`answers replies ${LATE_MS} ms late under a ${DEADLINE_MS} ms --timeout, headers or body late`, async () => {
    const outcomes = await withStandInGlobalDispatcher(() =>
      Promise.all(
        LATE_PATHS.map((path) =>
          exchange({ sellerUrl: `${late.url}${path}`, timeoutMs: DEADLINE_MS }, inquiryOfFixture),
        ),
      ),
    );
    for (const outcome of outcomes) {
      expect(outcome).toMatchObject({ httpStatus: 200, findings: [] });
      expect(outcome.waitMs).toBeGreaterThanOrEqual(LATE_MS - 50);
    }
  });
});
