// One database connection as the migration runner and seeders see it: multi-statement
// scripts (`exec`) and parameterised statements (`query`) on the SAME session, so
// session-level advisory locks and BEGIN/COMMIT apply to what follows.
import type { Queryable } from './store';

export interface SqlSession extends Queryable {
  /** Runs a script of one or more statements without parameters. */
  exec(sql: string): Promise<void>;
}
