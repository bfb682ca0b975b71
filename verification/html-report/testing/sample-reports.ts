import type { ConformanceReport } from '../../explore/conformance';
import type { VerificationReport } from '../../reports/verification-report';
import type { LoadReportView, LoadStepView } from '../load-html';
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
      description:
        'Alternate, superseded and equivalent entries carry original_part equal to the requested part_number',
      breaches: [
        {
          interaction: 'an item inquiry for a part with an alternate',
          id: PAYLOAD,
          path: '/items/1/original_part',
          message: 'differs',
        },
      ],
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
        {
          id: PAYLOAD,
          mfr_code: 'DAY',
          part_number: 'K060882',
          status_code: 2,
          original_part: PAYLOAD,
          original_mfr: 'DAY',
          locations: [],
        },
      ],
    },
  },
];

const row = (
  operation: 'item-inquiry' | 'place-order',
  rule: string,
  exercised: number,
  broken: number,
  minScore: number,
) => {
  const score = exercised === 0 ? null : (exercised - broken) / exercised;
  return {
    operation,
    rule: rule as never,
    meaning: `what ${rule} guards`,
    exercised,
    broken,
    score,
    passed: score !== null && score >= minScore,
  };
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
  broke: { rules: 80, unanswered: 0 },
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
      finding: {
        rule: 'item.unknown-id',
        path: '/items/0/id',
        message: `item id '${PAYLOAD}-x' was not requested`,
        id: `${PAYLOAD}-x`,
        found: `${PAYLOAD}-x`,
      },
      shrinkTries: 12,
      curl: `curl -sS -X POST 'http://127.0.0.1:9999/seller' --data-raw '{"id":"${PAYLOAD}"}'`,
    },
  ],
  lowestScore: 0,
  ok: false,
};

const step = (
  level: number,
  latency: [number, number, number, number, number],
  more: Partial<LoadStepView> = {},
): LoadStepView => {
  const [p50, p90, p95, p99, max] = latency;
  const exchanges = more.exchanges ?? level * 190;
  return {
    level,
    exchanges,
    throughput_per_s: exchanges / 10,
    latency_ms: { p50, p90, p95, p99, max },
    timeouts: 0,
    errors: 0,
    rule_breaks: {},
    healthy: true,
    correct: true,
    ...more,
  };
};

/**
 * A seller that holds four at a time (closed model): the knee at 4, p99 over the 150 ms deadline
 * from 8 on, cross-talk from 16 (so the run fails whatever the knee), SLOs kept and breached.
 */
export const loadView: LoadReportView = {
  seller_url: 'http://127.0.0.1:9999/seller',
  model: 'closed',
  deadline_ms: 150,
  knee: 4,
  knee_is_lower_bound: false,
  not_run: [],
  steps: [
    step(1, [51, 52, 53, 55, 58], { exchanges: 190, throughput_per_s: 19.5 }),
    step(2, [51, 53, 54, 57, 61], { exchanges: 380, throughput_per_s: 39.1 }),
    step(4, [52, 56, 58, 64, 70], { exchanges: 760, throughput_per_s: 77.8 }),
    step(8, [101, 140, 150, 158, 170], {
      exchanges: 780,
      throughput_per_s: 78.2,
      timeouts: 3,
      healthy: false,
      slo_breaches: ['timeouts=0'],
    }),
    step(16, [203, 240, 260, 290, 320], {
      exchanges: 770,
      throughput_per_s: 77.0,
      timeouts: 410,
      errors: 2,
      rule_breaks: { 'item.unknown-id': 37, [PAYLOAD]: 1 },
      healthy: false,
      correct: false,
      slo_breaches: ['p99<200ms', 'errors<0.1%', 'timeouts=0'],
      coordinated_omission: { corrected_p99_ms: 2400 },
    }),
  ],
  rules_broken: [
    {
      rule: 'item.unknown-id',
      first_level: 16,
      exchanges: 37,
      only_under_concurrency: true,
      message: `item id '${PAYLOAD}' was not requested`,
      path: '/items/0/id',
      curl: `curl -sS -X POST 'http://127.0.0.1:9999/seller' --data-raw '{"id":"${PAYLOAD}"}'`,
      replay: 'npx federated-gateway replay failing-16.json',
    },
    {
      rule: PAYLOAD,
      first_level: 16,
      exchanges: 1,
      only_under_concurrency: false,
      message: PAYLOAD,
      curl: `curl -sS '${PAYLOAD}'`,
    },
  ],
  slo: [
    { expression: 'p95<300ms', metric: 'p95', value: 300, breached: false },
    { expression: 'p99<200ms', metric: 'p99', value: 200, breached: true },
    { expression: 'errors<0.1%', metric: 'errors', value: 0.1, breached: true },
    { expression: 'timeouts=0', metric: 'timeouts', value: 0, breached: true },
  ],
  verdict:
    'FAIL: 212 of 9,840 replies broke a reply rule — item.unknown-id ×180 from concurrency 16 (only under concurrency); a seller that breaks a reply rule fails whatever its capacity; --slo p99<200ms breached at concurrency 16 (capacity: the knee is concurrency 4; --min-concurrency 2: met)',
  ok: false,
  warnings: [
    `Coordinated omission suspected at concurrency 16: the p99 would have been about 2400 ms had requests kept arriving (try the open model, --rate). ${PAYLOAD}`,
  ],
};

