import { randomUUID } from 'node:crypto';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import {
  CartAddItemRequest,
  CartChangeItemRequest,
  CartItemPath,
  CartPath,
  CatalogTokenRequest,
  ProductAvailabilityRequest,
  type Cart,
  type CatalogSessionReply,
  type CatalogTokenReply,
  type ProductAvailabilityReply,
} from '../../contracts/schemas/catalog';
import type { BuyerUser, Directory, UserLocation } from '../directory/directory';
import type { Store } from '../store/store';
import type { Clock } from '../clock';
import type { GatewayEnv } from '../http/gateway-env';
import { AccessDeniedError, InvalidLocationError, LocationNotAllowedError } from '../errors';
import { userLocationIndex } from '../operations/buyer-locations';
import type { Catalog } from '../catalog/catalog-queries';
import { invalidField } from '../catalog/catalog-errors';
import { NotFoundError } from '../errors';
import { checked, readBody } from '../catalog/read-request';
import { createCartStore, type CartStore } from './cart-store';
import { createCatalogSessions, type CatalogSessions } from './catalog-sessions';
import { catalogSessionAuth, type CatalogSessionEnv } from './catalog-session-auth';
import { quoteProduct, type ItemInquiry } from './product-availability';
import { CATALOG_PAGE_HEADERS, catalogPage } from './catalog-page';
import { launchBase } from './launch-base';

// v3.1 catalog launch and cart: the buyer system asks for a catalog token bound to a cart,
// a person fills the cart on the catalog page (authorised by that token), and the buyer
// system reads the cart back. Carts belong to one buyer user; nobody else reads or fills them.

export const CATALOG_SESSION_BASE = '/catalog-session';
export const DEFAULT_CATALOG_TOKEN_TTL_SECONDS = 15 * 60;

export interface CatalogSessionRoutesDeps {
  store: Store;
  directory: Directory;
  catalog: Catalog;
  /** The gateway's item inquiry operation: prices come from the buyer's sellers. */
  itemInquiry: ItemInquiry;
  /** The buyer system's JWT check (the gateway's authenticate middleware). */
  buyerAuth: MiddlewareHandler<GatewayEnv>;
  clock: Clock;
  /** Catalog session lifetime; default 15 minutes. */
  tokenTtlSeconds?: number;
  /** Base of the launch URL (GATEWAY_PUBLIC_URL); unset, the request's origin when its Host is loopback, else 422. */
  publicUrl?: string;
}

export interface CatalogSessionParts {
  routes: Hono<GatewayEnv>;
  /** The catalog-session token check, for the catalog and search routes to accept it too. */
  sessionAuth: MiddlewareHandler<CatalogSessionEnv>;
}

type SessionContext = Context<CatalogSessionEnv>;

/** What every step below works with: the deps, the carts and sessions in the store, the token lifetime. */
interface CartWork {
  deps: CatalogSessionRoutesDeps;
  carts: CartStore;
  sessions: CatalogSessions;
  ttl: number;
  now: () => Date;
}

export function catalogSessionRoutes(deps: CatalogSessionRoutesDeps): CatalogSessionParts {
  const sessions = createCatalogSessions(deps.store);
  const work: CartWork = {
    deps,
    carts: createCartStore(deps.store),
    sessions,
    ttl: deps.tokenTtlSeconds ?? DEFAULT_CATALOG_TOKEN_TTL_SECONDS,
    now: () => new Date(deps.clock()),
  };
  const sessionAuth = catalogSessionAuth({ sessions, directory: deps.directory, clock: deps.clock });
  const app = buyerSystemRoutes(work);
  app.get(`${CATALOG_SESSION_BASE}/`, (c) => c.html(catalogPage(), 200, CATALOG_PAGE_HEADERS));
  app.get(CATALOG_SESSION_BASE, (c) => c.redirect(`${CATALOG_SESSION_BASE}/`, 301));
  app.route(`${CATALOG_SESSION_BASE}/api`, sessionApiRoutes(work, sessionAuth) as unknown as Hono<GatewayEnv>);
  return { routes: app, sessionAuth };
}

// ---- the buyer system ----

