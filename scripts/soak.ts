import { availableParallelism, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { mintDevToken } from '../gateway/auth/dev-keys';
import { startTsxProcess, type TsxProcess } from '../gateway/testing/tsx-process';
import { startThrowawayPostgres, throwawayPostgresUnavailable, type ThrowawayPostgres } from '../gateway/testing/throwaway-postgres';
import { paced, round, rssMb, saturate, type LoadRequest } from './load-generator';

// npm run soak: the gateway under a steady mix of the four buyer operations for a while, with
// a few seller faults, on loopback. First a short closed-loop run finds the saturation rate;
// then SOAK_SECONDS (default 60) at --load (default 0.8) of it, open loop. Expected: every
// request without a fault answered 200; a faulted one answered with the gateway's seller-fault
// statuses (502, 503, 504). Anything else in the 5xx range is unexpected and fails the soak, as
// does the gateway's RSS growing by 10% or more from the start of the soak to its end.
// Ends with one line of JSON. Exit 0: held; 1: a finding; 2: bad usage.

const USAGE = `Usage: npm run soak [-- --seconds <n>] [--load <fraction>] [--fault-rate <fraction>] [--seed <n>]

  --seconds <n>          how long the soak runs (default SOAK_SECONDS or 60)
  --load <fraction>      share of the measured saturation rate (default 0.8)
  --fault-rate <f>       share of requests that carry a seller fault (default 0.01)
  --seed <n>             which requests get which fault (default 1)
  --help                 this text

Starts its own mock seller, gateway (a throwaway PostgreSQL when initdb is here, else the
embedded store in memory) and load on 127.0.0.1. Progress on stderr, the JSON line on stdout.
Exit 0: no unexpected 5xx and RSS growth under 10%; 1: either failed; 2: bad usage.
`;

const V3_2 = '/json/federated/v3_2';
/** What a seller fault may turn into at the gateway: its reply broken (502), the seller down or refused (503), too slow (504). */
const FAULT_STATUSES = new Set(['502', '503', '504']);
/** The faults, in turn, carried by the mock seller's control header (forwarded by the gateway here only). */
const FAULTS = ['http-status;status=503', 'reset', 'malformed-json', 'latency;ms=3000', 'drop-id'];

function usage(message: string): never {
  process.stderr.write(`soak: ${message}\n\n${USAGE}`);
  process.exit(2);
}

function options() {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        seconds: { type: 'string', default: process.env.SOAK_SECONDS ?? '60' },
        load: { type: 'string', default: '0.8' },
        'fault-rate': { type: 'string', default: '0.01' },
        seed: { type: 'string', default: '1' },
        help: { type: 'boolean', default: false },
      },
    }));
  } catch (error) {
    usage((error as Error).message);
  }
  if (values.help) {
    process.stdout.write(USAGE);
    process.exit(0);
  }
  const number = (flag: string, text: string, min: number, max: number) => {
    const value = Number(text);
    if (!Number.isFinite(value) || value < min || value > max) usage(`--${flag} must be a number from ${min} to ${max}, got '${text}'`);
    return value;
  };
  return {
    seconds: number('seconds', values.seconds, 1, 86_400),
    load: number('load', values.load, 0.01, 1),
    faultRate: number('fault-rate', values['fault-rate'], 0, 1),
    seed: number('seed', values.seed, 0, 2 ** 31),
  };
}

