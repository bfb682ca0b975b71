// The gateway's store: PostgreSQL SQL everywhere. PGlite (embedded, WASM) by default,
// a PostgreSQL server through `pg` when DATABASE_URL is set. Same migrations for both.
// This file holds the interface; the implementations live beside it.

export interface QueryResult<Row> {
  rows: Row[];
  /** Rows changed by INSERT/UPDATE/DELETE. */
  affectedRows: number;
}

/** Anything SQL can be sent to: the store itself, or a transaction in progress. */
export interface Queryable {
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<QueryResult<Row>>;
}

export interface Store extends Queryable {
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  /** 'pglite' or 'postgres', for logs and tests. */
  readonly kind: 'pglite' | 'postgres';
  close(): Promise<void>;
  /**
   * Tells every process using this database that directory rows (keys, clients, users,
   * members, …) changed. Pass the writing transaction: the signal is sent only if it
   * commits. Optional: a store without it leaves other processes to their cache TTL.
   */
  notifyDirectoryChanged?(tx?: Queryable): Promise<void>;
  /**
   * Calls `listener` after each such change, from any process — and whenever signals may
   * have been missed (the listening connection was (re)established). Returns unsubscribe.
   */
  onDirectoryChanged?(listener: () => void): () => void;
  /**
   * Settles once change signals are being received for the subscribers so far: the first
   * (re)connection's catch-up call has been made. Tests wait for it, so that call cannot drop
   * a cache in the middle of a case.
   */
  directoryChangesListening?(): Promise<void>;
}

export interface StoreOptions {
  /** postgres://… selects a PostgreSQL server; otherwise PGlite. */
  databaseUrl?: string;
  /** PGlite data directory; 'memory' (or undefined) for an in-memory database. */
  dataDir?: string;
}