function buyerSystemRoutes(work: CartWork): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>();
  app.post('/auth/get_catalog_token', work.deps.buyerAuth, (c) => issueCatalogToken(work, c));
  app.get('/v2_1/catalog/cart/:cart_id', work.deps.buyerAuth, async (c) => {
    const { cart_id } = checked(CartPath, { cart_id: c.req.param('cart_id') }, 'the path');
    const cartId = cart_id.toLowerCase();
    await ownCart(work, cartId, c.get('buyer').user);
    return c.json(await cartReply(work, cartId));
  });
  return app;
}

/** A catalog token bound to the buyer's cart (a new one when none is named), and the launch URL that carries it. */
async function issueCatalogToken(work: CartWork, c: Context<GatewayEnv>): Promise<Response> {
  // No body at all asks for a fresh cart; a body must be a valid request.
  const request = await readBody(c, CatalogTokenRequest, { emptyAs: {} });
  // Before anything is written: a request refused here leaves no cart and no session behind.
  const base = launchBase(work.deps.publicUrl, c.req.url);
  const buyer = c.get('buyer');
  let cartId = request.cart_id?.toLowerCase();
  if (cartId === undefined) {
    cartId = randomUUID();
    await work.carts.create(cartId, buyer.user.username, work.now());
  } else {
    await ownCart(work, cartId, buyer.user);
  }
  const issued = work.now();
  const expiresAt = new Date(issued.getTime() + work.ttl * 1000);
  const token = await work.sessions.open(
    { cartId, username: buyer.user.username, clientId: buyer.clientId, kid: buyer.kid, expiresAt },
    issued,
  );
  // The token travels in the fragment: browsers never send it to a server or in a Referer.
  const reply: CatalogTokenReply = {
    token,
    token_type: 'Bearer',
    expires_in: work.ttl,
    expires_at: expiresAt.toISOString(),
    cart_id: cartId,
    launch_url: `${base}${CATALOG_SESSION_BASE}/#token=${token}`,
  };
  c.header('cache-control', 'no-store');
  return c.json(reply);
}

// ---- the catalog page's session API ----

function sessionApiRoutes(work: CartWork, sessionAuth: MiddlewareHandler<CatalogSessionEnv>): Hono<CatalogSessionEnv> {
  const session = new Hono<CatalogSessionEnv>();
  session.use('*', sessionAuth);
  session.get('/session', (c) => c.json(sessionReply(c)));
  session.post('/availability', (c) => availability(work, c));
  session.get('/cart', async (c) => c.json(await cartReply(work, c.get('session').cartId)));
  session.post('/cart/items', (c) => addCartItem(work, c));
  session.patch('/cart/items/:item_id', (c) => changeCartItem(work, c));
  session.delete('/cart/items/:item_id', (c) => removeCartItem(work, c));
  return session;
}

function sessionReply(c: SessionContext): CatalogSessionReply {
  const { cartId, expiresAt } = c.get('session');
  const user = c.get('buyer').user;
  return {
    cart_id: cartId,
    username: user.username,
    expires_at: expiresAt.toISOString(),
    locations: user.locations.map((l) => ({
      id: l.locationId,
      description: l.description,
      can_order: l.canOrder,
      sort_order: l.sortOrder,
    })),
  };
}

/** A catalog product with the buyer's sellers' offers at each of the buyer's locations. */
async function availability(work: CartWork, c: SessionContext): Promise<Response> {
  const { sku } = await readBody(c, ProductAvailabilityRequest);
  const product = await catalogProduct(work, sku);
  const reply: ProductAvailabilityReply = {
    sku,
    mfr_code: product.mfr_code,
    part_number: product.part_number,
    description: product.description,
    locations: await quoteProduct(work.deps.itemInquiry, c.get('buyer'), product, c.get('requestId')),
  };
  return c.json(reply);
}

async function addCartItem(work: CartWork, c: SessionContext): Promise<Response> {
  const request = await readBody(c, CartAddItemRequest);
  const product = await catalogProduct(work, request.sku);
  const location = await orderableLocation(work, c.get('buyer').user, request.location_id);
  const price = await priceAt(work, c, product, location);
  const { cartId } = c.get('session');
  await work.carts.addLine(
    cartId,
    {
      sku: product.sku,
      mfrCode: product.mfr_code,
      partNumber: product.part_number,
      description: product.description,
      quantity: request.quantity,
      locationId: location.locationId,
      locationDescription: location.description,
      price,
    },
    work.now(),
  );
  return c.json(await cartReply(work, cartId));
}

