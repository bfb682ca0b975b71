import { describe, expect, it } from 'vitest';
import { renderLoadReportHtml, stepHealthy } from './load-html';
import { chooseScale, logTicks, tickStep } from './svg-line-chart';
import { loadView, PAYLOAD } from './testing/sample-reports';

// The load page: both charts with the deadline and the knee drawn where they belong, the
// steps with their rule breaks, and nothing a seller sent left active.

/** The x of the knee's line and of each category label, the y of the deadline and of the axis ticks. */
function geometry(page: string, chart: string) {
  const svg = new RegExp(`data-testid="${chart}"[\\s\\S]*?</svg>`).exec(page)![0];
  const kneeX = Number(/data-mark="knee"><line x1="([\d.]+)"/.exec(svg)?.[1]);
  const deadlineY = Number(/data-mark="deadline"><line x1="[\d.]+" x2="[\d.]+" y1="([\d.]+)"/.exec(svg)?.[1]);
  const labels = [...svg.matchAll(/<text x="([\d.]+)" y="[\d.]+" text-anchor="middle">(\d+)<\/text>/g)].map((m) => ({ x: Number(m[1]), c: Number(m[2]) }));
  const ticks = [...svg.matchAll(/<text x="[\d.]+" y="([\d.]+)" text-anchor="end">([\d.]+)<\/text>/g)].map((m) => ({ y: Number(m[1]) - 4, v: Number(m[2]) }));
  return { svg, kneeX, deadlineY, labels, ticks };
}

describe('renderLoadReportHtml', () => {
  const page = renderLoadReportHtml(loadView);

  it('marks the knee on both charts at its concurrency, and the deadline on the latency chart at its height', () => {
    for (const chart of ['latency-chart', 'throughput-chart']) {
      const g = geometry(page, chart);
      expect(g.svg).toContain('>knee: 4</text>');
      expect(g.kneeX).toBe(g.labels.find((l) => l.c === 4)!.x);
    }
    const latency = geometry(page, 'latency-chart');
    expect(latency.svg).toContain('>deadline 150 ms</text>');
    // Linear axis: the deadline's y lies between the ticks around 150, in proportion.
    const [low, high] = [latency.ticks.find((t) => t.v === 100)!, latency.ticks.find((t) => t.v === 200)!];
    expect(latency.deadlineY).toBeCloseTo((low.y + high.y) / 2, 0);
    expect(geometry(page, 'throughput-chart').svg).not.toContain('data-mark="deadline"');
    for (const series of ['p50', 'p95', 'p99', 'max']) expect(latency.svg).toContain(`data-series="${series}"`);
  });

  it('draws no knee when there is none, and says so', () => {
    const none = renderLoadReportHtml({ ...loadView, knee: null, ok: false });
    expect(none).not.toContain('data-mark="knee"');
    expect(none).toContain('FAILED: no knee: even the first step failed');
  });

  it('lists each step with its rule breaks, the knee row marked, unhealthy steps flagged', () => {
    const steps = [...page.matchAll(/<tr data-testid="step" data-concurrency="(\d+)" data-healthy="(\w+)"/g)].map((m) => [Number(m[1]), m[2]]);
    expect(steps).toEqual([
      [1, 'true'],
      [2, 'true'],
      [4, 'true'],
      [8, 'false'],
      [16, 'false'],
    ]);
    expect(page).toContain('4 (knee)');
    expect(page).toMatch(/<th class="num" data-testid="rule-column"><code>item.unknown-id<\/code><\/th>/);
    expect(page).toContain('font-weight: 600">37</td>');
    expect(page).toContain('item.unknown-id</code> — first broken at concurrency 16');
    expect(page).toContain('verify --replay failing-16.json');
    expect(page).toContain('PASSED: knee at concurrency 4 (--min-concurrency 2); deadline 150 ms');
  });

  it("leaves the seller's text inert: rule names, messages and curl commands escaped", () => {
    expect(page).not.toContain(PAYLOAD);
    expect(page).not.toMatch(/<script|<img/i);
    expect(page).toContain('&lt;script&gt;document.title=&quot;pwned&quot;&lt;/script&gt;');
  });

  it('counts a step healthy only with p99 under the deadline, no timeouts and no rule broken', () => {
    const step = loadView.steps[0];
    expect(stepHealthy(step, 150)).toBe(true);
    expect(stepHealthy({ ...step, latency_ms: { ...step.latency_ms, p99: 150 } }, 150)).toBe(false);
    expect(stepHealthy({ ...step, timeouts: 1 }, 150)).toBe(false);
    expect(stepHealthy({ ...step, rule_breaks: { 'item.id-echo': 1 } }, 150)).toBe(false);
    expect(stepHealthy({ ...step, rule_breaks: { 'item.id-echo': 0 } }, 150)).toBe(true);
  });

  it('picks round tick steps', () => {
    expect([tickStep(320), tickStep(78), tickStep(1), tickStep(0), tickStep(1200)]).toEqual([100, 20, 0.2, 1, 500]);
  });

  it('draws latency on a log axis when the deadline dwarfs it, so a 30 s deadline does not flatten 50 ms latencies', () => {
    const slowDeadline = renderLoadReportHtml({
      ...loadView,
      deadline_ms: 30_000,
      steps: loadView.steps.map((s, i) => ({ ...s, latency_ms: { p50: 5 * 2 ** i, p95: 6 * 2 ** i, p99: 7 * 2 ** i, max: 8 * 2 ** i }, timeouts: 0 })),
    });
    const g = geometry(slowDeadline, 'latency-chart');
    expect(g.svg).toContain('data-scale="log"');
    expect(g.svg).toContain('latency, ms (log scale)');
    expect(g.ticks.map((t) => t.v)).toEqual([1, 10, 100, 1000, 10000, 100000]);
    // 30 000 sits log-proportionally between the 10 000 and 100 000 ticks.
    const [t4, t5] = [g.ticks.find((t) => t.v === 10000)!, g.ticks.find((t) => t.v === 100000)!];
    expect(g.deadlineY).toBeCloseTo(t4.y + (t5.y - t4.y) * Math.log10(3), 0);
    // p50 from 5 to 80 ms spans more than a decade's height, not a sliver at the bottom.
    const p50 = [.../data-series="p50">([\s\S]*?)<\/g>/.exec(g.svg)![1].matchAll(/<circle cx="[\d.]+" cy="([\d.]+)"/g)].map((m) => Number(m[1]));
    expect(p50[0] - p50[p50.length - 1]).toBeGreaterThan(Math.abs(t5.y - t4.y));
    expect(geometry(page, 'latency-chart').svg).toContain('data-scale="linear"');
  });

  it('chooses a log axis only for values spanning more than a factor of 30, with 1-2-5 ticks over few decades', () => {
    expect(chooseScale([50, 320])).toBe('linear');
    expect(chooseScale([0, 50, 1400])).toBe('linear');
    expect(chooseScale([5, 30_000])).toBe('log');
    expect(logTicks(0, 2)).toEqual([1, 2, 5, 10, 20, 50, 100]);
    expect(logTicks(-1, 0)).toEqual([0.1, 0.2, 0.5, 1]);
  });
});
