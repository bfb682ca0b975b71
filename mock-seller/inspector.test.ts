import { describe, expect, it } from 'vitest';
import type { ItemInquirySellerRequest } from '../contracts/index';
import { createMockSeller, FAULT_HEADER } from './index';
import { readDefaultScenario } from './default-scenario';
import { createJournal } from './journal';

// The inspector mounted at /__admin/ui over the journal: faults from the journal, verdicts
// from the contract's checkSellerReply.

const inquiry: ItemInquirySellerRequest = {
  service: 'item_inquiry',
  locations: [{ id: 'L101', member: 'M100', account: 'A-1001' }],
  items: [{ id: 'a', mfr_code: 'WIX', part_number: '51515' }],
};

const json = async (res: Response | Promise<Response>): Promise<any> => (await res).json();

describe('the inspector at /__admin/ui', () => {
  it('serves the page', async () => {
    const seller = createMockSeller(await readDefaultScenario());
    const page = await seller.app.request('/__admin/ui');
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('data-base="/__admin/ui"');
  });

  it('lists honest and faulty exchanges with member, faults applied and verdict', async () => {
    const seller = createMockSeller(await readDefaultScenario());
    await seller.app.request('/seller', { method: 'POST', body: JSON.stringify(inquiry) });
    await seller.app.request('/seller', {
      method: 'POST',
      body: JSON.stringify(inquiry),
      headers: { [FAULT_HEADER]: 'wrong-original-part' },
    });
    await seller.app.request('/seller', { method: 'POST', body: '{"service": "nope"}' });
    const { limit, exchanges } = await json(seller.app.request('/__admin/ui/exchanges'));
    expect(limit).toBe(1000);
    expect(exchanges.map((s: any) => [s.service, s.member, s.faults, s.verdict, s.rules])).toEqual([
      ['item_inquiry', 'M100', [], 'ok', []],
      ['item_inquiry', 'M100', ['wrong-original-part'], 'broken', ['alternate.original-part']],
      [null, null, [], 'error', []],
    ]);
    expect(exchanges[2].problem).toMatch(/service/);
    const detail = await json(seller.app.request(`/__admin/ui/exchanges/${exchanges[1].id}`));
    expect(detail.violations[0]).toMatchObject({
      rule: 'alternate.original-part',
      expected: '51515',
      path: expect.stringMatching(/^\/items\/\d+\/original_part$/),
    });
  });

  it('keeps the journal limit as its history', async () => {
    const seller = createMockSeller(await readDefaultScenario(), { journalLimit: 2 });
    for (let i = 0; i < 3; i++) await seller.app.request('/seller', { method: 'POST', body: JSON.stringify(inquiry) });
    const { limit, exchanges } = await json(seller.app.request('/__admin/ui/exchanges'));
    expect(limit).toBe(2);
    expect(exchanges.map((s: any) => s.id)).toEqual([2, 3]);
    expect((await seller.app.request('/__admin/ui/exchanges/1')).status).toBe(404);
  });
});

describe('journal get and subscribe', () => {
  const record = (n: number) => ({
    startedAt: n,
    elapsed_ms: 1,
    service: 'invoice',
    requestText: `{"n":${n}}`,
    http_status: 200,
    reply: { n },
  });

  it('finds a retained entry by seq, and nothing once it is dropped', () => {
    const journal = createJournal(3);
    for (let n = 1; n <= 5; n++) journal.record(record(n));
    expect(journal.get(5)?.request).toEqual({ n: 5 });
    expect(journal.get(3)?.request).toEqual({ n: 3 });
    expect(journal.get(2)).toBeUndefined();
    expect(journal.get(6)).toBeUndefined();
    journal.clear();
    expect(journal.get(5)).toBeUndefined();
  });

  it('tells listeners of each entry until they unsubscribe', () => {
    const journal = createJournal(3);
    const heard: number[] = [];
    const unsubscribe = journal.subscribe((entry) => heard.push(entry.seq));
    journal.record(record(1));
    journal.record(record(2));
    unsubscribe();
    journal.record(record(3));
    expect(heard).toEqual([1, 2]);
  });
});