async function changeCartItem(work: CartWork, c: SessionContext): Promise<Response> {
  const { item_id } = checked(CartItemPath, { item_id: c.req.param('item_id') }, 'the path');
  const request = await readBody(c, CartChangeItemRequest);
  const { cartId } = c.get('session');
  const line = await work.carts.line(cartId, item_id);
  if (line === undefined) throw new NotFoundError(`cart '${cartId}' has no item '${item_id}'`);
  let { location_id: locationId, location_description: locationDescription, price } = line;
  if (request.location_id !== undefined && request.location_id !== line.location_id) {
    // Another location is another seller's offer: price it again there.
    const location = await orderableLocation(work, c.get('buyer').user, request.location_id);
    price = await priceAt(work, c, line, location);
    locationId = location.locationId;
    locationDescription = location.description;
  }
  await work.carts.changeLine(
    cartId,
    line.id,
    { quantity: request.quantity ?? line.quantity, locationId, locationDescription, price },
    work.now(),
  );
  return c.json(await cartReply(work, cartId));
}

async function removeCartItem(work: CartWork, c: SessionContext): Promise<Response> {
  const { item_id } = checked(CartItemPath, { item_id: c.req.param('item_id') }, 'the path');
  const { cartId } = c.get('session');
  if (!(await work.carts.removeLine(cartId, item_id, work.now()))) {
    throw new NotFoundError(`cart '${cartId}' has no item '${item_id}'`);
  }
  return c.json(await cartReply(work, cartId));
}

// ---- the checks and reads the routes share ----

/** The cart, once its owner is known to be this user: 404 unknown, 4403 someone else's. */
async function ownCart(work: CartWork, cartId: string, user: BuyerUser): Promise<void> {
  const owner = await work.carts.owner(cartId);
  if (owner === undefined)
    throw new NotFoundError(`cart '${cartId}' does not exist`, [{ path: '/cart_id', message: 'no such cart' }]);
  if (owner.username !== user.username)
    throw new AccessDeniedError(`cart '${cartId}' belongs to another buyer`, [
      { path: '/cart_id', message: 'not your cart' },
    ]);
}

async function cartReply(work: CartWork, cartId: string): Promise<Cart> {
  const cart = await work.carts.read(cartId);
  if (cart === undefined) throw new NotFoundError(`cart '${cartId}' does not exist`);
  return cart;
}

/** The catalog product with this SKU; a 4422 at /sku when there is none. */
async function catalogProduct(work: CartWork, sku: number) {
  const [product] = await work.deps.catalog.productsBySku([sku]);
  if (product === undefined) throw invalidField('/sku', `${sku} is not in the catalog`);
  return product;
}

/** One of the user's locations where they may order; anything else names the field at fault. */
async function orderableLocation(work: CartWork, user: BuyerUser, locationId: string): Promise<UserLocation> {
  const location = userLocationIndex(user).get(locationId);
  if (location === undefined) {
    const detail = [{ path: '/location_id', message: `location '${locationId}' is not one of your locations` }];
    if ((await work.deps.directory.findLocation(locationId)) === undefined)
      throw new InvalidLocationError(`location '${locationId}' does not exist`, [
        { path: '/location_id', message: 'no such location' },
      ]);
    throw new LocationNotAllowedError(detail[0].message, detail);
  }
  if (!location.canOrder)
    throw new LocationNotAllowedError(`you cannot order at location '${locationId}'`, [
      { path: '/location_id', message: 'ordering not allowed there' },
    ]);
  return location;
}

/** The seller's price for this buyer at this location, or a 4422 when it does not offer the part there. */
async function priceAt(
  work: CartWork,
  c: SessionContext,
  part: { mfr_code: string; part_number: string },
  location: UserLocation,
): Promise<number> {
  const quotes = await quoteProduct(work.deps.itemInquiry, c.get('buyer'), part, c.get('requestId'), location);
  const quote = quotes.find((q) => q.id === location.locationId);
  if (quote === undefined)
    throw invalidField(
      '/location_id',
      `location '${location.locationId}' does not offer ${part.mfr_code} ${part.part_number}`,
    );
  return quote.price;
}
