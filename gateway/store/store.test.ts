import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFile, cp } from 'node:fs/promises';
import { join } from 'node:path';
import type { Store } from './store';
import { availableTestBackends, createTestStore } from '../testing/test-store';
import { loadMigrations, MIGRATIONS_DIR, runMigrations } from './migrations';
import { openPgliteStore } from './pglite-store';
import { openPostgresStore } from './postgres-store';
import { createStore } from './create-store';
import { isUniqueViolation } from './sql-errors';
import { DataDirInUseError } from './data-dir-lock';
import { temporaryDirectory } from '../../shared/testing/temporary-directory';

describe.each(availableTestBackends())('store on %s', (backend) => {
  let store: Store;
  beforeAll(async () => {
    store = await createTestStore({ backend });
  });
  afterAll(async () => {
    await store?.close();
  });

  it('reports its backend kind', () => {
    expect(store.kind).toBe(backend);
  });

  it('has applied and recorded every migration file', async () => {
    const files = await loadMigrations();
    const { rows } = await store.query<{ version: string; name: string }>(
      'SELECT version, name FROM schema_migrations ORDER BY version',
    );
    expect(rows).toEqual(files.map((m) => ({ version: m.version, name: m.name })));
    expect(rows[0]).toEqual({ version: '001', name: 'directory' });
  });

  it('commits a transaction whose work resolves', async () => {
    const count = await store.transaction(async (tx) => {
      await tx.query("INSERT INTO catalog_regions (id, name) VALUES ('CR-TX-OK', 'committed')");
      const { rows } = await tx.query<{ n: number }>("SELECT count(*) AS n FROM catalog_regions WHERE id = 'CR-TX-OK'");
      return rows[0].n;
    });
    expect(count).toBe(1);
    const { rows } = await store.query("SELECT id FROM catalog_regions WHERE id = 'CR-TX-OK'");
    expect(rows).toHaveLength(1);
  });

  it('rolls back every statement of a transaction whose work throws', async () => {
    await expect(
      store.transaction(async (tx) => {
        await tx.query("INSERT INTO catalog_regions (id, name) VALUES ('CR-TX-1', 'one')");
        await tx.query("INSERT INTO catalog_regions (id, name) VALUES ('CR-TX-2', 'two')");
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    const { rows } = await store.query("SELECT id FROM catalog_regions WHERE id LIKE 'CR-TX-_'");
    expect(rows).toEqual([]);
  });

  it('rolls back when a statement fails mid-transaction and stays usable', async () => {
    await expect(
      store.transaction(async (tx) => {
        await tx.query("INSERT INTO catalog_regions (id, name) VALUES ('CR-TX-3', 'three')");
        await tx.query("INSERT INTO catalog_regions (id, name) VALUES ('CR-TX-3', 'duplicate')");
      }),
    ).rejects.toSatisfy(isUniqueViolation);
    const { rows } = await store.query("SELECT id FROM catalog_regions WHERE id = 'CR-TX-3'");
    expect(rows).toEqual([]);
    const after = await store.query<{ one: number }>('SELECT 1 AS one');
    expect(after.rows).toEqual([{ one: 1 }]);
  });

  it('counts affected rows and returns the same JavaScript types on both backends', async () => {
    const update = await store.query("UPDATE accounts SET description = description WHERE member_id = 'M100'");
    expect(update.affectedRows).toBe(2);
    const { rows } = await store.query<{ n: unknown; b: unknown; t: unknown; i: unknown }>(
      'SELECT count(*) AS n, true AS b, now() AS t, 7::integer AS i',
    );
    expect(rows[0]).toEqual({ n: expect.any(Number), b: true, t: expect.any(Date), i: 7 });
  });

  it('enforces the directory constraints', async () => {
    const refused = async (sql: string, params: unknown[] = []) => {
      await expect(store.query(sql, params)).rejects.toMatchObject({ code: expect.stringMatching(/^23/) });
    };
    // bearer auth without its token
    await refused(
      "INSERT INTO members (id, name, seller_url, seller_auth_kind) VALUES ('MX', 'x', 'http://x/seller', 'bearer')",
    );
    // a location type outside 1/2
    await refused("INSERT INTO locations (id, member_id, description, type) VALUES ('LX', 'M100', 'x', 3)");
    // an account standing outside the list
    await refused(
      "INSERT INTO accounts (member_id, account_id, description, standing) VALUES ('M100', 'AX', 'x', 'vip')",
    );
    // an e-mail that differs from a seeded one only by case
    await refused(
      `INSERT INTO users (username, email, first_name, last_name, address, city, state, zip, employee_id,
         catalog_region_id, account_id, member_id)
       VALUES ('demo2', 'DEMO@demo-garage.example', 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'CR-NORTH', 'A-1001', 'M100')`,
    );
    // a user location whose account is held at another member than the location's
    await refused(
      `INSERT INTO user_locations (user_id, location_id, member_id, account_id, can_order, sort_order)
       SELECT id, 'L102', 'M100', 'A-2001', true, 9 FROM users WHERE username = 'demo'`,
    );
    // two locations with one sort_order for one user
    await refused(
      `INSERT INTO user_locations (user_id, location_id, member_id, account_id, can_order, sort_order)
       SELECT id, 'L102', 'M100', 'A-1001', true, 1 FROM users WHERE username = 'demo'`,
    );
    // a key algorithm outside RS256/ES256
    await refused(
      "INSERT INTO api_keys (kid, client_id, algorithm, public_key_pem) VALUES ('kx', 'dev-buyer-system', 'HS256', '-----BEGIN PUBLIC KEY-----')",
    );
    // revoked but still active
    await refused(
      "INSERT INTO api_keys (kid, client_id, algorithm, public_key_pem, revoked_at) VALUES ('ky', 'dev-buyer-system', 'RS256', '-----BEGIN PUBLIC KEY-----', now())",
    );
  });
});

describe('migrations', () => {
  it('apply on a fresh store and a second run applies nothing', async () => {
    const store = await createTestStore({ empty: true });
    try {
      const versions = (await loadMigrations()).map((m) => m.version);
      const { rows } = await store.query<{ version: string }>('SELECT version FROM schema_migrations ORDER BY version');
      expect(rows.map((r) => r.version)).toEqual(versions);
      const members = await store.query('SELECT * FROM members');
      expect(members.rows).toEqual([]);
      const pglite = await openPgliteStore();
      try {
        expect(await runMigrations(pglite.session)).toEqual(versions);
        expect(await runMigrations(pglite.session)).toEqual([]);
      } finally {
        await pglite.close();
      }
    } finally {
      await store.close();
    }
  });

  it('picks up a new migration file and records it, and rolls back a failing one', async () => {
    const dir = temporaryDirectory('gw-migrations');
    const store = await openPgliteStore();
    try {
      await cp(MIGRATIONS_DIR, dir, { recursive: true });
      await runMigrations(store.session, dir);
      await writeFile(join(dir, '900_extra.sql'), 'CREATE TABLE extra (id int PRIMARY KEY);');
      expect(await runMigrations(store.session, dir)).toEqual(['900']);
      await writeFile(join(dir, '901_broken.sql'), 'CREATE TABLE half (id int); SELECT no_such_function();');
      await expect(runMigrations(store.session, dir)).rejects.toThrow(/901_broken\.sql failed/);
      const half = await store.query("SELECT to_regclass('half') AS t");
      expect(half.rows).toEqual([{ t: null }]);
      const recorded = await store.query<{ version: string }>(
        "SELECT version FROM schema_migrations WHERE version >= '900'",
      );
      expect(recorded.rows.map((r) => r.version)).toEqual(['900']);
    } finally {
      await store.close();
    }
  });

  it('refuses a migration file not named NNN_name.sql', async () => {
    const dir = temporaryDirectory('gw-migrations');
    await writeFile(join(dir, 'add-stuff.sql'), 'SELECT 1;');
    await expect(loadMigrations(dir)).rejects.toThrow(/NNN_name\.sql/);
  });

  it.skipIf(!process.env.DATABASE_URL?.trim())(
    'two processes migrating one PostgreSQL at once apply each migration once (needs DATABASE_URL)',
    async () => {
      // A database with nothing applied yet.
      const name = `gw_test_race_${Date.now().toString(36)}`;
      const admin = await openPostgresStore({ databaseUrl: process.env.DATABASE_URL! });
      await admin.query(`CREATE DATABASE ${name}`);
      const url = new URL(process.env.DATABASE_URL!);
      url.pathname = `/${name}`;
      try {
        const [a, b] = await Promise.all([
          createStore({ databaseUrl: url.toString() }),
          createStore({ databaseUrl: url.toString() }),
        ]);
        const { rows } = await a.query<{ n: number }>('SELECT count(*) AS n FROM schema_migrations');
        expect(rows[0].n).toBe((await loadMigrations()).length);
        await Promise.all([a.close(), b.close()]);
      } finally {
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await admin.close();
      }
    },
  );
});

describe('persisted PGlite', () => {
  it('keeps data across reopening its data directory and refuses a second opener', async () => {
    const dir = temporaryDirectory('gw-pglite');
    const first = await createStore({ dataDir: join(dir, 'db') });
    await first.query("INSERT INTO catalog_regions (id, name) VALUES ('CR-KEEP', 'kept')");
    await expect(createStore({ dataDir: join(dir, 'db') })).rejects.toBeInstanceOf(DataDirInUseError);
    await first.close();
    const again = await createStore({ dataDir: join(dir, 'db') });
    const { rows } = await again.query("SELECT name FROM catalog_regions WHERE id = 'CR-KEEP'");
    expect(rows).toEqual([{ name: 'kept' }]);
    await again.close();
  });
});
