import { describe, expect, it } from 'vitest';
import { createDrain, type DrainWait } from './drain';
import { stopOnSignals, type StopSignal } from './stop-signals';

// The drain state machine and the signals that drive it, on a clock the test moves by hand.

/** A wait that ends only when the test says the time has passed (or the drain is skipped). */
function manualClock() {
  const waits: { ms: number; end: () => void }[] = [];
  const wait: DrainWait = (ms, cancelled) =>
    new Promise<void>((resolve) => {
      waits.push({ ms, end: resolve });
      cancelled.addEventListener('abort', () => resolve(), { once: true });
    });
  return { wait, waits, elapse: () => waits.forEach((w) => w.end()) };
}
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('drain', () => {
  it('serves, then drains for drainMs, then stops', async () => {
    const clock = manualClock();
    const drain = createDrain({ drainMs: 2_000, wait: clock.wait });
    expect([drain.phase(), drain.draining()]).toEqual(['serving', false]);
    const over = drain.begin();
    expect([drain.phase(), drain.draining()]).toEqual(['draining', true]);
    expect(clock.waits.map((w) => w.ms)).toEqual([2_000]);
    await settle();
    expect(drain.phase()).toBe('draining');
    clock.elapse();
    await over;
    expect([drain.phase(), drain.draining()]).toEqual(['stopping', true]);
  });

  it('begins once, however often it is asked', async () => {
    const clock = manualClock();
    const drain = createDrain({ drainMs: 2_000, wait: clock.wait });
    expect(drain.begin()).toBe(drain.begin());
    expect(clock.waits).toHaveLength(1);
  });

  it('skip ends the drain period at once, begun or not', async () => {
    const clock = manualClock();
    const drain = createDrain({ drainMs: 2_000, wait: clock.wait });
    const over = drain.begin();
    await drain.skip();
    await over;
    expect(drain.phase()).toBe('stopping');
    const fresh = createDrain({ drainMs: 2_000, wait: manualClock().wait });
    await fresh.skip();
    expect(fresh.phase()).toBe('stopping');
  });

  it('does not wait at all with drainMs 0', async () => {
    const clock = manualClock();
    const drain = createDrain({ drainMs: 0, wait: clock.wait });
    await drain.begin();
    expect([drain.phase(), clock.waits]).toEqual(['stopping', []]);
  });
});

describe('stop signals', () => {
  const setUp = (drainMs = 2_000) => {
    const clock = manualClock();
    const drain = createDrain({ drainMs, wait: clock.wait });
    const listeners = new Map<StopSignal, () => void>();
    const events: string[] = [];
    let stops = 0;
    stopOnSignals({
      name: 'gateway',
      drain,
      drainMs,
      stop: async () => {
        stops++;
        events.push(`stop in ${drain.phase()}`);
      },
      log: (line) => events.push(line),
      exit: (code) => events.push(`exit ${code}`),
      on: (signal, listener) => listeners.set(signal, listener),
    });
    const send = (signal: StopSignal) => listeners.get(signal)!();
    return { clock, drain, events, send, stops: () => stops };
  };

  it('SIGTERM drains for the whole period before it stops and exits 0', async () => {
    const { clock, drain, events, send } = setUp();
    send('SIGTERM');
    await settle();
    expect(drain.phase()).toBe('draining');
    expect(events).toEqual([
      'gateway: SIGTERM, draining for 2000 ms (/health answers 503, answers close their connections), then finishing in-flight requests',
    ]);
    clock.elapse();
    await settle();
    expect(events.slice(1)).toEqual(['stop in stopping', 'exit 0']);
  });

  it('a second SIGTERM or a SIGINT skips the rest of the drain', async () => {
    for (const second of ['SIGTERM', 'SIGINT'] as const) {
      const { events, send, stops } = setUp();
      send('SIGTERM');
      send(second);
      await settle();
      expect(events.slice(1)).toEqual([
        `gateway: ${second} while draining, skipping the rest of the drain`,
        'stop in stopping',
        'exit 0',
      ]);
      send('SIGTERM');
      expect(events.at(-1)).toBe('gateway: SIGTERM, already stopping (in-flight requests are finishing)');
      await settle();
      expect(stops()).toBe(1);
    }
  });

  it('SIGINT first stops without draining (a person at a terminal, no balancer to wait for)', async () => {
    const { clock, events, send } = setUp();
    send('SIGINT');
    await settle();
    expect(clock.waits).toEqual([]);
    expect(events).toEqual(['gateway: SIGINT, finishing in-flight requests (no drain)', 'stop in stopping', 'exit 0']);
  });

  it('exits 1 when stopping fails', async () => {
    const drain = createDrain({ drainMs: 0 });
    const events: string[] = [];
    let listener = () => {};
    stopOnSignals({
      name: 'gateway',
      drain,
      drainMs: 0,
      stop: () => Promise.reject(new Error('store would not close')),
      log: (line) => events.push(line),
      exit: (code) => events.push(`exit ${code}`),
      on: (signal, l) => (signal === 'SIGTERM' ? (listener = l) : undefined),
    });
    listener();
    await settle();
    expect(events.slice(1)).toEqual(['gateway: shutdown failed: store would not close', 'exit 1']);
  });
});
