import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTemporaryDirectory } from '../shared/testing/temporary-directory';
import { listen, type Listening } from '../shared/http/listen';
import { PACT_FILE } from '../contracts/pact/pact-names';
import { renderLoadReportHtml } from '../verification/html-report/load-html';
import {
  loadView,
  loadViewCrowded,
  loadViewCutShort,
  loadViewOpen,
} from '../verification/html-report/testing/sample-reports';
import { labelCollisions, type LabelBox } from '../verification/html-report/testing/label-collisions';
import type { Box } from '../verification/html-report/svg-label-layout';
import { CONTENT_SECURITY_POLICY } from '../verification/html-report/page-shell';
import { escapeHtml } from '../verification/html-report/html-text';
import { useMockSeller } from '../mock-seller/testing/use-mock-seller';
import {
  browserSuiteTitle,
  chromiumAvailable,
  launchHeadlessChromium,
  type HeadlessChromium,
} from '../shared/testing/headless-chromium';
import { verifyCommand } from './verify-command';
import { runInProcess } from './testing/run-in-process';

// `verify --html` and `verify --explore --html` in-process against the mock seller behind a
// relay that puts a script into every alternate's original_mfr (a seller's reply is untrusted
// text): the pages name the broken rule and mark its path, and the script stays text. Then
// each kind of page (load drawn from hand-built views) in headless Chromium from file://:
// the key parts are there, nothing is fetched, nothing runs, no chart label is drawn on another
// (as laid out by the browser's own fonts); a screenshot of each is left in test-output/.

const TEST_OUTPUT = new URL('../test-output/', import.meta.url).pathname;
/** Sets the page title if it ever runs. */
const PAYLOAD = '<script>document.title="pwned"</script>';

const mock = useMockSeller();
let relay: Listening;
const work = useTemporaryDirectory('verify-html');
/**
 * The load pages, drawn from hand-built views: the crowded one has the knee at its last step and marks near
 * the top.
 */
const LOAD_VIEWS = {
  load: loadView,
  'load-crowded': loadViewCrowded,
  'load-cut-short': loadViewCutShort,
  'load-open': loadViewOpen,
};
const pages: Record<'verify' | 'explore' | keyof typeof LOAD_VIEWS, string> = {
  verify: '',
  explore: '',
  load: '',
  'load-crowded': '',
  'load-cut-short': '',
  'load-open': '',
};

const verify = (argv: string[]) => runInProcess(verifyCommand, argv);

/** The pact cut to two interactions: a passing one and the one with an alternate (seconds, not a minute). */
function twoInteractionPact(): string {
  const pact = JSON.parse(readFileSync(PACT_FILE, 'utf8')) as { interactions: { description: string }[] };
  const keep = ['an item inquiry for a part stocked at two locations', 'an item inquiry for a part with an alternate'];
  pact.interactions = pact.interactions.filter((i) => keep.includes(i.description));
  expect(pact.interactions).toHaveLength(2);
  const file = join(work.path, 'two-interactions.json');
  writeFileSync(file, JSON.stringify(pact));
  return file;
}

beforeAll(async () => {
  relay = await listen(async (request) => {
    const answer = await fetch(`${mock.url}/seller`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: await request.text(),
    });
    const reply = (await answer.json()) as { items?: { status_code?: number; original_mfr?: string }[] };
    for (const item of reply.items ?? [])
      if ((item.status_code ?? 0) >= 2 && item.original_mfr !== undefined) item.original_mfr = PAYLOAD;
    return Response.json(reply, { status: answer.status });
  });
});
afterAll(async () => {
  await relay?.close();
});

describe('verify --html', () => {
  it('writes one page: both verdicts per interaction, the broken path marked in the reply, the seller’s script as text', async () => {
    pages.verify = join(work.path, 'verify.html');
    const { code, ...out } = await verify([
      '--seller-url',
      `${relay.url}/seller`,
      '--states-url',
      `${mock.url}/__admin/provider-state`,
      '--pact',
      twoInteractionPact(),
      '--html',
      pages.verify,
    ]);
    expect(code, out.stderr).toBe(1);
    const page = readFileSync(pages.verify, 'utf8');
    expect(page).toContain(`content="${escapeHtml(CONTENT_SECURITY_POLICY)}"`);
    expect(page.match(/data-testid="interaction"/g)).toHaveLength(2);
    expect(page).toContain(
      'data-verdict="pass"><td><span class="badge pass">PASS</span></td><td>an item inquiry for a part stocked at two locations',
    );
    const failed =
      /<details open id="interaction-2" data-testid="failed-interaction">[\s\S]*?<\/details>/.exec(page)?.[0] ?? '';
    expect(failed).toContain('an item inquiry for a part with an alternate');
    expect(failed).toContain('BROKEN: alternate.original-mfr');
    expect(failed).toMatch(
      /<mark class="broken" data-path="\/items\/\d+\/original_mfr" title="alternate.original-mfr: [^"]*">&quot;original_mfr&quot;: &quot;&lt;script&gt;/,
    );
    expect(page).not.toContain(PAYLOAD);
    expect(page).not.toMatch(/<script/i);
  });
});