/** A small seeded generator (mulberry32): the same seed, the same faults on the same requests. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The i-th request of the mix: item inquiry 55%, place order 15% (a PO of its own), invoice 15%, statement 15%. */
function mix(i: number): LoadRequest & { label: string } {
  const slot = i % 20;
  if (slot < 11) return { label: 'item_inquiry', path: `${V3_2}/item_inquiry`, body: JSON.stringify({ items: [{ id: `s-${i}`, mfr_code: 'WIX', part_number: '51515' }, { id: `t-${i}`, mfr_code: 'NGK', part_number: 'BKR5E' }] }) };
  if (slot < 14) return { label: 'place_order', path: `${V3_2}/place_order`, body: JSON.stringify({ purchase_order_number: `SOAK-${process.pid}-${i}`, order_type: 1, items: [{ id: '1', mfr_code: 'WIX', part_number: '51515', location_id: 'L101', quantity_ordered: 1 }] }) };
  if (slot < 17) return { label: 'invoice', path: `${V3_2}/invoice`, body: JSON.stringify({ member: 'M100', account: 'A-1001', from_invoice_date: '2026-01-01', to_invoice_date: '2026-12-31' }) };
  return { label: 'statement', path: `${V3_2}/statement`, body: JSON.stringify({ account: 'A-1001', from_statement_date: '2026-01-01', to_statement_date: '2026-12-31' }) };
}

const settings = options();
const children: TsxProcess[] = [];
let postgres: ThrowawayPostgres | undefined;
const stop = async () => {
  await Promise.all(children.map((child) => child.kill('SIGTERM')));
  await postgres?.destroy();
};
const interrupted = new AbortController();
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    process.stderr.write(`soak: ${signal}: stopping the load; the soak's figures are not complete and no verdict is given\n`);
    interrupted.abort(signal);
  });
}
const say = (line: string) => process.stderr.write(`${line}\n`);

