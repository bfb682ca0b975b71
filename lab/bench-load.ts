// npm run -w lab bench:load — the kit is never the bottleneck: `verify --load`'s driver (every reply
// checked by the schema and the reply rules) against autocannon (replies not read), with the
// same generated item inquiry bodies and the same concurrency, on the honest mock seller in a
// child process (so neither driver steals its CPU). The two take turns, --rounds times, so a
// shared machine's load swings hit both alike; printed per round and as medians: both rates,
// the ratio (target ≥ 0.8), and CPU per request of each driver and of the mock seller — the
// driver costing less than the seller it loads is what the ratio cannot show on a busy machine.
// Both models: closed (`--concurrency`: autocannon's connections) and open (`--rate`, at a rate
// far above what the seller holds, --rate-target, so both drivers are saturated: our
// schedule with --max-in-flight = the concurrency against autocannon's overallRate on as many
// connections); the open model's ratio is of replies per second at that saturation.
// Usage: npm run -w lab bench:load [-- --seconds 3 --concurrency 16 --seed 1 --rounds 3 --rate-target 100000]
// Ends with one line of JSON holding the figures.
import { forkMockSeller, servedAsMockSellerChild } from './load/mock-seller-child';
import autocannon from 'autocannon';
import { cpus, loadavg } from 'node:os';
import { median } from './load/latency-stats';
import { cpuMicros } from './load/process-stats';
import { catalogueOfScenario } from '../verification/explore/catalogue';
import { requestBody } from '../verification/explore/exchange';
import { exploreCase } from '../verification/explore/generators';
import { generatedCases } from '../verification/explore/run-exploration';
import { runLoad } from '../verification/load/run-load';
import { readDefaultScenario } from '../mock-seller/default-scenario';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};