describe('verify --explore --html', () => {
  it('writes one page: the operation × rule matrix coloured by score, the failure with its curl command, the script as text', async () => {
    pages.explore = join(work.path, 'explore.html');
    const { code, ...out } = await verify([
      '--explore',
      '--seller-url',
      `${relay.url}/seller`,
      '--states-url',
      `${mock.url}/__admin/provider-state`,
      '--runs',
      '60',
      '--seed',
      '7',
      '--html',
      pages.explore,
    ]);
    expect(code, out.stderr).toBe(1);
    const page = readFileSync(pages.explore, 'utf8');
    expect(page).toMatch(/data-operation="item-inquiry" data-rule="alternate.original-mfr" data-band="broken"/);
    expect(page).toMatch(/data-operation="item-inquiry" data-rule="item.id-echo" data-band="kept"/);
    expect(page).toContain('<a href="#failure-item-inquiry-alternate-original-mfr">0.0%</a>');
    const failure =
      /<details open id="failure-item-inquiry-alternate-original-mfr"[\s\S]*?<\/details>/.exec(page)?.[0] ?? '';
    expect(failure).toContain(`found <code>&#39;${escapeHtml(PAYLOAD)}&#39;</code>`);
    expect(failure).toContain(`<pre data-testid="curl">curl -sS -X POST &#39;${relay.url}/seller&#39;`);
    expect(page).not.toContain(PAYLOAD);
    expect(page).not.toMatch(/<script/i);
  });
});

describe('--html', () => {
  it('is checked before the run: a missing folder, or a folder named as the file, is bad usage (exit 2) naming the flag', async () => {
    for (const explore of [[], ['--explore', '--states-url', 'http://127.0.0.1:1/__admin/provider-state']]) {
      for (const [file, message] of [
        [
          join(work.path, 'no-such-folder', 'report.html'),
          `--html ${join(work.path, 'no-such-folder', 'report.html')}: the folder ${join(work.path, 'no-such-folder')} does not exist`,
        ],
        [work.path, `--html ${work.path} is a folder; name a file`],
      ]) {
        const run = await verify([...explore, '--seller-url', 'http://127.0.0.1:1/seller', '--html', file]);
        expect(run.code).toBe(2);
        expect(run.stderr).toContain(message);
      }
    }
  });
});

/**
 * Each chart's box and every <text> in it, as the browser laid them out (no DOM types here: this file runs in
 * Node).
 */
async function chartLabels(page: Page): Promise<{ chart: string; frame: Box; labels: LabelBox[] }[]> {
  return page.evaluate(() => {
    interface Element {
      getAttribute(name: string): string | null;
      textContent: string | null;
      getBoundingClientRect(): Box;
      querySelectorAll(selector: string): ArrayLike<Element>;
    }
    const document = (globalThis as unknown as { document: Element }).document;
    const box = (e: Element): Box => {
      const r = e.getBoundingClientRect();
      return { x: r.x, y: r.y, width: r.width, height: r.height };
    };
    return Array.from(document.querySelectorAll('figure svg')).map((svg) => ({
      chart: svg.getAttribute('aria-label') ?? '',
      frame: box(svg),
      labels: Array.from(svg.querySelectorAll('text')).map((text) => ({
        text: text.textContent ?? '',
        box: box(text),
      })),
    }));
  });
}

/** The colour a cell is painted in the browser (no DOM types here: this file runs in Node). */
async function backgroundOf(cell: Locator): Promise<number[]> {
  const colour = await cell.evaluate(
    (element) =>
      (globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } }).getComputedStyle(element)
        .backgroundColor,
  );
  return (/^rgb\((\d+), (\d+), (\d+)\)$/.exec(colour) ?? []).slice(1).map(Number);
}

