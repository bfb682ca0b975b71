import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileValidator } from '../../contracts/index';
import {
  Cart,
  CatalogSessionReply,
  CatalogTokenReply,
  ProductAvailabilityReply,
} from '../../contracts/schemas/catalog';
import { startTestGateway, type TestGateway } from '../testing/test-gateway';
import { readDefaultScenario } from '../../mock-seller/index';
import { seedCatalog } from '../catalog/catalog-seed';
import { DEFAULT_CATALOG_TOKEN_TTL_SECONDS } from './catalog-session-routes';

// The v3.1 catalog launch and cart on the whole gateway: real store, directory, item inquiry
// and a real mock seller; time is a clock the tests move.

const scenario = readDefaultScenario();
const costOf = (part: string, location: string) =>
  scenario.parts.find((p) => p.part_number === part)!.stock.find((s) => s.location_id === location)!.cost;

// BOS BC905 (catalog SKU 10001): stocked at L150, L201 and L250, not at L101.
const BC905 = 10001;
const valid = {
  token: compileValidator(CatalogTokenReply),
  cart: compileValidator(Cart),
  session: compileValidator(CatalogSessionReply),
  availability: compileValidator(ProductAvailabilityReply),
};

let gw: TestGateway;
let now = Date.now();

beforeAll(async () => {
  gw = await startTestGateway({ clock: () => now });
  await seedCatalog(gw.store);
}, 60_000);
afterAll(() => gw?.close());

async function catalogToken(user: 'demo' | 'other' = 'demo', body?: unknown): Promise<CatalogTokenReply> {
  const response = await gw.post('/auth/get_catalog_token', body ?? '', { user });
  expect(response.status).toBe(200);
  return (await response.json()) as CatalogTokenReply;
}

