// The "directory rows changed" signal every gateway process sharing one database listens
// for, so a revoked key or a new user is seen everywhere at once instead of after the
// directory cache's TTL. It is a PostgreSQL NOTIFY on both backends: sent inside the writing
// transaction, PostgreSQL delivers it only when that transaction commits (never on rollback).
import type { Queryable } from './store';

export const DIRECTORY_CHANNEL = 'gateway_directory_changed';

/** Queues the signal on `target`: a transaction (sent at its commit) or the store (sent now). */
export async function sendDirectoryChanged(target: Queryable): Promise<void> {
  await target.query('SELECT pg_notify($1, $2)', [DIRECTORY_CHANNEL, '']);
}

/** A set of listeners, each called on its own so one that throws cannot starve the rest. */
export class DirectoryListeners {
  private readonly listeners = new Set<() => void>();

  get size(): number {
    return this.listeners.size;
  }

  add(listener: () => void): () => void {
    // Wrapped, so subscribing one function twice gives two independent subscriptions.
    const entry = () => listener();
    this.listeners.add(entry);
    return () => {
      this.listeners.delete(entry);
    };
  }

  fire(): void {
    for (const listener of [...this.listeners]) {
      try {
        listener();
      } catch {
        // A listener's failure is its own; the signal still reaches the others.
      }
    }
  }
}
