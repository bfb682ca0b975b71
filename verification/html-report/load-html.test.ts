import { describe, expect, it } from 'vitest';
import { renderLoadReportHtml, type LoadReportView } from './load-html';
import { spreadBaselines, textBox, type Box } from './svg-label-layout';
import { chooseScale, logTicks, tickStep } from './svg-line-chart';
import { labelCollisions, type LabelBox } from './testing/label-collisions';
import { loadView, loadViewCrowded, loadViewCutShort, loadViewOpen, PAYLOAD } from './testing/sample-reports';

// The load page: both charts with the knee, the deadline and the SLOs drawn where they belong
// and no label on another, the verdict as the run gave it, the steps, every broken rule, and
// nothing a seller sent left active.

const SAMPLES = { loadView, loadViewCrowded, loadViewCutShort, loadViewOpen };

const chartOf = (page: string, chart: string) => new RegExp(`data-testid="${chart}"[\\s\\S]*?</svg>`).exec(page)![0];

const unescape = (text: string) =>
  text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

/**
 * The x of the knee's line and of each category label, the y of each horizontal mark by label and of the axis ticks.
 */
function geometry(page: string, chart: string) {
  const svg = chartOf(page, chart);
  const kneeX = Number(/data-mark="knee"><line x1="([\d.]+)"/.exec(svg)?.[1]);
  const marks = Object.fromEntries(
    [...svg.matchAll(/data-mark="(\w+)" data-label="([^"]*)"><line x1="[\d.]+" x2="[\d.]+" y1="([\d.]+)"/g)].map(
      (m) => [unescape(m[2]), { mark: m[1], y: Number(m[3]) }],
    ),
  );
  const labels = [
    ...svg.matchAll(/<text x="([\d.]+)" y="[\d.]+" text-anchor="middle"(?: fill="[^"]*")?>(\d+)<\/text>/g),
  ].map((m) => ({
    x: Number(m[1]),
    c: Number(m[2]),
  }));
  const ticks = [...svg.matchAll(/<text x="[\d.]+" y="([\d.]+)" text-anchor="end">([\d.]+)<\/text>/g)].map((m) => ({
    y: Number(m[1]) - 4,
    v: Number(m[2]),
  }));
  return {
    svg,
    kneeX,
    marks,
    deadlineY: marks[Object.keys(marks).find((k) => k.startsWith('deadline'))!]?.y,
    labels,
    ticks,
  };
}

/** Every <text> of one chart as the box its estimated width and the font's height give it (rotated text included). */
function labelBoxes(svg: string): { labels: LabelBox[]; frame: Box } {
  const [, width, height] = /viewBox="0 0 ([\d.]+) ([\d.]+)"/.exec(svg)!.map(Number);
  const labels = [...svg.matchAll(/<text([^>]*)>([^<]*)<\/text>/g)].map((m) => {
    const attr = (name: string) => new RegExp(`${name}="([^"]*)"`).exec(m[1])?.[1];
    const text = unescape(m[2]);
    const anchor = (attr('text-anchor') ?? 'start') as 'start' | 'middle' | 'end';
    const rotated = /translate\(([\d.]+),([\d.]+)\) rotate\(-90\)/.exec(attr('transform') ?? '');
    if (rotated === null) return { text, box: textBox(text, Number(attr('x')), Number(attr('y')), anchor) };
    // rotate(-90) turns the text's (x, y) into (y, -x), then the translation applies.
    const b = textBox(text, 0, 0, anchor);
    const [tx, ty] = [Number(rotated[1]), Number(rotated[2])];
    return { text, box: { x: tx + b.y, y: ty - b.x - b.width, width: b.height, height: b.width } };
  });
  return { labels, frame: { x: 0, y: 0, width, height } };
}