async function session(token: string, method: string, path: string, body?: unknown): Promise<Response> {
  return gw.app.request(`/catalog-session/api${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    // A string is sent as written: 1e400 has no JSON.stringify form.
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
}

async function buyerCart(cartId: string, user: 'demo' | 'other' = 'demo'): Promise<Response> {
  return gw.app.request(`/v2_1/catalog/cart/${cartId}`, {
    headers: { authorization: `Bearer ${await gw.token(user)}` },
  });
}

describe('POST /auth/get_catalog_token', () => {
  it('opens a session on a fresh cart, with a launch URL carrying the token in its fragment', async () => {
    const reply = await catalogToken();
    expect(valid.token(reply).valid).toBe(true);
    expect(reply.expires_in).toBe(DEFAULT_CATALOG_TOKEN_TTL_SECONDS);
    expect(Date.parse(reply.expires_at) - now).toBe(DEFAULT_CATALOG_TOKEN_TTL_SECONDS * 1000);
    expect(reply.launch_url).toBe(`http://localhost/catalog-session/#token=${reply.token}`);
    const cart = await (await buyerCart(reply.cart_id)).json();
    expect(cart).toMatchObject({ cart_id: reply.cart_id, items: [], total: 0 });
  });

  it('gives every call its own cart', async () => {
    const [a, b] = [await catalogToken(), await catalogToken()];
    expect(a.cart_id).not.toBe(b.cart_id);
    expect(a.token).not.toBe(b.token);
  });

  it("resumes the buyer's own cart when given its cart_id", async () => {
    const first = await catalogToken();
    await session(first.token, 'POST', '/cart/items', { sku: BC905, location_id: 'L150', quantity: 1 });
    const resumed = await catalogToken('demo', { cart_id: first.cart_id.toUpperCase() });
    expect(resumed.cart_id).toBe(first.cart_id);
    const cart = (await (await session(resumed.token, 'GET', '/cart')).json()) as Cart;
    expect(cart.items.map((i) => i.part_number)).toEqual(['BC905']);
  });

  it("refuses another buyer's cart with 4403", async () => {
    const demo = await catalogToken('demo');
    const response = await gw.post('/auth/get_catalog_token', { cart_id: demo.cart_id }, { user: 'other' });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ status_code: 4403, errors: [{ path: '/cart_id' }] });
  });

  it('answers 404 for a cart that does not exist', async () => {
    const response = await gw.post('/auth/get_catalog_token', { cart_id: '00000000-0000-4000-8000-000000000000' });
    expect(response.status).toBe(404);
  });

  it('names the field of a malformed cart_id or an unknown field', async () => {
    const bad = await gw.post('/auth/get_catalog_token', { cart_id: 'cart-1' });
    expect(bad.status).toBe(422);
    expect(await bad.json()).toMatchObject({ status_code: 4422, errors: [{ path: '/cart_id' }] });
    const unknown = await gw.post('/auth/get_catalog_token', { cart: 'x' });
    expect(unknown.status).toBe(422);
    expect(JSON.stringify(await unknown.json())).toContain('cart');
  });

  it('takes no body at all as a fresh cart (the body is optional), but refuses one that is not application/json', async () => {
    const bare = await gw.app.request('/auth/get_catalog_token', {
      method: 'POST',
      headers: { authorization: `Bearer ${await gw.token()}` },
    });
    expect(bare.status).toBe(200);
    expect(valid.token(await bare.json()).errors).toEqual([]);
    const plain = await gw.post('/auth/get_catalog_token', '{}', { headers: { 'content-type': 'text/plain' } });
    expect(plain.status).toBe(415);
    expect(await plain.json()).toMatchObject({
      status_code: 4422,
      errors: [{ path: 'header:content-type', rule: 'request.content-type' }],
    });
  });

  it('builds the launch URL from a loopback Host only: any other is refused (422 naming GATEWAY_PUBLIC_URL), with no cart left behind', async () => {
    const carts = async () =>
      Number((await gw.store.query<{ n: string }>('SELECT count(*) AS n FROM carts')).rows[0].n);
    const before = await carts();
    const evil = await gw.post('http://evil.example/auth/get_catalog_token', '');
    expect(evil.status).toBe(422);
    const body = (await evil.json()) as { status_code: number; message: string; errors: { path: string }[] };
    expect(body.status_code).toBe(4422);
    expect(body.message).toContain('GATEWAY_PUBLIC_URL');
    expect(body.message).not.toContain('#token=');
    expect(body.errors[0].path).toBe('header:Host');
    expect(await carts()).toBe(before);
    for (const host of ['127.0.0.1:8080', '127.9.9.9', '[::1]:8080', 'localhost:3000']) {
      const response = await gw.post(`http://${host}/auth/get_catalog_token`, '');
      expect(response.status, host).toBe(200);
      expect(((await response.json()) as CatalogTokenReply).launch_url).toMatch(
        new RegExp(`^http://${host.replace(/[[\].]/g, '\\$&')}/catalog-session/#token=`),
      );
    }
    // Lookalikes are not loopback.
    for (const host of ['127.0.0.1.evil.example', 'localhost.evil.example', '128.0.0.1'])
      expect((await gw.post(`http://${host}/auth/get_catalog_token`, '')).status, host).toBe(422);
  });

  it('requires the buyer system token', async () => {
    const response = await gw.app.request('/auth/get_catalog_token', { method: 'POST' });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ status_code: 4403 });
  });
});

describe('GET /v2_1/catalog/cart/{cart_id}', () => {
  it('returns the items added in the catalog session, with seller prices', async () => {
    const { token, cart_id } = await catalogToken();
    expect((await session(token, 'POST', '/cart/items', { sku: BC905, location_id: 'L150', quantity: 2 })).status).toBe(
      200,
    );
    expect((await session(token, 'POST', '/cart/items', { sku: BC905, location_id: 'L201', quantity: 1 })).status).toBe(
      200,
    );
    const response = await buyerCart(cart_id);
    expect(response.status).toBe(200);
    const cart = (await response.json()) as Cart;
    expect(valid.cart(cart).valid).toBe(true);
    expect(cart.items).toMatchObject([
      {
        mfr_code: 'BOS',
        part_number: 'BC905',
        description: 'Disc brake pad set, ceramic, front',
        quantity: 2,
        location_id: 'L150',
        location_description: 'Northside Distribution Center',
        price: costOf('BC905', 'L150'),
      },
      {
        mfr_code: 'BOS',
        part_number: 'BC905',
        quantity: 1,
        location_id: 'L201',
        location_description: 'Lakeshore Harbor',
        price: costOf('BC905', 'L201'),
      },
    ]);
    expect(cart.total).toBeCloseTo(2 * costOf('BC905', 'L150') + costOf('BC905', 'L201'), 2);
  });

  it("does not let a buyer read another buyer's cart (4403)", async () => {
    const { cart_id } = await catalogToken('demo');
    const response = await buyerCart(cart_id, 'other');
    expect(response.status).toBe(403);
    const body = await response.json();
    expect(body).toMatchObject({ status_code: 4403 });
    expect(JSON.stringify(body)).not.toContain('items');
  });

  it('answers 404 for an unknown cart and 4422 for a malformed id', async () => {
    expect((await buyerCart('00000000-0000-4000-8000-000000000000')).status).toBe(404);
    const bad = await buyerCart('not-a-uuid');
    expect(bad.status).toBe(422);
    expect(await bad.json()).toMatchObject({ status_code: 4422, errors: [{ path: '/cart_id' }] });
  });
});

