import { randomUUID } from 'node:crypto';
import { mintDevToken } from '../gateway/auth/dev-keys';
import { seedDirectory } from '../gateway/directory/directory-seed';
import { createStore } from '../gateway/store/create-store';
import type { Store } from '../gateway/store/store';
import { startBalancer, untilBalancedOver, type Balancer } from '../gateway/testing/haproxy-balancer';
import { killAllNodeChildren, startNodeChild } from '../gateway/testing/node-child';
import { startRestartableGateway, type RestartableGateway } from '../gateway/testing/restartable-gateway';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../gateway/testing/throwaway-postgres';
import { demoBody, OPERATION_MIX, V3_2_PATH } from './load/demo-requests';
import { percentile, round } from './load/latency-stats';
import type { LoadAnswer, LoadRequest } from './load/load-request';
import { pacedLoad } from './load/paced-load';

export const CHAOS_HELP = `npm run -w lab soak -- --chaos — deploys and failovers under load lose no request

Starts a throwaway PostgreSQL, the mock seller, two gateway instances (the second with
GATEWAY_WORKERS=2) and Debian's haproxy with the shipped gateway/cluster/haproxy.cfg, then sends
the soak's mix (70% item inquiry, 10% place order with a new PO number each, 10% invoice, 10%
statement) through the balancer at CHAOS_RATE requests a second, evenly spaced, while it:

  restart-1   SIGTERMs instance 1 (it drains, then stops), keeps it down CHAOS_DOWN_SECONDS, starts it again
  restart-2   the same for instance 2 (its primary and both workers)
  reload      SIGHUP to instance 2's primary: its workers replaced one at a time
  store       PostgreSQL stopped and started again (pg_ctl -m fast; skipped with CHAOS_STORE=off)

each phase lasting until the balancer serves both instances again, a settle time between them.

Asserts: no request without an answer and no answer that is not JSON, overall; only 200 during
the restarts and the reload; during the store phase only 200 or 503 / 5503, an order answered
503 leaving its PO number free (no order stored, or one stored as failed); every order answered
200 stored exactly once. Reports latency p50/p99 per phase.

Environment: CHAOS_RATE (150), CHAOS_DOWN_SECONDS (2), CHAOS_SETTLE_SECONDS (2), CHAOS_STORE (on|off).
Progress on stderr; a summary and, on the last line, JSON on stdout. Exit 0: every assertion
held; 1: otherwise; 2: bad usage.`;

type Phase = 'steady' | 'restart-1' | 'restart-2' | 'reload' | 'store';
const DISRUPTIONS: readonly Phase[] = ['restart-1', 'restart-2', 'reload'];

interface Answered {
  phase: Phase;
  operation: string;
  po?: string;
  status: number;
  code?: number;
  json: boolean;
  ms: number;
}

function numberFrom(name: string, fallback: number): number {
  const raw = process.env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) {
    console.error(`soak --chaos: ${name} must be a number ≥ 0, got '${raw}'`);
    process.exit(2);
  }
  return value;
}