try {
  const loadAtStart = round(loadavg()[0], 2);
  const tokenLifetime = Math.max(3_600, Math.ceil(settings.seconds) + 600);
  const storeKind = (await throwawayPostgresUnavailable()) === undefined ? 'postgres' : 'pglite';
  if (storeKind === 'postgres') postgres = await startThrowawayPostgres();
  say(`soak: starting the mock seller and the gateway (store ${storeKind}) in their own processes…`);
  const seller = await startTsxProcess('mock seller', ['mock-seller/server.ts', '--port', '0'], {}, /listening on (http:\/\/[^\s]+)/);
  children.push(seller);
  const gateway = await startTsxProcess(
    'gateway',
    ['gateway/server.ts'],
    {
      GATEWAY_PORT: '0',
      GATEWAY_DATA_DIR: 'memory',
      DATABASE_URL: postgres?.url ?? '',
      GATEWAY_LOG: 'off',
      // The faults ride on the mock seller's control header, which only a soak forwards.
      GATEWAY_FORWARD_HEADERS: 'x-mock-fault',
      // Limits the soak never reaches: it measures the gateway, not its refusals.
      GATEWAY_RATE_LIMIT: '1000000000',
      GATEWAY_MAX_BODY_BYTES: '1048576',
      MOCK_SELLER_URL: `${seller.url}/seller`,
      // One token for the whole soak: the gateway must accept its lifetime.
      JWT_MAX_LIFETIME_SECONDS: String(tokenLifetime),
    },
    /gateway: listening on (http:\/\/[^\s,]+)/,
  );
  children.push(gateway);
  const token = await mintDevToken('dev-key-1', { ttlSeconds: tokenLifetime });
  const headers = { authorization: `Bearer ${token}` };

  // One request of each kind first: a wrong setup fails here, not as a soak of refusals.
  for (const request of [0, 11, 14, 17].map(mix)) {
    const response = await fetch(`${gateway.url}${request.path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: request.body });
    if (response.status !== 200) throw new Error(`${request.label} answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
  }

  // Saturation: the same mix (every order a new one), closed loop, after a short warm-up.
  say('soak: saturation (closed loop, 32 connections, 8 s, no faults)…');
  let offset = 1_000_000;
  const fresh = (i: number) => ({ ...mix(offset + i), headers });
  await saturate(gateway.url, fresh, 8, 3);
  offset = 2_000_000;
  const saturation = await saturate(gateway.url, fresh, 32, 8);
  const rate = Math.max(1, Math.floor(saturation.rps * settings.load));
  say(`soak: saturation ${saturation.rps} req/s (p99 ${saturation.p99} ms); soaking at ${rate} req/s for ${settings.seconds} s with ${settings.faultRate * 100}% faults`);

  // The gateway runs a while at the soak's own rate first (its heap grown to the working
  // size), so that growth measures what the soak leaves behind.
  const settle = Math.min(10, Math.max(2, Math.round(settings.seconds / 6)));
  say(`soak: ${settle} s at ${rate} req/s to settle before the start figure…`);
  offset = 3_000_000;
  await paced(gateway.url, fresh, rate, settle, interrupted.signal);
  // RSS swings with every garbage collection (±20% here), so one reading says little: it is
  // read every second, and the start and end figures are the medians of the first and last
  // fifth of the soak.
  const rssSamples: number[] = [];
  const sampler = setInterval(() => void rssMb(gateway.child.pid!).then((rss) => rssSamples.push(rss)), 1_000);
  const draw = random(settings.seed);
  const faulted = new Set<number>();
  let faultIndex = 0;
  const progress = setInterval(() => say(`soak: … gateway RSS ${rssSamples.at(-1) ?? '?'} MB`), 10_000);
  const run = await paced(
    gateway.url,
    (i) => {
      const request = mix(i);
      if (draw() >= settings.faultRate) return { ...request, headers };
      faulted.add(i);
      const fault = FAULTS[faultIndex++ % FAULTS.length];
      return { ...request, label: `${request.label} (fault)`, headers: { ...headers, 'x-mock-fault': fault } };
    },
    rate,
    settings.seconds,
    interrupted.signal,
  );
  clearInterval(progress);
  clearInterval(sampler);
  const fifth = Math.max(1, Math.floor(rssSamples.length / 5));
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
  const rssStart = median(rssSamples.slice(0, fifth));
  const rssEnd = median(rssSamples.slice(-fifth));

  let unexpected5xx = 0;
  let unexpectedOther = 0;
  for (const [label, byStatus] of Object.entries(run.statuses)) {
    const withFault = label.endsWith('(fault)');
    for (const [status, n] of Object.entries(byStatus)) {
      if (status === '200' || (withFault && FAULT_STATUSES.has(status))) continue;
      if (status.startsWith('5')) unexpected5xx += n;
      else unexpectedOther += n;
      say(`soak: unexpected: ${n} × ${status} on ${label}`);
    }
  }
  const growth = round((rssEnd - rssStart) / rssStart, 4);
  const held = unexpected5xx === 0 && growth < 0.1;
  say(`soak: ${run.requests} requests (${faulted.size} with a fault), ${run.rps} req/s, p50 ${run.p50} ms, p99 ${run.p99} ms (answers 2xx)`);
  say(`soak: unexpected 5xx ${unexpected5xx}, other unexpected answers ${unexpectedOther}; gateway RSS ${rssStart} → ${rssEnd} MB (${round(growth * 100, 1)}%)`);
  if (interrupted.signal.aborted) say(`soak: interrupted after ${run.requests} requests: no verdict`);
  else say(`soak: ${held ? 'HELD' : 'FAILED'}`);
  console.log(
    JSON.stringify({
      seconds: settings.seconds,
      saturation_rps: saturation.rps,
      rate,
      load: settings.load,
      requests: run.requests,
      rps: run.rps,
      faulted: faulted.size,
      statuses: run.statuses,
      unexpected_5xx: unexpected5xx,
      unexpected_other: unexpectedOther,
      p50_ms: run.p50,
      p99_ms: run.p99,
      settle_seconds: settle,
      rss_start_mb: rssStart,
      rss_end_mb: rssEnd,
      rss_min_mb: Math.min(...rssSamples),
      rss_max_mb: Math.max(...rssSamples),
      rss_growth: growth,
      store: storeKind,
      cpus: availableParallelism(),
      load_average_start: loadAtStart,
      load_average_end: round(loadavg()[0], 2),
      interrupted: interrupted.signal.aborted,
      held: interrupted.signal.aborted ? null : held,
    }),
  );
  process.exitCode = interrupted.signal.aborted ? 130 : held ? 0 : 1;
} catch (error) {
  say(`soak: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  await stop();
}
