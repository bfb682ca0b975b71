// npm run -w lab bench:seller-call — what one forwarded seller call costs the gateway's process, three
// ways in the same run: the gateway's seller client (undici Pool.dispatch with its own handler),
// undici's Pool.request() + body.text(), and the global fetch() + text(); each reply parsed with
// JSON.parse. The mock seller runs in a child process, so its CPU is not counted. Rounds
// alternate the ways, so drift in the machine's load falls on all three; medians are printed.
// Usage: npm run -w lab bench:seller-call [-- --calls 3000 --rounds 5 --concurrency 8]
// Ends with one line of JSON holding the figures.
import { loadavg } from 'node:os';
import { Pool } from 'undici';
import { createSellerClient } from '../gateway/seller-client/seller-client';
import { forkMockSeller, servedAsMockSellerChild } from './load/mock-seller-child';
import { INQUIRY_ITEMS, INQUIRY_LOCATIONS } from './load/demo-requests';
import { median, round } from './load/latency-stats';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};

if (!(await servedAsMockSellerChild())) {
  const calls = arg('calls', 3_000);
  const rounds = arg('rounds', 5);
  const concurrency = arg('concurrency', 8);
  const { url, child } = await forkMockSeller(import.meta.url);
  const sellerUrl = `${url}/seller`;
  // What the gateway forwards for the bench's inquiry (as in npm run -w lab bench's straight-to-seller case).
  const body = {
    service: 'item_inquiry',
    integration: 'northside-dev',
    terminal_id: 'T-DEMO-1',
    locations: INQUIRY_LOCATIONS,
    items: INQUIRY_ITEMS,
  };
  const headers = { 'content-type': 'application/json', accept: 'application/json' };
  const origin = new URL(sellerUrl);

  const client = createSellerClient({ connections: concurrency });
  const pool = new Pool(origin.origin, { connections: concurrency });
  const member = { id: 'M100', sellerUrl, sellerAuth: { kind: 'none' as const }, timeoutMs: 30_000 };
  let sink = 0; // consumed replies, so no work can be skipped
  const ways: Record<string, () => Promise<void>> = {
    'seller client (Pool.dispatch)': async () => {
      const outcome = await client.call({ member, body });
      if (outcome.kind !== 'reply') throw new Error(`seller client: ${outcome.kind}`);
      sink += (outcome.body as { items: unknown[] }).items.length;
    },
    'undici Pool.request': async () => {
      const reply = await pool.request({ method: 'POST', path: origin.pathname, headers, body: JSON.stringify(body) });
      const text = await reply.body.text();
      if (reply.statusCode !== 200) throw new Error(`Pool.request: ${reply.statusCode}`);
      sink += (JSON.parse(text) as { items: unknown[] }).items.length;
    },
    fetch: async () => {
      const reply = await fetch(sellerUrl, { method: 'POST', headers, body: JSON.stringify(body) });
      const text = await reply.text();
      if (reply.status !== 200) throw new Error(`fetch: ${reply.status}`);
      sink += (JSON.parse(text) as { items: unknown[] }).items.length;
    },
  };

  /**
   * `count` calls, `concurrency` at a time: this process's CPU (user + system) per call in µs, and calls per second.
   */
  const run = async (call: () => Promise<void>, count: number) => {
    let next = 0;
    const cpu = process.cpuUsage();
    const started = process.hrtime.bigint();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next++ < count) await call();
      }),
    );
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const used = process.cpuUsage(cpu);
    return { cpuUs: (used.user + used.system) / count, rps: count / seconds };
  };

  const loadBefore = loadavg()[0];
  for (const call of Object.values(ways)) await run(call, Math.max(500, calls / 3)); // warm-up: JIT, connections
  const samples: Record<string, { cpuUs: number[]; rps: number[] }> = Object.fromEntries(
    Object.keys(ways).map((w) => [w, { cpuUs: [], rps: [] }]),
  );
  for (let r = 1; r <= rounds; r++) {
    for (const [name, call] of Object.entries(ways)) {
      const { cpuUs, rps } = await run(call, calls);
      samples[name].cpuUs.push(cpuUs);
      samples[name].rps.push(rps);
    }
    console.log(
      `round ${r}/${rounds}: ${Object.entries(samples)
        .map(([n, s]) => `${n} ${round(s.cpuUs[r - 1], 1)} µs`)
        .join(', ')}`,
    );
  }
  await client.close();
  await pool.close();
  child.disconnect();

  const ours = median(samples['seller client (Pool.dispatch)'].cpuUs);
  const figures = Object.fromEntries(
    Object.entries(samples).map(([name, s]) => [
      name,
      {
        cpu_us_per_call: round(median(s.cpuUs), 1),
        calls_per_s: Math.round(median(s.rps)),
        vs_seller_client: round(median(s.cpuUs) / ours, 2),
      },
    ]),
  );
  console.log(
    `\nmedians of ${rounds} rounds of ${calls} calls at concurrency ${concurrency} (client process CPU per call):`,
  );
  for (const [name, f] of Object.entries(figures))
    console.log(`  ${name}: ${f.cpu_us_per_call} µs, ${f.calls_per_s} calls/s, ×${f.vs_seller_client}`);
  console.log(
    JSON.stringify({
      node: process.version,
      load_average: [round(loadBefore, 2), round(loadavg()[0], 2)],
      calls,
      rounds,
      concurrency,
      ways: figures,
      sink,
    }),
  );
}
