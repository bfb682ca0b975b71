import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cart, CatalogTokenReply } from '../../contracts/schemas/catalog';
import { startTestGateway, type TestGateway } from '../testing/test-gateway';
import { seedCatalog } from '../catalog/catalog-seed';
import { listen, type Listening } from '../../shared/http/listen';
import {
  browserSuiteTitle,
  chromiumAvailable,
  launchHeadlessChromium,
  type HeadlessChromium,
} from '../../shared/testing/headless-chromium';

// The whole catalog launch in a real browser: the buyer system asks for a catalog token, a
// person opens the launch URL in (headless) Chromium, searches, picks a location, adds items,
// and the buyer system reads the cart back. The gateway listens on a loopback port 0. The
// same browser also checks the API reference page, the other page the gateway serves.

const title = browserSuiteTitle('catalog launch in headless Chromium');

let gw: TestGateway;
let server: Listening | undefined;
let base: string;
let browser: HeadlessChromium | undefined;
let context: BrowserContext;

describe.skipIf(!chromiumAvailable)(title, () => {
  beforeAll(async () => {
    gw = await startTestGateway();
    await seedCatalog(gw.store);
    server = await listen(gw.app.fetch);
    base = server.url;
    browser = await launchHeadlessChromium();
    context = browser.context;
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await gw?.close();
  });

  async function buyerSystem(method: string, path: string): Promise<Response> {
    return fetch(`${base}${path}`, { method, headers: { authorization: `Bearer ${await gw.token('demo')}` } });
  }

  it('token → page → search "brake pad" → pick a location → add items → the buyer system reads the cart', async () => {
    const launch = (await (await buyerSystem('POST', '/auth/get_catalog_token')).json()) as CatalogTokenReply;
    expect(launch.launch_url.startsWith(`${base}/catalog-session/#token=`)).toBe(true);

    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`); // CSP violations land here
    });
    const outside: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(base)) outside.push(request.url());
    });

    await page.goto(launch.launch_url);
    await expect.poll(() => page.locator('#session').textContent()).toContain(launch.cart_id);
    expect(new URL(page.url()).hash).toBe(''); // the token left the address bar

    await page.fill('#query', 'brake pad');
    await page.click('#search-button');
    const bc905 = page.locator('[data-testid=search-result]', { hasText: 'BC905' });
    await bc905.waitFor();
    expect(await page.locator('[data-testid=search-result]').count()).toBeGreaterThanOrEqual(2);

    // BOS BC905 at the Northside Distribution Center, twice.
    await bc905.getByRole('button', { name: 'Prices' }).click();
    await expect.poll(() => page.locator('#offer-title').textContent()).toContain('BC905');
    await page.selectOption('#offer-location', 'L150');
    await page.fill('#offer-quantity', '2');
    await page.click('#offer-add');
    await page.locator('[data-testid=cart-item]').first().waitFor();

    // The other brake pad set, at Lakeshore Harbor.
    const other = page.locator('[data-testid=search-result]', { hasText: 'BRF1478' });
    await other.getByRole('button', { name: 'Prices' }).click();
    await expect.poll(() => page.locator('#offer-title').textContent()).toContain('BRF1478');
    const offered = await page
      .locator('#offer-location option')
      .evaluateAll((options) => options.map((o) => (o as unknown as { value: string }).value));
    const where = offered.includes('L201') ? 'L201' : offered[0];
    await page.selectOption('#offer-location', where);
    await page.click('#offer-add');
    await expect.poll(() => page.locator('[data-testid=cart-item]').count()).toBe(2);

    const response = await buyerSystem('GET', `/v2_1/catalog/cart/${launch.cart_id}`);
    expect(response.status).toBe(200);
    const cart = (await response.json()) as Cart;
    expect(cart.items.map((i) => [i.mfr_code, i.part_number, i.quantity, i.location_id])).toEqual([
      ['BOS', 'BC905', 2, 'L150'],
      ['MOT', 'BRF1478', 1, where],
    ]);
    expect(await page.locator('#cart-total').textContent()).toBe(cart.total.toFixed(2));
    expect(problems).toEqual([]);
    expect(outside).toEqual([]);
  });

  it('the API reference page renders the document and its "try it" sends a request', async () => {
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    await page.goto(`${base}/reference`);
    const search = page.locator('details#getSearchProducts');
    await search.locator('summary').first().click();
    await page.fill('#token', await gw.token('demo'));
    await search.locator('input[placeholder^="query"]').fill('brak pads');
    await search.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => search.locator('pre.muted').textContent()).toMatch(/^200 OK[\s\S]*BC905/);
    expect(await page.locator('details[id]').count()).toBeGreaterThan(20);
    expect(problems).toEqual([]);
  });
});
