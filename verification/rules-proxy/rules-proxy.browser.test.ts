import { mkdir } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  browserSuiteTitle,
  chromiumAvailable,
  launchHeadlessChromium,
  type HeadlessChromium,
} from '../../shared/testing/headless-chromium';
import { startMisbehavingSeller, type MisbehavingSeller } from '../testing/misbehaving-seller';
import { startRulesProxy, type RunningRulesProxy } from './rules-proxy';

// The finding, replayed in a real browser: a page on another loopback origin posts an
// auto-submitting text/plain form to a rules proxy whose seller answers HTML with a script.
// Nothing of the seller's may run: the proxy refuses the form (403), and even a request it
// lets through (a plain navigation) gets the proxy's own inert JSON, never the seller's page.
// A canary server counts what the seller's script would call; a screenshot lands in test-output/.

const title = browserSuiteTitle('the rules proxy against a cross-site form, in headless Chromium');
const TEST_OUTPUT = new URL('../../test-output/', import.meta.url).pathname;
const SCRIPT_TITLE = 'seller script ran';

const serve = async (handler: Parameters<typeof createServer>[1]) => {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
};
const stop = (server: Server | undefined) =>
  new Promise<void>((resolve) => {
    if (server === undefined) return resolve();
    server.closeAllConnections();
    server.close(() => resolve());
  });

let canary: { server: Server; url: string; calls: string[] };
let attacker: { server: Server; url: string };
let seller: MisbehavingSeller;
let proxy: RunningRulesProxy;
let browser: HeadlessChromium | undefined;

/** The attacker's page: a form that submits itself, text/plain so that no CORS preflight stops it. */
const attackPage = (action: string) => `<!doctype html><html><head><title>attacker</title></head><body>
<form id="f" method="post" enctype="text/plain" action="${action}"><input name='{"service":"item_inquiry","locations":[],"items":[],"x":"' value='"}'></form>
<script>document.getElementById('f').submit();</script></body></html>`;

describe.skipIf(!chromiumAvailable)(title, () => {
  beforeAll(async () => {
    const calls: string[] = [];
    canary = {
      ...(await serve((request, response) => {
        calls.push(`${request.method} ${request.url}`);
        response.writeHead(204, { 'access-control-allow-origin': '*' }).end();
      })),
      calls,
    };
    seller = await startMisbehavingSeller({ canary: `${canary.url}/ran` });
    proxy = await startRulesProxy({ sellerUrl: `${seller.url}/html-500` });
    attacker = await serve((_request, response) =>
      response.writeHead(200, { 'content-type': 'text/html' }).end(attackPage(`${proxy.url}/seller`)),
    );
    browser = await launchHeadlessChromium({ viewport: { width: 1000, height: 600 } });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await proxy?.close();
    await seller?.close();
    await stop(attacker?.server);
    await stop(canary?.server);
  });

  it('refuses the cross-site form with 403 JSON; the seller is never called and its script never runs', async () => {
    const page = await browser!.context.newPage();
    const answered = page.waitForResponse((r) => r.url().startsWith(proxy.url));
    await page.goto(attacker.url);
    const reply = await answered;
    await page.waitForLoadState('load');
    expect(reply.status()).toBe(403);
    expect(reply.headers()['content-type']).toMatch(/^application\/json/);
    expect(reply.headers()['x-content-type-options']).toBe('nosniff');
    expect(reply.headers()['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(await page.locator('body').textContent()).toContain('rules proxy: cross-site requests are refused');
    await mkdir(TEST_OUTPUT, { recursive: true });
    await page.screenshot({ path: join(TEST_OUTPUT, 'rules-proxy-cross-site-form.png'), fullPage: true });
    expect(await page.title()).not.toBe(SCRIPT_TITLE);
    expect(seller.hits.get('/html-500') ?? 0).toBe(0);
    expect(canary.calls).toEqual([]);
    await page.close();
  });

  it("gives a navigation it lets through the proxy's own JSON: the seller's HTML 500 is never rendered", async () => {
    const page = await browser!.context.newPage();
    // Typed into the address bar: Sec-Fetch-Site none, no content type, so it reaches the seller.
    const reply = await page.goto(`${proxy.url}/seller`);
    expect(reply?.status()).toBe(502);
    expect(reply?.headers()['content-type']).toMatch(/^application\/json/);
    expect(await page.locator('body').textContent()).toContain('reply.not-json: the seller answered HTTP 500');
    await page.screenshot({ path: join(TEST_OUTPUT, 'rules-proxy-html-500-not-relayed.png'), fullPage: true });
    expect(seller.hits.get('/html-500')).toBe(1);
    expect(await page.title()).not.toBe(SCRIPT_TITLE);
    expect(canary.calls).toEqual([]);
    await page.close();
  });
});
