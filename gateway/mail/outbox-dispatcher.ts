import type { Queryable, Store } from '../store/store';
import type { Clock } from '../clock';
import type { Mailer } from './mailer';
import { claimDueMail, recordFailure, recordSent, type OutboxEntry } from './outbox';

// Delivers the outbox: claims due messages, renders each with the composer for its kind,
// hands it to the mailer, and records the outcome. A failed attempt is retried with
// exponential backoff; after `maxAttempts` the message is `failed` until an operator
// retries it (`npm run outbox -- retry`). Delivery is at least once.

/** A rendered message plus what to commit, together with `sent`, once the mailer accepted it. */
export interface ComposedMail {
  text: string;
  onSent?(tx: Queryable): Promise<void>;
}

/** Renders the body of one kind of message at delivery time. */
export type MailComposer = (entry: OutboxEntry) => Promise<ComposedMail>;

export interface BackoffPolicy {
  /** Wait after the first failed attempt; doubled after each further one. */
  baseMs: number;
  maxMs: number;
  /** Attempts before a message is marked failed. */
  maxAttempts: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 30_000, maxMs: 60 * 60_000, maxAttempts: 10 };

/** When the next attempt is due after `attempts` failed ones; null when there is none. */
export function nextAttemptAt(now: Date, attempts: number, policy: BackoffPolicy): Date | null {
  if (attempts >= policy.maxAttempts) return null;
  const delay = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, attempts - 1));
  return new Date(now.getTime() + delay);
}

export interface DispatchSummary {
  sent: number;
  /** Failed attempts that will be retried. */
  deferred: number;
  /** Messages that used their last attempt. */
  failed: number;
}

export interface OutboxDispatcherOptions {
  store: Store;
  mailer: Mailer;
  clock: Clock;
  from: string;
  composers: Record<string, MailComposer>;
  backoff?: BackoffPolicy;
  leaseMs?: number;
  batchSize?: number;
  /** Where delivery problems are reported; messages carry ids and errors, never bodies. */
  log?: (line: string) => void;
}

export interface OutboxDispatcher {
  /** Delivers every message due now, once each; concurrent calls share one pass. */
  runOnce(): Promise<DispatchSummary>;
  /**
   * Delivers every message due when called (an operator's retry): waits for the pass in progress,
   * which may have claimed before the call, then runs another; the summary counts both.
   */
  deliverDueNow(): Promise<DispatchSummary>;
  /** Polls every `intervalMs` (and whenever woken). */
  start(intervalMs?: number): void;
  /** Asks for a pass soon, e.g. right after a user was created. */
  wake(): void;
  /** Stops polling and waits for the pass in progress. */
  stop(): Promise<void>;
}

/** The options with their defaults: what one delivery pass works with. */
interface Delivery {
  options: OutboxDispatcherOptions;
  backoff: BackoffPolicy;
  leaseMs: number;
  batchSize: number;
  now: () => Date;
  log: (line: string) => void;
}

/** Every message due now, claimed in batches, each delivered once. */
async function deliveryPass(delivery: Delivery): Promise<DispatchSummary> {
  const summary: DispatchSummary = { sent: 0, deferred: 0, failed: 0 };
  for (;;) {
    const batch = await claimDueMail(delivery.options.store, delivery.now(), delivery.leaseMs, delivery.batchSize);
    for (const entry of batch) await deliver(delivery, entry, summary);
    if (batch.length < delivery.batchSize) return summary;
  }
}

/** One message: rendered, handed to the mailer, recorded sent; or its failure recorded with the next attempt's time. */
async function deliver(delivery: Delivery, entry: OutboxEntry, summary: DispatchSummary): Promise<void> {
  const { options, now } = delivery;
  // A kind nobody can render will not improve with time: fail it at once.
  const renderable = Object.hasOwn(options.composers, entry.kind);
  try {
    if (!renderable) throw new Error(`no composer for mail kind '${entry.kind}'`);
    const composed = await options.composers[entry.kind](entry);
    await options.mailer.send({ from: options.from, to: entry.recipient, subject: entry.subject, text: composed.text });
    const sentAt = now();
    await options.store.transaction(async (tx) => {
      await composed.onSent?.(tx);
      await recordSent(tx, entry.id, sentAt);
    });
    summary.sent++;
  } catch (error) {
    const reason = (error as Error).message || String(error);
    const retryAt = renderable ? nextAttemptAt(now(), entry.attempts, delivery.backoff) : null;
    await recordFailure(options.store, entry.id, reason, retryAt);
    if (retryAt) summary.deferred++;
    else summary.failed++;
    delivery.log(
      `outbox: message ${entry.id} (${entry.kind}) attempt ${entry.attempts} failed: ${reason}; ` +
        (retryAt ? `next attempt ${retryAt.toISOString()}` : 'no attempts left, marked failed'),
    );
  }
}

export function createOutboxDispatcher(options: OutboxDispatcherOptions): OutboxDispatcher {
  const delivery: Delivery = {
    options,
    backoff: options.backoff ?? DEFAULT_BACKOFF,
    leaseMs: options.leaseMs ?? 120_000,
    batchSize: options.batchSize ?? 20,
    now: () => new Date(options.clock()),
    log: options.log ?? ((line: string) => console.error(line)),
  };
  const log = delivery.log;
  let running: Promise<DispatchSummary> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopped = true;
  // Set by wake() during a pass: the pass may have claimed before the new message existed.
  let woken = false;

  const runOnce = (): Promise<DispatchSummary> => {
    running ??= deliveryPass(delivery).finally(() => (running = undefined));
    return running;
  };

  const tick = (delayMs: number, intervalMs: number) => {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      try {
        do {
          woken = false;
          await runOnce();
        } while (woken && !stopped);
      } catch (error) {
        log(`outbox: dispatch pass failed: ${(error as Error).message}`);
      }
      if (!stopped) tick(intervalMs, intervalMs);
    }, delayMs);
    timer.unref();
  };
  let interval = 5_000;

  return {
    runOnce,
    async deliverDueNow() {
      const inFlight = await running?.catch(() => undefined);
      const next = await runOnce();
      return inFlight
        ? {
            sent: inFlight.sent + next.sent,
            deferred: inFlight.deferred + next.deferred,
            failed: inFlight.failed + next.failed,
          }
        : next;
    },
    start(intervalMs = 5_000) {
      interval = intervalMs;
      stopped = false;
      tick(0, interval);
    },
    wake() {
      woken = true;
      if (!stopped && !running) tick(0, interval);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running?.catch(() => {});
    },
  };
}
