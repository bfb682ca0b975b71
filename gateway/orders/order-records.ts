import { storableJson, storableText } from './storable-text';
import type { Queryable } from '../store/store';

// The orders table (migration 002). The INSERT is the claim: the unique constraints on
// (user, PO number) and (user, Idempotency-Key) let exactly one of any number of concurrent
// attempts — in this process or another gateway instance — go on to forward the order.

export type OrderStatus = 'received' | 'forwarded' | 'confirmed' | 'failed' | 'unknown';

/** What the buyer was answered, kept so a repeat is answered the same. */
export interface StoredAnswer {
  http_status: number;
  body: object;
}

export interface OrderRecord {
  id: number;
  purchaseOrderNumber: string;
  idempotencyKey: string | null;
  status: OrderStatus;
  answer: StoredAnswer | null;
  /** Which attempt holds the claim; a takeover increments it, so the attempt it replaced can tell. */
  attempts: number;
  memberId: string;
  /** When the status last changed: for an order in flight, when it was claimed or forwarded. */
  updatedAt: Date;
  /** The buyer's order as parsed, to tell a repeat from another order; null if recorded before migration 007. */
  buyerRequest: unknown;
}

export interface NewOrder {
  userId: number;
  username: string;
  purchaseOrderNumber: string;
  idempotencyKey: string | null;
  memberId: string;
  requestId: string;
  /** The buyer's order as parsed. */
  buyerRequest: object;
  forwardedRequest: object;
  at: Date;
}

/** What an attempt that takes an order over (a failed or stale received one) sends instead. */
export interface Takeover {
  requestId: string;
  buyerRequest: object;
  forwardedRequest: object;
  idempotencyKey: string | null;
  at: Date;
}

interface Row {
  id: string | number;
  purchase_order_number: string;
  idempotency_key: string | null;
  status: OrderStatus;
  answer: StoredAnswer | string | null;
  attempts: number;
  member_id: string;
  updated_at: Date | string;
  buyer_request: unknown;
}

const COLUMNS =
  'id, purchase_order_number, idempotency_key, status, answer, attempts, member_id, updated_at, buyer_request';

// pg and PGlite both parse jsonb; a string would mean a driver configured otherwise.
const parsed = <T>(value: T | string): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);

const toRecord = (row: Row): OrderRecord => ({
  id: Number(row.id),
  purchaseOrderNumber: row.purchase_order_number,
  idempotencyKey: row.idempotency_key,
  status: row.status,
  answer: parsed(row.answer),
  attempts: row.attempts,
  memberId: row.member_id,
  updatedAt: new Date(row.updated_at),
  buyerRequest: parsed(row.buyer_request),
});

/** The orders table's statements, each one named function below, bound to one connection or transaction. */
export function orderRecords(db: Queryable) {
  const on =
    <A extends unknown[], R>(statement: (db: Queryable, ...args: A) => R) =>
    (...args: A) =>
      statement(db, ...args);
  return {
    claim: on(claim),
    findExisting: on(findExisting),
    find: on(find),
    retakeFailed: on(retakeFailed),
    takeOverStaleReceived: on(takeOverStaleReceived),
    markStaleForwardedUnknown: on(markStaleForwardedUnknown),
    markForwarded: on(markForwarded),
    finish: on(finish),
  };
}

const firstRecord = (rows: Row[]): OrderRecord | undefined => (rows[0] === undefined ? undefined : toRecord(rows[0]));

/** Inserts the order as received; undefined when an order with that PO number or key exists. */
async function claim(db: Queryable, order: NewOrder): Promise<OrderRecord | undefined> {
  const { rows } = await db.query<Row>(
    `INSERT INTO orders (user_id, username, purchase_order_number, idempotency_key, member_id, status, request_id, forwarded_request, created_at, updated_at, buyer_request)
     VALUES ($1, $2, $3, $4, $5, 'received', $6, $7, $8, $8, $9)
     ON CONFLICT DO NOTHING
     RETURNING ${COLUMNS}`,
    [
      order.userId,
      order.username,
      order.purchaseOrderNumber,
      order.idempotencyKey,
      order.memberId,
      order.requestId,
      storableJson(order.forwardedRequest),
      order.at.toISOString(),
      storableJson(order.buyerRequest),
    ],
  );
  return firstRecord(rows);
}

/** The earlier order a repeat collides with: same PO number, or same Idempotency-Key. */
async function findExisting(
  db: Queryable,
  userId: number,
  purchaseOrderNumber: string,
  idempotencyKey: string | null,
): Promise<OrderRecord | undefined> {
  const { rows } = await db.query<Row>(
    `SELECT ${COLUMNS} FROM orders
      WHERE user_id = $1 AND (purchase_order_number = $2 OR ($3::text IS NOT NULL AND idempotency_key = $3))
      ORDER BY (idempotency_key IS NOT DISTINCT FROM $3) DESC, id
      LIMIT 1`,
    [userId, purchaseOrderNumber, idempotencyKey],
  );
  return firstRecord(rows);
}

