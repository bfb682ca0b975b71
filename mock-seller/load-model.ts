import { setTimeout as sleep } from 'node:timers/promises';
import type { ScenarioCrossTalk, ScenarioLoad, ScenarioServiceTime } from '../contracts/schemas/scenario';
import { draw, latencyMs } from './fault-schedule';

// The scenario's `load` section at run time: N workers with a seeded service time and a FIFO
// queue beyond them, and the cross-talk fault — a reply takes an item id or an original_part
// from another request in flight, while more than `above` are in flight. Requests alone are
// always answered correctly: the failure shows only under concurrency, as a shared-state bug does. And the
// stall: for for_ms at the end of every every_ms nothing is answered; a request arriving in one
// waits for it to end before it queues for a worker.

interface InFlight {
  /** Ids and part numbers the request names: what a cross-talking reply can take. */
  ids: string[];
  parts: { mfr_code: string; part_number: string }[];
}

export interface CrossTalk {
  /** A note for the journal, e.g. "id 'a' replaced by 'b' of another request in flight". */
  note: string;
}

export interface LoadModel {
  readonly config: ScenarioLoad;
  /** Requests in the endpoint now (queued or served). */
  readonly inFlight: number;
  /** Waits for a worker and the request's service time; returns the release and the slot of the request. */
  admit(body: string, signal: AbortSignal): Promise<Admitted>;
}

export interface Admitted {
  /** Spoils the reply (in place) when the cross-talk fault strikes now; undefined when it does not. */
  crossTalk(reply: unknown): CrossTalk | undefined;
  release(): void;
}

/** The service time of the n-th request to arrive: a function of the seed and n alone. */
export function serviceTimeOf(config: ScenarioLoad, n: number): number {
  let k = 0;
  return drawServiceTime(config.service_time, () => draw(config.seed ?? 0, 'service-time', String(n), String(k++)));
}

function drawServiceTime(time: ScenarioServiceTime | undefined, uniform: () => number): number {
  if (time === undefined) return 0;
  const distribution = time.distribution ?? 'fixed';
  if (distribution === 'log-normal')
    return latencyMs({ kind: 'latency', distribution, median_ms: time.median_ms, sigma: time.sigma }, uniform);
  if (distribution === 'uniform')
    return latencyMs({ kind: 'latency', min_ms: time.min_ms, max_ms: time.max_ms }, uniform);
  return time.ms ?? 0;
}

function namedIn(body: string): InFlight {
  try {
    const items = (JSON.parse(body) as { items?: unknown }).items;
    if (!Array.isArray(items)) return { ids: [], parts: [] };
    const named = items.filter(
      (i): i is { id: string; mfr_code?: string; part_number?: string } =>
        typeof (i as { id?: unknown })?.id === 'string',
    );
    return {
      ids: named.map((i) => i.id),
      parts: named.flatMap((i) =>
        i.mfr_code !== undefined && i.part_number !== undefined
          ? [{ mfr_code: i.mfr_code, part_number: i.part_number }]
          : [],
      ),
    };
  } catch {
    return { ids: [], parts: [] }; // not JSON: the endpoint refuses it
  }
}

type ReplyItem = { id?: unknown; part_number?: unknown; original_part?: unknown };

/** How long a request arriving `sinceLoadMs` after the scenario was loaded waits for a stall to end (0: none now). */
export function stallWaitMs(stall: ScenarioLoad['stall'], sinceLoadMs: number): number {
  if (stall === undefined) return 0;
  const phase = sinceLoadMs % stall.every_ms;
  return phase >= stall.every_ms - stall.for_ms ? stall.every_ms - phase : 0;
}

/**
 * `workers` at once, the rest queued first come, first served;
 * closing lets the queue go (each slot is given back as usual).
 */
function workerPool(workers: number) {
  let busy = 0;
  const queue: (() => void)[] = [];
  return {
    acquire(signal: AbortSignal): Promise<void> {
      if (busy < workers) {
        busy += 1;
        return Promise.resolve();
      }
      return new Promise<void>((resolve) => {
        const take = () => {
          signal.removeEventListener('abort', take);
          resolve();
        };
        queue.push(take);
        signal.addEventListener('abort', take, { once: true });
      });
    },
    release(): void {
      const next = queue.shift();
      if (next !== undefined)
        next(); // the worker passes straight to the next in line
      else busy -= 1;
    },
  };
}

/** Sleeps `ms`; closing ends the wait early (the request is answered now). */
async function pause(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0) return;
  try {
    await sleep(ms, undefined, { signal });
  } catch {
    /* closing: answer now */
  }
}

/** The cross-talk fault of the n-th request `self`: spoils its reply with a value of another request in flight. */
function crossTalkOf(
  talk: ScenarioCrossTalk | undefined,
  seed: number,
  n: number,
  self: InFlight,
  inFlight: ReadonlySet<InFlight>,
) {
  return (reply: unknown): CrossTalk | undefined => {
    if (talk === undefined || inFlight.size <= talk.above) return undefined;
    if (draw(seed, 'cross-talk', String(n)) >= (talk.probability ?? 1)) return undefined;
    const others = [...inFlight].filter((o) => o !== self);
    const entries = (reply as { items?: ReplyItem[] } | null)?.items;
    if (!Array.isArray(entries) || entries.length === 0) return undefined;
    const pick = <T>(list: T[], salt: string): T | undefined =>
      list.length === 0 ? undefined : list[Math.floor(draw(seed, salt, String(n)) * list.length)];
    if (talk.mix === 'item-id') {
      const foreign = others.flatMap((o) => o.ids).filter((id) => !self.ids.includes(id));
      const id = pick(foreign, 'cross-talk-id');
      const entry = pick(entries, 'cross-talk-entry');
      if (id === undefined || entry === undefined) return undefined;
      const was = String(entry.id);
      entry.id = id;
      return {
        note: `cross-talk: id '${was}' replaced by '${id}' of another request in flight (${inFlight.size} in flight)`,
      };
    }
    const related = entries.filter((e) => typeof e.original_part === 'string');
    const foreign = others
      .flatMap((o) => o.parts.map((p) => p.part_number))
      .filter((p) => !related.some((e) => e.original_part === p));
    const part = pick(foreign, 'cross-talk-part');
    const entry = pick(related, 'cross-talk-entry');
    if (part === undefined || entry === undefined) return undefined;
    const was = String(entry.original_part);
    entry.original_part = part;
    return {
      note: `cross-talk: original_part '${was}' replaced by '${part}' of another request in flight (${inFlight.size} in flight)`,
    };
  };
}

export function createLoadModel(config: ScenarioLoad, now: () => number = () => performance.now()): LoadModel {
  const seed = config.seed ?? 0;
  const loadedAt = now();
  let arrivals = 0;
  const inFlight = new Set<InFlight>();
  const pool = workerPool(config.workers ?? Infinity);
  return {
    config,
    get inFlight() {
      return inFlight.size;
    },
    async admit(body, signal) {
      const self = namedIn(body);
      const n = arrivals++;
      inFlight.add(self);
      await pause(stallWaitMs(config.stall, now() - loadedAt), signal);
      await pool.acquire(signal);
      await pause(serviceTimeOf(config, n), signal);
      pool.release();
      let released = false;
      return {
        crossTalk: crossTalkOf(config.cross_talk, seed, n, self, inFlight),
        release() {
          if (released) return;
          released = true;
          inFlight.delete(self);
        },
      };
    },
  };
}
