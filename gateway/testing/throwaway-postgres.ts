import { execFile } from 'node:child_process';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

// A PostgreSQL server of a test's own (initdb + pg_ctl in a temp dir, loopback only), for
// tests that stop and start the database under a running gateway — which they must never do
// to the shared DATABASE_URL server. As root, the server runs as the postgres user (initdb
// refuses root), as .ci/run does. availability() says why it cannot run here.

const run = promisify(execFile);

export interface ThrowawayPostgres {
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops the server and removes its directory. */
  destroy(): Promise<void>;
}

async function which(name: string): Promise<string | undefined> {
  try {
    return (await run('sh', ['-c', `command -v ${name}`])).stdout.trim() || undefined;
  } catch {
    return undefined;
  }
}

/** undefined when a throwaway server can start here, else the reason it cannot. */
export async function throwawayPostgresUnavailable(): Promise<string | undefined> {
  if ((await which('initdb')) === undefined || (await which('pg_ctl')) === undefined)
    return 'initdb/pg_ctl not on PATH';
  if (process.getuid?.() === 0) {
    try {
      await run('id', ['postgres']);
    } catch {
      return 'running as root without a postgres user';
    }
  }
  return undefined;
}

/**
 * A free loopback port below the kernel's ephemeral range, for servers that cannot take port 0
 * and report back (PostgreSQL, HAProxy).
 */
export async function freePort(): Promise<number> {
  for (let i = 0; i < 200; i++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const free = await new Promise<boolean>((resolve) => {
      const s = createServer();
      s.once('error', () => resolve(false));
      s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error('no free port for PostgreSQL');
}

export async function startThrowawayPostgres(): Promise<ThrowawayPostgres> {
  const asRoot = process.getuid?.() === 0;
  const sh = async (command: string) => {
    if (asRoot) await run('su', ['postgres', '-s', '/bin/sh', '-c', command]);
    else await run('sh', ['-c', command]);
  };
  const port = await freePort();
  const dir = await mkdtemp(join(tmpdir(), 'fgw-pg-'));
  const data = join(dir, 'data');
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=50`;
  const start = () => sh(`pg_ctl -D '${data}' -l '${dir}/server.log' -w -o "${options}" start > /dev/null`);
  const stop = () => sh(`pg_ctl -D '${data}' -m fast -w stop > /dev/null`);
  try {
    if (asRoot) {
      const { stdout } = await run('id', ['-u', 'postgres']);
      const uid = Number(stdout.trim());
      await chown(dir, uid, Number((await run('id', ['-g', 'postgres'])).stdout.trim()));
    }
    await sh(`initdb -D '${data}' -U postgres --auth=trust -E UTF8 > '${dir}/initdb.log' 2>&1`);
    await start();
  } catch (error) {
    // A start that failed half-way (initdb, pg_ctl) leaves neither a server nor its directory.
    await stop().catch(() => {});
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  let destroyed = false;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop,
    async destroy() {
      if (destroyed) return;
      destroyed = true;
      await stop().catch(() => {});
      await rm(dir, { recursive: true, force: true });
    },
  };
}
