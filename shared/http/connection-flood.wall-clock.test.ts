import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { PACKAGE_ROOT } from '../package-root';

// A connection flood against a server started through listen(), from outside: a child process
// under `ulimit -n 256` (so the flood reaches its descriptor limit with a few hundred
// connections, as a real flood's 20,000 did at 20,000) serving GET /health. Flood connections
// send a header byte a second and never finish; when one is closed the flood opens another.
// Before listen() capped connections, the child ran out of descriptors and a new client got
// a reset until the flood let go.

const LIMIT = 256;

interface Child {
  url: URL;
  process: ChildProcess;
}
const children: ChildProcess[] = [];

async function startHealthServer(env: Record<string, string>): Promise<Child> {
  const node = JSON.stringify(process.execPath);
  const child = spawn('sh', ['-c', `ulimit -n ${LIMIT} && exec ${node} --import tsx shared/testing/health-server.ts`], {
    cwd: PACKAGE_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (\S+)/.exec(output);
      if (match !== null) resolve(match[1]);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`health server exited (code ${code}):\n${output}`)));
  });
  return { url: new URL(url), process: child };
}

afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
});

/**
 * Connections that never finish their request, a byte a second: headers (the default) or, with
 * `body`, a body after complete headers. Each one closed is replaced.
 */
function flood(url: URL, size: number, options: { body?: boolean } = {}) {
  const open = new Set<Socket>();
  let stopped = false;
  let opened = 0;
  let closedByServer = 0;
  const answers: string[] = [];
  const ticker = setInterval(() => {
    for (const socket of open) socket.write('x');
  }, 1_000);
  function openOne(): void {
    if (stopped) return;
    const socket = connect(Number(url.port), url.hostname);
    socket.setNoDelay(true);
    socket.on('connect', () => {
      opened++;
      open.add(socket);
      socket.write(
        options.body === true
          ? `POST /upload HTTP/1.1\r\nHost: ${url.host}\r\nContent-Length: 1000\r\n\r\n`
          : `GET /health HTTP/1.1\r\nHost: ${url.host}\r\nX-Slow: `,
      );
    });
    socket.on('data', (data) => answers.push(data.toString('latin1').split('\r\n')[0]));
    socket.on('error', () => {});
    socket.on('close', () => {
      if (open.delete(socket)) closedByServer++;
      setImmediate(openOne);
    });
  }
  for (let i = 0; i < size; i++) openOne();
  return {
    get open() {
      return open.size;
    },
    get opened() {
      return opened;
    },
    get closedByServer() {
      return closedByServer;
    },
    answers,
    stop() {
      stopped = true;
      clearInterval(ticker);
      for (const socket of open) socket.destroy();
    },
  };
}

interface Health {
  status: string;
  open: number;
  cap: number;
  shed: number;
}

/** A new client's GET /health on a connection of its own. */
function health(url: URL, timeoutMs: number): Promise<{ status: number; body: Health; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(new URL('/health', url), { agent: false, timeout: timeoutMs }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () =>
        resolve({ status: res.statusCode!, body: JSON.parse(text) as Health, ms: performance.now() - started }),
      );
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end();
  });
}

async function until(condition: () => boolean, deadlineMs: number): Promise<void> {
  const deadline = performance.now() + deadlineMs;
  while (!condition() && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
}

/** One child with short timeouts for both slow-client cases: a process start costs seconds under load. */
let shortTimeouts: Promise<Child> | undefined;
const shortTimeoutServer = () =>
  (shortTimeouts ??= startHealthServer({ HTTP_HEADERS_TIMEOUT_MS: '1000', HTTP_REQUEST_TIMEOUT_MS: '2000' }));

let stopFlood: (() => void) | undefined;
afterEach(() => stopFlood?.());

describe('a connection flood', () => {
  it('beyond the descriptor limit, a new client is still served /health while the flood is held', async () => {
    // Timeouts long enough that only the connection cap can save the new client.
    const child = await startHealthServer({ HTTP_HEADERS_TIMEOUT_MS: '60000', HTTP_REQUEST_TIMEOUT_MS: '60000' });
    const f = flood(child.url, LIMIT + 150);
    stopFlood = f.stop;
    // The flood has connected more often than the child has descriptors.
    await until(() => f.opened >= LIMIT + 150, 15_000);
    expect(f.opened).toBeGreaterThanOrEqual(LIMIT + 150);

    const served = await health(child.url, 20_000);
    expect(served.status).toBe(200);
    // The cap leaves a quarter of the descriptors (at least 64) for the process's own work.
    expect(served.body.cap).toBe(LIMIT - 64);
    expect(served.body.open).toBeLessThanOrEqual(served.body.cap);
    expect(served.body.shed).toBeGreaterThan(0);
    // Still held: the flood keeps about the cap's worth of connections open.
    expect(f.open).toBeGreaterThan(served.body.cap / 2);
    console.info(
      `/health beside a flood of ${f.open} open connections: ${served.ms.toFixed(0)} ms; ${served.body.shed} shed so far`,
    );
    expect(child.process.exitCode).toBeNull();
  });

  it('slow headers are answered 408 and closed after HTTP_HEADERS_TIMEOUT_MS, not minutes', async () => {
    const child = await shortTimeoutServer();
    const f = flood(child.url, 20);
    stopFlood = f.stop;
    await until(() => f.opened >= 20, 10_000);
    const started = performance.now();
    await until(() => f.closedByServer >= 20, 10_000);
    const ms = performance.now() - started;
    expect(f.closedByServer).toBeGreaterThanOrEqual(20);
    expect(ms).toBeLessThan(5_000);
    expect(f.answers.length).toBeGreaterThan(0);
    expect(new Set(f.answers)).toEqual(new Set(['HTTP/1.1 408 Request Timeout']));
    expect((await health(child.url, 10_000)).status).toBe(200);
  });

  it('slow bodies are answered 408 and closed after HTTP_REQUEST_TIMEOUT_MS', async () => {
    const child = await shortTimeoutServer();
    const f = flood(child.url, 20, { body: true });
    stopFlood = f.stop;
    await until(() => f.opened >= 20, 10_000);
    const started = performance.now();
    await until(() => f.closedByServer >= 20, 10_000);
    expect(f.closedByServer).toBeGreaterThanOrEqual(20);
    expect(performance.now() - started).toBeLessThan(6_000);
    expect(new Set(f.answers)).toEqual(new Set(['HTTP/1.1 408 Request Timeout']));
  });
});
