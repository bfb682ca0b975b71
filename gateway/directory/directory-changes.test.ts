// Directory writes reach every directory on the same database at once, through the store's
// change signal, not after the cache TTL (set to 60 s here, far beyond any wait below).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Store } from '../store/store';
import { availableTestBackends, createTestStore } from '../testing/test-store';
import { createStore } from '../store/create-store';
import { seedDirectory } from './directory-seed';
import { createDirectory } from './create-directory';
import { registerKey, revokeKey } from './api-keys';
import { memberWriter } from './members';

const TTL_MS = 60_000;
const POLL_LIMIT_MS = 2_000;

/** Polls `check` every 20 ms until it holds; returns the ms it took, or fails past the limit. */
async function msUntil(check: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > POLL_LIMIT_MS) throw new Error(`not seen within ${POLL_LIMIT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return Date.now() - started;
}

function es256PublicKey(): string {
  return generateKeyPairSync('ec', { namedCurve: 'P-256' })
    .publicKey.export({ type: 'spki', format: 'pem' })
    .toString();
}

/** Two stores ("gateway instances") on one database, plus how to let go of them. */
interface Pair {
  writer: Store;
  reader: Store;
  close(): Promise<void>;
}

async function openPair(backend: 'pglite' | 'postgres'): Promise<Pair> {
  if (backend === 'pglite') {
    // PGlite is one process's database: both roles share the store.
    const store = await createTestStore({ backend });
    return { writer: store, reader: store, close: () => store.close() };
  }
  const adminUrl = process.env.DATABASE_URL!.trim();
  const name = `gw_test_changes_${randomBytes(5).toString('hex')}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const writer = await createStore({ databaseUrl: url.toString() });
  await seedDirectory(writer);
  const reader = await createStore({ databaseUrl: url.toString() });
  return {
    writer,
    reader,
    async close() {
      await reader.close();
      await writer.close();
      await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

describe.each(availableTestBackends())('directory change signals on %s', (backend) => {
  let pair: Pair;
  beforeAll(async () => {
    pair = await openPair(backend);
  });
  afterAll(async () => {
    await pair?.close();
  });

  /** Subscribes to the reader store and waits until its listening is in place. */
  async function listening(): Promise<{ signals: () => number; stop: () => void }> {
    let count = 0;
    const stop = pair.reader.onDirectoryChanged!(() => count++);
    // PostgreSQL signals once its LISTEN connection is up (signals before it may have been
    // missed), started by the first subscription; PGlite listens from its opening. A probe
    // signal covers both, and later subscriptions that find the connection in place.
    await pair.writer.notifyDirectoryChanged!();
    await msUntil(async () => count > 0);
    return { signals: () => count, stop };
  }

  it('offers the change-signal capability', () => {
    expect(typeof pair.writer.notifyDirectoryChanged).toBe('function');
    expect(typeof pair.reader.onDirectoryChanged).toBe('function');
  });

  it('settles directoryChangesListening once the first LISTEN has made its catch-up call (PostgreSQL; PGlite listens from its opening)', async () => {
    let count = 0;
    const stop = pair.reader.onDirectoryChanged!(() => count++);
    await pair.reader.directoryChangesListening?.();
    // No NOTIFY was sent: on PostgreSQL the one call is the first connection's catch-up.
    expect(count).toBe(backend === 'postgres' ? 1 : 0);
    stop();
  });

  it('stops serving a key revoked through another directory well before the TTL', async () => {
    const ready = await listening();
    const elsewhere = createDirectory(pair.reader, { ttlMs: TTL_MS });
    expect((await elsewhere.findKey('dev-key-2'))?.active).toBe(true);
    // Revoked through the writer, with its own directory: the reader's is not told directly.
    await revokeKey(pair.writer, 'dev-key-2', createDirectory(pair.writer, { ttlMs: TTL_MS }));
    const ms = await msUntil(async () => (await elsewhere.findKey('dev-key-2'))?.active === false);
    expect(ms).toBeLessThan(TTL_MS / 30);
    elsewhere.close();
    ready.stop();
  });

  it('serves a newly registered key that was cached as unknown', async () => {
    const ready = await listening();
    const elsewhere = createDirectory(pair.reader, { ttlMs: TTL_MS });
    const clientId = (await elsewhere.findKey('dev-key-1'))!.clientId;
    expect(await elsewhere.findKey('fresh-kid')).toBeUndefined();
    await registerKey(pair.writer, { clientId, kid: 'fresh-kid', publicKeyPem: es256PublicKey(), algorithm: 'ES256' });
    await msUntil(async () => (await elsewhere.findKey('fresh-kid'))?.active === true);
    elsewhere.close();
    ready.stop();
  });

  it('stops serving a member suspended through another directory, and serves it once it is live again', async () => {
    const ready = await listening();
    const elsewhere = createDirectory(pair.reader, { ttlMs: TTL_MS });
    expect((await elsewhere.findMember('M100'))?.status).toBe('live');
    const writer = memberWriter({ store: pair.writer, directory: createDirectory(pair.writer, { ttlMs: TTL_MS }) });
    await writer.suspend('M100', { reason: 'seen elsewhere at once' }, 'test');
    const ms = await msUntil(async () => (await elsewhere.findMember('M100'))?.status === 'suspended');
    expect(ms).toBeLessThan(TTL_MS / 30);
    await writer.addLocation('M100', { id: 'L199', description: 'New yard', type: 2 }, 'test');
    await msUntil(async () => (await elsewhere.findLocation('L199'))?.memberId === 'M100');
    await pair.writer.query("UPDATE members SET status = 'live' WHERE id = 'M100'");
    await pair.writer.notifyDirectoryChanged!();
    await msUntil(async () => (await elsewhere.findMember('M100'))?.status === 'live');
    elsewhere.close();
    ready.stop();
  });

  it('sends nothing for a transaction that rolls back, and signals its commit', async () => {
    const ready = await listening();
    // The commit also changes a row this directory has cached: once it shows the change, the
    // commit's signal has come, and so has any sent before it (the rolled-back one's, had it leaked).
    const watching = createDirectory(pair.reader, { ttlMs: TTL_MS });
    expect((await watching.findAccount('M200', 'A-2001'))?.standing).toBe('good');
    const before = ready.signals();
    await expect(
      pair.writer.transaction(async (tx) => {
        await pair.writer.notifyDirectoryChanged!(tx);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    await pair.writer.transaction(async (tx) => {
      await tx.query("UPDATE accounts SET standing = 'on_hold' WHERE member_id = 'M200' AND account_id = 'A-2001'");
      await pair.writer.notifyDirectoryChanged!(tx);
    });
    await msUntil(async () => (await watching.findAccount('M200', 'A-2001'))?.standing === 'on_hold');
    expect(ready.signals()).toBe(before + 1);
    watching.close();
    ready.stop();
  });

  it('no longer invalidates a directory once it is closed', async () => {
    const ready = await listening();
    const closed = createDirectory(pair.reader, { ttlMs: TTL_MS });
    expect((await closed.findAccount('M100', 'A-1001'))?.standing).toBe('good');
    closed.close();
    const before = ready.signals();
    await pair.writer.transaction(async (tx) => {
      await tx.query("UPDATE accounts SET standing = 'on_hold' WHERE member_id = 'M100' AND account_id = 'A-1001'");
      await pair.writer.notifyDirectoryChanged!(tx);
    });
    await msUntil(async () => ready.signals() > before);
    const open = createDirectory(pair.reader, { ttlMs: TTL_MS });
    await msUntil(async () => (await open.findAccount('M100', 'A-1001'))?.standing === 'on_hold');
    // The closed directory still answers from its cache: it was not told.
    expect((await closed.findAccount('M100', 'A-1001'))?.standing).toBe('good');
    open.close();
    ready.stop();
  });
});

describe.skipIf(!process.env.DATABASE_URL?.trim())(
  'directory change signals on postgres, listening connection lost (needs DATABASE_URL)',
  () => {
    let pair: Pair;
    beforeAll(async () => {
      pair = await openPair('postgres');
    });
    afterAll(async () => {
      await pair?.close();
    });

    it('reconnects, invalidates on reconnecting (signals may have been missed), then hears signals again', async () => {
      let count = 0;
      const stop = pair.reader.onDirectoryChanged!(() => count++);
      await msUntil(async () => count === 1);
      const elsewhere = createDirectory(pair.reader, { ttlMs: TTL_MS });
      expect((await elsewhere.findKey('dev-key-2'))?.active).toBe(true);
      // Drop the listening session from the server side, then write while it is gone.
      const { rows } = await pair.writer.query<{ dropped: boolean }>(
        `SELECT pg_terminate_backend(pid) AS dropped FROM pg_stat_activity
        WHERE datname = current_database() AND query LIKE 'LISTEN%'`,
      );
      expect(rows).toEqual([{ dropped: true }]);
      await pair.writer.query("UPDATE api_keys SET active = false, revoked_at = now() WHERE kid = 'dev-key-2'");
      // No NOTIFY was sent for that write: only the reconnection's invalidation reveals it.
      await msUntil(async () => (await elsewhere.findKey('dev-key-2'))?.active === false);
      expect(count).toBeGreaterThanOrEqual(2);
      const afterReconnect = count;
      await revokeKey(pair.writer, 'dev-key-1');
      await msUntil(async () => count > afterReconnect);
      await msUntil(async () => (await elsewhere.findKey('dev-key-1'))?.active === false);
      elsewhere.close();
      stop();
    });
  },
);