describe('renderLoadReportHtml', () => {
  const page = renderLoadReportHtml(loadView);

  it('marks the knee on both charts at its level, the deadline and the latency SLOs on the latency chart at their heights', () => {
    for (const chart of ['latency-chart', 'throughput-chart']) {
      const g = geometry(page, chart);
      expect(g.svg).toContain('>knee: 4</text>');
      expect(g.kneeX).toBe(g.labels.find((l) => l.c === 4)!.x);
    }
    const latency = geometry(page, 'latency-chart');
    expect(latency.svg).toContain('>deadline 150 ms</text>');
    // Linear axis: each mark's y lies between the ticks around it, in proportion.
    const at = (v: number) => latency.ticks.find((t) => t.v === v)!.y;
    expect(latency.deadlineY).toBeCloseTo((at(100) + at(200)) / 2, 0);
    expect(latency.marks['p95<300ms']).toEqual({ mark: 'slo', y: at(300) });
    expect(latency.marks['p99<200ms']).toEqual({ mark: 'slo', y: at(200) });
    // Errors and timeouts SLOs are listed, not drawn.
    expect(Object.keys(latency.marks).sort()).toEqual(['deadline 150 ms', 'p95<300ms', 'p99<200ms']);
    expect(geometry(page, 'throughput-chart').marks).toEqual({});
    for (const series of ['p50', 'p90', 'p95', 'p99', 'max']) expect(latency.svg).toContain(`data-series="${series}"`);
  });

  it('draws an rps SLO on the throughput chart only, with the open model’s axis and titles', () => {
    const open = renderLoadReportHtml(loadViewOpen);
    const throughput = geometry(open, 'throughput-chart');
    expect(Object.keys(throughput.marks)).toEqual(['rps>150']);
    const at = (v: number) => throughput.ticks.find((t) => t.v === v)!.y;
    expect(throughput.marks['rps>150'].y).toBe(at(150));
    expect(geometry(open, 'latency-chart').marks['rps>150']).toBeUndefined();
    expect(open).toContain('aria-label="Latency against arrival rate"');
    expect(open).toContain('>arrival rate (requests/s, open model)</text>');
    expect(open).not.toContain('concurrency (requests in flight)');
    expect(page).toContain('aria-label="Throughput against concurrency"');
    expect(page).toContain('>concurrency (requests in flight)</text>');
  });

  it('colours a breached SLO apart from a kept one, and lists every SLO with its result', () => {
    const latency = chartOf(page, 'latency-chart');
    expect(latency).toMatch(/data-label="p99&lt;200ms"><line [^>]*stroke="#bc4c00"/);
    expect(latency).toMatch(/data-label="p95&lt;300ms"><line [^>]*stroke="#1a7f37"/);
    const slos = [
      ...page.matchAll(/<tr data-testid="slo" data-breached="(\w+)"><td><code>([^<]*)<\/code><\/td><td>([^<]*)<\/td>/g),
    ].map((m) => [m[2], m[3], m[1]]);
    expect(slos).toEqual([
      ['p95&lt;300ms', 'latency chart', 'false'],
      ['p99&lt;200ms', 'latency chart', 'true'],
      ['errors&lt;0.1%', 'listed only', 'true'],
      ['timeouts=0', 'listed only', 'true'],
    ]);
  });

  it('shows the verdict sentence as the run wrote it, its outcome said once', () => {
    expect(page).toContain(
      '<p class="verdict fail" data-testid="verdict-block"><span data-testid="verdict"><span data-testid="outcome">FAIL</span>: 212 of 9,840 replies broke a reply rule — item.unknown-id ×180 from concurrency 16 (only under concurrency)',
    );
    expect(page).not.toContain('FAILED');
    const passed = renderLoadReportHtml(loadViewCrowded);
    expect(passed).toContain(
      '<span data-testid="verdict"><span data-testid="outcome">PASS</span>: the knee is concurrency 8</span>',
    );
  });

  it('draws no knee when there is none', () => {
    const none = renderLoadReportHtml({ ...loadView, knee: null });
    expect(none).not.toContain('data-mark="knee"');
    expect(none).not.toContain('(knee)');
  });

  it('lists each step with p90, correctness and capacity as the run judged them, the knee row marked, the SLOs each step breached', () => {
    const steps = [
      ...page.matchAll(/<tr data-testid="step" data-level="(\d+)" data-healthy="(\w+)" data-correct="(\w+)"/g),
    ].map((m) => [Number(m[1]), m[2], m[3]]);
    expect(steps).toEqual([
      [1, 'true', 'true'],
      [2, 'true', 'true'],
      [4, 'true', 'true'],
      [8, 'false', 'true'],
      [16, 'false', 'false'],
    ]);
    // Health comes from the view, not recomputed: a step the run called healthy stays so.
    const trusted = renderLoadReportHtml({ ...loadView, steps: loadView.steps.map((s) => ({ ...s, healthy: true })) });
    expect(trusted.match(/data-healthy="false"/g)).toBeNull();
    expect(page).toContain('<th class="num">p90 ms</th>');
    const row16 = /<tr data-testid="step" data-level="16"[\s\S]*?<\/tr>/.exec(page)![0];
    expect(row16).toContain('<td class="num">240</td>'); // its p90
    expect(row16).toContain('rules broken');
    expect([...row16.matchAll(/<code data-testid="slo-breach">([^<]*)<\/code>/g)].map((m) => m[1])).toEqual([
      'p99&lt;200ms',
      'errors&lt;0.1%',
      'timeouts=0',
    ]);
    expect(row16).toContain('≈ 2400 corrected');
    expect(page).toContain('4 (knee)');
    expect(page).toMatch(/<th class="num" data-testid="rule-column"><code>item.unknown-id<\/code><\/th>/);
    expect(page).toContain('font-weight: 600">37</td>');
    // The closed model has no dropped or schedule column.
    expect(page).not.toContain('<th class="num">dropped</th>');
    expect(page).toContain('<li data-testid="warning">Coordinated omission suspected at concurrency 16');
    expect(page).not.toContain('data-testid="notes"'); // no note: no list
  });

  it('shows a note as the text report says it, apart from the warnings', () => {
    const note =
      "replies take a steady ~44 ms at concurrency 1 while one alone takes 2 ms (on a fresh connection): your server's TCP stack may be holding small writes (Nagle's algorithm against delayed ACK); set TCP_NODELAY on its sockets";
    const page = renderLoadReportHtml({ ...loadView, notes: [note] });
    expect(page).toContain(
      `<li data-testid="note">note: replies take a steady ~44 ms at concurrency 1 while one alone takes 2 ms (on a fresh connection): your server&#39;s TCP stack`,
    );
  });

  it('adds the open model’s dropped and schedule columns, painting a step that could not keep its schedule', () => {
    const open = renderLoadReportHtml(loadViewOpen);
    expect(open).toContain('<th class="num">rate /s</th>');
    expect(open).toContain('<th class="num">dropped</th><th>schedule</th>');
    const row400 = /<tr data-testid="step" data-level="400"[\s\S]*?<\/tr>/.exec(open)![0];
    expect(row400).toContain('font-weight: 600">1200</td>');
    expect(row400).toContain('font-weight: 600">not kept</td>');
    expect(/<tr data-testid="step" data-level="50"[\s\S]*?<\/tr>/.exec(open)![0]).toContain('<td>kept</td>');
    expect(open).toContain('At 400 requests/s the driver could not keep the schedule');
  });

  it('shows every broken rule in its own section, only-under-concurrency ones with their replay', () => {
    expect(page).toContain('<h2 data-testid="rules-broken">Reply rules broken — the run fails whatever the knee</h2>');
    const sections = [
      ...page.matchAll(
        /<details open data-testid="rule-broken" data-rule="([^"]*)" data-only-under-concurrency="(\w+)">([\s\S]*?)<\/details>/g,
      ),
    ];
    expect(sections.map((m) => [m[1], m[2]])).toEqual([
      ['item.unknown-id', 'true'],
      [
        PAYLOAD.replace(/&/g, '&amp;')
          .replace(/</g, '&lt;')
          .replace(/>/g, '&gt;')
          .replace(/"/g, '&quot;')
          .replace(/'/g, '&#39;'),
        'false',
      ],
    ]);
    expect(sections[0][3]).toContain(
      '— first broken at concurrency 16, 37 exchanges <span class="badge fail">only under concurrency</span>',
    );
    expect(sections[0][3]).toContain('<pre data-testid="replay">npx federated-gateway replay failing-16.json');
    expect(sections[0][3]).toContain('<pre data-testid="curl">curl -sS -X POST');
    expect(sections[1][3]).toContain('first broken at concurrency 16, 1 exchange</summary>');
    expect(sections[1][3]).not.toContain('replay');
    expect(renderLoadReportHtml(loadViewCrowded)).not.toContain('rules-broken');
  });

  it('greys the levels that never ran on the x axis (no points), notes them, and reads the knee as a lower bound', () => {
    const cut = renderLoadReportHtml(loadViewCutShort);
    for (const chart of ['latency-chart', 'throughput-chart']) {
      const g = geometry(cut, chart);
      expect(g.labels.map((l) => l.c)).toEqual([1, 2, 4, 8]);
      expect(g.svg).toMatch(/text-anchor="middle" fill="#8c959f">4<\/text>/);
      expect(g.svg).toMatch(/text-anchor="middle" fill="#8c959f">8<\/text>/);
      expect(g.svg).toMatch(/text-anchor="middle">2<\/text>/);
      expect(g.svg).toContain('<g data-muted="4 8">');
      expect(g.svg).toContain('>not run</text>');
      expect(g.svg).toContain('>knee: ≥ 2 (not measured beyond)</text>');
      // Two points per series: nothing is drawn at 4 or 8.
      const dots = [...g.svg.matchAll(/<circle cx="([\d.]+)"/g)].map((m) => Number(m[1]));
      expect(Math.max(...dots)).toBe(g.labels.find((l) => l.c === 2)!.x);
    }
    expect([...cut.matchAll(/<tr data-testid="step-not-run" data-level="(\d+)"/g)].map((m) => Number(m[1]))).toEqual([
      4, 8,
    ]);
    expect(cut).toContain('2 (knee, at least) (partial)');
    expect(cut).toContain(
      '<li data-testid="cut-short">The ramp was cut short: the request budget (10,000 requests) was spent during the step at concurrency 2. Not run: concurrency 4, concurrency 8.</li>',
    );
    expect(cut).toContain('2 steps run of 4');
    expect(page).not.toContain('data-muted');
    expect(page).not.toContain('cut-short');
  });

  it('keeps every chart label clear of every other and inside its SVG, on each sample (the knee at the last step with marks near the top among them)', () => {
    for (const [name, view] of Object.entries(SAMPLES)) {
      const rendered = renderLoadReportHtml(view);
      for (const chart of ['latency-chart', 'throughput-chart']) {
        const { labels, frame } = labelBoxes(chartOf(rendered, chart));
        expect(labels.length, `${name} ${chart}`).toBeGreaterThan(8);
        expect(labelCollisions(labels, frame), `${name} ${chart}`).toEqual([]);
      }
    }
  });

  it('keeps labels apart however many marks share a height, and the legend on its own rows', () => {
    const marks = Array.from({ length: 5 }, (_, i) => ({
      expression: `p99<${200 + i}ms`,
      metric: 'p99' as const,
      value: 200 + i,
      breached: i % 2 === 0,
    }));
    const many: LoadReportView = { ...loadViewCrowded, slo: marks };
    const { labels, frame } = labelBoxes(chartOf(renderLoadReportHtml(many), 'latency-chart'));
    expect(labels.filter((l) => l.text.startsWith('p99<'))).toHaveLength(5);
    expect(labelCollisions(labels, frame)).toEqual([]);
  });

  it("leaves the seller's text inert: rule names, messages, warnings and curl commands escaped", () => {
    expect(page).not.toContain(PAYLOAD);
    expect(page).not.toMatch(/<script|<img/i);
    expect(page).toContain('&lt;script&gt;document.title=&quot;pwned&quot;&lt;/script&gt;');
  });

  it('spreads labels that want the same height LINE_PX apart, in order, within bounds', () => {
    expect(spreadBaselines([50, 50, 52], 0, 200)).toEqual([50, 64, 78]);
    expect(spreadBaselines([100, 20], 0, 200)).toEqual([100, 20]);
    // Pushed past the bottom bound, the run moves up; the top bound wins when nothing fits.
    expect(spreadBaselines([195, 195], 0, 200)).toEqual([186, 200]);
    expect(spreadBaselines([5, 5, 5], 10, 20)).toEqual([10, 24, 38]);
  });

  it('picks round tick steps', () => {
    expect([tickStep(320), tickStep(78), tickStep(1), tickStep(0), tickStep(1200)]).toEqual([100, 20, 0.2, 1, 500]);
  });

  it('draws latency on a log axis when the deadline dwarfs it, so a 30 s deadline does not flatten 50 ms latencies', () => {
    const slowDeadline = renderLoadReportHtml({
      ...loadView,
      deadline_ms: 30_000,
      slo: [],
      steps: loadView.steps.map((s, i) => ({
        ...s,
        latency_ms: { p50: 5 * 2 ** i, p90: 5.5 * 2 ** i, p95: 6 * 2 ** i, p99: 7 * 2 ** i, max: 8 * 2 ** i },
        timeouts: 0,
      })),
    });
    const g = geometry(slowDeadline, 'latency-chart');
    expect(g.svg).toContain('data-scale="log"');
    expect(g.svg).toContain('latency, ms (log scale)');
    expect(g.ticks.map((t) => t.v)).toEqual([1, 10, 100, 1000, 10000, 100000]);
    // 30 000 sits log-proportionally between the 10 000 and 100 000 ticks.
    const [t4, t5] = [g.ticks.find((t) => t.v === 10000)!, g.ticks.find((t) => t.v === 100000)!];
    expect(g.deadlineY).toBeCloseTo(t4.y + (t5.y - t4.y) * Math.log10(3), 0);
    // p50 from 5 to 80 ms spans more than a decade's height, not a sliver at the bottom.
    const p50 = [
      .../data-series="p50">([\s\S]*?)<\/g>/.exec(g.svg)![1].matchAll(/<circle cx="[\d.]+" cy="([\d.]+)"/g),
    ].map((m) => Number(m[1]));
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
