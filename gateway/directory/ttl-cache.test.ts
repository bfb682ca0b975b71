import { describe, expect, it } from 'vitest';
import { TtlCache } from './ttl-cache';

// The reload ahead of an entry's end: read in the last part of its life, an entry is loaded
// again in the background and answers meanwhile; no answer is ever older than the TTL.

const TTL = 1_000;

function counted(values: string[]) {
  let loads = 0;
  const pending: ((value: string) => void)[] = [];
  const failures: ((error: Error) => void)[] = [];
  return {
    get loads() {
      return loads;
    },
    /** A load that settles when told to (resolve/reject the oldest pending one). */
    load: () =>
      new Promise<string>((resolve, reject) => {
        loads++;
        pending.push(resolve);
        failures.push(reject);
      }),
    resolve: async () => {
      failures.shift();
      pending.shift()!(values.shift()!);
      await new Promise((resolve) => setImmediate(resolve));
    },
    reject: async () => {
      pending.shift();
      failures.shift()!(new Error('store down'));
      await new Promise((resolve) => setImmediate(resolve));
    },
  };
}

async function loadedCache(source: ReturnType<typeof counted>, clock: { now: number }) {
  const cache = new TtlCache<string>({ ttlMs: TTL, maxEntries: 10, now: () => clock.now });
  const first = cache.get('k', source.load);
  await source.resolve();
  expect(await first).toBe('v1');
  return cache;
}

describe('TtlCache reloads an entry read near its end', () => {
  it('not before the last fifth of its life', async () => {
    const clock = { now: 0 };
    const source = counted(['v1', 'v2']);
    const cache = await loadedCache(source, clock);
    clock.now = TTL * 0.8 - 1;
    expect(cache.peek('k')).toEqual({ value: 'v1' });
    expect(await cache.get('k', source.load)).toBe('v1');
    expect(source.loads).toBe(1);
  });

  it('in it: once, answering the old value until the new one has loaded, which then lives a TTL from its start', async () => {
    const clock = { now: 0 };
    const source = counted(['v1', 'v2']);
    const cache = await loadedCache(source, clock);
    clock.now = TTL * 0.9;
    expect(cache.peek('k')).toEqual({ value: 'v1' });
    expect(cache.peek('k')).toEqual({ value: 'v1' });
    expect(await cache.get('k', source.load)).toBe('v1');
    expect(source.loads).toBe(2);
    await source.resolve();
    expect(cache.peek('k')).toEqual({ value: 'v2' });
    clock.now = TTL * 0.9 + TTL - 1; // the first entry long gone; the reload started at 0.9 TTL
    expect(cache.peek('k')).toEqual({ value: 'v2' });
    clock.now = TTL * 0.9 + TTL;
    expect(cache.peek('k')).toBeUndefined();
  });

  it('drops a reload that clear() overtook: what was read before a change is not cached', async () => {
    const clock = { now: 0 };
    const source = counted(['v1', 'before the change']);
    const cache = await loadedCache(source, clock);
    clock.now = TTL * 0.9;
    cache.peek('k');
    cache.clear();
    await source.resolve();
    expect(cache.peek('k')).toBeUndefined();
  });

  it('after a failed reload, serves the old value until it expires, then loads as usual', async () => {
    const clock = { now: 0 };
    const source = counted(['v1', 'v3']);
    const cache = await loadedCache(source, clock);
    clock.now = TTL * 0.9;
    cache.peek('k');
    await source.reject();
    clock.now = TTL - 1;
    expect(cache.peek('k')).toEqual({ value: 'v1' });
    expect(source.loads).toBe(2); // no retry per read while the store is down
    clock.now = TTL;
    expect(cache.peek('k')).toBeUndefined();
    const next = cache.get('k', source.load);
    await source.resolve();
    expect(await next).toBe('v3');
  });
});
