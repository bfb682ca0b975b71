import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { mintDevToken } from '../gateway/auth/dev-keys';
import { GATEWAY_HEAP_FLAGS } from '../gateway/node-flags';
import { startGatewayProcess } from '../gateway/testing/gateway-process';
import { killAllNodeChildren, startNodeChild, type NodeChild } from '../gateway/testing/node-child';
import {
  freePort,
  startThrowawayPostgres,
  throwawayPostgresUnavailable,
  type ThrowawayPostgres,
} from '../gateway/testing/throwaway-postgres';
import { demoBody, OPERATION_MIX, V3_2_PATH } from './load/demo-requests';
import { openInspectorSession, inspectorUrl } from './load/inspector-session';
import { rssMb } from './load/process-stats';

const HELP = `npm run -w lab bench:memory — what the gateway's process holds (RSS), and how long a first start takes

  npm run -w lab bench:memory [-- --requests N] [--only first-start,later-start,gateway-pglite,gateway-postgres]

Runs each case in processes of its own, with the heap flags of npm start / npm run gateway
(${GATEWAY_HEAP_FLAGS.join(' ')}) plus --inspect=127.0.0.1:0, through which every RSS reading
is taken right after a forced full garbage collection (what the process really holds, not
garbage V8 has not collected yet):

  first-start       npm start (mock seller, gateway, internal API in one process) on a data
                    directory that does not exist yet; also the time from spawn to GET /health 200
  later-start       npm start again on the data directory the first start made
  gateway-pglite    npm run gateway alone, on a data directory that does not exist yet
  gateway-postgres  npm run gateway alone, on a throwaway PostgreSQL (skipped without initdb/pg_ctl)

Readings: start (healthy: store opened, migrated, seeded), seeded (after the first 1,000
requests of the mix: the bench's orders stored, directory caches filled) and after N requests
(--requests, default 100,000) of the mix — 70% item inquiry, 10% each place order (a new PO
number each), invoice, statement — over 20 connections with a dev token.
Exit 0 when every answer was 200, 1 otherwise; JSON on the last line of stdout.`;

const TARGETS_MB: Record<string, number> = {
  'first-start': 250,
  'later-start': 250,
  'gateway-pglite': 200,
  'gateway-postgres': 150,
};
const WARM_REQUESTS = 1_000;
const CONNECTIONS = 20;

