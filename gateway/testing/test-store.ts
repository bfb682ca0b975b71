// createTestStore(): an isolated, migrated and seeded store for one test, fast.
//
//   const store = await createTestStore();            // seeded with seeds/directory.json
//   const store = await createTestStore({ sellerUrl }); // members point at your mock seller
//   afterEach/afterAll: await store.close();             // always close it
//
// Each call returns its own database: writes in one test never show in another, and tests
// may run concurrently. Backends:
// - default, PGlite in memory. A fresh PGlite takes seconds to initialise, so the migrated
//   and seeded database is built once, dumped to a tarball, and every test store starts from
//   that dump (`loadDataDir`, a few hundred ms). The tarball is also cached on disk under
//   var/cache/test-store/, keyed by a hash of the migrations, the seeds, the PGlite version
//   and its shared_buffers, so later test files and runs skip the build; a changed migration
//   or seed gets a new key, and the cache can always be deleted.
// - DATABASE_URL set: a fresh database on that PostgreSQL server (CREATE DATABASE with a
//   random name, migrated and seeded), dropped on close(). The URL's user must be allowed
//   to create databases.
// Figures (`npm run -w lab bench:test-store`, 2 busy cores): fresh PGlite +
// migrations + seeds ~4.2 s; from the dump ~1.0 s (uncompressed and gzip alike, ~0.4–0.6 s
// on an idle machine). Memory is returned on close(): close every store you create.
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join, sep } from 'node:path';
import pg from 'pg';
import type { Store } from '../store/store';
import { openPgliteStore, PGLITE_SHARED_BUFFERS } from '../store/pglite-store';
import { createStore } from '../store/create-store';
import { MIGRATIONS_DIR, runMigrations } from '../store/migrations';
import { PACKAGE_ROOT } from '../../shared/package-root';
import { seedDirectory } from '../directory/directory-seed';
import { DEFAULT_SELLER_URL } from '../store/store-config';

export interface TestStoreOptions {
  /** Every member's seller URL (e.g. a mock seller bound to port 0). Default: the seeds' default. */
  sellerUrl?: string;
  /** Skip the seeds: migrated but empty. */
  empty?: boolean;
  /** Default: 'postgres' when DATABASE_URL is set, else 'pglite'. */
  backend?: TestBackend;
}

export type TestBackend = 'pglite' | 'postgres';

/** The backends this run can test: PGlite always, PostgreSQL when DATABASE_URL is set. */
export function availableTestBackends(): TestBackend[] {
  return process.env.DATABASE_URL?.trim() ? ['pglite', 'postgres'] : ['pglite'];
}

export const TEST_STORE_CACHE_DIR = join(PACKAGE_ROOT, 'var', 'cache', 'test-store');

export async function createTestStore(options: TestStoreOptions = {}): Promise<Store> {
  const databaseUrl = process.env.DATABASE_URL?.trim();
  const backend = options.backend ?? (databaseUrl ? 'postgres' : 'pglite');
  if (backend === 'postgres' && !databaseUrl)
    throw new Error('createTestStore: the postgres backend needs DATABASE_URL');
  const store =
    backend === 'postgres'
      ? await createPostgresTestStore(databaseUrl!, options)
      : await createPgliteTestStore(options);
  if (options.sellerUrl && !options.empty) {
    await store.query('UPDATE members SET seller_url = $1', [options.sellerUrl]);
  }
  return store;
}

// ---- PGlite: start from a snapshot --------------------------------------------------------

const snapshots = new Map<'seeded' | 'empty', Promise<Blob>>();

async function createPgliteTestStore(options: TestStoreOptions): Promise<Store> {
  const variant = options.empty ? 'empty' : 'seeded';
  let snapshot = snapshots.get(variant);
  if (!snapshot) {
    snapshot = loadOrBuildSnapshot(variant);
    snapshots.set(variant, snapshot);
    snapshot.catch(() => snapshots.delete(variant)); // let the next caller retry
  }
  const store = await openPgliteStore({ loadDataDir: await snapshot });
  // Belt and braces: a no-op when the snapshot is current, a fix-up if it is not.
  await runMigrations(store.session);
  return store;
}

