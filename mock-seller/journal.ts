// Every request the seller endpoint received, the reply sent, timing and the faults
// applied. Bounded, so a load test cannot exhaust memory; the oldest entries go first.

export interface JournalEntry {
  seq: number;
  /** ISO time the request arrived. */
  at: string;
  service: string | null;
  request: unknown;
  /** HTTP status sent; null when no answer was sent (reset, hang). */
  http_status: number | null;
  /** The reply as sent (parsed object, or the raw text for malformed/truncated bodies). */
  reply: unknown;
  /** Faults applied, in `x-mock-fault` syntax; [] for an honest reply. */
  faults: string[];
  /** Where the faults came from. */
  fault_source: 'header' | 'rule' | 'header+rule' | null;
  /** Validation errors of an invalid request, or notes on faults that found nothing to act on. */
  notes: unknown[];
  elapsed_ms: number;
}

export interface Journal {
  /** `replyText`: the reply as sent, parsed only when the journal is read (keeps the hot path cheap). */
  record(entry: Omit<JournalEntry, 'seq' | 'at'> & { startedAt: number; replyText?: string }): void;
  entries(filter?: { service?: string; limit?: number }): JournalEntry[];
  clear(): void;
  readonly size: number;
}

interface Stored extends Omit<JournalEntry, 'seq' | 'at'> {
  seq: number;
  startedAt: number;
  replyText?: string;
}

export function createJournal(limit = 1000): Journal {
  // A ring buffer: recording is O(1) and allocation-free beyond the entry itself.
  const ring: (Stored | undefined)[] = new Array(limit);
  let next = 0;
  let seq = 0;
  let count = 0;
  return {
    record(entry) {
      ring[next] = { ...entry, seq: ++seq };
      next = (next + 1) % limit;
      if (count < limit) count++;
    },
    entries(filter = {}) {
      const out: JournalEntry[] = [];
      for (let i = 0; i < count; i++) {
        const stored = ring[(next - count + i + limit) % limit]!;
        if (filter.service !== undefined && stored.service !== filter.service) continue;
        const { seq, startedAt, replyText, ...rest } = stored;
        const reply = replyText === undefined ? rest.reply : JSON.parse(replyText);
        out.push({ seq, at: new Date(startedAt).toISOString(), ...rest, reply });
      }
      return filter.limit === undefined ? out : out.slice(-filter.limit);
    },
    clear() {
      ring.fill(undefined);
      next = 0;
      count = 0;
    },
    get size() {
      return count;
    },
  };
}
