import { describe, expect, it } from 'vitest';
import { hasXmllint, validateJunit } from '../testing/junit-schema';
import { conformanceReport } from './conformance';
import { renderConformanceJunit } from './conformance-junit';
import { renderConformance } from './conformance-text';
import { PLAIN } from '../reports/palette';
import type { ExploreResult } from './run-exploration';

// The conformance report: operation × rule with exercised / broken / score, the --min-score
// gate, and JUnit XML that the CI parsers' schema accepts (xmllint against fixtures/junit).
// The command line's --min-score, --json and --junit: cli/verify-explore-conformance.test.ts.

const result = (over: Partial<ExploreResult> = {}): ExploreResult => ({
  sellerUrl: 'http://seller.example/federated',
  catalogue: 'state map x.json',
  seed: 7,
  planned: 200,
  done: 200,
  concurrency: 4,
  elapsedMs: 1234,
  generateMs: 20,
  waitMs: 900,
  checkMs: 100,
  broke: { rules: 2, unanswered: 0 },
  tally: {
    'item-inquiry': {
      'reply.answer': { exercised: 120, broken: 0 },
      'reply.schema': { exercised: 120, broken: 0 },
      'alternate.original-part': { exercised: 80, broken: 2 },
      'item.id-echo': { exercised: 120, broken: 0 },
    },
    statement: { 'reply.answer': { exercised: 30, broken: 0 }, 'reply.schema': { exercised: 30, broken: 0 } },
  },
  failures: [
    {
      operation: 'item-inquiry',
      rule: 'alternate.original-part',
      index: 3,
      count: 2,
      original: {
        operation: 'item-inquiry',
        request: {
          service: 'item_inquiry',
          locations: [{ id: 'L1', member: 'M', account: 'A' }],
          items: [{ id: 'a <&> "b"', mfr_code: 'MOT', part_number: 'BRF1478' }],
        },
      },
      shrunk: {
        operation: 'item-inquiry',
        request: {
          service: 'item_inquiry',
          locations: [{ id: 'L1', member: 'M', account: 'A' }],
          items: [{ id: 'a <&> "b"', mfr_code: 'MOT', part_number: 'BRF1478' }],
        },
      },
      finding: {
        rule: 'alternate.original-part',
        path: '/items/1/original_part',
        message: "original_part 'X' differs",
        id: 'a <&> "b"',
        expected: 'BRF1478',
        found: 'X',
      },
      shrinkTries: 4,
      curl: "curl -sS -X POST 'http://seller.example/federated' --data-raw '{}'",
    },
  ],
  ...over,
});

