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
  fault_source: 'header' | 'rule' | 'header+rule' | 'load' | null;
  /** Header faults not applied because they do not apply to the request's service (e.g. drop-id on an invoice). */
  faults_not_applied: string[];
  /** Validation errors of an invalid request, or notes on faults that found nothing to act on. */
  notes: unknown[];
  elapsed_ms: number;
}

/** What the seller endpoint hands over per request; kept cheap to make and to retain. */
export interface JournalRecord {
  startedAt: number;
  elapsed_ms: number;
  service: string | null;
  /** The body as received; parsed only when the journal is read. */
  requestText: string;
  http_status: number | null;
  /** The reply as sent: an object, or its bytes (parsed only when read). */
  reply?: unknown;
  replyBytes?: Uint8Array;
  faults?: string[];
  fault_source?: JournalEntry['fault_source'];
  faults_not_applied?: string[];
  notes?: unknown[];
}

export interface Journal {
  record(entry: JournalRecord): void;
  entries(filter?: { service?: string; limit?: number }): JournalEntry[];
  /** One retained entry by its seq; undefined once dropped (or cleared). */
  get(seq: number): JournalEntry | undefined;
  /** Calls `listener` with each entry as it is recorded (the inspector); returns the unsubscribe function. */
  subscribe(listener: (entry: JournalEntry) => void): () => void;
  clear(): void;
  readonly size: number;
  readonly limit: number;
}

interface Slot extends Required<Omit<JournalRecord, 'reply' | 'replyBytes'>> {
  seq: number;
  reply: unknown;
  replyBytes: Uint8Array | undefined;
}

const NONE: never[] = [];

function parsedRequest(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text; // not JSON: journaled as it came
  }
}

function entryOf(s: Slot): JournalEntry {
  return {
    seq: s.seq,
    at: new Date(s.startedAt).toISOString(),
    service: s.service,
    request: parsedRequest(s.requestText),
    http_status: s.http_status,
    reply: s.replyBytes === undefined ? s.reply : JSON.parse(Buffer.from(s.replyBytes).toString('utf8')),
    faults: [...s.faults],
    fault_source: s.fault_source,
    faults_not_applied: [...s.faults_not_applied],
    notes: [...s.notes],
    elapsed_ms: s.elapsed_ms,
  };
}

export function createJournal(limit = 1000): Journal {
  // A ring of slots reused in place: under load, recording allocates nothing that must
  // survive, so the garbage collector is not kept busy promoting old requests.
  const ring: Slot[] = [];
  let next = 0;
  let seq = 0;
  let count = 0;
  const listeners = new Set<(entry: JournalEntry) => void>();
  return {
    limit,
    record(entry) {
      let slot = ring[next];
      if (slot === undefined) {
        slot = {
          seq: 0,
          startedAt: 0,
          elapsed_ms: 0,
          service: null,
          requestText: '',
          http_status: null,
          reply: undefined,
          replyBytes: undefined,
          faults: NONE,
          fault_source: null,
          faults_not_applied: NONE,
          notes: NONE,
        };
        ring[next] = slot;
      }
      slot.seq = ++seq;
      slot.startedAt = entry.startedAt;
      slot.elapsed_ms = entry.elapsed_ms;
      slot.service = entry.service;
      slot.requestText = entry.requestText;
      slot.http_status = entry.http_status;
      slot.reply = entry.reply;
      slot.replyBytes = entry.replyBytes;
      slot.faults = entry.faults ?? NONE;
      slot.fault_source = entry.fault_source ?? null;
      slot.faults_not_applied = entry.faults_not_applied ?? NONE;
      slot.notes = entry.notes ?? NONE;
      next = (next + 1) % limit;
      if (count < limit) count++;
      // Entries are built only for listeners: with nobody watching, recording stays as cheap as before.
      if (listeners.size > 0) {
        const built = entryOf(slot);
        for (const listener of listeners) listener(built);
      }
    },
    entries(filter = {}) {
      const out: JournalEntry[] = [];
      for (let i = 0; i < count; i++) {
        const s = ring[(next - count + i + limit) % limit];
        if (filter.service !== undefined && s.service !== filter.service) continue;
        out.push(entryOf(s));
      }
      return filter.limit === undefined ? out : out.slice(-filter.limit);
    },
    get(wanted) {
      // Seqs are consecutive, newest at next - 1: the slot follows from the distance to it.
      const back = seq - wanted;
      if (!Number.isInteger(wanted) || back < 0 || back >= count) return undefined;
      return entryOf(ring[(next - 1 - back + 2 * limit) % limit]);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    clear() {
      ring.length = 0;
      next = 0;
      count = 0;
    },
    get size() {
      return count;
    },
  };
}
