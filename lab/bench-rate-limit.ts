// npm run -w lab bench:rate-limit   (DATABASE_URL=postgres://… for the exact variant)
//
// What a rate-limit check costs on the hot path: the per-instance in-memory count the gateway
// uses, against an exact count shared by every instance in PostgreSQL (one upsert per request:
// INSERT … ON CONFLICT DO UPDATE SET n = n + 1 RETURNING n, on a table of this script's own).
// Sequential (latency added to each request) and 32 at once (throughput). JSON last line.
import pg from 'pg';
import { createRateLimiter } from '../gateway/protection/rate-limiter';

const N = Number(process.env.BENCH_N ?? 20_000);
const CONCURRENCY = 32;
const clients = Array.from({ length: 50 }, (_, i) => `client-${i}`);

function memory() {
  const limiter = createRateLimiter({ windowMs: 60_000, clock: Date.now });
  const started = performance.now();
  for (let i = 0; i < N; i++) limiter.take(clients[i % clients.length], 1e9);
  return { us_per_check: Math.round((((performance.now() - started) * 1000) / N) * 1000) / 1000 };
}

async function postgres(url: string) {
  const pool = new pg.Pool({ connectionString: url, max: CONCURRENCY });
  await pool.query(
    'CREATE TABLE IF NOT EXISTS bench_rate_counts (client_id text, window_start bigint, n integer NOT NULL, PRIMARY KEY (client_id, window_start))',
  );
  await pool.query('TRUNCATE bench_rate_counts');
  const sql =
    'INSERT INTO bench_rate_counts (client_id, window_start, n) VALUES ($1, $2, 1) ON CONFLICT (client_id, window_start) DO UPDATE SET n = bench_rate_counts.n + 1 RETURNING n';
  const window = () => Math.floor(Date.now() / 60_000);
  const sequentialN = Math.min(N, 5_000);
  let started = performance.now();
  for (let i = 0; i < sequentialN; i++) await pool.query(sql, [clients[i % clients.length], window()]);
  const sequentialUs = ((performance.now() - started) * 1000) / sequentialN;
  started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < N) {
        const i = next++;
        await pool.query(sql, [clients[i % clients.length], window()]);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  await pool.query('DROP TABLE bench_rate_counts');
  await pool.end();
  return {
    sequential_us_per_check: Math.round(sequentialUs),
    concurrent_checks_per_s: Math.round(N / seconds),
    concurrency: CONCURRENCY,
  };
}

const result: Record<string, unknown> = { n: N, memory: memory() };
const url = process.env.DATABASE_URL?.trim();
if (url) result.postgres_exact = await postgres(url);
else result.postgres_exact = 'skipped: DATABASE_URL not set';
console.log(JSON.stringify(result));
