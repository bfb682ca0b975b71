import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { mintDevToken } from '../gateway/auth/dev-keys';
import { GATEWAY_HEAP_FLAGS } from '../gateway/node-flags';
import { startGatewayStack, type GatewayStack } from './load/gateway-stack';
import { startNodeChild } from '../gateway/testing/node-child';
import { median, percentile, round } from './load/latency-stats';
import { pacedLoad } from './load/paced-load';
import {
  INQUIRY_ITEMS as ITEMS,
  INQUIRY_LOCATIONS as LOCATIONS,
  itemInquiryBody,
  V3_2_PATH,
} from './load/demo-requests';
import { cpuMicros, rssMb } from './load/process-stats';
import { perRequestCounts, type CountsOfProcess, type PerRequestCounts } from './load/async-count-report';
import { cpuSplit, pinProcesses, postgresOnPort } from './load/cpu-pinning';

const HELP = `npm run -w lab bench — the gateway's item inquiry against a bare proxy and the mock seller

  npm run -w lab bench [-- --store pglite|postgres] [--no-pin]

Item inquiry (3 items, 2 locations) through the gateway, through a bare proxy
(lab/bare-proxy.ts: the least any gateway must do, the yardstick) and straight to the mock
seller in the same run, on loopback. The mock seller and the gateway run in their own
processes (as in production), the load generator here. Ends with one line of JSON.

  --no-pin                  let every process run on every CPU. By default (Linux, taskset) the
                            proxy under test runs on a CPU of its own and the load generator,
                            the mock seller and the store on the others, so that the figures
                            measure the proxy rather than how the scheduler shares the CPUs
  --store pglite|postgres   the gateway's store: the embedded PGlite (in memory), or a
                            throwaway PostgreSQL started here (initdb/pg_ctl on the PATH, on
                            loopback, removed at the end). Default: BENCH_STORE, else
                            PostgreSQL when it can start here, else PGlite.

Phases (BENCH_PHASES, default saturation,fixed,memory,workers):
  saturation  50 connections; the gateway and the bare proxy alternate, round after round, so
              a neighbour's load falls on both; ratio_vs_bare_proxy is the median of the rounds'
              ratios, printed with each process's CPU per request (µs) beside it, and
              cpu_vs_bare_proxy the median of the rounds' gateway ÷ bare proxy CPU per request
  fixed       1,000 req/s evenly spaced (open loop): latency added over the bare proxy, p50/p99
  memory      the gateway's RSS after BENCH_RSS_REQUESTS (100000) requests
  workers     one gateway, then GATEWAY_WORKERS=2, each alone (PostgreSQL only; every process unpinned)

Environment:
  BENCH_SECONDS (10) per measured phase; BENCH_ROUNDS (5: the target is the median of 5) saturation rounds; BENCH_STORE as --store.
  Both run with npm run gateway's heap flags (${GATEWAY_HEAP_FLAGS.join(' ')}).
  BENCH_NODE_FLAGS: V8/Node flags for the gateway and the bare proxy alike (a fair comparison);
  BENCH_GATEWAY_NODE_FLAGS / BENCH_BARE_NODE_FLAGS for one of them only, e.g.
  BENCH_GATEWAY_NODE_FLAGS="--cpu-prof --cpu-prof-dir=/tmp/prof" to profile the gateway.
  BENCH_COUNTS=1: also counts, per request, the promises, ticks, timers and garbage collections
  of the gateway and of the bare proxy (lab/load/async-counts.mjs): figures the machine's
  load does not move, for a before/after in one run. The hooks slow both processes, so the
  timings of such a run mean nothing.`;

