import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway } from '../gateway/app';
import { createDirectory } from '../gateway/directory/create-directory';
import { createTestStore } from '../gateway/testing/test-store';
import { createSellerClient } from '../gateway/seller-client/seller-client';
import { createInternalApi } from '../gateway/internal-api/internal-api';
import { createLocalAddressValidator } from '../gateway/address/local-address-validator';
import type { Store } from '../gateway/store/store';
import { createMockSeller, readDefaultScenario } from '../mock-seller/index';
import { createProxyInspector } from '../verification/rules-proxy/proxy-inspector';
import { createExchangeLog } from './exchange-log';

// Every HTML page of every app, found by walking the app's GET routes (a page added later is
// walked too): nosniff, a CSP that forbids framing, and a Referrer-Policy, from the one helper.

/** The paths of `app`'s GET routes that answer HTML, each checked; params filled with a dummy. */
async function htmlPages(app: Hono, headers: Record<string, string> = {}): Promise<string[]> {
  const paths = [...new Set(app.routes.filter((r) => r.method === 'GET' || r.method === 'ALL').map((r) => r.path))]
    .filter((path) => !path.includes('*'))
    .map((path) => path.replace(/:[^/]+/g, '1'));
  const pages: string[] = [];
  for (const path of paths) {
    const response = await app.request(path, { headers });
    if (!(response.headers.get('content-type') ?? '').startsWith('text/html')) {
      await response.body?.cancel(); // event streams stay open otherwise
      continue;
    }
    pages.push(path);
    expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
    expect(response.headers.get('content-security-policy'), path).toMatch(/frame-ancestors '(none|self)'/);
    expect(response.headers.get('content-security-policy'), path).toMatch(/default-src 'none'/);
    expect(response.headers.get('referrer-policy'), path).toBe('no-referrer');
    await response.text();
  }
  return pages.sort();
}

let store: Store;
beforeAll(async () => {
  store = await createTestStore();
}, 60_000);
afterAll(() => store?.close());

describe('every HTML page carries the security headers', () => {
  it('the gateway: the API reference and the catalog session page', async () => {
    const sellerClient = createSellerClient();
    try {
      const app = createGateway({ store, directory: createDirectory(store), sellerClient, logger: false });
      expect(await htmlPages(app as unknown as Hono)).toEqual(['/catalog-session/', '/reference']);
    } finally {
      await sellerClient.close();
    }
  });

  it("the internal port: the inspector's login page, and the inspector itself with the credential", async () => {
    const token = 'a-long-internal-service-token';
    const app = createInternalApi({
      store,
      addressValidator: createLocalAddressValidator(),
      config: { token },
      log: () => {},
      inspector: { feed: createExchangeLog() },
    });
    // The conformance page beside it answers the same sign-in without the credential.
    expect((await htmlPages(app)).sort()).toEqual(['/inspector', '/inspector/conformance']);
    expect((await htmlPages(app, { authorization: `Bearer ${token}` })).sort()).toEqual([
      '/inspector',
      '/inspector/conformance',
    ]);
    expect(await (await app.request('/inspector')).text()).toContain('id="login"');
  });

  it("the mock seller's inspector and the rules proxy's", async () => {
    const seller = createMockSeller(readDefaultScenario());
    try {
      expect(await htmlPages(seller.app as unknown as Hono)).toEqual(['/__admin/ui']);
    } finally {
      seller.close();
    }
    const proxy = createProxyInspector('Rules proxy');
    const app = new Hono();
    for (const route of proxy.routes) app.route(route.path, route.app);
    try {
      expect(await htmlPages(app)).toEqual(['/__inspector']);
    } finally {
      proxy.close();
    }
  });
});
