// A small in-memory cache of look-ups. Entries live `ttlMs`; `clear()` drops them all.
// It caches the promise, so concurrent misses for one key share one load; a load that
// fails is forgotten at once. The entry goes in when its load starts, so clear() also
// drops loads in flight: their (possibly pre-write) result is never cached. Bounded: past
// `maxEntries` it starts over rather than grow without limit (e.g. a flood of unknown kids).
// A settled entry can also be read synchronously (peek): the request path then skips the
// promise and the microtask hop an await of the cached promise costs.
import type { CachedAnswer } from './directory';

export interface TtlCacheOptions {
  ttlMs: number;
  maxEntries: number;
  now?: () => number;
}

interface Entry<V> {
  value: Promise<V>;
  expiresAt: number;
  /** Set once the load has resolved. */
  settled?: CachedAnswer<V>;
}

/** The one freshness rule, asked by get() and peek() alike, so a cached answer is trusted or not the same way on both. */
function isFresh(entry: Entry<unknown>, now: number): boolean {
  return entry.expiresAt > now;
}

export class TtlCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private readonly now: () => number;

  constructor(private readonly options: TtlCacheOptions) {
    this.now = options.now ?? Date.now;
  }

  get(key: string, load: () => Promise<V>): Promise<V> {
    const now = this.now();
    const hit = this.entries.get(key);
    if (hit !== undefined && isFresh(hit, now)) return hit.value;
    if (this.options.ttlMs <= 0) return load();
    if (hit) this.entries.delete(key);
    else if (this.entries.size >= this.options.maxEntries) this.entries.clear();
    const value = load();
    const entry: Entry<V> = { value, expiresAt: now + this.options.ttlMs };
    this.entries.set(key, entry);
    value.then(
      (resolved) => {
        entry.settled = { value: resolved };
      },
      () => {
        if (this.entries.get(key) === entry) this.entries.delete(key);
      },
    );
    return value;
  }

  /** The answer for `key` if it is cached, loaded and fresh; otherwise undefined (ask get()). */
  peek(key: string): CachedAnswer<V> | undefined {
    const hit = this.entries.get(key);
    if (hit === undefined || hit.settled === undefined || !isFresh(hit, this.now())) return undefined;
    return hit.settled;
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
