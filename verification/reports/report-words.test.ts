import { describe, expect, it } from 'vitest';
import { interactionReport, type InteractionRun } from './verification-report';
import { pactMismatchText, renderReport } from './report-as-text';
import { buildReport } from './verification-report';
import { exchangeOutcomeText } from './exchange-outcome';

// The words a vendor reads: Pact's mismatches quote what their system sent beside what was
// expected (the value it was sent, not the contract's example); a timeout names the limit.

const run = (over: Partial<InteractionRun>): InteractionRun => ({
  description: 'an order for a part in stock, received',
  states: ['order can be received'],
  exchanges: [],
  stateErrors: [],
  injected: new Map(),
  exampleValues: new Map(),
  pact: {},
  ...over,
});

describe('report words', () => {
  it('never shows an HTTP status the seller did not send: an exchange stopped before any answer reads as none', () => {
    expect(exchangeOutcomeText({ status: 0, elapsedMs: 12 })).toBe('no answer from the seller, 12 ms');
    expect(exchangeOutcomeText({ status: null, elapsedMs: 7 })).toBe('no answer from the seller, 7 ms');
    expect(exchangeOutcomeText({ status: 200, elapsedMs: 7 })).toBe('HTTP 200, 7 ms');
  });

  it("quotes the seller's value beside the expected one, the expected being the value the seller was sent", () => {
    const report = interactionReport(
      run({
        injected: new Map([['2', '3']]),
        pact: {
          failure: {
            interaction: 'x',
            mismatches: [
              { path: '$.items[0].quantity_ordered', message: 'Expected 2 to be equal to 7', expected: 2, actual: 7 },
            ],
          },
        },
      }),
    );
    expect(report.pactMismatches[0].expected).toBe(3);
    expect(pactMismatchText(report.pactMismatches[0])).toContain('(expected 3, your system sent 7)');
  });

  it('names the limit for a timed-out exchange, never a status the seller did not send in time', () => {
    expect(exchangeOutcomeText({ noAnswerWithinMs: 1000, elapsedMs: 1011 })).toBe(
      'no answer within 1000 ms (the limit)',
    );
    expect(
      exchangeOutcomeText({ noAnswerWithinMs: 1000, elapsedMs: 1011, answeredAfterMs: 3004, lateStatus: 200 }),
    ).toBe('no answer within 1000 ms (the limit); answered HTTP 200 after 3004 ms');
    const timedOut = run({
      exchanges: [
        {
          index: 1,
          request: {},
          status: 200,
          elapsedMs: 1011,
          proxyAnswer: 'timeout',
          limitMs: 1000,
          problem: 'no answer within 1000 ms (the limit, --timeout)',
        },
      ],
    });
    const text = renderReport(buildReport('http://seller', [timedOut]));
    expect(text).toContain('(no answer within 1000 ms (the limit))');
    expect(text).not.toContain('HTTP 200, 1011 ms');
  });
});
