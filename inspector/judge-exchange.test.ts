import { describe, expect, it } from 'vitest';
import { loadFixture } from '../contracts/payload-examples';
import type { ExchangeRecord } from './exchange';
import { judgeExchange, summaryOf } from './judge-exchange';

const exchange = (over: Partial<ExchangeRecord> = {}): ExchangeRecord => ({
  at: '2026-11-23T10:00:00.000Z',
  service: 'item_inquiry',
  member: 'M100',
  request: loadFixture('item-inquiry', 'seller-request'),
  http_status: 200,
  reply: loadFixture('item-inquiry', 'seller-reply'),
  duration_ms: 3.14159,
  faults: [],
  ...over,
});

describe('judgeExchange', () => {
  it('an honest reply is ok, with no rules and no problem', () => {
    const detail = judgeExchange(7, exchange());
    expect(detail).toMatchObject({ id: 7, verdict: 'ok', rules: [], errors: [], violations: [], duration_ms: 3.14 });
    expect(detail.problem).toBeUndefined();
  });

  it('a wrong original_part is broken, with the rule at its JSON path, expected and found', () => {
    const reply = loadFixture('item-inquiry', 'seller-reply');
    reply.items[1].original_part = 'WRONG';
    const detail = judgeExchange(1, exchange({ reply, faults: ['wrong-original-part'] }));
    expect(detail.verdict).toBe('broken');
    expect(detail.rules).toEqual(['alternate.original-part']);
    expect(detail.violations).toEqual([
      expect.objectContaining({
        rule: 'alternate.original-part',
        path: '/items/1/original_part',
        expected: 'BP-1001',
        found: 'WRONG',
      }),
    ]);
    expect(detail.problem).toMatch(/^alternate\.original-part: /);
  });

  it('a reply that breaks the schema is broken under the rule name "schema"', () => {
    const reply = loadFixture('item-inquiry', 'seller-reply');
    delete reply.items[0].status_code;
    const detail = judgeExchange(1, exchange({ reply }));
    expect(detail).toMatchObject({ verdict: 'broken', rules: ['schema'] });
    expect(detail.errors.length).toBeGreaterThan(0);
  });

  it.each([
    ['no answer', { http_status: null, reply: null, outcome: 'connection reset' }, 'connection reset'],
    ['an HTTP error', { http_status: 503, reply: 'down' }, 'HTTP 503'],
    ['a body that is not JSON', { reply: '{"status_code": 2000, "items": [' }, 'the reply body is not JSON'],
    ['an unknown service', { service: null, http_status: 400 }, 'the request names no known service'],
  ])('%s is an error with nothing judged', (_name, over, problem) => {
    const detail = judgeExchange(1, exchange(over as Partial<ExchangeRecord>));
    expect(detail).toMatchObject({ verdict: 'error', rules: [], violations: [], errors: [], problem });
  });

  it('the summary leaves the bodies out', () => {
    const summary = summaryOf(judgeExchange(1, exchange()));
    expect(Object.keys(summary).sort()).toEqual([
      'at',
      'duration_ms',
      'faults',
      'http_status',
      'id',
      'member',
      'rules',
      'service',
      'verdict',
    ]);
  });
});
