// A PostgreSQL server through `pg`: a Pool for plain queries; a transaction checks one
// client out and runs BEGIN … COMMIT/ROLLBACK on it, so all of `work` is one transaction.
// Directory change signals: NOTIFY in the writer's transaction, and one LISTEN connection
// per store (postgres-listener.ts), opened on the first subscriber.
import pg from 'pg';
import type { Queryable, QueryResult, Store } from './store';
import type { SqlSession } from './sql-session';
import { DIRECTORY_CHANNEL, DirectoryListeners, sendDirectoryChanged } from './directory-changes';
import { startPostgresListener, type PostgresListener } from './postgres-listener';

// Same JavaScript values as PGlite: int8 (count(*), bigserial) as a number rather than a
// string. Values beyond 2^53 are not expected in this schema.
const INT8_OID = 20;
const types = {
  getTypeParser(oid: number, format?: string) {
    if (oid === INT8_OID) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format as 'text');
  },
};

function queryable(client: pg.Pool | pg.PoolClient): Queryable {
  return {
    async query<Row>(sql: string, params?: unknown[]): Promise<QueryResult<Row>> {
      const result = await client.query(sql, params as unknown[] | undefined);
      return { rows: result.rows as Row[], affectedRows: result.rowCount ?? 0 };
    },
  };
}

export interface PostgresStore extends Store {
  readonly kind: 'postgres';
  /** Checks one client out for `work` (migrations, seeding): session-level state holds. */
  withSession<T>(work: (session: SqlSession) => Promise<T>): Promise<T>;
}

export interface PostgresStoreOptions {
  databaseUrl: string;
  /** Pool size; pg's default is 10. */
  max?: number;
}

export async function openPostgresStore(options: PostgresStoreOptions): Promise<PostgresStore> {
  const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.max, types });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  // Fail at start, with the server's message, rather than on the first request.
  const probe = await pool.connect().catch(async (error: Error) => {
    await pool.end().catch(() => {});
    throw new Error(`cannot connect to PostgreSQL (DATABASE_URL): ${error.message}`);
  });
  probe.release();
  const base = queryable(pool);
  const directoryListeners = new DirectoryListeners();
  // Opened on the first subscription: the keys command and migrations never need it.
  let listener: PostgresListener | undefined;
  return {
    kind: 'postgres',
    query: base.query,
    notifyDirectoryChanged: (tx) => sendDirectoryChanged(tx ?? base),
    onDirectoryChanged(callback) {
      listener ??= startPostgresListener({
        databaseUrl: options.databaseUrl,
        channel: DIRECTORY_CHANNEL,
        onSignal: () => directoryListeners.fire(),
      });
      return directoryListeners.add(callback);
    },
    directoryChangesListening: () => listener?.listening ?? Promise.resolve(),
    async transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        await client.query('BEGIN');
        const result = await work(queryable(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        // A failed ROLLBACK means the connection is unusable: destroy it rather than reuse it.
        await client.query('ROLLBACK').catch((rollbackError: Error) => {
          broken = rollbackError;
        });
        throw error;
      } finally {
        client.release(broken);
      }
    },
    async withSession<T>(work: (session: SqlSession) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      const q = queryable(client);
      try {
        const result = await work({
          query: q.query,
          async exec(sql: string) {
            await client.query(sql);
          },
        });
        client.release();
        return result;
      } catch (error) {
        // Discard the connection: whatever session state `work` left (locks, an open
        // transaction) must not leak to the next user of the pool.
        client.release(error as Error);
        throw error;
      }
    },
    async close() {
      await listener?.stop();
      await pool.end();
    },
  };
}
