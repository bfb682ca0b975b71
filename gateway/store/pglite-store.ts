// The embedded store: PGlite (PostgreSQL compiled to WASM), in memory or persisted under a
// data directory. PGlite is a single connection: queries are serialised, and a transaction
// holds the connection until it ends — so inside `transaction(work)` use only `tx`, never
// the store itself (that would wait for the transaction that is waiting for it).
import { PGlite } from '@electric-sql/pglite';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Queryable, QueryResult, Store } from './store';
import type { SqlSession } from './sql-session';
import { liftoffOnlyForPglite } from './pglite-wasm-tiers';
import { acquireDataDirLock, type DataDirLock } from './data-dir-lock';
import { DIRECTORY_CHANNEL, DirectoryListeners, sendDirectoryChanged } from './directory-changes';

interface PgliteQueryable {
  query<T>(sql: string, params?: unknown[]): Promise<{ rows: T[]; affectedRows?: number }>;
}

function queryable(db: PgliteQueryable): Queryable {
  return {
    async query<Row>(sql: string, params?: unknown[]): Promise<QueryResult<Row>> {
      const result = await db.query<Row>(sql, params);
      return { rows: result.rows, affectedRows: result.affectedRows ?? 0 };
    },
  };
}

/**
 * PostgreSQL's default shared_buffers (128 MB) is sized for a server; in PGlite it is WASM
 * memory that is never given back, while the gateway's whole database (~9 MB on disk) fits in
 * far less. Figures: docs/performance.md, "PGlite's shared_buffers".
 */
export const PGLITE_SHARED_BUFFERS = '8MB';
const START_PARAMS = [...PGlite.defaultStartParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`];

export interface PgliteStore extends Store {
  readonly kind: 'pglite';
  /** The connection itself, for migrations and seeding. */
  readonly session: SqlSession;
  /** The whole database as a tarball, to start other in-memory instances from. */
  dump(): Promise<Blob>;
}

export interface PgliteStoreOptions {
  /** A directory to persist to; undefined or 'memory' for an in-memory database. */
  dataDir?: string;
  /** Start from a dump (see PgliteStore.dump) instead of running initdb: much faster. */
  loadDataDir?: Blob;
  /** Run on a persisted dataDir while holding its lock, before PGlite opens it (data-dir-restore.ts). */
  prepareDataDir?: (dataDir: string) => Promise<unknown>;
}

export async function openPgliteStore(options: PgliteStoreOptions = {}): Promise<PgliteStore> {
  const persisted = options.dataDir !== undefined && options.dataDir !== 'memory';
  let lock: DataDirLock | undefined;
  if (persisted) {
    await mkdir(dirname(options.dataDir!), { recursive: true });
    // Two processes opening one PGlite directory would corrupt it; fail clearly instead.
    lock = await acquireDataDirLock(options.dataDir!);
  }
  liftoffOnlyForPglite();
  let db: PGlite;
  try {
    if (persisted) {
      await options.prepareDataDir?.(options.dataDir!);
      await mkdir(options.dataDir!, { recursive: true });
    }
    db = await PGlite.create({
      dataDir: persisted ? options.dataDir : undefined,
      loadDataDir: options.loadDataDir,
      startParams: START_PARAMS,
      // initdb runs its own PGlite instance first on a fresh data directory.
      initDbStartParams: ['--set', `shared_buffers=${PGLITE_SHARED_BUFFERS}`],
    });
  } catch (error) {
    await lock?.release();
    throw error;
  }
  const base = queryable(db);
  // PGlite has LISTEN/NOTIFY too, with PostgreSQL's rule that a NOTIFY sent in a transaction
  // is delivered at its commit: the same signal as on a server, within this one process.
  // Listening from the start (one statement), so no signal can precede the LISTEN.
  const directoryListeners = new DirectoryListeners();
  try {
    await db.listen(DIRECTORY_CHANNEL, () => directoryListeners.fire());
  } catch (error) {
    await db.close().catch(() => {});
    await lock?.release();
    throw error;
  }
  return {
    kind: 'pglite',
    query: base.query,
    notifyDirectoryChanged: (tx) => sendDirectoryChanged(tx ?? base),
    onDirectoryChanged: (callback) => directoryListeners.add(callback),
    session: {
      query: base.query,
      async exec(sql: string) {
        await db.exec(sql);
      },
    },
    transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
      return db.transaction((tx) => work(queryable(tx)));
    },
    dump: () => db.dumpDataDir('none'),
    async close() {
      if (!db.closed) await db.close();
      await lock?.release();
    },
  };
}
