import type { Queryable } from '../store/store';

// The mail outbox table (migration 003): a message is written in the same transaction as
// the record it is about, so it exists exactly when that record does; the dispatcher
// delivers it later and keeps trying. Times come from the caller's clock, never now().

export type OutboxState = 'pending' | 'sent' | 'failed';

export interface OutboxEntry {
  id: number;
  /** Selects the composer that renders the body at delivery time (e.g. 'welcome'). */
  kind: string;
  recipient: string;
  subject: string;
  /** What the composer needs; never secrets (the table is not a vault). */
  payload: Record<string, unknown>;
  userId: number | null;
  state: OutboxState;
  attempts: number;
  lastError: string | null;
  nextAttemptAt: Date;
  createdAt: Date;
  sentAt: Date | null;
}

export interface NewMail {
  kind: string;
  recipient: string;
  subject: string;
  payload?: Record<string, unknown>;
  userId?: number;
}

interface Row {
  id: number | string;
  kind: string;
  recipient: string;
  subject: string;
  payload: Record<string, unknown> | string;
  user_id: number | null;
  state: OutboxState;
  attempts: number;
  last_error: string | null;
  next_attempt_at: Date | string;
  created_at: Date | string;
  sent_at: Date | string | null;
}

const toDate = (value: Date | string) => (value instanceof Date ? value : new Date(value));

function entry(row: Row): OutboxEntry {
  return {
    id: Number(row.id),
    kind: row.kind,
    recipient: row.recipient,
    subject: row.subject,
    payload: typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload,
    userId: row.user_id,
    state: row.state,
    attempts: row.attempts,
    lastError: row.last_error,
    nextAttemptAt: toDate(row.next_attempt_at),
    createdAt: toDate(row.created_at),
    sentAt: row.sent_at === null ? null : toDate(row.sent_at),
  };
}

/** Queues a message; call with the transaction that writes the record it belongs to. */
export async function enqueueMail(tx: Queryable, mail: NewMail, now: Date): Promise<number> {
  const { rows } = await tx.query<{ id: number | string }>(
    `INSERT INTO mail_outbox (kind, recipient, subject, payload, user_id, next_attempt_at, created_at)
     VALUES ($1, $2, $3, $4::jsonb, $5, $6, $6) RETURNING id`,
    [mail.kind, mail.recipient, mail.subject, JSON.stringify(mail.payload ?? {}), mail.userId ?? null, now],
  );
  return Number(rows[0].id);
}

/**
 * Takes up to `limit` due messages for one delivery attempt each: counts the attempt and
 * leases them until `now + leaseMs`, so a second dispatcher (another gateway instance)
 * skips them, and a dispatcher that died mid-send gives them back when the lease ends.
 */
export async function claimDueMail(db: Queryable, now: Date, leaseMs: number, limit: number): Promise<OutboxEntry[]> {
  const { rows } = await db.query<Row>(
    `UPDATE mail_outbox SET attempts = attempts + 1, claimed_until = $2
     WHERE id IN (
       SELECT id FROM mail_outbox
       WHERE state = 'pending' AND next_attempt_at <= $1 AND (claimed_until IS NULL OR claimed_until <= $1)
       ORDER BY next_attempt_at, id
       LIMIT $3
       FOR UPDATE SKIP LOCKED)
     RETURNING *`,
    [now, new Date(now.getTime() + leaseMs), limit],
  );
  return rows.map(entry).sort((a, b) => a.id - b.id);
}

export async function recordSent(tx: Queryable, id: number, now: Date): Promise<void> {
  await tx.query(
    `UPDATE mail_outbox SET state = 'sent', sent_at = $2, claimed_until = NULL, last_error = NULL WHERE id = $1`,
    [id, now],
  );
}

/** A failed attempt: pending again at `retryAt`, or failed for good when `retryAt` is null. */
export async function recordFailure(db: Queryable, id: number, error: string, retryAt: Date | null): Promise<void> {
  await db.query(
    `UPDATE mail_outbox SET last_error = $2, claimed_until = NULL,
       state = CASE WHEN $3::timestamptz IS NULL THEN 'failed' ELSE 'pending' END,
       next_attempt_at = COALESCE($3::timestamptz, next_attempt_at)
     WHERE id = $1`,
    [id, error.slice(0, 1_000), retryAt],
  );
}

export async function listMail(
  db: Queryable,
  filter: { state?: OutboxState; limit?: number } = {},
): Promise<OutboxEntry[]> {
  const { rows } = await db.query<Row>(
    `SELECT * FROM mail_outbox WHERE ($1::text IS NULL OR state = $1) ORDER BY id DESC LIMIT $2`,
    [filter.state ?? null, filter.limit ?? 100],
  );
  return rows.map(entry);
}

export async function countMailByState(db: Queryable): Promise<Record<OutboxState, number>> {
  const { rows } = await db.query<{ state: OutboxState; n: number | string }>(
    `SELECT state, count(*) AS n FROM mail_outbox GROUP BY state`,
  );
  const counts: Record<OutboxState, number> = { pending: 0, sent: 0, failed: 0 };
  for (const row of rows) counts[row.state] = Number(row.n);
  return counts;
}

/** Makes pending or failed messages due now (an operator's "retry now"); returns how many. */
export async function retryMailNow(db: Queryable, ids: number[] | 'all', now: Date): Promise<number> {
  const { affectedRows } = await db.query(
    `UPDATE mail_outbox SET state = 'pending', next_attempt_at = $1, claimed_until = NULL
     WHERE state IN ('pending', 'failed') AND ($2::bigint[] IS NULL OR id = ANY($2::bigint[]))`,
    [now, ids === 'all' ? null : ids],
  );
  return affectedRows;
}
