import type { Cart, CartItem } from '../../contracts/schemas/catalog';
import type { Queryable, Store } from '../store/store';

// Carts and their lines in the store. Ownership is checked by the callers (cart-access.ts);
// this file only reads and writes rows. Numeric columns come back as float8 so both PGlite
// and pg hand over JS numbers.

export interface CartOwner {
  cartId: string;
  username: string;
}

export interface NewCartLine {
  sku: number;
  mfrCode: string;
  partNumber: string;
  description: string;
  quantity: number;
  locationId: string;
  locationDescription: string;
  price: number;
}

export interface CartStore {
  /** Who owns a cart, or undefined when there is no such cart. */
  owner(cartId: string): Promise<CartOwner | undefined>;
  create(cartId: string, username: string, now: Date): Promise<void>;
  read(cartId: string): Promise<Cart | undefined>;
  /** Adds a line; the same SKU at the same location adds to that line's quantity instead. Returns the line id. */
  addLine(cartId: string, line: NewCartLine, now: Date): Promise<string>;
  line(cartId: string, lineId: string): Promise<(CartItem & { sku: number | null }) | undefined>;
  changeLine(
    cartId: string,
    lineId: string,
    change: { quantity: number; locationId: string; locationDescription: string; price: number },
    now: Date,
  ): Promise<void>;
  /** False when the cart has no such line. */
  removeLine(cartId: string, lineId: string, now: Date): Promise<boolean>;
}

interface CartRow {
  cart_id: string;
  created_at: Date | string;
  updated_at: Date | string;
}

const iso = (t: Date | string) => new Date(t).toISOString();
/** Line ids are bigserial; anything else cannot name a line (and must not reach a bigint cast). */
const isLineId = (id: string) => /^[1-9]\d{0,17}$/.test(id);
const cents = (n: number) => Math.round(n * 100) / 100;

const ITEM_COLUMNS = `id::text AS id, sku, mfr_code, part_number, description, quantity::float8 AS quantity,
  location_id, location_description, price::float8 AS price`;

/** A change to a cart's lines is a change to the cart. */
const touch = (tx: Queryable, cartId: string, now: Date) =>
  tx.query('UPDATE carts SET updated_at = $2::timestamptz WHERE cart_id = $1', [cartId, now.toISOString()]);

export function createCartStore(store: Store): CartStore {
  return {
    async owner(cartId) {
      const { rows } = await store.query<{ cart_id: string; username: string }>(
        'SELECT cart_id::text, username FROM carts WHERE cart_id = $1',
        [cartId],
      );
      return rows[0] && { cartId: rows[0].cart_id, username: rows[0].username };
    },

    async create(cartId, username, now) {
      await store.query(
        'INSERT INTO carts (cart_id, username, created_at, updated_at) VALUES ($1, $2, $3::timestamptz, $3::timestamptz)',
        [cartId, username, now.toISOString()],
      );
    },

    read: (cartId) => readCart(store, cartId),

    addLine: (cartId, line, now) => addLine(store, cartId, line, now),

    async line(cartId, lineId) {
      if (!isLineId(lineId)) return undefined;
      const { rows } = await store.query<CartItem>(
        `SELECT ${ITEM_COLUMNS} FROM cart_items WHERE cart_id = $1 AND id = $2::bigint`,
        [cartId, lineId],
      );
      return rows[0];
    },

    async changeLine(cartId, lineId, change, now) {
      await store.transaction(async (tx) => {
        await tx.query(
          'UPDATE cart_items SET quantity = $3, location_id = $4, location_description = $5, price = $6 WHERE cart_id = $1 AND id = $2::bigint',
          [cartId, lineId, change.quantity, change.locationId, change.locationDescription, change.price],
        );
        await touch(tx, cartId, now);
      });
    },

    async removeLine(cartId, lineId, now) {
      if (!isLineId(lineId)) return false;
      return store.transaction(async (tx) => {
        const { rows } = await tx.query('DELETE FROM cart_items WHERE cart_id = $1 AND id = $2::bigint RETURNING id', [
          cartId,
          lineId,
        ]);
        if (rows.length > 0) await touch(tx, cartId, now);
        return rows.length > 0;
      });
    },
  };
}

async function readCart(store: Store, cartId: string): Promise<Cart | undefined> {
  const carts = await store.query<CartRow>(
    'SELECT cart_id::text, created_at, updated_at FROM carts WHERE cart_id = $1',
    [cartId],
  );
  if (carts.rows.length === 0) return undefined;
  const { rows } = await store.query<CartItem>(
    `SELECT ${ITEM_COLUMNS} FROM cart_items WHERE cart_id = $1 ORDER BY id`,
    [cartId],
  );
  const cart = carts.rows[0];
  return {
    cart_id: cart.cart_id,
    created_at: iso(cart.created_at),
    updated_at: iso(cart.updated_at),
    items: rows,
    total: cents(rows.reduce((sum, item) => sum + item.quantity * item.price, 0)),
  };
}

/** Adds to the line of the same SKU at the same location, or starts one; the line's id. */
function addLine(store: Store, cartId: string, line: NewCartLine, now: Date): Promise<string> {
  return store.transaction(async (tx) => {
    // Lock the cart row: two adds of one SKU at once must not make two lines.
    await tx.query('SELECT 1 FROM carts WHERE cart_id = $1 FOR UPDATE', [cartId]);
    const existing = await tx.query<{ id: string }>(
      'UPDATE cart_items SET quantity = quantity + $4, price = $5 WHERE cart_id = $1 AND sku = $2 AND location_id = $3 RETURNING id::text AS id',
      [cartId, line.sku, line.locationId, line.quantity, line.price],
    );
    const id = existing.rows[0]?.id ?? (await insertLine(tx, cartId, line, now));
    await touch(tx, cartId, now);
    return id;
  });
}

async function insertLine(tx: Queryable, cartId: string, line: NewCartLine, now: Date): Promise<string> {
  const inserted = await tx.query<{ id: string }>(
    `INSERT INTO cart_items (cart_id, sku, mfr_code, part_number, description, quantity, location_id, location_description, price, added_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::timestamptz) RETURNING id::text AS id`,
    [
      cartId,
      line.sku,
      line.mfrCode,
      line.partNumber,
      line.description,
      line.quantity,
      line.locationId,
      line.locationDescription,
      line.price,
      now.toISOString(),
    ],
  );
  return inserted.rows[0].id;
}
