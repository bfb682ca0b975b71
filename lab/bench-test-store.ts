// How fast can a test get an isolated, migrated, seeded PGlite store? Compares the ways
// createTestStore could start one and prints the figures, then one line of JSON.
//   npm run -w lab bench:test-store -- [rounds]
import { PGlite } from '@electric-sql/pglite';
import { openPgliteStore } from '../gateway/store/pglite-store';
import { runMigrations } from '../gateway/store/migrations';
import { createTestStore } from '../gateway/testing/test-store';
import { seedDirectory } from '../gateway/directory/directory-seed';

const rounds = Number(process.argv[2] ?? 5);

async function time(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

async function median(fn: () => Promise<unknown>): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < rounds; i++) samples.push(await time(fn));
  samples.sort((a, b) => a - b);
  return Math.round(samples[Math.floor(samples.length / 2)]);
}

const ready = async (store: { query: (sql: string) => Promise<unknown>; close: () => Promise<void> }) => {
  await store.query("SELECT * FROM users WHERE username = 'demo'");
  await store.close();
};

// 1. What the test store avoids: initdb + migrations + seeds for every test.
const freshMs = await median(async () => {
  const store = await openPgliteStore();
  await runMigrations(store.session);
  await seedDirectory(store);
  await ready(store);
});

// 2. Starting from a dump, uncompressed vs gzip.
const source = await openPgliteStore();
await runMigrations(source.session);
await seedDirectory(source);
const plain = await source.dump();
const db = await PGlite.create({ loadDataDir: plain });
const gzip = await db.dumpDataDir('gzip');
await db.close();
await source.close();
const loadPlainMs = await median(async () => ready(await openPgliteStore({ loadDataDir: plain })));
const loadGzipMs = await median(async () => ready(await openPgliteStore({ loadDataDir: gzip })));

// 3. createTestStore itself, snapshot already in this process (what every test after the first pays).
await (await createTestStore()).close();
const createTestStoreMs = await median(async () => ready(await createTestStore()));

const figures = {
  rounds,
  fresh_migrate_seed_ms: freshMs,
  load_dump_plain_ms: loadPlainMs,
  load_dump_gzip_ms: loadGzipMs,
  dump_plain_mb: Math.round((plain.size / 1e6) * 10) / 10,
  dump_gzip_mb: Math.round((gzip.size / 1e6) * 10) / 10,
  create_test_store_ms: createTestStoreMs,
};
console.log(`fresh PGlite + migrate + seed   ${freshMs} ms (median of ${rounds})`);
console.log(`from uncompressed dump          ${loadPlainMs} ms (${figures.dump_plain_mb} MB)`);
console.log(`from gzip dump                  ${loadGzipMs} ms (${figures.dump_gzip_mb} MB)`);
console.log(`createTestStore() (warm)        ${createTestStoreMs} ms`);
console.log(JSON.stringify(figures));