async function loadOrBuildSnapshot(variant: 'seeded' | 'empty'): Promise<Blob> {
  const prefix = `pglite-${variant}-`;
  const file = join(TEST_STORE_CACHE_DIR, `${prefix}${await snapshotKey()}.tar`);
  try {
    return new Blob([await readFile(file)]);
  } catch {
    // not cached yet
  }
  const store = await openPgliteStore();
  try {
    await runMigrations(store.session);
    if (variant === 'seeded') await seedDirectory(store, { sellerUrl: DEFAULT_SELLER_URL });
    const dump = await store.dump();
    // Write-then-rename so a concurrent test process never reads half a file.
    await mkdir(TEST_STORE_CACHE_DIR, { recursive: true });
    const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.partial`;
    await writeFile(partial, new Uint8Array(await dump.arrayBuffer()));
    await rename(partial, file);
    // Snapshots of older migrations/seeds are dead weight (~40 MB each): drop them.
    for (const stale of await readdir(TEST_STORE_CACHE_DIR)) {
      if (stale.startsWith(prefix) && stale.endsWith('.tar') && join(TEST_STORE_CACHE_DIR, stale) !== file) {
        await rm(join(TEST_STORE_CACHE_DIR, stale), { force: true });
      }
    }
    return dump;
  } finally {
    await store.close();
  }
}

/** Changes whenever anything that shapes the snapshot's contents changes. */
async function snapshotKey(): Promise<string> {
  const hash = createHash('sha256');
  // The package's exports hide package.json: find it from its entry point (…/pglite/dist/index.js).
  const pgliteEntry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const pgliteRoot = pgliteEntry.slice(0, pgliteEntry.lastIndexOf(`${sep}dist${sep}`));
  const pglitePackage = JSON.parse(await readFile(join(pgliteRoot, 'package.json'), 'utf8'));
  hash.update(`pglite ${pglitePackage.version}\n`);
  // initdb writes it into the snapshot's postgresql.conf.
  hash.update(`shared_buffers ${PGLITE_SHARED_BUFFERS}\n`);
  const seedsDir = join(PACKAGE_ROOT, 'seeds');
  const files = [
    ...(await readdir(MIGRATIONS_DIR)).sort().map((f) => join(MIGRATIONS_DIR, f)),
    join(PACKAGE_ROOT, 'gateway', 'store', 'migrations.ts'),
    // The seeder's code lives beside the directory, not in seeds/ (which is data only).
    join(PACKAGE_ROOT, 'gateway', 'directory', 'directory-seed.ts'),
    ...(await readdir(seedsDir, { recursive: true }))
      .filter((f) => /\.(json|ts|pem)$/.test(f) && !f.endsWith('.test.ts'))
      .sort()
      .map((f) => join(seedsDir, f)),
  ];
  for (const file of files) {
    hash.update(`${file.slice(PACKAGE_ROOT.length)}\n`);
    hash.update(await readFile(file));
  }
  return hash.digest('hex').slice(0, 16);
}

// ---- PostgreSQL: a database per test store ------------------------------------------------

async function createPostgresTestStore(databaseUrl: string, options: TestStoreOptions): Promise<Store> {
  const name = `gw_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await adminQuery(databaseUrl, `CREATE DATABASE ${name}`);
  const url = new URL(databaseUrl);
  url.pathname = `/${name}`;
  let store: Store;
  try {
    store = await createStore({ databaseUrl: url.toString() });
    if (!options.empty) await seedDirectory(store, { sellerUrl: DEFAULT_SELLER_URL });
  } catch (error) {
    await adminQuery(databaseUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
    throw error;
  }
  let closed = false;
  return {
    kind: store.kind,
    query: store.query,
    transaction: store.transaction,
    notifyDirectoryChanged: store.notifyDirectoryChanged,
    onDirectoryChanged: store.onDirectoryChanged,
    directoryChangesListening: store.directoryChangesListening,
    async close() {
      if (closed) return;
      closed = true;
      await store.close();
      await adminQuery(databaseUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

async function adminQuery(databaseUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
