import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../testing/test-gateway';
import { createDrain } from '../../shared/http/drain';
import { HealthReply } from '../../shared/http/health-reply';
import { Value } from '@sinclair/typebox/value';
import { DRAINING_MESSAGE } from './health-route';

// /health while the instance drains: 503 with reason `draining` (the balancer's check takes it
// out), while every other route still serves.

const drain = createDrain({ drainMs: 60_000 });
let gw: TestGateway;
beforeAll(async () => (gw = await startTestGateway({ draining: drain.draining })));
afterAll(() => gw.close());

describe('health while draining', () => {
  it('answers 200 while serving, then 503 with reason draining once the drain begins, and still serves the buyer', async () => {
    expect((await gw.app.request('/health')).status).toBe(200);
    void drain.begin();
    const health = await gw.app.request('/health');
    const body = await health.json();
    expect([health.status, health.headers.get('retry-after')]).toEqual([503, '1']);
    expect(body).toEqual({
      status: 'unavailable',
      reason: 'draining',
      store: gw.store.kind,
      message: DRAINING_MESSAGE,
    });
    expect(Value.Check(HealthReply, body)).toBe(true);
    const inquiry = await gw.post('/json/federated/v3_2/item_inquiry', {
      items: [{ id: '1', mfr_code: 'WIX', part_number: '51515' }],
    });
    expect(inquiry.status).toBe(200);
    await drain.skip();
  });
});
