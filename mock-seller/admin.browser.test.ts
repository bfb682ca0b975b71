import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, type Listening } from '../shared/http/listen';
import { startMockSeller, type RunningMockSeller } from './index';
import { readDefaultScenario } from './default-scenario';
import {
  browserSuiteTitle,
  chromiumAvailable,
  launchHeadlessChromium,
  type HeadlessChromium,
} from '../shared/testing/headless-chromium';

// A page on another origin (another loopback port) auto-submits a text/plain form at the mock
// seller's control API — the classic way to post JSON-looking text across sites without CORS.
// The browser does send it; the mock refuses it, and its faults stay as they were.

const TEST_OUTPUT = new URL('../test-output/', import.meta.url).pathname;
const title = browserSuiteTitle('a cross-site form post at the mock seller control API, in headless Chromium');

/**
 * A text/plain form sends name=value: split so the body is a valid
 * fault rule (part_number "="), which the unguarded mock took (201).
 */
const attackPage = (action: string) => `<!doctype html>
<title>another site</title>
<form method="post" enctype="text/plain" action="${action}">
  <input type="hidden" name='{"service":"*","fault":{"kind":"http-status","status":500},"part_number":"' value='"}'>
</form>
<script>document.forms[0].submit()</script>`;

let seller: RunningMockSeller;
let attacker: Listening;
let browser: HeadlessChromium | undefined;

describe.skipIf(!chromiumAvailable)(title, () => {
  beforeAll(async () => {
    seller = await startMockSeller({ scenario: readDefaultScenario(), port: 0 });
    const site = new Hono();
    site.get('/', (c) => c.html(attackPage(`${seller.url}/__admin/faults`)));
    attacker = await listen(site.fetch);
    browser = await launchHeadlessChromium({ viewport: { width: 1000, height: 500 } });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await attacker?.close();
    await seller?.close();
  });

  it('is sent by the browser, refused by the mock, and leaves its faults unchanged', async () => {
    expect(new URL(attacker.url).origin).not.toBe(new URL(seller.url).origin);
    const page = await browser!.context.newPage();
    const refused = page.waitForResponse(
      (response) => response.url() === `${seller.url}/__admin/faults` && response.request().method() === 'POST',
    );
    await page.goto(attacker.url);
    const response = await refused;
    // Chromium marks it Sec-Fetch-Site: same-site (same host, other port) with the attacker's Origin.
    expect(response.request().headers()['content-type']).toBe('text/plain');
    expect(response.status()).toBe(403);
    expect(await response.json()).toMatchObject({ errors: [{ keyword: 'request.cross-site' }] });
    await page.waitForLoadState();
    await mkdir(TEST_OUTPUT, { recursive: true });
    await page.screenshot({ path: join(TEST_OUTPUT, 'admin-cross-site-form.png') });

    // Through the control API itself (a tool, no browser headers): no fault was added.
    const faults = (await (await fetch(`${seller.url}/__admin/faults`)).json()) as { faults: unknown[] };
    expect(faults.faults).toEqual([]);
  });
});
