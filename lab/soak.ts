import { randomUUID } from 'node:crypto';
import { availableParallelism, loadavg } from 'node:os';
import { mintDevToken } from '../gateway/auth/dev-keys';
import { closedLoad } from './load/closed-load';
import { demoBody, OPERATION_MIX, V3_2_PATH } from './load/demo-requests';
import { startGatewayStack, type GatewayStack } from './load/gateway-stack';
import { percentile, round } from './load/latency-stats';
import type { LoadAnswer, LoadRequest } from './load/load-request';
import { pacedLoad } from './load/paced-load';
import { inspectorUrl, openInspectorSession } from './load/inspector-session';
import { rssMb } from './load/process-stats';
import { CHAOS_HELP, runChaosSoak } from './soak-chaos';

const HELP = `npm run -w lab soak — the gateway under a steady mix for a while: no unexpected 5xx, no memory growth

Starts a throwaway PostgreSQL, the mock seller and the gateway (own processes, loopback only),
measures the saturation rate of the mix briefly (closed loop, 50 connections), then sends the
mix at 80% of that rate, evenly spaced, for SOAK_SECONDS, with 1% of requests carrying a
seller fault (the mock seller's x-mock-fault header, passed on by GATEWAY_FORWARD_HEADERS).

  mix        70% item inquiry, 10% place order (a new PO number each), 10% invoice, 10% statement
  faults     every 100th request: http-status 503, reset, malformed-json in turn
  expected   5xx only on a faulted request, and only the documented seller-fault answers:
             503 / 5503 (seller reset or answered HTTP 5xx), 502 / 5500 (reply not JSON).
             Any other 5xx, or any 5xx to a request without a fault, is unexpected.
  RSS        the gateway's at the start of the soak phase (after warm-up and saturation) and at its
             end, each read right after a full garbage collection forced through the inspector
             protocol (the gateway runs with --inspect=127.0.0.1:0): V8 lets garbage pile up to
             a limit far above the live heap before it collects (measured: RSS +91% in 60 s
             uncollected, flat with --max-old-space-size=100), which is not a leak. The RSS
             without a forced collection is reported too (uncollected, max).

Environment: SOAK_SECONDS (60), SOAK_SATURATION_SECONDS (5), BENCH_STORE=postgres|pglite,
SOAK_GATEWAY_NODE_FLAGS (Node flags for the gateway, e.g. --max-old-space-size=128).
Progress on stderr; a summary and, on the last line, JSON on stdout.
--chaos: deploys and failovers under load instead (rolling restart behind HAProxy, a worker
reload, a store restart); \`npm run -w lab soak -- --chaos --help\`.
Exit 0: no unexpected 5xx, no request without an answer, RSS growth under 10%; 1: otherwise;
2: bad usage.`;

const SATURATION_CONNECTIONS = 50;
const LOAD_FRACTION = 0.8;
const FAULT_EVERY = 100;
const FAULTS = ['http-status;status=503', 'reset', 'malformed-json'];
const RSS_GROWTH_LIMIT = 0.1;
/** Requests waiting at once beyond which the soak stops sending (and counts them dropped). */
const MAX_IN_FLIGHT = 2_000;

function positiveNumber(name: string, fallback: number): number {
  const raw = process.env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) {
    console.error(`soak: ${name} must be a positive number of seconds, got '${raw}'`);
    process.exit(2);
  }
  return value;
}

const args = process.argv.slice(2);
if (args[0] === '--chaos') {
  if (args.length > 1 && (args[1] === '--help' || args[1] === '-h')) {
    console.log(CHAOS_HELP);
    process.exit(0);
  }
  if (args.length > 1) {
    console.error(
      `soak --chaos: unexpected argument '${args[1]}' (settings are environment variables; see --chaos --help)`,
    );
    process.exit(2);
  }
  process.exit(await runChaosSoak());
}
if (args.includes('--help') || args.includes('-h')) {
  console.log(HELP);
  process.exit(0);
}
if (args.length > 0) {
  console.error(`soak: unexpected argument '${args[0]}' (settings are environment variables; see --help)`);
  process.exit(2);
}
const SECONDS = positiveNumber('SOAK_SECONDS', 60);
const SATURATION_SECONDS = positiveNumber('SOAK_SATURATION_SECONDS', 5);

