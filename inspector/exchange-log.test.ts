import { describe, expect, it } from 'vitest';
import type { ExchangeRecord, ExchangeSummary } from './exchange';
import { createExchangeLog } from './exchange-log';

const record = (service: string): ExchangeRecord => ({
  at: new Date(0).toISOString(),
  service,
  member: null,
  request: {},
  http_status: 503,
  reply: 'down',
  duration_ms: 1,
  faults: [],
});

describe('createExchangeLog', () => {
  it('keeps the last `limit` exchanges, oldest first, with increasing ids', () => {
    const log = createExchangeLog({ limit: 3 });
    for (const s of ['a', 'b', 'c', 'd', 'e']) log.add(record(s));
    expect(log.recent().map((s) => [s.id, s.service])).toEqual([
      [3, 'c'],
      [4, 'd'],
      [5, 'e'],
    ]);
    expect(log.detail(4)?.service).toBe('d');
    expect(log.detail(2)).toBeUndefined(); // dropped
    expect(log.detail(6)).toBeUndefined(); // not yet
  });

  it('tells subscribers of each new exchange until they unsubscribe', () => {
    const log = createExchangeLog();
    const heard: ExchangeSummary[] = [];
    const unsubscribe = log.subscribe((s) => heard.push(s));
    log.add(record('item_inquiry'));
    unsubscribe();
    log.add(record('invoice'));
    expect(heard.map((s) => [s.id, s.service, s.verdict])).toEqual([[1, 'item_inquiry', 'error']]);
  });

  it('refuses a limit below 1', () => {
    expect(() => createExchangeLog({ limit: 0 })).toThrow(/limit/);
  });
});
