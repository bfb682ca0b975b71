// A Store that forwards to another and counts the statements sent, inside transactions
// too. Tests use it to prove a cache answered without touching the store; it can also
// report query volume in benchmarks.
import type { Queryable, QueryResult, Store } from '../store/store';

export interface CountingStore extends Store {
  /** Statements sent since creation or the last reset(). */
  readonly count: number;
  /** The SQL of those statements, in order. */
  readonly statements: readonly string[];
  reset(): void;
}

export function countingStore(inner: Store): CountingStore {
  const statements: string[] = [];
  const counted = (target: Queryable): Queryable => ({
    query<Row>(sql: string, params?: unknown[]): Promise<QueryResult<Row>> {
      statements.push(sql);
      return target.query<Row>(sql, params);
    },
  });
  const direct = counted(inner);
  return {
    kind: inner.kind,
    query: direct.query,
    transaction: (work) => inner.transaction((tx) => work(counted(tx))),
    close: () => inner.close(),
    notifyDirectoryChanged: inner.notifyDirectoryChanged && ((tx) => inner.notifyDirectoryChanged!(tx ?? direct)),
    onDirectoryChanged: inner.onDirectoryChanged && ((listener) => inner.onDirectoryChanged!(listener)),
    directoryChangesListening: inner.directoryChangesListening && (() => inner.directoryChangesListening!()),
    get count() {
      return statements.length;
    },
    get statements() {
      return statements;
    },
    reset() {
      statements.length = 0;
    },
  };
}