describe('catalog session API', () => {
  it("describes the session: its cart, its buyer and the buyer's locations", async () => {
    const { token, cart_id } = await catalogToken();
    const reply = (await (await session(token, 'GET', '/session')).json()) as CatalogSessionReply;
    expect(valid.session(reply).valid).toBe(true);
    expect(reply).toMatchObject({ cart_id, username: 'demo' });
    expect(reply.locations.map((l) => l.id)).toEqual(['L101', 'L150', 'L201', 'L250']);
  });

  it("quotes a product at the buyer's locations from the sellers", async () => {
    const { token } = await catalogToken();
    const response = await session(token, 'POST', '/availability', { sku: BC905 });
    expect(response.status).toBe(200);
    const reply = (await response.json()) as ProductAvailabilityReply;
    expect(valid.availability(reply).valid).toBe(true);
    expect(reply.locations.map((l) => [l.id, l.price, l.can_order])).toEqual([
      ['L150', costOf('BC905', 'L150'), true],
      ['L201', costOf('BC905', 'L201'), true],
      ['L250', costOf('BC905', 'L250'), false],
    ]);
  });

  it('adds to the line of the same SKU and location, changes and removes items', async () => {
    const { token } = await catalogToken();
    await session(token, 'POST', '/cart/items', { sku: BC905, location_id: 'L150', quantity: 1 });
    let cart = (await (
      await session(token, 'POST', '/cart/items', { sku: BC905, location_id: 'L150', quantity: 3 })
    ).json()) as Cart;
    expect(cart.items).toHaveLength(1);
    expect(cart.items[0].quantity).toBe(4);
    const id = cart.items[0].id;

    cart = (await (await session(token, 'PATCH', `/cart/items/${id}`, { quantity: 2 })).json()) as Cart;
    expect(cart.items[0]).toMatchObject({ quantity: 2, location_id: 'L150' });
    cart = (await (await session(token, 'PATCH', `/cart/items/${id}`, { location_id: 'L201' })).json()) as Cart;
    expect(cart.items[0]).toMatchObject({ quantity: 2, location_id: 'L201', price: costOf('BC905', 'L201') });

    const removed = await session(token, 'DELETE', `/cart/items/${id}`);
    expect(removed.status).toBe(200);
    expect(((await removed.json()) as Cart).items).toEqual([]);
    expect((await session(token, 'DELETE', `/cart/items/${id}`)).status).toBe(404);
    expect((await session(token, 'PATCH', `/cart/items/${id}`, { quantity: 1 })).status).toBe(404);
    // Not a line id at all (or past a bigint): the path parameter is refused, naming it.
    for (const bad of ['abc', '0', '1'.repeat(19), '%00']) {
      for (const method of ['DELETE', 'PATCH']) {
        const response = await session(
          token,
          method,
          `/cart/items/${bad}`,
          method === 'PATCH' ? { quantity: 1 } : undefined,
        );
        expect(response.status, `${method} ${bad}`).toBe(422);
        expect(await response.json()).toMatchObject({ status_code: 4422, errors: [{ path: '/item_id' }] });
      }
    }
  });

  it('refuses what cannot go in the cart, naming the field', async () => {
    const { token } = await catalogToken();
    const cases: [unknown, number, number, string][] = [
      [{ sku: BC905, location_id: 'L150', quantity: 0 }, 422, 4422, '/quantity'],
      [{ sku: BC905, location_id: 'L150' }, 422, 4422, ''],
      [{ sku: 99999, location_id: 'L150', quantity: 1 }, 422, 4422, '/sku'],
      [{ sku: BC905, location_id: 'L101', quantity: 1 }, 422, 4422, '/location_id'], // not stocked there
      [{ sku: BC905, location_id: 'L102', quantity: 1 }, 403, 3110, '/location_id'], // another buyer's location
      [{ sku: BC905, location_id: 'L250', quantity: 1 }, 403, 3110, '/location_id'], // may not order there
      [{ sku: BC905, location_id: 'L999', quantity: 1 }, 422, 3100, '/location_id'],
      // Beyond what the store holds: an int4 SKU, a NUL or a lone surrogate in text, a finite quantity.
      [{ sku: 2147483648, location_id: 'L150', quantity: 1 }, 422, 4422, '/sku'],
      [{ sku: 1e20, location_id: 'L150', quantity: 1 }, 422, 4422, '/sku'],
      [{ sku: BC905, location_id: 'L150\u0000', quantity: 1 }, 422, 4422, '/location_id'],
      [{ sku: BC905, location_id: 'L\ud800', quantity: 1 }, 422, 4422, '/location_id'],
      [{ sku: BC905, location_id: 'L'.repeat(101), quantity: 1 }, 422, 4422, '/location_id'],
      [`{"sku":${BC905},"location_id":"L150","quantity":1e400}`, 422, 4422, '/quantity'],
    ];
    for (const [body, status, code, path] of cases) {
      const response = await session(token, 'POST', '/cart/items', body);
      expect(response.status, JSON.stringify(body)).toBe(status);
      const reply = (await response.json()) as { status_code: number; message: string; errors: { path: string }[] };
      expect(reply.status_code, JSON.stringify(body)).toBe(code);
      if (path === '') expect(reply.message).toContain('quantity');
      else expect(reply.errors.map((e) => e.path)).toContain(path);
    }
    const cart = (await (await session(token, 'GET', '/cart')).json()) as Cart;
    expect(cart.items).toEqual([]);
    const empty = await session(token, 'PATCH', '/cart/items/1', {});
    expect(empty.status).toBe(422);
  });

  it('takes only application/json, and needs a body where one is required', async () => {
    const { token } = await catalogToken();
    const plain = await gw.app.request('/catalog-session/api/availability', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' },
      body: JSON.stringify({ sku: BC905 }),
    });
    expect(plain.status).toBe(415);
    expect(await plain.json()).toMatchObject({
      status_code: 4422,
      errors: [{ path: 'header:content-type', rule: 'request.content-type' }],
    });
    const empty = await gw.app.request('/catalog-session/api/cart/items', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    });
    expect(empty.status).toBe(422);
    expect(await empty.json()).toMatchObject({
      message: 'the body is empty; this endpoint requires a JSON body',
      errors: [{ path: '', message: 'required' }],
    });
  });

  it('refuses an unknown, malformed or expired catalog token, and a buyer JWT', async () => {
    const { token } = await catalogToken();
    expect((await session(token, 'GET', '/cart')).status).toBe(200);
    for (const bad of ['A'.repeat(43), 'short', `${token}x`]) {
      const response = await session(bad, 'GET', '/cart');
      expect(response.status, bad).toBe(401);
      expect(await response.json()).toMatchObject({ status_code: 4403 });
    }
    expect((await session(await gw.token('demo'), 'GET', '/cart')).status).toBe(401);
    expect((await gw.app.request('/catalog-session/api/cart')).status).toBe(401);

    const saved = now;
    now += (DEFAULT_CATALOG_TOKEN_TTL_SECONDS + 1) * 1000;
    try {
      const expired = await session(token, 'GET', '/cart');
      expect(expired.status).toBe(401);
      expect(((await expired.json()) as { message: string }).message).toMatch(/expired/);
    } finally {
      now = saved;
    }
  });

  it('lets the catalog token search products, like the buyer JWT', async () => {
    const { token } = await catalogToken();
    const bySession = await gw.app.request('/search/products?query=brake%20pad', {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(bySession.status).toBe(200);
    const byJwt = await gw.app.request('/search/products?query=brake%20pad', {
      headers: { authorization: `Bearer ${await gw.token()}` },
    });
    expect(await bySession.json()).toEqual(await byJwt.json());
    const refused = await gw.app.request('/search/products?query=brake', {
      headers: { authorization: `Bearer ${'B'.repeat(43)}` },
    });
    expect(refused.status).toBe(401);
  });

  it('serves the catalog page with a policy that runs only its own script', async () => {
    const response = await gw.app.request('/catalog-session/');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/text\/html/);
    expect(response.headers.get('content-security-policy')).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'/);
    expect(await response.text()).toContain('id="query"');
  });
});
