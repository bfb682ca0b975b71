import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTemporaryDirectory } from '../../shared/testing/temporary-directory';
import { createStore } from './create-store';
import { openGatewayStore } from '../open-gateway-store';
import { prepareDataDir } from './data-dir-restore';
import { loadMigrations } from './migrations';
import {
  buildStoreImageInChild,
  imageFits,
  imageInfoPath,
  loadStoreImage,
  SHIPPED_STORE_IMAGE,
  type StoreImageInfo,
} from './store-image';
import { extractTar, TarArchiveError } from './tar-archive';
import type { Store } from './store';
import { createTestStore } from '../testing/test-store';

const dir = useTemporaryDirectory('fgw-store-image');
let image: Uint8Array;

beforeAll(async () => {
  image = await loadStoreImage();
});

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

describe('the shipped store image', () => {
  it('is made for the installed PGlite, and its migrations are a prefix of the current ones', async () => {
    const info = JSON.parse(await readFile(imageInfoPath(SHIPPED_STORE_IMAGE), 'utf8')) as StoreImageInfo;
    // A PGlite upgrade needs a new image: npx tsx gateway/store/build-store-image.ts --ship
    expect(await imageFits(info)).toBe(true);
    const current = (await loadMigrations()).map((m) => m.version);
    expect(current.slice(0, info.migrations.length)).toEqual(info.migrations);
    // Unseeded: no dev keys in a file every install starts from.
    expect(gunzipSync(await readFile(SHIPPED_STORE_IMAGE)).length).toBe(image.length);
  });
});

describe('a new data directory', () => {
  it('is restored from the image and opens migrated and seeded, with the rows a fresh initdb + seeding gives', async () => {
    const dataDir = join(dir.path, 'fresh');
    const store = await openGatewayStore({ GATEWAY_DATA_DIR: dataDir, DATABASE_URL: '' });
    try {
      const migrations = await store.query<{ version: string }>(
        'SELECT version FROM schema_migrations ORDER BY version',
      );
      expect(migrations.rows.map((r) => r.version)).toEqual((await loadMigrations()).map((m) => m.version));
      // The test store is built by a fresh initdb in memory, then migrated and seeded.
      const fresh = await createTestStore();
      try {
        for (const table of [
          'members',
          'locations',
          'accounts',
          'users',
          'user_locations',
          'api_clients',
          'api_keys',
        ]) {
          // Every column but the time a row was written.
          const rows = (s: Store) =>
            s
              .query(`SELECT to_jsonb(t) - 'created_at' - 'updated_at' AS row FROM ${table} t ORDER BY 1`)
              .then((r) => r.rows);
          const restored = await rows(store);
          expect(restored.length, table).toBeGreaterThan(0);
          expect(restored, table).toEqual(await rows(fresh));
        }
      } finally {
        await fresh.close();
      }
    } finally {
      await store.close();
    }
    // The directory appeared whole: no partial left beside it, and a reopen finds it as it is.
    expect((await readdir(dir.path)).filter((e) => e.includes('.partial-'))).toEqual([]);
    expect(await prepareDataDir(dataDir, { image: () => Promise.reject(new Error('must not be asked')) })).toBe(
      'existing',
    );
  });

  it('removes what an interrupted first start left and restores it again', async () => {
    const dataDir = join(dir.path, 'interrupted');
    // A start killed mid-restore: a partial directory of another pid, the data directory absent.
    const partial = `${dataDir}.partial-999999`;
    await extractTar(image.subarray(0, 4096 * 512), partial).catch(() => {});
    expect(await exists(partial)).toBe(true);
    const lines: string[] = [];
    expect(await prepareDataDir(dataDir, { image: async () => image, log: (l) => lines.push(l) })).toBe('restored');
    expect(await exists(partial)).toBe(false);
    expect(await exists(join(dataDir, 'PG_VERSION'))).toBe(true);
    expect(lines.join('\n')).toContain('interrupted first start');
  });

  it('moves a directory without PG_VERSION aside, never deleting it, and starts a fresh one', async () => {
    const dataDir = join(dir.path, 'half');
    await mkdir(join(dataDir, 'base'), { recursive: true });
    await writeFile(join(dataDir, 'base', 'precious'), 'keep me');
    const store = await createStore({ dataDir });
    try {
      expect((await store.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    } finally {
      await store.close();
    }
    const aside = (await readdir(dir.path)).filter((e) => e.startsWith('half.incomplete-'));
    expect(aside).toHaveLength(1);
    expect(await readFile(join(dir.path, aside[0], 'base', 'precious'), 'utf8')).toBe('keep me');
  });

  it('is never half-restored from a truncated image: the data directory does not appear', async () => {
    const dataDir = join(dir.path, 'truncated');
    await expect(
      prepareDataDir(dataDir, { image: async () => image.subarray(0, image.length - 10_000) }),
    ).rejects.toBeInstanceOf(TarArchiveError);
    expect(await exists(dataDir)).toBe(false);
  });
});

describe('an image built by a child process', () => {
  it('is written whole by a process that then exits, and a store opens from it', { timeout: 120_000 }, async () => {
    const file = join(dir.path, 'child', 'image.tar.gz');
    await buildStoreImageInChild(file);
    const info = JSON.parse(await readFile(imageInfoPath(file), 'utf8')) as StoreImageInfo;
    expect(await imageFits(info)).toBe(true);
    expect(info.migrations).toEqual((await loadMigrations()).map((m) => m.version));
    expect((await readdir(join(dir.path, 'child'))).filter((e) => e.endsWith('.partial'))).toEqual([]);
    const dataDir = join(dir.path, 'from-child');
    await prepareDataDir(dataDir, {
      image: () => loadStoreImage({ sources: [file], buildTo: join(dir.path, 'never-built.tar.gz') }),
    });
    const store = await createStore({ dataDir });
    try {
      expect((await store.query<{ n: number }>('SELECT count(*)::int AS n FROM schema_migrations')).rows[0].n).toBe(
        info.migrations.length,
      );
    } finally {
      await store.close();
    }
  });
});

describe('an image that does not fit the installed PGlite', () => {
  it('is passed over for the next source', async () => {
    const stale = join(dir.path, 'stale.tar.gz');
    await writeFile(stale, 'not even gzip');
    await writeFile(imageInfoPath(stale), JSON.stringify({ pglite: '0.0.1', sharedBuffers: '16MB', migrations: [] }));
    const loaded = await loadStoreImage({
      sources: [stale, SHIPPED_STORE_IMAGE],
      buildTo: join(dir.path, 'never-built.tar.gz'),
    });
    expect(loaded.length).toBe(image.length);
    expect(await exists(join(dir.path, 'never-built.tar.gz'))).toBe(false);
  });
});

describe('tar entries', () => {
  it('refuses an entry that would land outside the directory', async () => {
    const header = new Uint8Array(512 * 3);
    header.set(new TextEncoder().encode('../escape'), 0);
    header.set(new TextEncoder().encode('0000000'), 124);
    header[156] = 0x30;
    await expect(extractTar(header, join(dir.path, 'tar-escape'))).rejects.toThrow(/outside the directory/);
    expect(await exists(join(dir.path, 'escape'))).toBe(false);
  });
});