const parseJson = (body: string): { ok: boolean; code?: number } => {
  try {
    return { ok: true, code: (JSON.parse(body) as { status_code?: number }).status_code };
  } catch {
    return { ok: false };
  }
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What the load saw, by phase: answers, requests without one, and the phase now under way. */
interface ChaosJournal {
  answers: Answered[];
  noAnswer: { phase: Phase; operation: string; error: string }[];
  phase: Phase;
}

/** The soak's mix, one new PO number per order, each request remembered with the phase it was sent in. */
function journaledLoad(journal: ChaosJournal, token: string) {
  const run = randomUUID().slice(0, 8);
  const phaseOf = new Map<LoadRequest, Phase>();
  const next = (i: number): LoadRequest => {
    const operation = OPERATION_MIX[i % OPERATION_MIX.length];
    const po = `CHAOS-${run}-${i}`;
    const request: LoadRequest = {
      path: `${V3_2_PATH}/${operation}`,
      body: JSON.stringify(demoBody(operation, po)),
      headers: { authorization: `Bearer ${token}` },
      tag: operation === 'place_order' ? `${operation} ${po}` : operation,
    };
    phaseOf.set(request, journal.phase);
    return request;
  };
  const onAnswer = (answer: LoadAnswer) => {
    const [operation, po] = answer.request.tag!.split(' ');
    const parsed = parseJson(answer.body);
    journal.answers.push({
      phase: phaseOf.get(answer.request)!,
      operation,
      po,
      status: answer.status,
      code: parsed.code,
      json: parsed.ok && (answer.contentType ?? '').startsWith('application/json'),
      ms: answer.ms,
    });
    phaseOf.delete(answer.request);
  };
  const onError = (request: LoadRequest, error: unknown) => {
    journal.noAnswer.push({ phase: phaseOf.get(request)!, operation: request.tag!, error: (error as Error).message });
    phaseOf.delete(request);
  };
  return { next, onAnswer, onError };
}

interface ChaosStack {
  gateways: RestartableGateway[];
  pg: ThrowawayPostgres;
  /** Resolves once the balancer serves both instances. */
  both(): Promise<void>;
}

/** Each disruption in turn, a settle time before it, its phase lasting until both instances serve again. */
async function disrupt(
  stack: ChaosStack,
  journal: ChaosJournal,
  options: { downMs: number; settleMs: number; withStore: boolean; log: (line: string) => void },
) {
  const { gateways, pg, both } = stack;
  const timings: Record<string, unknown> = {};
  const during = async (name: Phase, action: () => Promise<void>) => {
    await sleep(options.settleMs);
    journal.phase = name;
    const begin = performance.now();
    options.log(`${name}…`);
    await action();
    await both();
    timings[name] = { ms: Math.round(performance.now() - begin) };
    options.log(`${name} done in ${Math.round(performance.now() - begin)} ms, both instances serving`);
    journal.phase = 'steady';
  };
  await during(
    'restart-1',
    async () => void (timings['restart-1 process'] = await gateways[0].restart(options.downMs)),
  );
  await during(
    'restart-2',
    async () => void (timings['restart-2 process'] = await gateways[1].restart(options.downMs)),
  );
  await during('reload', async () => {
    const before = (gateways[1].stderr().match(/reload done/g) ?? []).length;
    gateways[1].signal('SIGHUP');
    const giveUp = Date.now() + 60_000;
    while ((gateways[1].stderr().match(/reload done/g) ?? []).length === before) {
      if (Date.now() > giveUp) throw new Error(`the reload did not finish within 60 s:\n${gateways[1].stderr()}`);
      await sleep(50);
    }
  });
  if (options.withStore) {
    await during('store', async () => {
      await pg.stop();
      await sleep(500);
      await pg.start();
    });
  }
  await sleep(options.settleMs);
  return timings;
}

/** How the orders were stored: statuses by PO number. */
async function storedOrders(store: Store, orders: Answered[]): Promise<Map<string, string[]>> {
  const rows = await store.query<{ purchase_order_number: string; status: string }>(
    'SELECT purchase_order_number, status FROM orders WHERE purchase_order_number = ANY($1)',
    [orders.map((o) => o.po)],
  );
  const storedAs = new Map<string, string[]>();
  for (const row of rows.rows)
    storedAs.set(row.purchase_order_number, [...(storedAs.get(row.purchase_order_number) ?? []), row.status]);
  return storedAs;
}

/** How the orders were answered (200 or 503), and how many answered 200 the store holds exactly once. */
function orderFigures(orders: Answered[], storedAs: Map<string, string[]>) {
  const answered200 = orders.filter((o) => o.status === 200).length;
  return {
    answered200,
    answered503: orders.filter((o) => o.status === 503).length,
    storedOnce: answered200 - ordersNotStoredOnce(orders, storedAs).length,
  };
}

/** Every assertion of the chaos soak that did not hold, as a sentence. */
function chaosProblems(journal: ChaosJournal, orders: Answered[], storedAs: Map<string, string[]>): string[] {
  const { answers, noAnswer } = journal;
  const problems: string[] = [];
  if (noAnswer.length > 0)
    problems.push(`${noAnswer.length} requests without an answer: ${JSON.stringify(noAnswer.slice(0, 5))}`);
  const notJson = answers.filter((a) => !a.json);
  if (notJson.length > 0) problems.push(`${notJson.length} answers not JSON: ${JSON.stringify(notJson.slice(0, 5))}`);
  const badOutsideStore = answers.filter((a) => a.phase !== 'store' && a.status !== 200);
  if (badOutsideStore.length > 0)
    problems.push(
      `${badOutsideStore.length} answers not 200 outside the store phase: ${JSON.stringify(badOutsideStore.slice(0, 5))}`,
    );
  const badInStore = answers.filter(
    (a) => a.phase === 'store' && a.status !== 200 && !(a.status === 503 && a.code === 5503),
  );
  if (badInStore.length > 0)
    problems.push(
      `${badInStore.length} answers in the store phase other than 200 or 503 / 5503: ${JSON.stringify(badInStore.slice(0, 5))}`,
    );
  const notOnce = ordersNotStoredOnce(orders, storedAs);
  if (notOnce.length > 0)
    problems.push(
      `${notOnce.length} orders answered 200 not stored exactly once: ${notOnce.slice(0, 5).map((o) => o.po)}`,
    );
  const notFree = orders.filter((o) => o.status === 503 && (storedAs.get(o.po!) ?? []).some((s) => s !== 'failed'));
  if (notFree.length > 0)
    problems.push(
      `${notFree.length} orders answered 503 whose PO number is not free: ${notFree.slice(0, 5).map((o) => o.po)}`,
    );
  return problems;
}

const ordersNotStoredOnce = (orders: Answered[], storedAs: Map<string, string[]>) =>
  orders.filter((o) => o.status === 200 && (storedAs.get(o.po!) ?? []).length !== 1);

/** Answers by status (and error code) and latency, per phase. */
function phaseFigures(answers: Answered[], phases: Phase[]) {
  return Object.fromEntries(
    phases.map((p) => {
      const mine = answers.filter((a) => a.phase === p);
      const byStatus: Record<string, number> = {};
      for (const a of mine) {
        const key = `${a.status}${a.code === undefined || a.status === 200 ? '' : `/${a.code}`}`;
        byStatus[key] = (byStatus[key] ?? 0) + 1;
      }
      const ms = mine.map((a) => a.ms).sort((x, y) => x - y);
      return [
        p,
        {
          answers: mine.length,
          byStatus,
          p50Ms: round(percentile(ms, 50)),
          p99Ms: round(percentile(ms, 99)),
          maxMs: round(ms.at(-1) ?? 0),
        },
      ];
    }),
  );
}

export async function runChaosSoak(): Promise<number> {
  const rate = numberFrom('CHAOS_RATE', 150);
  const downMs = numberFrom('CHAOS_DOWN_SECONDS', 2) * 1_000;
  const settleMs = numberFrom('CHAOS_SETTLE_SECONDS', 2) * 1_000;
  const withStore = (process.env.CHAOS_STORE ?? 'on') !== 'off';
  const log = (line: string) => console.error(`chaos: ${line}`);

  let pg: ThrowawayPostgres | undefined;
  let store: Store | undefined;
  let balancer: Balancer | undefined;
  try {
    pg = await startThrowawayPostgres();
    store = await createStore({ databaseUrl: pg.url });
    const seller = await startNodeChild({
      name: 'mock seller',
      args: ['scripts/mock-seller.ts', '--port', '0'],
      ready: /listening on (http:\/\/[^\s]+)/,
    });
    await seedDirectory(store, { sellerUrl: `${seller.url}/seller` });
    // One buyer sends everything: its rate limit would answer 429 long before the load is heavy.
    const env = { DATABASE_URL: pg.url, GATEWAY_SEED: 'off', GATEWAY_LOG: 'off', GATEWAY_RATE_LIMIT: '1000000' };
    log('starting two gateway instances (the second with 2 workers) and HAProxy…');
    const gateways: RestartableGateway[] = await Promise.all([
      startRestartableGateway(env),
      startRestartableGateway({ ...env, GATEWAY_WORKERS: '2' }),
    ]);
    balancer = await startBalancer([gateways[0].address, gateways[1].address]);
    const lb = balancer;
    const both = () => untilBalancedOver(lb, ['gateway-1', 'gateway-2']);
    await both();

    const journal: ChaosJournal = { answers: [], noAnswer: [], phase: 'steady' };
    const stopLoad = new AbortController();
    log(`load: ${rate} req/s through ${lb.url}`);
    const loading = pacedLoad({
      origin: lb.url,
      rate,
      seconds: 3_600,
      signal: stopLoad.signal,
      maxInFlight: 2_000,
      ...journaledLoad(journal, await mintDevToken()),
    });
    const timings = await disrupt({ gateways, pg, both }, journal, { downMs, settleMs, withStore, log });
    stopLoad.abort();
    const sent = await loading;

    const { answers, noAnswer } = journal;
    const orders = answers.filter((a) => a.po !== undefined);
    const storedAs = await storedOrders(store, orders);
    const problems = chaosProblems(journal, orders, storedAs);
    const phases = phaseFigures(answers, ['steady', ...DISRUPTIONS, ...(withStore ? (['store'] as const) : [])]);
    const notJson = answers.filter((a) => !a.json).length;
    const summary = {
      rate,
      achievedRps: sent.rps,
      sent: sent.sent,
      dropped: sent.dropped,
      answers: answers.length,
      noAnswer: noAnswer.length,
      notJson,
      orders: orderFigures(orders, storedAs),
      phases,
      timings,
      store: withStore ? 'restarted' : 'not restarted (CHAOS_STORE=off)',
      problems,
    };
    console.log(
      `chaos soak: ${sent.sent} requests at ${sent.rps} req/s; ${noAnswer.length} without an answer, ${notJson} not JSON`,
    );
    for (const [name, p] of Object.entries(phases)) console.log(`  ${name.padEnd(10)} ${JSON.stringify(p)}`);
    console.log(problems.length === 0 ? 'verdict: pass' : `verdict: FAIL\n  ${problems.join('\n  ')}`);
    console.log(JSON.stringify(summary));
    return problems.length === 0 ? 0 : 1;
  } finally {
    await balancer?.close();
    await store?.close().catch(() => {});
    await killAllNodeChildren();
    await pg?.destroy();
  }
}