let args;
try {
  args = parseArgs({
    options: {
      requests: { type: 'string', default: '100000' },
      only: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  }).values;
} catch (error) {
  console.error(`bench:memory: ${(error as Error).message}`);
  process.exit(2);
}
if (args.help) {
  console.log(HELP);
  process.exit(0);
}
const REQUESTS = Number(args.requests);
if (!Number.isSafeInteger(REQUESTS) || REQUESTS < WARM_REQUESTS) {
  console.error(`bench:memory: --requests must be an integer of at least ${WARM_REQUESTS}, got '${args.requests}'`);
  process.exit(2);
}
const CASES = (args.only ?? Object.keys(TARGETS_MB).join(',')).split(',');
for (const name of CASES) {
  if (!(name in TARGETS_MB)) {
    console.error(`bench:memory: unknown case '${name}' (one of ${Object.keys(TARGETS_MB).join(', ')})`);
    process.exit(2);
  }
}

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
const token = await mintDevToken('dev-key-1', { ttlSeconds: 3600 });
let failures = 0;
const run = Date.now().toString(36);

/** Sends requests [from, to) of the mix over CONNECTIONS keep-alive connections. */
async function sendMix(origin: string, from: number, to: number, label: string): Promise<void> {
  const pool = new Pool(origin, { connections: CONNECTIONS, keepAliveTimeout: 30_000 });
  let next = from;
  const worker = async () => {
    while (next < to) {
      const i = next++;
      const operation = OPERATION_MIX[i % OPERATION_MIX.length];
      const body = demoBody(operation, `MEM-${run}-${label}-${i}`);
      const response = await pool.request({
        method: 'POST',
        path: `${V3_2_PATH}/${operation}`,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
      });
      const text = await response.body.text();
      if (response.statusCode !== 200 && failures++ < 5)
        console.error(`  ${operation} answered ${response.statusCode}: ${text.slice(0, 300)}`);
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  await pool.close();
}

async function healthyAfter(origin: string, spawnedAt: number): Promise<number> {
  for (const deadline = Date.now() + 120_000; Date.now() < deadline;) {
    const ok = await fetch(`${origin}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return performance.now() - spawnedAt;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`${origin}/health did not answer 200 within 120 s`);
}

interface Reading {
  case: string;
  startMs: number;
  rssStartMb: number;
  rssSeededMb: number;
  rssAfterMb: number;
  heapUsedAfterMb: number;
  targetMb: number;
}

async function measure(name: string, child: NodeChild, spawnedAt: number): Promise<Reading> {
  const startMs = await healthyAfter(child.url, spawnedAt);
  const debuggerUrl = inspectorUrl(child.output());
  if (debuggerUrl === undefined) throw new Error(`${name}: no inspector URL in its output:\n${child.output()}`);
  const inspector = await openInspectorSession(debuggerUrl);
  const collected = async () => {
    await inspector.collectGarbage();
    return rssMb(child.pid);
  };
  try {
    const rssStartMb = await collected();
    await sendMix(child.url, 0, WARM_REQUESTS, name);
    const rssSeededMb = await collected();
    const began = performance.now();
    await sendMix(child.url, WARM_REQUESTS, REQUESTS, name);
    const seconds = (performance.now() - began) / 1000;
    const rssAfterMb = await collected();
    const heapUsedAfterMb = round((await inspector.memoryUsage()).heapUsed / 2 ** 20);
    const reading = {
      case: name,
      startMs: Math.round(startMs),
      rssStartMb,
      rssSeededMb,
      rssAfterMb,
      heapUsedAfterMb,
      targetMb: TARGETS_MB[name],
    };
    console.log(
      `${name.padEnd(17)} healthy ${String(reading.startMs).padStart(5)} ms   RSS start ${rssStartMb} MB, seeded ${rssSeededMb} MB, after ${REQUESTS} ${rssAfterMb} MB ` +
        `(heap ${heapUsedAfterMb} MB; ${Math.round((REQUESTS - WARM_REQUESTS) / seconds)} req/s)   target ≤ ${reading.targetMb} MB ${Math.max(rssStartMb, rssSeededMb, rssAfterMb) <= reading.targetMb ? 'met' : 'MISSED'}`,
    );
    return reading;
  } finally {
    inspector.close();
  }
}

const nodeFlags = ['--inspect=127.0.0.1:0', ...GATEWAY_HEAP_FLAGS];
const readings: Reading[] = [];
const dir = await mkdtemp(join(tmpdir(), 'fgw-bench-memory-'));
let postgres: ThrowawayPostgres | undefined;
let seller: NodeChild | undefined;
const load = () => loadavg().map((n) => round(n, 2));
console.log(`bench:memory: Node ${process.version}, load average ${load().join(' ')}, ${REQUESTS} requests per case`);

let sellerPort: number | undefined;

async function npmStart(name: string, dataDir: string): Promise<void> {
  // One port for both starts: the seeded members keep the seller URL of the first.
  sellerPort ??= await freePort();
  const spawnedAt = performance.now();
  const child = await startNodeChild({
    name: 'npm start',
    args: ['scripts/run-bundled.mjs', 'start'],
    env: {
      GATEWAY_DATA_DIR: dataDir,
      GATEWAY_PORT: '0',
      INTERNAL_PORT: '0',
      MOCK_SELLER_PORT: String(sellerPort),
      MOCK_SELLER_URL: `http://127.0.0.1:${sellerPort}/seller`,
      GATEWAY_LOG: 'off',
      GATEWAY_RATE_LIMIT: '1000000000',
    },
    ready: /gateway: listening on (http:\/\/[^\s,]+)/,
    nodeFlags,
  });
  try {
    readings.push(await measure(name, child, spawnedAt));
  } finally {
    await child.kill('SIGTERM'); // a clean stop, so the next start finds a closed store
  }
}

async function gatewayAlone(name: string, env: Record<string, string>): Promise<void> {
  seller ??= await startNodeChild({
    name: 'mock seller',
    args: ['scripts/mock-seller.ts', '--port', '0'],
    ready: /listening on (http:\/\/[^\s]+)/,
  });
  const spawnedAt = performance.now();
  const child = await startGatewayProcess({
    env: {
      GATEWAY_LOG: 'off',
      GATEWAY_RATE_LIMIT: '1000000000',
      MOCK_SELLER_URL: `${seller.url}/seller`,
      DATABASE_URL: '',
      ...env,
    },
    nodeFlags,
  });
  try {
    readings.push(await measure(name, child, spawnedAt));
  } finally {
    await child.kill('SIGTERM');
  }
}

try {
  const dataDir = join(dir, 'pglite');
  // A later start needs the data directory a first start made.
  if (CASES.includes('first-start') || CASES.includes('later-start')) await npmStart('first-start', dataDir);
  if (CASES.includes('later-start')) await npmStart('later-start', dataDir);
  if (CASES.includes('gateway-pglite'))
    await gatewayAlone('gateway-pglite', { GATEWAY_DATA_DIR: join(dir, 'gateway-pglite') });
  if (CASES.includes('gateway-postgres')) {
    const unavailable = await throwawayPostgresUnavailable();
    if (unavailable !== undefined) console.log(`gateway-postgres  skipped: ${unavailable}`);
    else {
      postgres = await startThrowawayPostgres();
      await gatewayAlone('gateway-postgres', { DATABASE_URL: postgres.url });
    }
  }
} finally {
  await killAllNodeChildren();
  await postgres?.destroy();
  await rm(dir, { recursive: true, force: true });
}
console.log(`load average at the end ${load().join(' ')}; non-200 answers: ${failures}`);
console.log(JSON.stringify({ node: process.version, requests: REQUESTS, loadAverage: load(), failures, readings }));
process.exit(failures === 0 ? 0 : 1);
