import type { ExchangeDetail, ExchangeFeed, ExchangeRecord, ExchangeSummary } from './exchange';
import { judgeExchange, summaryOf } from './judge-exchange';

// An in-memory ExchangeFeed for servers that have no journal of their own (the gateway's
// forwarded calls, the rules proxy): add() each exchange, the oldest go first past `limit`.
// Verdicts are worked out when first asked for, so recording costs nothing while nobody looks.

export interface ExchangeLog extends ExchangeFeed {
  /** Keeps `record` as given and judges it later: the caller hands over values nobody changes afterwards. */
  add(record: ExchangeRecord): void;
  clear(): void;
}

export interface ExchangeLogOptions {
  /** Exchanges kept; default 500. */
  limit?: number;
}

interface Slot {
  id: number;
  record: ExchangeRecord;
  judged?: ExchangeDetail;
}

export function createExchangeLog(options: ExchangeLogOptions = {}): ExchangeLog {
  const limit = options.limit ?? 500;
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`limit must be a whole number above 0, got ${limit}`);
  const slots: Slot[] = [];
  const listeners = new Set<(summary: ExchangeSummary) => void>();
  let nextId = 1;

  const judged = (slot: Slot) => (slot.judged ??= judgeExchange(slot.id, slot.record));

  return {
    limit,
    add(record) {
      const slot: Slot = { id: nextId++, record };
      slots.push(slot);
      if (slots.length > limit) slots.shift();
      if (listeners.size === 0) return;
      const summary = summaryOf(judged(slot));
      for (const listener of listeners) listener(summary);
    },
    recent: () => slots.map((slot) => summaryOf(judged(slot))),
    detail(id) {
      // Ids are consecutive, so the slot's place follows from the first one kept.
      const slot = slots.length === 0 ? undefined : slots[id - slots[0].id];
      return slot?.id === id ? judged(slot) : undefined;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    clear() {
      slots.length = 0;
    },
  };
}
