import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockSeller, verifySeller, type RunningMockSeller } from '../index';

// Your seller system's contract test. Here the toolkit's mock seller stands in for your
// system: start yours instead (or point sellerUrl at one already running), and give your
// state map (stateMap: 'state-map.json') or your provider-state callback (statesUrl).

let seller: RunningMockSeller;
beforeAll(async () => {
  seller = await startMockSeller();
});
afterAll(() => seller.close());

describe('our seller system', () => {
  // 15 exchanges take seconds against a seller answering in 250 ms: more than vitest's default 5 s.
  it('honours the Federated Gateway contract: the pact and every reply rule', { timeout: 120_000 }, async () => {
    const report = await verifySeller({
      sellerUrl: `${seller.url}/seller`,
      statesUrl: `${seller.url}/__admin/provider-state`,
    });
    // Each broken rule names the interaction, the item id and the path at fault.
    expect(report.rules).toEqual([]);
    expect(report.ok).toBe(true);
  });
});