/**
 * The crowded right edge: the knee at the last step, the deadline and two latency SLOs close
 * together near the top of the latency chart, an rps SLO near the top of the throughput chart.
 * The old layout wrote the knee's and the deadline's labels into the legend here.
 */
export const loadViewCrowded: LoadReportView = {
  seller_url: 'http://127.0.0.1:9999/seller',
  model: 'closed',
  deadline_ms: 200,
  knee: 8,
  knee_is_lower_bound: false,
  not_run: [],
  steps: [
    step(1, [40, 45, 48, 52, 60]),
    step(2, [42, 50, 55, 61, 70]),
    step(4, [60, 90, 110, 130, 150]),
    step(8, [120, 150, 170, 185, 195]),
  ],
  rules_broken: [],
  slo: [
    { expression: 'p99<200ms', metric: 'p99', value: 200, breached: false },
    { expression: 'p95<190ms', metric: 'p95', value: 190, breached: false },
    { expression: 'rps>150', metric: 'rps', value: 150, breached: false },
  ],
  verdict: 'PASS: the knee is concurrency 8',
  ok: true,
  warnings: [],
};

/**
 * The honest mock seller with the default budget spent early
 * (closed model): two steps run, two not, the knee a lower bound.
 */
export const loadViewCutShort: LoadReportView = {
  seller_url: 'http://127.0.0.1:9999/seller',
  model: 'closed',
  deadline_ms: 2000,
  knee: 2,
  knee_is_lower_bound: true,
  not_run: [4, 8],
  cut_short: 'the request budget (10,000 requests) was spent during the step at concurrency 2.',
  steps: [
    step(1, [0.2, 0.3, 0.3, 0.5, 4], { exchanges: 9534, throughput_per_s: 4766 }),
    step(2, [0.4, 0.5, 0.6, 0.9, 6], { exchanges: 466, throughput_per_s: 4660, partial: true }),
  ],
  rules_broken: [],
  slo: [],
  verdict: 'PASS: the knee is at least concurrency 2 (not measured beyond: steps 4 and 8 did not run)',
  ok: true,
  warnings: [],
  stopped: 'request budget spent',
};

/** An open-model ramp: a seller that stalls, so the highest rate drops requests and misses its schedule. */
export const loadViewOpen: LoadReportView = {
  seller_url: 'http://127.0.0.1:9999/seller',
  model: 'open',
  deadline_ms: 1000,
  knee: 200,
  knee_is_lower_bound: false,
  not_run: [],
  steps: [
    step(50, [20, 25, 30, 60, 120], { exchanges: 500, throughput_per_s: 50, dropped: 0, schedule_kept: true }),
    step(100, [22, 30, 40, 300, 900], { exchanges: 1000, throughput_per_s: 99.8, dropped: 0, schedule_kept: true }),
    step(200, [25, 60, 200, 950, 1010], {
      exchanges: 2000,
      throughput_per_s: 199,
      dropped: 0,
      schedule_kept: true,
      slo_breaches: ['p95<100ms'],
    }),
    step(400, [900, 1500, 1800, 2100, 2400], {
      exchanges: 2400,
      throughput_per_s: 240,
      timeouts: 310,
      dropped: 1200,
      schedule_kept: false,
      healthy: false,
      slo_breaches: ['p95<100ms', 'p99<1s', 'dropped=0'],
    }),
  ],
  rules_broken: [],
  slo: [
    { expression: 'p95<100ms', metric: 'p95', value: 100, breached: true },
    { expression: 'p99<1s', metric: 'p99', value: 1000, breached: true },
    { expression: 'rps>150', metric: 'rps', value: 150, breached: false },
    { expression: 'dropped=0', metric: 'dropped', value: 0, breached: true },
  ],
  verdict: 'FAIL: the knee is 200 requests/s; SLO breached: p95<100ms, p99<1s, dropped=0',
  ok: false,
  warnings: [
    'At 400 requests/s the driver could not keep the schedule: 1200 requests were not sent (the in-flight cap was reached).',
  ],
};