async function find(db: Queryable, id: number): Promise<OrderRecord | undefined> {
  const { rows } = await db.query<Row>(`SELECT ${COLUMNS} FROM orders WHERE id = $1`, [id]);
  return firstRecord(rows);
}

/**
 * A failed order (certainly not placed) may be tried again, with this attempt's body (a
 * corrected one, perhaps): the conditional UPDATE is the claim, so of several concurrent
 * retries exactly one takes it over.
 */
async function retakeFailed(db: Queryable, id: number, takeover: Takeover): Promise<OrderRecord | undefined> {
  const { rows } = await db.query<Row>(
    `UPDATE orders
        SET status = 'received', attempts = attempts + 1, request_id = $2, forwarded_request = $3, buyer_request = $6,
            idempotency_key = COALESCE(idempotency_key, $4), seller_reply = NULL, answer = NULL, error = NULL, updated_at = $5
      WHERE id = $1 AND status = 'failed'
      RETURNING ${COLUMNS}`,
    [
      id,
      takeover.requestId,
      storableJson(takeover.forwardedRequest),
      takeover.idempotencyKey,
      takeover.at.toISOString(),
      storableJson(takeover.buyerRequest),
    ],
  );
  return firstRecord(rows);
}

/**
 * An order left received by an attempt that stopped (a crashed instance) and not touched
 * since staleBefore was certainly never sent: one retry may take it over and place it.
 * The conditional UPDATE is the claim, as for a failed order.
 */
async function takeOverStaleReceived(
  db: Queryable,
  id: number,
  takeover: Takeover & { memberId: string; staleBefore: Date },
): Promise<OrderRecord | undefined> {
  const { rows } = await db.query<Row>(
    `UPDATE orders
        SET attempts = attempts + 1, request_id = $2, forwarded_request = $3, idempotency_key = COALESCE(idempotency_key, $4),
            member_id = $5, updated_at = $7, buyer_request = $8
      WHERE id = $1 AND status = 'received' AND updated_at < $6
      RETURNING ${COLUMNS}`,
    [
      id,
      takeover.requestId,
      storableJson(takeover.forwardedRequest),
      takeover.idempotencyKey,
      takeover.memberId,
      takeover.staleBefore.toISOString(),
      takeover.at.toISOString(),
      storableJson(takeover.buyerRequest),
    ],
  );
  return firstRecord(rows);
}

/**
 * An order left forwarded and not touched since staleBefore may have reached the seller,
 * so it becomes unknown (never sent again) with the answer every repeat will get.
 * Undefined when it was no longer a stale forwarded order (finished, or already marked).
 */
async function markStaleForwardedUnknown(
  db: Queryable,
  id: number,
  outcome: { answer: StoredAnswer; error: string; staleBefore: Date; at: Date },
): Promise<OrderRecord | undefined> {
  const { rows } = await db.query<Row>(
    `UPDATE orders SET status = 'unknown', answer = $2, error = $3, updated_at = $5
      WHERE id = $1 AND status = 'forwarded' AND updated_at < $4
      RETURNING ${COLUMNS}`,
    [
      id,
      storableJson(outcome.answer),
      storableText(outcome.error),
      outcome.staleBefore.toISOString(),
      outcome.at.toISOString(),
    ],
  );
  return firstRecord(rows);
}

/**
 * Received → forwarded, only by the attempt that still holds the claim: false when a
 * retry took the order over meanwhile (this attempt was stale), and then it must not send.
 */
async function markForwarded(db: Queryable, id: number, attempt: number, at: Date): Promise<boolean> {
  const { rows } = await db.query<{ id: string | number }>(
    `UPDATE orders SET status = 'forwarded', updated_at = $3 WHERE id = $1 AND status = 'received' AND attempts = $2 RETURNING id`,
    [id, attempt, at.toISOString()],
  );
  return rows.length > 0;
}

async function finish(
  db: Queryable,
  id: number,
  outcome: {
    status: Exclude<OrderStatus, 'received' | 'forwarded'>;
    sellerReply?: unknown;
    answer: StoredAnswer;
    error?: string;
  },
  at: Date,
): Promise<void> {
  // Not conditional: an attempt that outlived its staleness bound and was marked unknown
  // still records what the seller actually answered, which is better than unknown.
  await db.query(
    `UPDATE orders SET status = $2, seller_reply = $3, answer = $4, error = $5, updated_at = $6 WHERE id = $1`,
    [
      id,
      outcome.status,
      outcome.sellerReply === undefined ? null : storableJson(outcome.sellerReply),
      storableJson(outcome.answer),
      outcome.error === undefined ? null : storableText(outcome.error),
      at.toISOString(),
    ],
  );
}

export type OrderRecords = ReturnType<typeof orderRecords>;
