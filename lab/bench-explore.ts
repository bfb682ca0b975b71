// Exploration speed: `runs` generated exchanges (default 1,000) against the mock seller with
// --concurrency 8 (default), the mock in a child process so the explorer does not steal its
// CPU. Reports the wall time, the rate, and where the time went: our own checking (schema +
// rules + coverage, measured per exchange) vs waiting for the seller (request sent → body
// read). Target: 1,000 exchanges in under 30 s on the 2-core build machine.
// Usage: npm run -w lab bench:explore [-- --runs 1000 --concurrency 8 --seed 1]
// Ends with one line of JSON holding the figures.
import { forkMockSeller, servedAsMockSellerChild } from './load/mock-seller-child';
import { cpus, loadavg } from 'node:os';
import { catalogueOfScenario } from '../verification/explore/catalogue';
import { runExploration } from '../verification/explore/run-exploration';
import { readDefaultScenario } from '../mock-seller/default-scenario';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};

if (!(await servedAsMockSellerChild())) {
  const runs = arg('runs', 1000);
  const concurrency = arg('concurrency', 8);
  const seed = arg('seed', 1);
  const { url, child } = await forkMockSeller(import.meta.url);
  const catalogue = catalogueOfScenario(await readDefaultScenario(), 'default scenario');
  const before = loadavg()[0];
  const cpuBefore = process.cpuUsage();
  const result = await runExploration({
    target: { sellerUrl: `${url}/seller`, timeoutMs: 30_000 },
    catalogue,
    runs,
    seed,
    concurrency,
  });
  const cpu = process.cpuUsage(cpuBefore);
  child.disconnect();

  const seconds = result.elapsedMs / 1000;
  const exchangeMs = result.waitMs + result.checkMs;
  const figures = {
    bench: 'explore',
    runs: result.done,
    concurrency,
    seed,
    failures: result.failures.length,
    elapsed_s: Number(seconds.toFixed(2)),
    exchanges_per_s: Math.round(result.done / seconds),
    // Summed over exchanges (they overlap at concurrency > 1): each exchange's time split in two.
    generate_ms: Math.round(result.generateMs),
    wait_ms_total: Math.round(result.waitMs),
    check_ms_total: Math.round(result.checkMs),
    check_share_of_exchange_time: Number((result.checkMs / exchangeMs).toFixed(4)),
    // Our checking against the wall clock (checking is synchronous: one core at most).
    check_share_of_wall: Number((result.checkMs / result.elapsedMs).toFixed(4)),
    mean_wait_ms: Number((result.waitMs / result.done).toFixed(2)),
    mean_check_ms: Number((result.checkMs / result.done).toFixed(3)),
    explorer_cpu_s: Number(((cpu.user + cpu.system) / 1e6).toFixed(2)),
    under_30_s: seconds < 30,
    cpus: cpus().length,
    load_before: Number(before.toFixed(2)),
    load_after: Number(loadavg()[0].toFixed(2)),
  };
  console.log(
    `explore: ${result.done} exchanges at concurrency ${concurrency} in ${seconds.toFixed(2)} s (${figures.exchanges_per_s}/s), ${result.failures.length} failures`,
  );
  console.log(
    `  waiting for the seller: ${figures.mean_wait_ms} ms per exchange; our checking: ${figures.mean_check_ms} ms per exchange ` +
      `(${(figures.check_share_of_exchange_time * 100).toFixed(1)}% of exchange time, ${(figures.check_share_of_wall * 100).toFixed(1)}% of the wall clock)`,
  );
  console.log(
    `  generating the ${result.planned} requests with fast-check: ${figures.generate_ms} ms (before the first is sent)`,
  );
  console.log(
    `  explorer process CPU ${figures.explorer_cpu_s} s (generation, HTTP client, checking); load ${figures.load_before} → ${figures.load_after} on ${figures.cpus} CPUs`,
  );
  console.log(JSON.stringify(figures));
}