const log = (line: string) => console.error(line);

/** The mix: request i of a phase, a new PO number for every order, a fault on every 100th when asked. */
function mixedRequests(token: string, phase: string, withFaults: boolean) {
  const run = randomUUID().slice(0, 8);
  return (i: number): LoadRequest => {
    const operation = OPERATION_MIX[i % OPERATION_MIX.length];
    const body = demoBody(operation, `SOAK-${run}-${phase}-${i}`);
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    // Offset so faults fall on every operation of the mix in turn, not only on slot 0.
    const faulted = withFaults && i % FAULT_EVERY === FAULT_EVERY - 1;
    if (faulted) headers['x-mock-fault'] = FAULTS[Math.floor(i / FAULT_EVERY) % FAULTS.length];
    return { path: `${V3_2_PATH}/${operation}`, body: JSON.stringify(body), headers, tag: operation, faulted };
  };
}

const statusCodeOf = (body: string): number | undefined => {
  try {
    return (JSON.parse(body) as { status_code?: number }).status_code;
  } catch {
    return undefined;
  }
};

/** A documented answer to a seller fault: 503 / 5503 (reset, HTTP 5xx) or 502 / 5500 (not JSON). */
const expectedFaultAnswer = (answer: LoadAnswer) => {
  const code = statusCodeOf(answer.body);
  return (answer.status === 503 && code === 5503) || (answer.status === 502 && code === 5500);
};

/** What came back in one phase; onAnswer/onError are handed to the load generator as they are. */
function tally() {
  const t = {
    byStatus: {} as Record<string, number>,
    byOperation: {} as Record<string, { requests: number; samples: number[] }>,
    samples: [] as number[],
    faulted: 0,
    expected5xx: 0,
    unexpected5xx: [] as LoadAnswer[],
    noAnswer: 0,
    /** Latencies by the 10 s window in which the request left: a tail at the start or throughout. */
    windows: [] as number[][],
    begin: performance.now(),
    onAnswer(answer: LoadAnswer) {
      (t.windows[Math.floor((performance.now() - answer.ms - t.begin) / 10_000)] ??= []).push(answer.ms);
      t.byStatus[answer.status] = (t.byStatus[answer.status] ?? 0) + 1;
      t.samples.push(answer.ms);
      const op = (t.byOperation[answer.request.tag!] ??= { requests: 0, samples: [] });
      op.requests++;
      op.samples.push(answer.ms);
      if (answer.request.faulted) t.faulted++;
      if (answer.status >= 500) {
        if (answer.request.faulted && expectedFaultAnswer(answer)) t.expected5xx++;
        else t.unexpected5xx.push(answer);
      }
    },
    onError(request: LoadRequest) {
      if (request.faulted) t.faulted++;
      t.noAnswer++;
    },
  };
  return t;
}

let stack: GatewayStack | undefined;
let phase = 'starting';
const stopOnSignal = (signal: NodeJS.Signals) => {
  log(
    `soak: ${signal} during ${phase}: stopping the mock seller, the gateway and the store; the soak was not completed, no figures`,
  );
  void (stack?.stop() ?? Promise.resolve()).then(() => process.exit(130));
};
process.once('SIGINT', stopOnSignal);
process.once('SIGTERM', stopOnSignal);

