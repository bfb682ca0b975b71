import { describe, expect, it } from 'vitest';
import type { ClosedStep, LoadFailingExchange, OpenStep } from './load-report';
import { loadVerdict, type VerdictInput } from './load-verdict';
import { parseSlos } from './slo';

// The verdict drawn from steps built by hand: correctness fails the run whatever the knee; a
// ramp cut short never claims the steps it did not measure; gates and SLOs that need such a
// step fail saying so.

const failure = (
  rule: LoadFailingExchange['rule'],
  reproduces: LoadFailingExchange['reproduces'],
): LoadFailingExchange => ({
  rule,
  operation: 'item-inquiry',
  path: '/items/0/id',
  message: "item id 'x' was not requested",
  request: {},
  curl: 'curl …',
  reproduces,
});

const closed = (concurrency: number, more: Partial<ClosedStep> = {}): ClosedStep => ({
  model: 'closed',
  concurrency,
  seconds: 1,
  exchanges: 1000,
  throughput_per_s: 1000,
  latency_ms: { p50: 2, p90: 3, p95: 4, p99: 5, max: 9 },
  timeouts: 0,
  errors: 0,
  replies_broken: 0,
  rule_breaks: {},
  first_failures: {},
  healthy: true,
  correct: true,
  slo_breaches: [],
  ...more,
});

const input = (steps: ClosedStep[], more: Partial<VerdictInput> = {}): VerdictInput => ({
  model: 'closed',
  levels: [1, 2, 4, 8],
  steps,
  latencies: steps.map(() => Float64Array.from({ length: 100 }, () => 3)),
  deadlineMs: 150,
  minLevel: 0,
  minLevelGiven: false,
  slos: [],
  ...more,
});