const STORES = ['pglite', 'postgres'] as const;
let args;
try {
  args = parseArgs({
    options: { store: { type: 'string' }, 'no-pin': { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
  }).values;
} catch (error) {
  console.error(`bench: ${(error as Error).message} (npm run -w lab bench -- --help)`);
  process.exit(2);
}
if (args.help) {
  console.log(HELP);
  process.exit(0);
}
const storeChoice = args.store ?? process.env.BENCH_STORE;
if (storeChoice !== undefined && storeChoice !== '' && !(STORES as readonly string[]).includes(storeChoice)) {
  console.error(`bench: --store must be one of ${STORES.join(', ')}, got '${storeChoice}'`);
  process.exit(2);
}
const STORE = storeChoice === '' ? undefined : (storeChoice as (typeof STORES)[number] | undefined);

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 5));
const flagsOf = (variable: string) => (process.env[variable] ?? '').split(' ').filter((f) => f !== '');
const COUNTS = process.env.BENCH_COUNTS === '1';
// The heap flags npm run gateway runs with (gateway/node-flags.ts), for the bare proxy too: the
// gateway measured as deployed, the two compared on code, not on V8 settings. (Without them the
// gateway did half the scavenges it does in production: 4.83 vs 9.18 per 1,000 requests.)
const BOTH_FLAGS = [
  ...GATEWAY_HEAP_FLAGS,
  ...flagsOf('BENCH_NODE_FLAGS'),
  ...(COUNTS ? ['--import', './lab/load/async-counts.mjs'] : []),
];
// The children inherit it; each writes <pid>.json there when it exits.
if (COUNTS) process.env.ASYNC_COUNTS_DIR = mkdtempSync(join(tmpdir(), 'bench-counts-'));
const PHASES = new Set((process.env.BENCH_PHASES ?? 'saturation,fixed,memory,workers').split(',').map((p) => p.trim()));
const RSS_REQUESTS = Number(process.env.BENCH_RSS_REQUESTS ?? 100_000);
const SATURATION_CONNECTIONS = 50;
const FIXED_RATE = 1_000;
const TARGETS = {
  ratio: 0.4,
  addedP50Ms: 1,
  addedP99Ms: 5,
  rssMb: 200,
  ratioVsBare: 0.85,
  addedVsBareP50Ms: 0.5,
  addedVsBareP99Ms: 2,
  cpuVsBare: 1.18,
};

interface Run {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  non2xx: number;
  errors: number;
}

/** One autocannon run; latencies are collected per response (autocannon's histogram keeps whole ms only). */
function load(
  url: string,
  body: string,
  headers: Record<string, string>,
  options: { connections: number; duration?: number; amount?: number; overallRate?: number },
): Promise<Run> {
  const samples: number[] = [];
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      { url, method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body, ...options },
      (error, result) => {
        if (error) return reject(error);
        samples.sort((a, b) => a - b);
        resolve({
          rps: round(result.requests.total / (result.duration || 1), 1),
          p50: round(percentile(samples, 50)),
          p99: round(percentile(samples, 99)),
          requests: result.requests.total,
          non2xx: result.non2xx,
          errors: result.errors + result.timeouts,
        });
      },
    );
    instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
      if (statusCode >= 200 && statusCode < 300) samples.push(responseTime);
    });
  });
}

/** Open-loop load at a fixed rate (lab/load/paced-load.ts) of one request, as a Run. */
async function paced(
  url: string,
  body: string,
  headers: Record<string, string>,
  rate: number,
  seconds: number,
): Promise<Run> {
  const target = new URL(url);
  const samples: number[] = [];
  let non2xx = 0;
  let errors = 0;
  const { sent, rps } = await pacedLoad({
    origin: target.origin,
    rate,
    seconds,
    next: () => ({ path: target.pathname, body, headers }),
    onAnswer: ({ status, ms }) => {
      if (status >= 200 && status < 300) samples.push(ms);
      else non2xx++;
    },
    onError: () => errors++,
  });
  samples.sort((a, b) => a - b);
  return {
    rps,
    p50: round(percentile(samples, 50)),
    p99: round(percentile(samples, 99)),
    requests: sent,
    non2xx,
    errors,
  };
}

const print = (label: string, run: Run, cpu: Record<string, number> = {}) =>
  console.log(
    `${label.padEnd(28)} ${String(run.rps).padStart(8)} req/s   p50 ${run.p50.toFixed(3)} ms   p99 ${run.p99.toFixed(3)} ms   (${run.requests} requests, ${run.non2xx} non-2xx, ${run.errors} errors)` +
      Object.entries(cpu)
        .map(([name, us]) => `   ${name} CPU ${us} µs/req`)
        .join(''),
  );

