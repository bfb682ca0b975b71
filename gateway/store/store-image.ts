// The embedded store's starting point: a PGlite data directory after initdb and the
// migrations, unseeded (no dev keys in it), as a gzipped tar. initdb inside WebAssembly takes
// seconds and leaves hundreds of MB of WASM memory that is never given back, so a long-lived
// process never runs it: it restores this image (plain file I/O) and then applies only the
// migrations newer than the image. The image to use, first that fits the installed PGlite:
//   1. the one shipped in the repository (gateway/store/image/), so a fresh clone starts fast;
//   2. one cached under var/cache/store-image/;
//   3. built by a child process (initdb + migrations, dump, exit), then cached as 2.
// Migrations are append-only, so an image older than the newest migration is still a valid
// start; only a different PGlite (its on-disk format) or shared_buffers needs a new image.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join, sep } from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync, gzipSync } from 'node:zlib';
import { PACKAGE_ROOT } from '../../shared/package-root';
import { runMigrations } from './migrations';
import { openPgliteStore, PGLITE_SHARED_BUFFERS } from './pglite-store';

export const SHIPPED_STORE_IMAGE = join(PACKAGE_ROOT, 'gateway', 'store', 'image', 'pglite-store-image.tar.gz');
export const STORE_IMAGE_CACHE_DIR = join(PACKAGE_ROOT, 'var', 'cache', 'store-image');
const BUILDER = join(PACKAGE_ROOT, 'gateway', 'store', 'build-store-image.ts');

/** What an image was made with; stored beside it as <image>.json. */
export interface StoreImageInfo {
  pglite: string;
  sharedBuffers: string;
  /** The migration versions applied in the image. */
  migrations: string[];
}

export const imageInfoPath = (image: string): string => image.replace(/\.tar\.gz$/, '.json');

let installedPglite: string | undefined;

export async function installedPgliteVersion(): Promise<string> {
  if (installedPglite === undefined) {
    // The package's exports hide package.json: find it from its entry point (…/pglite/dist/index.js).
    const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
    const root = entry.slice(0, entry.lastIndexOf(`${sep}dist${sep}`));
    installedPglite = (JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { version: string }).version;
  }
  return installedPglite;
}

/** True when an image with this info can start the installed PGlite. */
export async function imageFits(info: StoreImageInfo): Promise<boolean> {
  return info.pglite === (await installedPgliteVersion()) && info.sharedBuffers === PGLITE_SHARED_BUFFERS;
}

async function readImage(file: string): Promise<Uint8Array | undefined> {
  try {
    const info = JSON.parse(await readFile(imageInfoPath(file), 'utf8')) as StoreImageInfo;
    if (!(await imageFits(info))) return undefined;
    return gunzipSync(await readFile(file));
  } catch {
    return undefined; // absent, unreadable or damaged: the next source
  }
}

export async function cachedImagePath(): Promise<string> {
  return join(STORE_IMAGE_CACHE_DIR, `pglite-${await installedPgliteVersion()}-sb${PGLITE_SHARED_BUFFERS}.tar.gz`);
}

export interface LoadStoreImageOptions {
  /** Tests: other places to look (default: the shipped image, then the cache). */
  sources?: string[];
  /** Where a child-built image goes (default: the cache). */
  buildTo?: string;
}

/** The image's tar (uncompressed), from the first source that fits, else built by a child process. */
export async function loadStoreImage(options: LoadStoreImageOptions = {}): Promise<Uint8Array> {
  const buildTo = options.buildTo ?? (await cachedImagePath());
  for (const source of options.sources ?? [SHIPPED_STORE_IMAGE, buildTo]) {
    const image = await readImage(source);
    if (image) return image;
  }
  await buildStoreImageInChild(buildTo);
  const built = await readImage(buildTo);
  if (!built) throw new Error(`the store image built at ${buildTo} cannot be read back`);
  return built;
}

const run = promisify(execFile);

/** initdb + migrations in a process of its own, which exits and takes its WASM memory with it. */
export async function buildStoreImageInChild(file: string): Promise<void> {
  console.error('store: no prepared image for this PGlite; building one in a child process (initdb, once)');
  try {
    await run(process.execPath, ['--import', 'tsx', BUILDER, file], {
      cwd: PACKAGE_ROOT,
      timeout: 300_000,
      maxBuffer: 4 << 20,
    });
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim();
    throw new Error(`building the store image failed: ${stderr || (error as Error).message}`, { cause: error });
  }
}

/** Runs initdb and the migrations in this process and writes the image (and its info) atomically. */
export async function buildStoreImage(file: string): Promise<StoreImageInfo> {
  const store = await openPgliteStore();
  let tar: Uint8Array;
  let migrations: string[];
  try {
    migrations = await runMigrations(store.session);
    // Not seeded: a deployment with GATEWAY_SEED=false must not find the dev keys in it.
    // A checkpoint first, so opening the image replays (almost) no WAL.
    await store.session.exec('CHECKPOINT');
    tar = new Uint8Array(await (await store.dump()).arrayBuffer());
  } finally {
    await store.close();
  }
  const info: StoreImageInfo = {
    pglite: await installedPgliteVersion(),
    sharedBuffers: PGLITE_SHARED_BUFFERS,
    migrations,
  };
  await mkdir(join(file, '..'), { recursive: true });
  const suffix = `.${process.pid}.${randomBytes(4).toString('hex')}.partial`;
  // Info first, image last: a reader trusts an image only once both are in place.
  await writeFile(`${imageInfoPath(file)}${suffix}`, `${JSON.stringify(info, null, 2)}\n`);
  await writeFile(`${file}${suffix}`, gzipSync(tar, { level: 9 }));
  await rm(file, { force: true });
  await rename(`${imageInfoPath(file)}${suffix}`, imageInfoPath(file));
  await rename(`${file}${suffix}`, file);
  return info;
}