describe('loadVerdict', () => {
  it('fails a seller that mixes buyers’ items at concurrency 2, naming the rules and the step, whatever the knee', () => {
    const talk = closed(2, {
      rule_breaks: { 'item.unknown-id': 40, 'item.id-echo': 40 },
      replies_broken: 50, // ten replies broke both
      first_failures: {
        'item.unknown-id': failure('item.unknown-id', 'only-under-concurrency'),
        'item.id-echo': failure('item.id-echo', 'only-under-concurrency'),
      },
      correct: false,
    });
    const v = loadVerdict(input([closed(1), talk, closed(4), closed(8)]));
    expect(v.knee).toBe(8); // capacity is fine: the knee says only that
    expect(v.ok).toBe(false);
    expect(v.rules_broken.map((r) => [r.rule, r.first_level, r.only_under_concurrency])).toEqual([
      ['item.unknown-id', 2, true],
      ['item.id-echo', 2, true],
    ]);
    expect(v.summary).toMatch(
      /^FAIL: 50 of 4,000 replies broke a reply rule — item.unknown-id ×40 from concurrency 2 \(only under concurrency\), item.id-echo ×40 from concurrency 2 \(only under concurrency\); a seller that breaks a reply rule fails whatever its capacity/,
    );
    expect(v.summary).toContain('(capacity: the knee is concurrency 8)');
    expect(v.summary).not.toContain('--min-concurrency');
  });

  it('counts timeouts and errors as capacity, not as broken rules', () => {
    const slow = closed(4, { timeouts: 3, rule_breaks: { 'reply.answer': 3 }, healthy: false });
    const v = loadVerdict(input([closed(1), closed(2), slow]));
    expect(v.rules_broken).toEqual([]);
    expect(v.knee).toBe(2);
    expect(v.knee_is_lower_bound).toBe(false);
    expect(v.ok).toBe(true);
    expect(v.summary).toBe('PASS: the knee is concurrency 2');
  });

  it('says "at least" when the budget cut the ramp, lists the steps not run, and fails a gate that needs one', () => {
    const cut = { cutShort: 'the request budget (--max-requests 10000) was spent during concurrency 2' };
    const steps = [closed(1), closed(2, { partial: true })];
    const v = loadVerdict(input(steps, cut));
    expect(v.knee).toBe(1);
    expect(v.knee_is_lower_bound).toBe(true);
    expect(v.not_run).toEqual([4, 8]);
    expect(v.ok).toBe(true);
    expect(v.summary).toBe(
      'PASS: the knee is at least concurrency 1 (not measured beyond: concurrency 2, concurrency 4 and concurrency 8 were not measured whole — the request budget (--max-requests 10000) was spent during concurrency 2)',
    );
    const gated = loadVerdict(input(steps, { ...cut, minLevel: 8, minLevelGiven: true }));
    expect(gated.ok).toBe(false);
    expect(gated.gate.message).toBe(
      '--min-concurrency 8: not judged, concurrency 8 was not measured whole (the request budget (--max-requests 10000) was spent during concurrency 2)',
    );
  });

  it('fails an SLO breached at a step or for the run, and one that could not be checked at a step not run', () => {
    const slos = parseSlos('p99<4ms,timeouts=0');
    const v = loadVerdict(
      input(
        [closed(1, { slo_breaches: ['p99<4ms'] }), closed(2, { slo_breaches: ['p99<4ms'] }), closed(4), closed(8)],
        { slos },
      ),
    );
    expect(v.ok).toBe(false);
    expect(v.slo.map((s) => [s.expression, s.breached_at, s.run_held])).toEqual([
      ['p99<4ms', [1, 2], true],
      ['timeouts=0', [], true],
    ]);
    expect(v.summary).toMatch(/^FAIL: --slo p99<4ms breached at concurrency 1 and concurrency 2/);
    const unchecked = loadVerdict(input([closed(1)], { slos, cutShort: '--abort-on-fail: …' }));
    expect(unchecked.ok).toBe(false);
    expect(unchecked.summary).toContain(
      '--slo could not be checked at concurrency 2, concurrency 4 and concurrency 8: not measured whole',
    );
  });

  it('in the open model, names rates, and a schedule not kept is a warning and no knee beyond it', () => {
    const open = (rate: number, more: Partial<OpenStep> = {}): OpenStep => ({
      ...closed(1),
      model: 'open',
      rate,
      sent_per_s: rate,
      dropped: 0,
      peak_in_flight: 3,
      send_lag_ms: { p99: 1, max: 2 },
      schedule_kept: true,
      ...more,
    });
    const v = loadVerdict({
      ...input([]),
      model: 'open',
      levels: [50, 100, 200],
      steps: [open(50), open(100), open(200, { dropped: 40, schedule_kept: false, healthy: false, sent_per_s: 160 })],
      latencies: [new Float64Array(10), new Float64Array(10), new Float64Array(10)],
      minLevel: 200,
      minLevelGiven: true,
    });
    expect(v.knee).toBe(100);
    expect(v.gate).toMatchObject({
      flag: '--min-rate',
      given: true,
      held: false,
      message: '--min-rate 200: not met, the knee is 100 req/s',
    });
    expect(v.warnings).toEqual([
      expect.stringMatching(
        /^200 req\/s: 40 request\(s\) came due while --max-in-flight requests were still waiting, and were dropped — the gateway would have refused them \(5503\)/,
      ),
    ]);
    expect(v.summary).toBe('FAIL: --min-rate 200: not met, the knee is 100 req/s');
  });

  it('says a run stopped by Ctrl-C stopped, with what it measured: never a verdict on the steps that did not finish', () => {
    const v = loadVerdict(input([closed(1), closed(2, { partial: true, exchanges: 212 })], { stopped: 'SIGINT' }));
    expect(v.ok).toBe(false);
    expect(v.summary).toBe(
      'STOPPED (Ctrl-C) after 1 of 4 steps: held up to concurrency 1, capacity not stated for the steps that did not finish; ' +
        'correctness: no reply broke a rule in the 1,212 replies checked',
    );
    // The default gate (no --min-concurrency given) is not the vendor's words: not in the verdict.
    expect(v.summary).not.toContain('--min-concurrency');
    expect(v.not_run).toEqual([4, 8]);
    expect(v.cut_short).toBe('stopped by Ctrl-C (SIGINT)');
  });

  it('stopped in the first step: no capacity stated, no gate named; a broken rule still fails correctness', () => {
    const stopped = loadVerdict(
      input([closed(1, { partial: true, exchanges: 30, timeouts: 1 })], { stopped: 'SIGINT' }),
    );
    expect(stopped.summary).toBe(
      'STOPPED (Ctrl-C) after 0 of 4 steps: capacity not stated: no step finished; correctness: no reply broke a rule in the 29 replies checked',
    );
    expect(stopped.summary).not.toMatch(/--min-concurrency/);
    // Stopped as the second step began: nothing measured there, so it bounds no knee.
    const atStart = loadVerdict(
      input([closed(1), closed(2, { partial: true, exchanges: 0, healthy: false })], { stopped: 'SIGINT' }),
    );
    expect(atStart.summary).toMatch(
      /^STOPPED \(Ctrl-C\) after 1 of 4 steps: held up to concurrency 1, capacity not stated/,
    );
    const broken = loadVerdict(
      input(
        [
          closed(1),
          closed(2, {
            partial: true,
            rule_breaks: { 'item.unknown-id': 3 },
            first_failures: { 'item.unknown-id': failure('item.unknown-id', 'only-under-concurrency') },
            correct: false,
          }),
        ],
        { stopped: 'SIGTERM' },
      ),
    );
    expect(broken.summary).toBe(
      'STOPPED (SIGTERM) after 1 of 4 steps: held up to concurrency 1, capacity not stated for the steps that did not finish; ' +
        'correctness: FAIL, 3 of 2,000 replies broke a reply rule — item.unknown-id ×3 from concurrency 2 (only under concurrency)',
    );
  });

  describe('the capacity gate, named only when given', () => {
    const cutInFirst = {
      cutShort: 'the time limit (--time-limit 2s) was reached during concurrency 1',
      cutBy: 'the time limit (--time-limit 2s)',
    };
    const partialFirst = closed(1, { partial: true, exchanges: 412 });

    it('no gate, cut during the first step: NOT MEASURED, no capacity stated, correctness over the replies checked', () => {
      const v = loadVerdict(input([partialFirst], cutInFirst));
      expect(v.ok).toBe(false);
      expect(v.summary).toBe(
        'NOT MEASURED: the time limit (--time-limit 2s) ended the run during its first step (concurrency 1): capacity not stated; ' +
          'correctness: no reply broke a rule in the 412 replies checked',
      );
      expect(v.gate).toMatchObject({ given: false, value: 0, held: false });
      const withSlo = loadVerdict(input([partialFirst], { ...cutInFirst, slos: parseSlos('p99<1s') }));
      expect(withSlo.summary).toBe(
        'NOT MEASURED: the time limit (--time-limit 2s) ended the run during its first step (concurrency 1): capacity not stated, ' +
          '--slo p99<1s not checked; correctness: no reply broke a rule in the 412 replies checked',
      );
    });

    it('no gate, the first step failed: FAIL saying so, no flag named', () => {
      const v = loadVerdict(input([closed(1, { timeouts: 3, healthy: false })]));
      expect(v.ok).toBe(false);
      expect(v.summary).toBe('FAIL: not even the first step held (concurrency 1)');
    });

    it('given: met, not met, not judged and out of the ramp, each in the flag’s words', () => {
      const gated = (minLevel: number, steps: ClosedStep[], more: Partial<VerdictInput> = {}) =>
        loadVerdict(input(steps, { minLevel, minLevelGiven: true, ...more }));
      const all = [closed(1), closed(2), closed(4), closed(8)];
      expect(gated(4, all).summary).toBe('PASS: the knee is concurrency 8; --min-concurrency 4: met');
      const slow = [closed(1), closed(2), closed(4, { timeouts: 1, healthy: false })];
      expect(gated(4, slow).summary).toBe('FAIL: --min-concurrency 4: not met, the knee is concurrency 2');
      expect(gated(16, all).summary).toBe(
        "FAIL: --min-concurrency 16: cannot be met, the ramp's highest step is concurrency 8 (capacity: the knee is concurrency 8)",
      );
      expect(gated(4, [partialFirst], cutInFirst).summary).toBe(
        'FAIL: --min-concurrency 4: not judged, no step was measured whole (the time limit (--time-limit 2s) was reached during concurrency 1)',
      );
    });
  });

  it('carries the note of a TCP stack holding small writes, as data and as the sentence every report prints', () => {
    const held = closed(1, { small_writes_held: { steady_p50_ms: 44.1, lone_ms: 2.3 } });
    const v = loadVerdict(input([held, closed(2), closed(4), closed(8)]));
    expect(v.notes).toEqual([
      "replies take a steady ~44 ms at concurrency 1 while one alone takes 2 ms (on a fresh connection): your server's TCP stack may be holding small writes (Nagle's algorithm against delayed ACK); set TCP_NODELAY on its sockets",
    ]);
    expect(v.ok).toBe(true); // a hint, not a verdict
    expect(loadVerdict(input([closed(1)], { levels: [1] })).notes).toEqual([]);
  });
});
