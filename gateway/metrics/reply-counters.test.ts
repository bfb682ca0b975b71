import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestStore } from '../testing/test-store';
import type { Store } from '../store/store';
import { createGatewayMetrics } from './gateway-metrics';

// Conformance in Prometheus: the denominator beside each numerator, once per reply, and every
// live member exported at 0 before its first reply (the "no replies" alert needs the series).

let store: Store;
beforeAll(async () => {
  store = await createTestStore();
  await store.query(`UPDATE members SET status = 'suspended' WHERE id = 'M200'`);
});
afterAll(() => store.close());

describe('reply counters', () => {
  it('count replies judged, broken by any rule and by each, and show live members at 0', async () => {
    const metrics = createGatewayMetrics({ store, processMetrics: false });
    let text = await metrics.registry.metrics();
    expect(text).toContain('gateway_replies_judged_total{member="M100",operation="item-inquiry"} 0');
    expect(text).toContain('gateway_replies_judged_total{member="M100",operation="statement"} 0');
    expect(text).not.toContain('member="M200"'); // suspended: no traffic is expected
    metrics.replyJudged('M100', 'item-inquiry', []);
    metrics.replyJudged('M100', 'item-inquiry', ['item.id-echo', 'location.duplicate']);
    metrics.replyJudged('M100', 'item-inquiry', ['item.id-echo']);
    text = await metrics.registry.metrics();
    expect(text).toContain('gateway_replies_judged_total{member="M100",operation="item-inquiry"} 3');
    expect(text).toContain('gateway_replies_nonconforming_total{member="M100",operation="item-inquiry"} 2');
    expect(text).toContain(
      'gateway_replies_broken_total{member="M100",operation="item-inquiry",rule="item.id-echo"} 2',
    );
    expect(text).toContain(
      'gateway_replies_broken_total{member="M100",operation="item-inquiry",rule="location.duplicate"} 1',
    );
    // A second scrape says the same: values are written out, not added again.
    expect(await metrics.registry.metrics()).toBe(text);
  });
});