describe.skipIf(!chromiumAvailable)(browserSuiteTitle('the HTML reports in headless Chromium, from file://'), () => {
  let browser: HeadlessChromium | undefined;
  beforeAll(async () => {
    for (const [kind, view] of Object.entries(LOAD_VIEWS)) {
      pages[kind as keyof typeof LOAD_VIEWS] = join(work.path, `${kind}.html`);
      writeFileSync(join(work.path, `${kind}.html`), renderLoadReportHtml(view));
    }
    mkdirSync(TEST_OUTPUT, { recursive: true });
    browser = await launchHeadlessChromium({ viewport: { width: 1280, height: 900 } });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  /** Opens a page, checks it fetched nothing but itself and ran nothing, and leaves its screenshot. */
  async function open(kind: keyof typeof pages, title: string) {
    expect(pages[kind], `the ${kind} page was written by the test above`).not.toBe('');
    const page = await browser!.context.newPage();
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    // A CSP violation (an inline style refused, say) is logged to the console.
    const complaints: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') complaints.push(message.text());
    });
    page.on('pageerror', (error) => complaints.push(error.message));
    const url = pathToFileURL(pages[kind]).href;
    await page.goto(url);
    expect(requests).toEqual([url]);
    // The payload would have set the title; no script or image element exists at all.
    expect(await page.title()).toContain(title);
    expect(await page.locator('script, img, link, iframe').count()).toBe(0);
    return {
      page,
      screenshot: async () => {
        await page.screenshot({ path: join(TEST_OUTPUT, `html-report-${kind}.png`), fullPage: true });
        expect(requests).toEqual([url]);
        expect(complaints).toEqual([]);
        await page.close();
      },
    };
  }

  it('verify: both verdicts per interaction, the failed one with request and reply side by side and the path marked', async () => {
    const { page, screenshot } = await open('verify', 'Seller verification of');
    await expect.poll(() => page.locator('[data-testid=interaction]').count()).toBe(2);
    expect(await page.locator('[data-testid=verdict]').textContent()).toMatch(
      /^FAILED: 1 of 2 interactions failed, 1 passed/,
    );
    const mark = page.locator('[data-testid=failed-interaction] [data-testid=exchange] mark.broken');
    expect(await mark.count()).toBeGreaterThan(0);
    expect(await mark.first().isVisible()).toBe(true);
    expect(await mark.first().textContent()).toContain(`"original_mfr": "${PAYLOAD.replace(/"/g, '\\"')}"`);
    await screenshot();
  });

  it('explore: the matrix coloured by score, the failure with its shrunk request and curl command', async () => {
    const { page, screenshot } = await open('explore', 'Exploration of');
    const broken = page.locator('[data-testid=score][data-rule="alternate.original-mfr"]');
    expect(await broken.getAttribute('data-band')).toBe('broken');
    const [r, g, b] = await backgroundOf(broken);
    expect(r - Math.max(g, b), 'red').toBeGreaterThan(80);
    const kept = page.locator('[data-testid=score][data-operation=item-inquiry][data-rule="item.id-echo"]');
    const [r2, g2, b2] = await backgroundOf(kept);
    expect(g2 - Math.max(r2, b2), 'green').toBeGreaterThan(40);
    const failure = page.locator('[data-testid=failure][data-rule="alternate.original-mfr"]');
    expect(await failure.locator('.finding').textContent()).toContain(`found '${PAYLOAD}'`);
    expect(await failure.locator('[data-testid=curl]').textContent()).toMatch(
      /^curl -sS -X POST 'http:\/\/127\.0\.0\.1:\d+\/seller'/,
    );
    await screenshot();
  });

  it('load: both charts with the knee and the deadline marked, the steps, the broken rules, the verdict as the run gave it', async () => {
    const { page, screenshot } = await open('load', 'Load on');
    for (const chart of ['latency-chart', 'throughput-chart']) {
      expect(await page.locator(`[data-testid=${chart}] svg [data-mark=knee]`).isVisible()).toBe(true);
      expect(await page.locator(`[data-testid=${chart}] svg [data-mark=knee] text`).textContent()).toBe('knee: 4');
    }
    expect(await page.locator('[data-testid=latency-chart] svg [data-mark=deadline] text').textContent()).toBe(
      'deadline 150 ms',
    );
    expect(await page.locator('[data-testid=latency-chart] svg [data-mark=slo] text').allTextContents()).toEqual([
      'p95<300ms',
      'p99<200ms',
    ]);
    expect(await page.locator('[data-testid=outcome]').textContent()).toBe('FAIL');
    expect(await page.locator('[data-testid=step]').count()).toBe(5);
    expect(await page.locator('[data-testid=step][data-healthy=false]').count()).toBe(2);
    expect(await page.locator('[data-testid=rule-broken][data-only-under-concurrency=true]').textContent()).toContain(
      'first broken at concurrency 16',
    );
    await screenshot();
  });

  for (const kind of Object.keys(LOAD_VIEWS) as (keyof typeof LOAD_VIEWS)[]) {
    it(`${kind}: no chart label is drawn on another (legend, knee, deadline, SLOs, ticks, notes) and each stays inside its chart`, async () => {
      const { page, screenshot } = await open(kind, 'Load on');
      const charts = await chartLabels(page);
      expect(charts.map((c) => c.chart)).toEqual([
        expect.stringMatching(/^Latency against/),
        expect.stringMatching(/^Throughput against/),
      ]);
      for (const { chart, frame, labels } of charts) {
        expect(labels.length, chart).toBeGreaterThan(8);
        // Drawn text has a size: a box of zero would make the check below pass on nothing.
        expect(
          labels.every((l) => l.box.width > 0 && l.box.height > 8),
          chart,
        ).toBe(true);
        expect(labelCollisions(labels, frame), chart).toEqual([]);
      }
      if (kind === 'load-crowded') {
        // The case the old layout got wrong: the knee at the last step, the deadline and SLOs near the top.
        const latency = charts[0].labels.map((l) => l.text);
        expect(latency).toEqual(
          expect.arrayContaining(['knee: 8', 'deadline 200 ms', 'p99<200ms', 'p95<190ms', 'p50', 'max']),
        );
      }
      if (kind === 'load-cut-short') {
        expect(await page.locator('[data-testid=latency-chart] svg [data-mark=knee] text').textContent()).toBe(
          'knee: ≥ 2 (not measured beyond)',
        );
        expect(await page.locator('[data-testid=step-not-run]').count()).toBe(2);
      }
      await screenshot();
    });
  }
});