describe('the conformance report', () => {
  it('scores each operation × rule and names what was never exercised', () => {
    const report = conformanceReport(result());
    const row = (op: string, rule: string) => report.rows.find((r) => r.operation === op && r.rule === rule)!;
    expect(row('item-inquiry', 'alternate.original-part')).toMatchObject({
      exercised: 80,
      broken: 2,
      score: 78 / 80,
      passed: false,
    });
    expect(row('item-inquiry', 'item.id-echo')).toMatchObject({ exercised: 120, broken: 0, score: 1, passed: true });
    expect(row('item-inquiry', 'location.duplicate')).toMatchObject({ exercised: 0, score: null, passed: false });
    expect(row('statement', 'statement.date-range').score).toBeNull();
    // Operations that were never generated have no rows.
    expect(report.rows.some((r) => r.operation === 'place-order')).toBe(false);
    expect(report.lowestScore).toBe(78 / 80);
    expect(report.ok).toBe(false);
    expect(report.checkShare).toBeCloseTo(0.1);
  });

  it('--min-score tolerates unanswered exchanges (capacity) and never a broken reply rule (correctness)', () => {
    // A reply rule broken in 2 of 80: no score lets it pass.
    expect(conformanceReport(result(), 0).ok).toBe(false);
    expect(renderConformance(conformanceReport(result(), 0.5), PLAIN)).toContain(
      'FAILED: 2 of 200 exchanges broke a reply rule — item-inquiry alternate.original-part 97.5% (a broken reply rule fails the run whatever --min-score)',
    );
    // Every rule kept, 3 of 120 exchanges unanswered: the gate decides.
    const unanswered = result({
      broke: { rules: 0, unanswered: 3 },
      tally: {
        'item-inquiry': {
          'reply.answer': { exercised: 120, broken: 3 },
          'reply.schema': { exercised: 117, broken: 0 },
          'alternate.original-part': { exercised: 80, broken: 0 },
        },
      },
      failures: [],
    });
    expect(conformanceReport(unanswered, 0.97).ok).toBe(true);
    expect(conformanceReport(unanswered, 0.98).ok).toBe(false);
    const text = renderConformance(conformanceReport(unanswered, 0.97), PLAIN);
    expect(text).toMatch(/item-inquiry\s+reply\.answer\s+120\s+3\s+97\.5%\s+ok \(above --min-score\)/);
    expect(text).toContain('PASSED: 200 exchanges, lowest score 97.5% (--min-score 97.0%)');
    expect(renderConformance(conformanceReport(unanswered), PLAIN)).toContain(
      'FAILED: 3 of 200 exchanges went unanswered, below --min-score — item-inquiry 97.5%',
    );
  });

  it('prints each failure with rule, item id, path, expected, found and the curl command', () => {
    const text = renderConformance(conformanceReport(result()), PLAIN);
    expect(text).toContain(
      'alternate.original-part — item-inquiry: broken in 2 exchanges; first at run 3 (seed 7), shrunk to 1 item in 4 tries',
    );
    expect(text).toContain(`item id: "a <&> \\"b\\""   path: /items/1/original_part`);
    expect(text).toContain("expected: 'BRF1478'   found: 'X'");
    expect(text).toContain("reproduce: curl -sS -X POST 'http://seller.example/federated'");
  });

  it('writes JUnit: one testcase per operation × rule with stable names, failures below the gate, skipped when not exercised', () => {
    const xml = renderConformanceJunit(conformanceReport(result()));
    const cases = [...xml.matchAll(/<testcase classname="([^"]+)" name="([^"]+)"/g)].map((m) => `${m[1]} ${m[2]}`);
    expect(cases).toContain('explore.item-inquiry alternate.original-part');
    expect(cases).toContain('explore.statement statement.location');
    expect(new Set(cases).size).toBe(cases.length);
    expect(cases).toHaveLength(conformanceReport(result()).rows.length);
    expect(xml).toContain(
      '<failure type="alternate.original-part" message="alternate.original-part: exercised 80, broken 2, score 97.5%">',
    );
    expect(xml).toContain('a &lt;&amp;&gt; \\&quot;b\\&quot;');
    expect(xml).toMatch(/name="location\.duplicate" time="0">\n\s+<skipped message="not exercised/);
    // The same rule names whatever the run found: a seller's history stays on one test case.
    const other = renderConformanceJunit(
      conformanceReport(
        result({
          seed: 8,
          failures: [],
          tally: { ...result().tally, 'item-inquiry': { 'reply.answer': { exercised: 5, broken: 0 } } },
        }),
      ),
    );
    expect([...other.matchAll(/<testcase classname="([^"]+)" name="([^"]+)"/g)].map((m) => `${m[1]} ${m[2]}`)).toEqual(
      cases,
    );
  });

  it.skipIf(!hasXmllint)(
    "is valid against the CI parsers' JUnit schema (xmllint; .ci/run installs libxml2-utils)",
    () => {
      for (const report of [
        conformanceReport(result()),
        conformanceReport(result(), 0.5),
        conformanceReport(result({ stopped: 'SIGINT', done: 10 })),
      ]) {
        const check = validateJunit(renderConformanceJunit(report));
        expect(check.output).not.toContain('fails to validate');
        expect(check.ok, check.output).toBe(true);
      }
      // The schema has teeth: a testcase without a name is refused.
      expect(
        validateJunit(
          '<?xml version="1.0"?>\n<testsuites><testsuite name="s" tests="1" failures="0" errors="0"><testcase classname="c"/></testsuite></testsuites>\n',
        ).ok,
      ).toBe(false);
    },
  );
});