const loadAtStart = round(loadavg()[0], 2);
try {
  stack = await startGatewayStack({
    // Faults ride on the mock seller's per-request header; a rate limit the soak never reaches.
    gatewayEnv: { GATEWAY_FORWARD_HEADERS: 'x-mock-fault', GATEWAY_RATE_LIMIT: '1000000000' },
    // SOAK_GATEWAY_NODE_FLAGS, e.g. --max-old-space-size=128, to tell a leak from a heap that has not been collected
    // yet. The inspector (loopback, a free port) forces full collections before the RSS readings.
    gatewayNodeFlags: [
      '--inspect=127.0.0.1:0',
      ...(process.env.SOAK_GATEWAY_NODE_FLAGS ?? '').split(' ').filter((f) => f !== ''),
    ],
    log,
  });
  const { gateway } = stack;
  const origin = gateway.url;
  const debuggerUrl = inspectorUrl(gateway.output());
  if (debuggerUrl === undefined) throw new Error(`the gateway did not report its inspector URL:\n${gateway.output()}`);
  const inspector = await openInspectorSession(debuggerUrl);
  /** RSS and heap in use right after a full collection: what the gateway really holds. */
  const collectedMemory = async () => {
    await inspector.collectGarbage();
    const usage = await inspector.memoryUsage();
    return { rss: await rssMb(gateway.pid), heapUsed: round(usage.heapUsed / 2 ** 20, 1) };
  };
  const token = await mintDevToken('dev-key-1', { ttlSeconds: 3600 });
  const rssBeforeFirstRequest = await rssMb(gateway.pid);

  // One of each first: a wrong setup fails here, not as a minute of errors.
  const probe = mixedRequests(token, 'probe', false);
  for (const i of [0, 2, 4, 7]) {
    const request = probe(i);
    const response = await fetch(`${origin}${request.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...request.headers },
      body: request.body,
    });
    const text = await response.text();
    if (response.status !== 200) throw new Error(`${request.tag} answered ${response.status}: ${text.slice(0, 500)}`);
  }

  phase = 'warm-up';
  log('warm-up: 2 s, 10 connections');
  await closedLoad({ origin, connections: 10, seconds: 2, next: mixedRequests(token, 'warm', false) });

  phase = 'saturation';
  log(`saturation: ${SATURATION_CONNECTIONS} connections, ${SATURATION_SECONDS} s, the mix without faults`);
  const saturationTally = tally();
  const saturation = await closedLoad({
    origin,
    connections: SATURATION_CONNECTIONS,
    seconds: SATURATION_SECONDS,
    next: mixedRequests(token, 'sat', false),
    onAnswer: saturationTally.onAnswer,
    onError: saturationTally.onError,
  });
  const rate = Math.max(1, Math.floor(saturation.rps * LOAD_FRACTION));
  log(
    `  ${saturation.rps} req/s (${saturation.completed} answered; by status ${JSON.stringify(saturationTally.byStatus)}) → soak at ${rate} req/s`,
  );

  phase = 'soak';
  log(`soak: ${rate} req/s for ${SECONDS} s, 1 request in ${FAULT_EVERY} with a seller fault`);
  const start = await collectedMemory();
  const rssStart = start.rss;
  const rssSamples = [rssStart];
  const sampler = setInterval(() => {
    void rssMb(gateway.pid).then(
      (mb) => {
        rssSamples.push(mb);
        if (rssSamples.length % 10 === 1) log(`  RSS ${mb} MB after ${rssSamples.length - 1} s`);
      },
      () => {},
    );
  }, 1_000);
  const soakTally = tally();
  soakTally.begin = performance.now();
  const soak = await pacedLoad({
    origin,
    rate,
    seconds: SECONDS,
    maxInFlight: MAX_IN_FLIGHT,
    next: mixedRequests(token, 'soak', true),
    onAnswer: soakTally.onAnswer,
    onError: soakTally.onError,
  });
  clearInterval(sampler);
  const rssEndUncollected = await rssMb(gateway.pid);
  const end = await collectedMemory();
  inspector.close();
  const rssEnd = end.rss;
  const rssGrowth = round((rssEnd - rssStart) / rssStart, 4);

  const sorted = soakTally.samples.sort((a, b) => a - b);
  const p50 = round(percentile(sorted, 50));
  const p99 = round(percentile(sorted, 99));
  const unexpected = soakTally.unexpected5xx;
  const p99ByWindow = Array.from(soakTally.windows, (w) =>
    round(
      percentile(
        (w ?? []).sort((a, b) => a - b),
        99,
      ),
      1,
    ),
  );
  const passed =
    unexpected.length === 0 && soakTally.noAnswer === 0 && soak.dropped === 0 && rssGrowth < RSS_GROWTH_LIMIT;

  console.log(
    `soak of the gateway: ${SECONDS} s at ${rate} req/s (${LOAD_FRACTION * 100}% of ${saturation.rps} req/s saturation), store ${stack.store}`,
  );
  for (const [operation, o] of Object.entries(soakTally.byOperation)) {
    const s = o.samples.sort((a, b) => a - b);
    console.log(
      `  ${operation.padEnd(13)} ${String(o.requests).padStart(7)} requests   p50 ${round(percentile(s, 50)).toFixed(3)} ms   p99 ${round(percentile(s, 99)).toFixed(3)} ms`,
    );
  }
  console.log(
    `  all           ${String(soak.sent).padStart(7)} requests   p50 ${p50.toFixed(3)} ms   p99 ${p99.toFixed(3)} ms   by status ${JSON.stringify(soakTally.byStatus)}`,
  );
  console.log(`  p99 by 10 s window: ${p99ByWindow.join(', ')} ms`);
  console.log(
    `  seller faults ${soakTally.faulted}; expected 5xx ${soakTally.expected5xx}; unexpected 5xx ${unexpected.length}; no answer ${soakTally.noAnswer}; dropped (gateway fell behind) ${soak.dropped}`,
  );
  for (const answer of unexpected.slice(0, 5))
    console.log(
      `  unexpected: ${answer.request.tag}${answer.request.faulted ? ` (fault ${answer.request.headers['x-mock-fault']})` : ''} → ${answer.status} ${answer.body.slice(0, 200)}`,
    );
  console.log(
    `  gateway RSS   ${rssStart} MB at the start of the soak → ${rssEnd} MB at its end, each after a full collection (${round(rssGrowth * 100, 1)}%, limit < ${RSS_GROWTH_LIMIT * 100}%)`,
  );
  console.log(
    `                heap in use ${start.heapUsed} → ${end.heapUsed} MB; uncollected: ${rssEndUncollected} ` +
      `MB at the end, max ${Math.max(...rssSamples)} MB; ${rssBeforeFirstRequest} MB before the first request`,
  );
  console.log(
    `  load average (1 min) at start / end ${loadAtStart} / ${round(loadavg()[0], 2)} (${availableParallelism()} CPUs; other work on the machine skews every figure)`,
  );
  console.log(`  ${passed ? 'PASSED' : 'FAILED'}`);
  console.log(
    JSON.stringify({
      seconds: SECONDS,
      saturation_rps: saturation.rps,
      rate,
      requests: soak.sent,
      by_status: soakTally.byStatus,
      seller_faults: soakTally.faulted,
      expected_5xx: soakTally.expected5xx,
      unexpected_5xx: unexpected.length,
      no_answer: soakTally.noAnswer,
      dropped: soak.dropped,
      p50_ms: p50,
      p99_ms: p99,
      p99_ms_by_10s: p99ByWindow,
      rss_start_mb: rssStart,
      rss_end_mb: rssEnd,
      rss_end_uncollected_mb: rssEndUncollected,
      rss_max_uncollected_mb: Math.max(...rssSamples),
      heap_used_start_mb: start.heapUsed,
      heap_used_end_mb: end.heapUsed,
      rss_growth_pct: round(rssGrowth * 100, 1),
      rss_before_first_request_mb: rssBeforeFirstRequest,
      store: stack.store,
      load_average_start: loadAtStart,
      load_average_end: round(loadavg()[0], 2),
      passed,
    }),
  );
  process.exitCode = passed ? 0 : 1;
} catch (error) {
  log(`soak: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  await stack?.stop();
}
