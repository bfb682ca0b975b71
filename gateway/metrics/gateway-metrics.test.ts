import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../testing/test-gateway';
import { createGateway, V3_2 } from '../app';
import { gatewayConfig } from '../gateway-config';
import { createInternalApi } from '../internal-api/internal-api';
import { createLocalAddressValidator } from '../address/local-address-validator';
import { createGatewayMetrics, type GatewayMetrics } from './gateway-metrics';

// /metrics on the internal API, behind its credential, showing what the gateway did: requests
// by route pattern and status, latency, seller calls by member and outcome, reply-rule
// violations by rule and member, breaker states and the mail outbox's depth.

const TOKEN = 'metrics-test-token-0123456789';
let gw: TestGateway;
let metrics: GatewayMetrics;
let app: ReturnType<typeof createGateway>;
let internal: ReturnType<typeof createInternalApi>;

beforeAll(async () => {
  gw = await startTestGateway();
  metrics = createGatewayMetrics({ store: gw.store, processMetrics: false });
  app = createGateway({
    store: gw.store,
    directory: gw.directory,
    sellerClient: gw.sellerClient,
    logger: false,
    metrics,
    config: gatewayConfig({
      forwardHeaders: ['x-mock-fault'],
      protection: { breakerFailures: 2, breakerCooldownMs: 60_000 },
    }),
  });
  internal = createInternalApi({
    store: gw.store,
    addressValidator: createLocalAddressValidator(),
    config: { token: TOKEN },
    metrics,
    log: () => {},
  });
});
afterAll(() => gw.close());

const AT_A = [{ id: 'L101', member: 'M100', account: 'A-1001' }];
const AT_B = [{ id: 'L201', member: 'M200', account: 'A-2001' }];
const inquire = async (locations: typeof AT_A, fault?: string) =>
  (
    await app.request(`${V3_2}/item_inquiry`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${await gw.token()}`,
        ...(fault ? { 'x-mock-fault': fault } : {}),
      },
      body: JSON.stringify({ items: [{ id: '1', mfr_code: 'WIX', part_number: '51515' }], locations }),
    })
  ).status;

const scrape = async () => {
  const response = await internal.request('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/plain');
  return response.text();
};

describe('GET /metrics on the internal API', () => {
  it('needs the internal credential', async () => {
    expect((await internal.request('/metrics')).status).toBe(401);
    expect(
      (await internal.request('/metrics', { headers: { authorization: 'Bearer wrong-token-0123456789' } })).status,
    ).toBe(401);
  });

  it('shows requests, latency, seller outcomes, violations, breaker states and the outbox', async () => {
    expect(await inquire(AT_B)).toBe(200);
    expect(await inquire(AT_B, 'drop-id')).toBe(502);
    expect(await inquire(AT_A, 'http-status;status=500')).toBe(503);
    expect(await inquire(AT_A, 'http-status;status=500')).toBe(503);
    expect(await inquire(AT_A)).toBe(503); // breaker open: refused, not called
    expect(
      (
        await app.request('/v2_1/catalog/cart/some-cart-id', {
          headers: { authorization: `Bearer ${await gw.token()}` },
        })
      ).status,
    ).toBeGreaterThanOrEqual(400);
    expect((await app.request('/no/such/path')).status).toBe(404);

    const text = await scrape();
    expect(text).toContain(
      'gateway_http_requests_total{route="/json/federated/v3_2/item_inquiry",method="POST",status="200"} 1',
    );
    expect(text).toContain(
      'gateway_http_requests_total{route="/json/federated/v3_2/item_inquiry",method="POST",status="503"} 3',
    );
    expect(text).toContain('route="/v2_1/catalog/cart/:cart_id"');
    expect(text).toContain('gateway_http_requests_total{route="unmatched",method="GET",status="404"} 1');
    expect(text).toMatch(
      /gateway_http_request_duration_seconds_count\{route="\/json\/federated\/v3_2\/item_inquiry",method="POST"\} 5/,
    );
    expect(text).toContain('gateway_seller_call_duration_seconds_count{member="M200",outcome="reply"} 2');
    expect(text).toContain('gateway_seller_call_duration_seconds_count{member="M100",outcome="http-error"} 2');
    expect(text).toContain('gateway_seller_calls_refused_total{member="M100",reason="circuit-open"} 1');
    expect(text).toContain('gateway_reply_rule_violations_total{rule="item.id-echo",member="M200"} 1');
    expect(text).toContain('gateway_circuit_breaker_state{member="M100"} 2');
    expect(text).toContain('gateway_circuit_breaker_state{member="M200"} 0');
    expect(text).toMatch(/gateway_mail_outbox_messages\{state="pending"\} \d+/);
  });
});
