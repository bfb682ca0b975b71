import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ItemInquirySellerRequest } from '../contracts/index';
import { FAULT_HEADER, startMockSeller, type RunningMockSeller } from './index';
import { readDefaultScenario } from './default-scenario';
import {
  browserSuiteTitle,
  chromiumAvailable,
  launchHeadlessChromium,
  type HeadlessChromium,
} from '../shared/testing/headless-chromium';

// The inspector page in a real browser: it is open while one honest and one faulty exchange
// go through the mock seller; both appear live; the faulty one shows the broken rule at its
// JSON path with expected and found. A screenshot is left in test-output/ for people to see.

const title = browserSuiteTitle('the inspector page in headless Chromium');

export const TEST_OUTPUT = new URL('../test-output/', import.meta.url).pathname;

const inquiry: ItemInquirySellerRequest = {
  service: 'item_inquiry',
  locations: [
    { id: 'L101', member: 'M100', account: 'A-1001' },
    { id: 'L150', member: 'M100', account: 'A-1001' },
  ],
  items: [
    { id: 'oil-filter', mfr_code: 'WIX', part_number: '51515' },
    { id: 'plug', mfr_code: 'NGK', part_number: 'BKR5E' },
  ],
};

let seller: RunningMockSeller;
let browser: HeadlessChromium | undefined;
let context: BrowserContext;

describe.skipIf(!chromiumAvailable)(title, () => {
  beforeAll(async () => {
    seller = await startMockSeller({ scenario: readDefaultScenario(), port: 0 });
    browser = await launchHeadlessChromium({ viewport: { width: 1400, height: 1000 } });
    context = browser.context;
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await seller?.close(); // also ends the page's event stream
  });

  const send = (fault?: string) =>
    fetch(`${seller.url}/seller`, {
      method: 'POST',
      body: JSON.stringify(inquiry),
      headers: { 'content-type': 'application/json', ...(fault ? { [FAULT_HEADER]: fault } : {}) },
    });

  it('shows exchanges live and marks alternate.original-part at its path, expected vs found', async () => {
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning')
        problems.push(`console ${message.type()}: ${message.text()}`); // CSP violations land here
    });
    const outside: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(seller.url)) outside.push(request.url());
    });

    await page.goto(`${seller.url}/__admin/ui`);
    await expect.poll(() => page.locator('#status').textContent()).toBe('live');
    expect(await page.locator('[data-testid=exchange-row]').count()).toBe(0);

    // Sent after the page opened: they can only arrive over the event stream.
    expect((await send()).status).toBe(200);
    expect((await send('wrong-original-part;id=oil-filter')).status).toBe(200);
    await expect.poll(() => page.locator('[data-testid=exchange-row]').count()).toBe(2);
    expect(
      await page
        .locator('[data-testid=exchange-row]')
        .evaluateAll((rows) => rows.map((r) => (r as unknown as { dataset: { verdict: string } }).dataset.verdict)),
    ).toEqual(['broken', 'ok']);
    const faulty = page.locator('[data-testid=exchange-row][data-verdict=broken]');
    expect(await faulty.textContent()).toContain('wrong-original-part;id=oil-filter');
    expect(await faulty.textContent()).toContain('M100');

    await faulty.click();
    const violation = page.locator('[data-testid=violation][data-rule="alternate.original-part"]');
    await violation.waitFor();
    expect(await violation.locator('[data-testid=expected]').textContent()).toBe('"51515"');
    const found = await violation.locator('[data-testid=found]').textContent();
    expect(found).not.toBe('"51515"');
    const annotation = page.locator('#reply-json [data-testid=annotation][data-rule="alternate.original-part"]');
    const path = await annotation.getAttribute('data-path');
    expect(path).toMatch(/^\/items\/\d+\/original_part$/);
    expect(await annotation.textContent()).toContain(`expected "51515", found ${found}`);
    // The marked line is the reply's original_part line itself.
    expect(await page.locator(`#reply-json .json-line.broken[data-path="${path}"]`).textContent()).toContain(
      `"original_part": ${found}`,
    );
    expect(await page.locator('#request-json').textContent()).toContain('"oil-filter"');

    // Filters: only the broken one by rule, only the honest one by verdict.
    await page.selectOption('#filter-rule', 'alternate.original-part');
    expect(await page.locator('[data-testid=exchange-row]:visible').count()).toBe(1);
    await page.selectOption('#filter-rule', '');
    await page.selectOption('#filter-verdict', 'ok');
    expect(await page.locator('[data-testid=exchange-row]:visible').getAttribute('data-verdict')).toBe('ok');
    await page.selectOption('#filter-verdict', '');

    await mkdir(TEST_OUTPUT, { recursive: true });
    await page.screenshot({ path: join(TEST_OUTPUT, 'inspector.png'), fullPage: true });

    expect(problems).toEqual([]);
    expect(outside).toEqual([]);
  });
});
