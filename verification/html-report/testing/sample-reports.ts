import type { ConformanceReport } from '../../explore/conformance';
import type { VerificationReport } from '../../verification-report';
import type { LoadReportView } from '../load-html';
import type { ExchangeBodies } from '../verification-html';

// Hand-built reports for the renderers' tests: small, with a hostile seller payload in every
// text a seller controls (ids, values, messages), so escaping is tested where it matters.

export const PAYLOAD = '<script>document.title="pwned"</script><img src=x onerror="document.title=\'pwned\'">';

export const verificationReport: VerificationReport = {
  ok: false,
  sellerUrl: 'http://127.0.0.1:9999/seller',
  interactions: [
    {
      description: 'an item inquiry for a part in stock',
      states: ['part WIX 51515 is in stock'],
      pact: 'passed',
      pactMismatches: [],
      rules: 'passed',
      schemaErrors: [],
      violations: [],
      notes: [],
      problems: [],
      exchange: { status: 200, elapsedMs: 12 },
    },
    {
      description: 'an item inquiry for a part with an alternate',
      states: ['part DAY 5060882 has an alternate'],
      pact: 'passed',
      pactMismatches: [],
      rules: 'failed',
      schemaErrors: [],
      violations: [
        {
          rule: 'alternate.original-part',
          id: PAYLOAD,
          path: '/items/1/original_part',
          message: `original_part '${PAYLOAD}' differs from the requested part_number '5060882'`,
          expected: '5060882',
          found: PAYLOAD,
        },
      ],
      notes: [],
      problems: [],
      exchange: { status: 200, elapsedMs: 15 },
    },
    {
      description: 'an order',
      states: [],
      pact: 'not-run',
      pactMismatches: [],
      rules: 'not-run',
      schemaErrors: [],
      violations: [],
      notes: [],
      problems: ['not run: the verification was stopped first'],
    },
  ],
  rules: [
    {
      rule: 'alternate.original-part',
      description: 'Alternate, superseded and equivalent entries carry original_part equal to the requested part_number',
      breaches: [{ interaction: 'an item inquiry for a part with an alternate', id: PAYLOAD, path: '/items/1/original_part', message: 'differs' }],
    },
  ],
};

export const verificationExchanges: (ExchangeBodies | undefined)[] = [
  undefined,
  {
    request: {
      service: 'item_inquiry',
      locations: [{ id: 'L101', member: 'M100', account: 'A-1001' }],
      items: [{ id: PAYLOAD, mfr_code: 'DAY', part_number: '5060882' }],
    },
    status: 200,
    reply: {
      status_code: 2000,
      items: [
        { id: PAYLOAD, mfr_code: 'DAY', part_number: '5060882', status_code: 0, locations: [] },
        { id: PAYLOAD, mfr_code: 'DAY', part_number: 'K060882', status_code: 2, original_part: PAYLOAD, original_mfr: 'DAY', locations: [] },
      ],
    },
  },
];

const row = (operation: 'item-inquiry' | 'place-order', rule: string, exercised: number, broken: number, minScore: number) => {
  const score = exercised === 0 ? null : (exercised - broken) / exercised;
  return { operation, rule: rule as never, meaning: `what ${rule} guards`, exercised, broken, score, passed: score !== null && score >= minScore };
};

export const conformanceReport: ConformanceReport = {
  sellerUrl: 'http://127.0.0.1:9999/seller',
  catalogue: 'default scenario',
  seed: 42,
  runs: { planned: 200, done: 200 },
  concurrency: 4,
  elapsedMs: 1500,
  checkShare: 0.05,
  minScore: 0.95,
  rows: [
    row('item-inquiry', 'reply.answer', 150, 0, 0.95),
    row('item-inquiry', 'alternate.original-part', 100, 2, 0.95),
    row('item-inquiry', 'item.unknown-id', 150, 30, 0.95),
    row('item-inquiry', 'location.type-code', 0, 0, 0.95),
    row('place-order', 'reply.answer', 50, 0, 0.95),
    row('place-order', 'order.id-echo', 50, 50, 0.95),
  ],
  failures: [
    {
      operation: 'item-inquiry',
      rule: 'item.unknown-id',
      index: 7,
      count: 30,
      original: {
        operation: 'item-inquiry',
        request: { service: 'item_inquiry', locations: [{ id: 'L101', member: 'M100', account: 'A-1001' }], items: [] },
      } as never,
      shrunk: {
        operation: 'item-inquiry',
        request: {
          service: 'item_inquiry',
          locations: [{ id: 'L101', member: 'M100', account: 'A-1001' }],
          items: [{ id: PAYLOAD, mfr_code: 'WIX', part_number: '51515' }],
        },
      } as never,
      finding: { rule: 'item.unknown-id', path: '/items/0/id', message: `item id '${PAYLOAD}-x' was not requested`, id: `${PAYLOAD}-x`, found: `${PAYLOAD}-x` },
      shrinkTries: 12,
      curl: `curl -sS -X POST 'http://127.0.0.1:9999/seller' --data-raw '{"id":"${PAYLOAD}"}'`,
    },
  ],
  lowestScore: 0,
  ok: false,
};

/** A seller that holds four at a time: the knee at 4, p99 over the 150 ms deadline from 8 on, cross-talk from 16. */
export const loadView: LoadReportView = {
  seller_url: 'http://127.0.0.1:9999/seller',
  deadline_ms: 150,
  knee: 4,
  min_concurrency: 2,
  steps: [
    { concurrency: 1, exchanges: 190, throughput_per_s: 19.5, latency_ms: { p50: 51, p95: 53, p99: 55, max: 58 }, timeouts: 0, errors: 0, rule_breaks: {} },
    { concurrency: 2, exchanges: 380, throughput_per_s: 39.1, latency_ms: { p50: 51, p95: 54, p99: 57, max: 61 }, timeouts: 0, errors: 0, rule_breaks: {} },
    { concurrency: 4, exchanges: 760, throughput_per_s: 77.8, latency_ms: { p50: 52, p95: 58, p99: 64, max: 70 }, timeouts: 0, errors: 0, rule_breaks: {} },
    { concurrency: 8, exchanges: 780, throughput_per_s: 78.2, latency_ms: { p50: 101, p95: 150, p99: 158, max: 170 }, timeouts: 3, errors: 0, rule_breaks: {} },
    {
      concurrency: 16,
      exchanges: 770,
      throughput_per_s: 77.0,
      latency_ms: { p50: 203, p95: 260, p99: 290, max: 320 },
      timeouts: 410,
      errors: 2,
      rule_breaks: { 'item.unknown-id': 37, [PAYLOAD]: 1 },
    },
  ],
  rules_only_under_concurrency: [
    {
      rule: 'item.unknown-id',
      first_concurrency: 16,
      message: `item id '${PAYLOAD}' was not requested`,
      path: '/items/0/id',
      curl: `curl -sS -X POST 'http://127.0.0.1:9999/seller' --data-raw '{"id":"${PAYLOAD}"}'`,
      replay: 'verify --replay failing-16.json --seller-url http://127.0.0.1:9999/seller',
    },
  ],
};
