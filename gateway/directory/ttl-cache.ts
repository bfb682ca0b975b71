// A small in-memory cache of look-ups. Entries live `ttlMs`; `clear()` drops them all.
// It caches the promise, so concurrent misses for one key share one load; a load that
// fails is forgotten at once. The entry goes in when its load starts, so clear() also
// drops loads in flight: their (possibly pre-write) result is never cached. Bounded: past
// `maxEntries` it starts over rather than grow without limit (e.g. a flood of unknown kids).
// A settled entry can also be read synchronously (peek): the request path then skips the
// promise and the microtask hop an await of the cached promise costs.
// An entry read in the last part of its life (`refreshAheadMs`) is loaded again in the
// background while it keeps answering: under steady traffic no request waits for the store
// when an entry's time is up (on PostgreSQL, every request arriving during that reload
// waited for it: p99 +31 ms at 1,000 req/s). No answer is older than `ttlMs` all the same:
// the reloaded entry's life starts when its load started, and a failed reload leaves the
// entry to expire as it would have.
import type { CachedAnswer } from './directory';

export interface TtlCacheOptions {
  ttlMs: number;
  maxEntries: number;
  now?: () => number;
  /** How long before its end an entry that is read gets reloaded in the background; default a fifth of ttlMs. */
  refreshAheadMs?: number;
}

interface Entry<V> {
  value: Promise<V>;
  expiresAt: number;
  /** Set once the load has resolved. */
  settled?: CachedAnswer<V>;
  /** What loaded it, for the reload ahead of its end. */
  load: () => Promise<V>;
  /** A reload ahead has started (set for good if it failed: the entry then just expires). */
  reloading?: boolean;
}

/**
 * The one freshness rule, asked by get() and peek() alike, so a cached answer is trusted or not the same way on both.
 */
function isFresh(entry: Entry<unknown>, now: number): boolean {
  return entry.expiresAt > now;
}

export class TtlCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private readonly now: () => number;
  private readonly refreshAheadMs: number;

  constructor(private readonly options: TtlCacheOptions) {
    this.now = options.now ?? Date.now;
    this.refreshAheadMs = options.refreshAheadMs ?? options.ttlMs / 5;
  }

  get(key: string, load: () => Promise<V>): Promise<V> {
    const now = this.now();
    const hit = this.entries.get(key);
    if (hit !== undefined && isFresh(hit, now)) {
      this.reloadIfEnding(key, hit, now);
      return hit.value;
    }
    if (this.options.ttlMs <= 0) return load();
    if (hit) this.entries.delete(key);
    else if (this.entries.size >= this.options.maxEntries) this.entries.clear();
    this.start(key, load, now);
    return this.entries.get(key)!.value;
  }

  /** The answer for `key` if it is cached, loaded and fresh; otherwise undefined (ask get()). */
  peek(key: string): CachedAnswer<V> | undefined {
    const hit = this.entries.get(key);
    if (hit === undefined || hit.settled === undefined) return undefined;
    const now = this.now();
    if (!isFresh(hit, now)) return undefined;
    this.reloadIfEnding(key, hit, now);
    return hit.settled;
  }

  /** A load whose entry goes in now; a failed one is forgotten. */
  private start(key: string, load: () => Promise<V>, now: number): void {
    const value = load();
    const entry: Entry<V> = { value, expiresAt: now + this.options.ttlMs, load };
    this.entries.set(key, entry);
    value.then(
      (resolved) => {
        entry.settled = { value: resolved };
      },
      () => {
        if (this.entries.get(key) === entry) this.entries.delete(key);
      },
    );
  }

  /** In its last refreshAheadMs, a settled entry is loaded again; it answers until the new one has. */
  private reloadIfEnding(key: string, entry: Entry<V>, now: number): void {
    if (entry.reloading === true || entry.settled === undefined || now < entry.expiresAt - this.refreshAheadMs) return;
    entry.reloading = true;
    const value = entry.load();
    value.then(
      (resolved) => {
        // Only over the entry it reloads: after a clear() (a directory
        // change) or a new load, what was read before is not cached.
        if (this.entries.get(key) !== entry) return;
        this.entries.set(key, {
          value,
          expiresAt: now + this.options.ttlMs,
          settled: { value: resolved },
          load: entry.load,
        });
      },
      () => undefined,
    );
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
