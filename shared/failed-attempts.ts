// Failed attempts per client address in fixed windows, in this process's memory: for a
// credential that can be guessed (the inspector's session form, the gateway's bearer tokens).
// Only failures count, and a blocked address is refused before anything costly is checked.
// Memory holds one window's addresses, at most `maxAddresses` of them: past that, new
// addresses go uncounted (a spread that wide is beyond any per-address limit anyway).

export interface FailedAttemptsOptions {
  /** Failures an address may make in one window; the next attempt is refused. */
  limit: number;
  windowMs: number;
  /** Milliseconds since the epoch; injected in tests. */
  clock: () => number;
  /** Addresses counted at once; default 100 000. */
  maxAddresses?: number;
}

export interface FailedAttempts {
  /** Seconds until `address` may try again (for Retry-After); 0 when it may now. */
  blockedFor(address: string): number;
  /** Counts one failure of `address`. */
  failed(address: string): void;
  readonly limit: number;
}

export function failedAttempts(options: FailedAttemptsOptions): FailedAttempts {
  const { limit, windowMs, clock } = options;
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`limit must be a whole number above 0, got ${limit}`);
  const maxAddresses = options.maxAddresses ?? 100_000;
  let windowStart = 0;
  let failures = new Map<string, number>();

  /** The current window's start; a new window forgets every count at once. */
  const windowNow = (now: number) => {
    const start = now - (now % windowMs);
    if (start !== windowStart) {
      windowStart = start;
      failures = new Map();
    }
    return start;
  };

  return {
    limit,
    blockedFor(address) {
      // Every request asks: a map look-up, and the clock only for an address at its limit
      // (its count may be a past window's, which the clock then forgets).
      if ((failures.get(address) ?? 0) < limit) return 0;
      const now = clock();
      const start = windowNow(now);
      if ((failures.get(address) ?? 0) < limit) return 0;
      return Math.max(1, Math.ceil((start + windowMs - now) / 1000));
    },
    failed(address) {
      windowNow(clock());
      const count = failures.get(address);
      if (count === undefined && failures.size >= maxAddresses) return;
      failures.set(address, (count ?? 0) + 1);
    },
  };
}
