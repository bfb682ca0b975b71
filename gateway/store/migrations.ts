// Versioned SQL migrations: gateway/store/migrations/NNN_name.sql, applied in filename order
// at start, each in its own transaction, recorded in schema_migrations. Any file added to
// the folder is picked up. A session-level advisory lock serialises concurrent starters
// (two gateway processes against one PostgreSQL): the second waits, then finds nothing to do.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { packagePath } from '../../shared/package-root';
import type { SqlSession } from './sql-session';

export const MIGRATIONS_DIR = packagePath('gateway', 'store', 'migrations');

// Arbitrary constant naming "the gateway's migrations" among advisory locks.
const MIGRATION_LOCK_KEY = 72_410_001;

const FILE_NAME = /^(\d{3})_([a-z0-9_]+)\.sql$/;

export interface Migration {
  version: string;
  name: string;
  file: string;
  sql: string;
}

export class MigrationError extends Error {
  override name = 'MigrationError';
}

export async function loadMigrations(dir: string = MIGRATIONS_DIR): Promise<Migration[]> {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.sql')).sort();
  const migrations: Migration[] = [];
  const seen = new Map<string, string>();
  for (const file of files) {
    const match = FILE_NAME.exec(file);
    if (!match) throw new MigrationError(`migration file ${file} must be named NNN_name.sql (e.g. 005_parts.sql)`);
    const [, version, name] = match;
    const clash = seen.get(version);
    if (clash) throw new MigrationError(`migrations ${clash} and ${file} share version ${version}`);
    seen.set(version, file);
    migrations.push({ version, name, file, sql: await readFile(join(dir, file), 'utf8') });
  }
  return migrations;
}

/** Applies the migrations not yet recorded; returns the versions it applied. */
export async function runMigrations(session: SqlSession, dir: string = MIGRATIONS_DIR): Promise<string[]> {
  const migrations = await loadMigrations(dir);
  await session.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
  try {
    await session.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version     text PRIMARY KEY,
      name        text NOT NULL,
      applied_at  timestamptz NOT NULL DEFAULT now()
    )`);
    const { rows } = await session.query<{ version: string }>('SELECT version FROM schema_migrations');
    const applied = new Set(rows.map((r) => r.version));
    const done: string[] = [];
    for (const migration of migrations) {
      if (applied.has(migration.version)) continue;
      await session.exec('BEGIN');
      try {
        await session.exec(migration.sql);
        await session.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
          migration.version,
          migration.name,
        ]);
        await session.exec('COMMIT');
      } catch (error) {
        await session.exec('ROLLBACK').catch(() => {});
        throw new MigrationError(`migration ${migration.file} failed: ${(error as Error).message}`, { cause: error });
      }
      done.push(migration.version);
    }
    return done;
  } finally {
    await session.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => {});
  }
}