if (!(await servedAsMockSellerChild())) {
  const seconds = arg('seconds', 3);
  const concurrency = arg('concurrency', 16);
  const seed = arg('seed', 1);
  const rounds = arg('rounds', 3);
  const rateTarget = arg('rate-target', 100_000);
  const { url, child } = await forkMockSeller(import.meta.url);
  const sellerUrl = `${url}/seller`;
  const catalogue = catalogueOfScenario(await readDefaultScenario(), 'default scenario');
  // The same pool runLoad draws item inquiries from (seed + 0, 256 requests).
  const bodies = generatedCases(exploreCase(catalogue, ['item-inquiry']), seed, 256).map(requestBody);

  const sellerCpu = () => cpuMicros(child.pid!);
  type Model = 'closed' | 'open';
  const load = async (model: Model, stepSeconds = seconds) => {
    const seller = await sellerCpu();
    const cpu = process.cpuUsage();
    const { report } = await runLoad({
      target: { sellerUrl, timeoutMs: 30_000 },
      catalogue,
      seed,
      mix: { 'item-inquiry': 1 },
      orders: false,
      model,
      levels: [model === 'closed' ? concurrency : rateTarget],
      maxInFlight: concurrency,
      stepSeconds,
      maxRequests: 100_000_000,
      minLevel: 0,
      minLevelGiven: false,
    });
    const used = process.cpuUsage(cpu);
    const step = report.steps[0];
    return {
      rps: step.throughput_per_s,
      exchanges: step.exchanges,
      cpuUsPerExchange: (used.user + used.system) / step.exchanges,
      sellerUsPerRequest: ((await sellerCpu()) - seller) / step.exchanges,
      broken: Object.keys(step.rule_breaks),
    };
  };
  const cannon = async (model: Model) => {
    const seller = await sellerCpu();
    const cpu = process.cpuUsage();
    const result = await new Promise<{ rps: number; requests: number; non2xx: number }>((resolve, reject) => {
      autocannon(
        {
          url: sellerUrl,
          connections: concurrency,
          duration: seconds,
          ...(model === 'open' ? { overallRate: rateTarget } : {}),
          requests: bodies.map((body) => ({
            method: 'POST' as const,
            headers: { 'content-type': 'application/json' },
            body,
          })),
        },
        (error, result) =>
          error
            ? reject(error)
            : resolve({
                rps: result.requests.total / (result.duration || 1),
                requests: result.requests.total,
                non2xx: result.non2xx,
              }),
      );
    });
    const used = process.cpuUsage(cpu);
    return {
      ...result,
      cpuUsPerRequest: (used.user + used.system) / result.requests,
      sellerUsPerRequest: ((await sellerCpu()) - seller) / result.requests,
    };
  };

  const before = loadavg()[0];
  // Warm-up, for both: the mock's JIT and reply cache, and the driver's (JIT, Ajv's compiled
  // validators, its connections) — a cold first second costs the driver half its rate.
  await cannon('closed');
  await load('closed', 2);
  type Run = { model: Model; ac: Awaited<ReturnType<typeof cannon>>; kit: Awaited<ReturnType<typeof load>> };
  const runs: Run[] = [];
  for (let round = 0; round < rounds; round++)
    for (const model of ['closed', 'open'] as const)
      runs.push({ model, ac: await cannon(model), kit: await load(model) });
  child.disconnect();
  const us = (n: number) => `${n.toFixed(0).padStart(3)} µs`;
  console.log(
    `mock seller, honest, item inquiries from the default scenario's catalogue, concurrency ${concurrency} (open model: ${rateTarget} req/s asked, at most ${concurrency} in flight), ${seconds} s each, ${rounds} rounds taking turns`,
  );
  for (const [i, { model, ac, kit }] of runs.entries()) {
    console.log(`round ${Math.floor(i / 2) + 1}, ${model} model`);
    console.log(
      `  autocannon            ${ac.rps.toFixed(0).padStart(7)} req/s  CPU ${us(ac.cpuUsPerRequest)}/request, seller ${us(ac.sellerUsPerRequest)}/request` +
        `  (${ac.requests} requests, non-2xx ${ac.non2xx}; replies not read)`,
    );
    console.log(
      `  verify --load driver  ${kit.rps.toFixed(0).padStart(7)} req/s  CPU ${us(kit.cpuUsPerExchange)}/exchange, seller ${us(kit.sellerUsPerRequest)}/request` +
        `  (${kit.exchanges} exchanges, every reply checked; rules broken: ${kit.broken.join(', ') || 'none'})`,
    );
  }
  const figuresOf = (model: Model) => {
    const of = runs.filter((r) => r.model === model);
    return {
      ratio: median(of.map(({ ac, kit }) => kit.rps / ac.rps)),
      autocannon_rps: median(of.map((r) => r.ac.rps)),
      load_rps: median(of.map((r) => r.kit.rps)),
      autocannon_cpu_us_per_request: median(of.map((r) => r.ac.cpuUsPerRequest)),
      cpu_us_per_exchange: median(of.map((r) => r.kit.cpuUsPerExchange)),
      seller_cpu_us_per_request: median(of.flatMap((r) => [r.ac.sellerUsPerRequest, r.kit.sellerUsPerRequest])),
    };
  };
  const closed = figuresOf('closed');
  const open = figuresOf('open');
  for (const [model, f] of [
    ['closed', closed],
    ['open', open],
  ] as const)
    console.log(
      `medians, ${model} model: ratio ${f.ratio.toFixed(2)} (target ≥ 0.80); the driver's own CPU: ${f.cpu_us_per_exchange.toFixed(0)} µs per exchange ` +
        `(one core of it drives ~${Math.round(1e6 / f.cpu_us_per_exchange)} exchanges/s), autocannon's ${f.autocannon_cpu_us_per_request.toFixed(0)} µs ` +
        `per request, the mock seller's ${f.seller_cpu_us_per_request.toFixed(0)} µs per request`,
    );
  const rounded = (f: typeof closed) => ({
    ratio: Math.round(f.ratio * 100) / 100,
    ...Object.fromEntries(
      Object.entries(f)
        .filter(([k]) => k !== 'ratio')
        .map(([k, v]) => [k, Math.round(v)]),
    ),
  });
  console.log(
    `  machine: ${cpus().length} cores, load average ${before.toFixed(2)} before the run (a loaded machine skews both rates)`,
  );
  console.log(
    JSON.stringify({
      concurrency,
      seconds,
      rounds,
      rate_target: rateTarget,
      closed: rounded(closed),
      open: rounded(open),
      loadavg_before: before,
    }),
  );
  process.exit(0);
}