/** Runs a load phase and reports each process's CPU per request during it. */
async function measured(
  pids: Record<string, number>,
  phase: () => Promise<Run>,
): Promise<{ run: Run; cpu: Record<string, number> }> {
  const before = Object.fromEntries(
    await Promise.all(Object.entries(pids).map(async ([name, pid]) => [name, await cpuMicros(pid)] as const)),
  );
  const run = await phase();
  const cpu: Record<string, number> = {};
  for (const [name, pid] of Object.entries(pids))
    cpu[name] = Math.round(((await cpuMicros(pid)) - before[name]) / Math.max(1, run.requests));
  return { run, cpu };
}

const loadAtStart = round(loadavg()[0], 2);
const cpus = availableParallelism();
// Pinned before anything starts: the mock seller and the store inherit the load generator's CPUs.
const split = args['no-pin'] ? 'off (--no-pin)' : cpuSplit();
if (typeof split !== 'string') pinProcesses([process.pid], split.rest);
const pinning =
  typeof split === 'string'
    ? `none: ${split}`
    : `the proxy under test on CPU ${split.proxy.join(',')}; load generator, mock seller and store on CPU ${split.rest.join(',')}`;
let stack: GatewayStack | undefined;
let bare: Awaited<ReturnType<typeof startNodeChild>> | undefined;
const stopOnSignal = (signal: NodeJS.Signals) => {
  console.error(`bench: ${signal}, stopping the mock seller, the gateway and the store; no figures`);
  void Promise.all([bare?.kill('SIGTERM'), stack?.stop()]).then(() => process.exit(130));
};
process.once('SIGINT', stopOnSignal);
process.once('SIGTERM', stopOnSignal);
try {
  stack = await startGatewayStack({
    store: STORE,
    // Rate limiting on (its cost is part of the figures), with a limit the bench never reaches.
    gatewayEnv: { GATEWAY_RATE_LIMIT: '1000000000' },
    gatewayNodeFlags: [...BOTH_FLAGS, ...flagsOf('BENCH_GATEWAY_NODE_FLAGS')],
    log: (line) => console.log(line),
  });
  const { seller, gateway, store: storeKind } = stack;
  // The yardstick: a bare proxy doing only what any gateway must (lab/bare-proxy.ts).
  bare = await startNodeChild({
    name: 'bare proxy',
    args: ['scripts/run-bundled.mjs', 'bare-proxy', '--upstream', `${seller.url}/seller`],
    nodeFlags: [...BOTH_FLAGS, ...flagsOf('BENCH_BARE_NODE_FLAGS')],
    ready: /bare proxy: listening on (http:\/\/[^\s]+)/,
  });
  const bareUrl = `${bare.url}${V3_2_PATH}/item_inquiry`;
  if (typeof split !== 'string') pinProcesses([gateway.pid, bare.pid], split.proxy);
  console.log(`CPU pinning: ${pinning}`);

  const rssAtStart = await rssMb(gateway.pid);
  const token = await mintDevToken('dev-key-1', { ttlSeconds: 3600 });
  const gatewayUrl = `${gateway.url}${V3_2_PATH}/item_inquiry`;
  const gatewayBody = JSON.stringify(itemInquiryBody());
  const gatewayHeaders = { authorization: `Bearer ${token}` };
  const directUrl = `${seller.url}/seller`;
  // What the gateway forwards for this inquiry (the directory's integration and terminal pin included).
  const directBody = JSON.stringify({
    service: 'item_inquiry',
    integration: 'northside-dev',
    terminal_id: 'T-DEMO-1',
    locations: LOCATIONS,
    items: ITEMS,
  });

  // One request each way first: a wrong setup fails here, not as a page of non-2xx.
  for (const [name, url, body, headers] of [
    ['gateway', gatewayUrl, gatewayBody, gatewayHeaders],
    ['direct', directUrl, directBody, {}],
  ] as const) {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
    });
    const text = await response.text();
    if (response.status !== 200) throw new Error(`${name} answered ${response.status}: ${text.slice(0, 500)}`);
    const reply = JSON.parse(text) as { items: { locations: unknown[] }[] };
    console.log(
      `${name}: ${reply.items.length} item entries, ${reply.items[0].locations.length} locations on the first`,
    );
  }

  let gatewayRequests = 0;
  const counted = (run: Run) => {
    gatewayRequests += run.requests;
    return run;
  };

  console.log('\nwarm-up (3 s each)');
  await load(directUrl, directBody, {}, { connections: 10, duration: 3 });
  await load(bareUrl, gatewayBody, gatewayHeaders, { connections: 10, duration: 3 });
  counted(await load(gatewayUrl, gatewayBody, gatewayHeaders, { connections: 10, duration: 3 }));

  console.log(`\nsaturation: ${SATURATION_CONNECTIONS} connections, ${SECONDS} s each`);
  const pids = { gateway: gateway.pid, seller: seller.pid, 'load generator': process.pid };
  const { run: directSat, cpu: directCpu } = await measured(pids, () =>
    load(directUrl, directBody, {}, { connections: SATURATION_CONNECTIONS, duration: SECONDS }),
  );
  print('direct to mock seller', directSat, {
    seller: directCpu.seller,
    'load generator': directCpu['load generator'],
  });
  // Gateway and bare proxy in alternating rounds: drift in the machine's load falls on both.
  const rounds: { gateway: Run; gatewayCpu: Record<string, number>; bare: Run; bareCpu: Record<string, number> }[] = [];
  for (let r = 1; r <= ROUNDS; r++) {
    const g = await measured(pids, async () =>
      counted(
        await load(gatewayUrl, gatewayBody, gatewayHeaders, { connections: SATURATION_CONNECTIONS, duration: SECONDS }),
      ),
    );
    print(`through the gateway (${r}/${ROUNDS})`, g.run, g.cpu);
    const b = await measured({ 'bare proxy': bare.pid, seller: seller.pid, 'load generator': process.pid }, () =>
      load(bareUrl, gatewayBody, gatewayHeaders, { connections: SATURATION_CONNECTIONS, duration: SECONDS }),
    );
    print(`through the bare proxy (${r}/${ROUNDS})`, b.run, b.cpu);
    rounds.push({ gateway: g.run, gatewayCpu: g.cpu, bare: b.run, bareCpu: b.cpu });
  }
  // The round with the median ratio (the lower middle one for an even count) stands for the
  // run; every round's ratio is reported too.
  const ratioOf = (r: (typeof rounds)[number]) => r.gateway.rps / r.bare.rps;
  const roundRatios = rounds.map((r) => round(ratioOf(r)));
  const medianRound = [...rounds].sort((a, b) => ratioOf(a) - ratioOf(b))[Math.floor((rounds.length - 1) / 2)];
  const { gateway: gatewaySat, gatewayCpu, bare: bareSat, bareCpu } = medianRound;
  const ratio = round(gatewaySat.rps / directSat.rps);
  const ratioVsBare = round(median(roundRatios));
  // The same comparison by CPU, which the other processes on a shared machine disturb less:
  // server CPU per request straight to the seller over server CPU per request through the
  // gateway (gateway + seller). It is the throughput ratio the two paths would show if the
  // servers had the cores to themselves and the load generator cost nothing.
  const cpuRatio = round(directCpu.seller / (gatewayCpu.gateway + gatewayCpu.seller));
  // CPU per request of every round: steadier than throughput on a busy machine.
  const gatewayCpuRounds = rounds.map((r) => r.gatewayCpu.gateway);
  const bareCpuRounds = rounds.map((r) => r.bareCpu['bare proxy']);
  // Gateway CPU over bare proxy CPU, round by round: the two halves of a round are seconds
  // apart, so a machine that slows down over the run (it does, by up to half) moves both.
  const cpuVsBareRounds = rounds.map((r) => round(r.gatewayCpu.gateway / r.bareCpu['bare proxy']));
  const cpuVsBare = round(median(cpuVsBareRounds));

  // A phase left out (BENCH_PHASES) reports NaN, printed as such and null in the JSON.
  const notRun: Run = { rps: Number.NaN, p50: Number.NaN, p99: Number.NaN, requests: 0, non2xx: 0, errors: 0 };
  let directFixed = notRun;
  let gatewayFixed = notRun;
  let bareFixed = notRun;
  if (PHASES.has('fixed')) {
    console.log(`\nfixed rate: ${FIXED_RATE} req/s evenly spaced (open loop), ${SECONDS} s each`);
    directFixed = await paced(directUrl, directBody, {}, FIXED_RATE, SECONDS);
    print('direct to mock seller', directFixed);
    gatewayFixed = counted(await paced(gatewayUrl, gatewayBody, gatewayHeaders, FIXED_RATE, SECONDS));
    print('through the gateway', gatewayFixed);
    bareFixed = await paced(bareUrl, gatewayBody, gatewayHeaders, FIXED_RATE, SECONDS);
    print('through the bare proxy', bareFixed);
  }
  const addedP50 = round(gatewayFixed.p50 - directFixed.p50);
  const addedP99 = round(gatewayFixed.p99 - directFixed.p99);
  const addedVsBareP50 = round(gatewayFixed.p50 - bareFixed.p50);
  const addedVsBareP99 = round(gatewayFixed.p99 - bareFixed.p99);
  // Below the rate, requests queued: the latencies measure the backlog, not the gateway's work.
  const behind = (
    [
      ['gateway', gatewayFixed],
      ['bare proxy', bareFixed],
    ] as const
  ).flatMap(([name, run]) => (run.rps < FIXED_RATE * 0.95 ? [`${name} kept only ${run.rps} req/s`] : []));

  if (PHASES.has('memory') && gatewayRequests < RSS_REQUESTS) {
    console.log(`\nmemory: ${RSS_REQUESTS - gatewayRequests} more gateway requests to reach ${RSS_REQUESTS}`);
    counted(
      await load(gatewayUrl, gatewayBody, gatewayHeaders, {
        connections: SATURATION_CONNECTIONS,
        amount: RSS_REQUESTS - gatewayRequests,
      }),
    );
  }
  const rss = await rssMb(gateway.pid);

  // Every core: the same saturation through one gateway and through two workers on one port
  // (node:cluster), each alone, all unpinned: the pinned gateway above had a CPU to itself, so
  // it is no measure of one worker beside two.
  let oneWorker: Run | undefined;
  let twoWorkers: Run | undefined;
  if (!PHASES.has('workers')) console.log('\nGATEWAY_WORKERS=2: not run (BENCH_PHASES)');
  else if (storeKind === 'postgres') {
    await gateway.kill('SIGTERM');
    // Every core for the workers, and for the seller, the store and the load generator beside them.
    if (typeof split !== 'string') {
      const postgres = stack.databaseUrl === undefined ? [] : postgresOnPort(Number(new URL(stack.databaseUrl).port));
      pinProcesses([process.pid, seller.pid, ...postgres], split.all);
    }
    const startGateway = stack.startGateway;
    const unpinned = async (workers: string): Promise<Run> => {
      const started = await startGateway({ GATEWAY_WORKERS: workers });
      const url = `${started.url}${new URL(gatewayUrl).pathname}`;
      await load(url, gatewayBody, gatewayHeaders, { connections: 10, duration: 3 });
      const run = await load(url, gatewayBody, gatewayHeaders, {
        connections: SATURATION_CONNECTIONS,
        duration: SECONDS,
      });
      await started.kill('SIGTERM');
      return run;
    };
    console.log(
      `\nGATEWAY_WORKERS=1 and 2, unpinned: ${SATURATION_CONNECTIONS} connections, ${SECONDS} s each (after a 3 s warm-up)`,
    );
    oneWorker = await unpinned('1');
    print('through 1 gateway worker', oneWorker);
    twoWorkers = await unpinned('2');
    print('through 2 gateway workers', twoWorkers);
  } else console.log('\nGATEWAY_WORKERS=2 needs PostgreSQL: not measured on the embedded store');
  const workersRatio =
    twoWorkers === undefined || oneWorker === undefined ? null : round(twoWorkers.rps / oneWorker.rps);

  // Counted runs: the gateway and the bare proxy stop here, so their counts are written.
  let counts: Record<string, CountsOfProcess | undefined> | undefined;
  if (COUNTS) {
    await Promise.all([bare.kill('SIGTERM'), gateway.kill('SIGTERM')]);
    const dir = process.env.ASYNC_COUNTS_DIR!;
    counts = { gateway: perRequestCounts(dir, gateway.pid), bare_proxy: perRequestCounts(dir, bare.pid) };
  }
  const countsOf = (c: PerRequestCounts) =>
    `${c.promises} promises, ${c.ticks} ticks, ${c.timers} timers, ${c.immediates} immediates per request; ${c.minor_gcs_per_1k_requests} minor / ${c.major_gcs_per_1k_requests} major GCs per 1,000${c.allocated_kb === undefined ? '' : `; ${c.allocated_kb} KB allocated per request`}`;
  const countLine = (name: string, c: CountsOfProcess | undefined) =>
    c === undefined
      ? `${name}: no counts written`
      : `${name}: ${countsOf(c.whole)} (${c.whole.requests} requests)${c.steady === undefined ? '' : `\n      steady, from request ${c.steady.from}: ${countsOf(c.steady)} (${c.steady.requests} requests)`}`;

  const failures = [
    directSat,
    gatewaySat,
    bareSat,
    directFixed,
    gatewayFixed,
    bareFixed,
    ...(oneWorker ? [oneWorker] : []),
    ...(twoWorkers ? [twoWorkers] : []),
  ].reduce((n, r) => n + r.non2xx + r.errors, 0);
  console.log(`
results
  throughput ratio (gateway / bare proxy, ${SATURATION_CONNECTIONS} connections) ${ratioVsBare}      target ≥ ${TARGETS.ratioVsBare}   ${ratioVsBare >= TARGETS.ratioVsBare ? 'ok' : 'MISSED'}   (median of ${ROUNDS} rounds: ${roundRatios.join(', ')}; ${gatewaySat.rps} vs ${bareSat.rps} req/s; CPU ${gatewayCpu.gateway} vs ${bareCpu['bare proxy']} µs/req)
  CPU per request (saturation, median of ${ROUNDS} rounds)    gateway ${median(gatewayCpuRounds)} µs, bare proxy ${median(bareCpuRounds)} µs   (rounds: ${gatewayCpuRounds.join(', ')} vs ${bareCpuRounds.join(', ')})
  CPU per request, gateway ÷ bare proxy (median of rounds) ${cpuVsBare}      target ≤ ${TARGETS.cpuVsBare}   ${cpuVsBare <= TARGETS.cpuVsBare ? 'ok' : 'MISSED'}   (rounds: ${cpuVsBareRounds.join(', ')})
  added latency over the bare proxy at ${FIXED_RATE} req/s      p50 ${addedVsBareP50} ms (target ≤ ${TARGETS.addedVsBareP50Ms}), p99 ${addedVsBareP99} ms (target ≤ ${TARGETS.addedVsBareP99Ms})   ${addedVsBareP50 <= TARGETS.addedVsBareP50Ms && addedVsBareP99 <= TARGETS.addedVsBareP99Ms ? 'ok' : PHASES.has('fixed') ? 'MISSED' : 'not run (BENCH_PHASES)'}${behind.length === 0 ? '' : `   (${behind.join(', ')}: the machine is too busy for this figure to mean anything)`}
  throughput ratio (gateway / direct, ${SATURATION_CONNECTIONS} connections)  ${ratio}      target ≥ ${TARGETS.ratio}   ${ratio >= TARGETS.ratio ? 'ok' : 'MISSED'}
  CPU ratio (seller CPU/req direct ÷ gateway+seller CPU/req)   ${cpuRatio}      (${directCpu.seller} µs ÷ ${gatewayCpu.gateway} + ${gatewayCpu.seller} µs)
  added latency p50 at ${FIXED_RATE} req/s                    ${addedP50} ms  target ≤ ${TARGETS.addedP50Ms} ms  ${addedP50 <= TARGETS.addedP50Ms ? 'ok' : PHASES.has('fixed') ? 'MISSED' : 'not run (BENCH_PHASES)'}
  added latency p99 at ${FIXED_RATE} req/s                    ${addedP99} ms  target ≤ ${TARGETS.addedP99Ms} ms  ${addedP99 <= TARGETS.addedP99Ms ? 'ok' : PHASES.has('fixed') ? 'MISSED' : 'not run (BENCH_PHASES)'}
  gateway RSS after ${gatewayRequests} requests              ${rss} MB   target < ${TARGETS.rssMb} MB  ${rss < TARGETS.rssMb ? 'ok' : 'MISSED'}   (${rssAtStart} MB before the first request; store ${storeKind})
  2 workers / 1 worker (saturation)                          ${workersRatio ?? 'not measured'}      (${twoWorkers?.rps ?? '-'} vs ${oneWorker?.rps ?? '-'} req/s, unpinned; ${cpus} CPUs shared with the seller and the load generator)
  failed requests (non-2xx or errors) in measured phases   ${failures}
  CPU pinning                                              ${pinning}
  load average (1 min) at start / end                      ${loadAtStart} / ${round(loadavg()[0], 2)}   (${cpus} CPUs; other work on the machine skews every figure)
${counts === undefined ? '' : `  counts (BENCH_COUNTS; timings of this run mean nothing)\n    ${countLine('gateway', counts.gateway)}\n    ${countLine('bare proxy', counts.bare_proxy)}\n`}`);
  console.log(
    JSON.stringify({
      gateway_rps: gatewaySat.rps,
      bare_proxy_rps: bareSat.rps,
      ratio_vs_bare_proxy: ratioVsBare,
      ratio_vs_bare_proxy_rounds: roundRatios,
      bare_proxy_cpu_us_per_req: bareCpu['bare proxy'],
      gateway_cpu_us_per_req_rounds: gatewayCpuRounds,
      bare_proxy_cpu_us_per_req_rounds: bareCpuRounds,
      cpu_vs_bare_proxy: cpuVsBare,
      cpu_vs_bare_proxy_rounds: cpuVsBareRounds,
      fixed_bare_proxy_p50_ms: bareFixed.p50,
      fixed_bare_proxy_p99_ms: bareFixed.p99,
      added_vs_bare_proxy_p50_ms: addedVsBareP50,
      added_vs_bare_proxy_p99_ms: addedVsBareP99,
      direct_rps: directSat.rps,
      ratio,
      gateway_p50_ms: gatewaySat.p50,
      gateway_p99_ms: gatewaySat.p99,
      direct_p50_ms: directSat.p50,
      direct_p99_ms: directSat.p99,
      fixed_rate: FIXED_RATE,
      fixed_gateway_p50_ms: gatewayFixed.p50,
      fixed_gateway_p99_ms: gatewayFixed.p99,
      fixed_direct_p50_ms: directFixed.p50,
      fixed_direct_p99_ms: directFixed.p99,
      added_p50_ms: addedP50,
      added_p99_ms: addedP99,
      cpu_ratio: cpuRatio,
      gateway_cpu_us_per_req: gatewayCpu.gateway,
      seller_cpu_us_per_req: directCpu.seller,
      seller_cpu_us_per_req_via_gateway: gatewayCpu.seller,
      load_generator_cpu_us_per_req_direct: directCpu['load generator'],
      load_generator_cpu_us_per_req_via_gateway: gatewayCpu['load generator'],
      cpu_pinning: typeof split === 'string' ? null : { proxy: split.proxy, rest: split.rest },
      load_average_start: loadAtStart,
      load_average_end: round(loadavg()[0], 2),
      rss_mb: rss,
      rss_at_start_mb: rssAtStart,
      store: storeKind,
      gateway_requests: gatewayRequests,
      failed_requests: failures,
      gateway_rps_1_worker_unpinned: oneWorker?.rps ?? null,
      gateway_rps_2_workers: twoWorkers?.rps ?? null,
      workers_ratio: workersRatio,
      ...(counts === undefined ? {} : { counts }),
    }),
  );
} catch (error) {
  console.error(`bench: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  // SIGTERM first, so processes under --cpu-prof write their profiles (stop() kills outright).
  await Promise.all([bare?.kill('SIGTERM'), stack?.gateway.kill('SIGTERM')]);
  await stack?.stop();
  // The counts were read above; their directory goes with the run.
  if (COUNTS) rmSync(process.env.ASYNC_COUNTS_DIR!, { recursive: true, force: true });
}
