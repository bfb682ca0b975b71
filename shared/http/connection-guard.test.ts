import { afterEach, describe, expect, it } from 'vitest';
import { connect, type Socket } from 'node:net';
import { listen, type Listening } from './listen';

// Which connection a newcomer at the cap closes: the oldest doing no work (idle keep-alive or
// headers still coming), then the oldest whose body is still coming; when every connection has
// a request being answered, the newcomer itself. A server with a cap of 3, in process.

let served: Listening | undefined;
let release: () => void = () => {};
let gate = Promise.resolve();
/** Requests waiting in /hold. */
let holding = 0;
afterEach(async () => {
  release();
  await served?.close();
});

async function start(): Promise<Listening> {
  gate = new Promise<void>((resolve) => (release = resolve));
  holding = 0;
  served = await listen(
    async (request) => {
      const path = new URL(request.url).pathname;
      if (path === '/hold') {
        holding++;
        await gate;
      }
      if (request.method === 'POST') await request.arrayBuffer();
      return new Response('ok');
    },
    { connections: { maxConnections: 3 } },
  );
  return served;
}

interface Client {
  socket: Socket;
  closed: boolean;
  received: string;
}

async function client(port: number, send?: string): Promise<Client> {
  const socket = connect(port, '127.0.0.1');
  const c: Client = { socket, closed: false, received: '' };
  socket.on('data', (data) => (c.received += data.toString('latin1')));
  socket.on('error', () => {});
  socket.on('close', () => (c.closed = true));
  await new Promise((resolve) => socket.once('connect', resolve));
  if (send !== undefined) socket.write(send);
  return c;
}

async function until(condition: () => boolean, deadlineMs = 5_000): Promise<void> {
  const deadline = performance.now() + deadlineMs;
  while (!condition() && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
}

const GET = (path: string) => `GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`;

describe('connection guard', () => {
  it('at the cap closes the oldest idle or headers-pending connection first, then one whose body is still coming', async () => {
    const { port, connections } = await start();
    const uploading = await client(port, 'POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n12345');
    const silent = await client(port);
    const keptAlive = await client(port, GET('/'));
    await until(() => keptAlive.received.includes('ok'));
    expect(connections.open).toBe(3);

    const second = await client(port);
    await until(() => silent.closed);
    expect([silent.closed, uploading.closed, keptAlive.closed]).toEqual([true, false, false]);

    const third = await client(port);
    await until(() => keptAlive.closed);
    expect([uploading.closed, keptAlive.closed, second.closed]).toEqual([false, true, false]);

    // Now only the newcomers are idle: the oldest of them goes, and the upload still stands.
    const fourth = await client(port);
    await until(() => second.closed);
    expect([uploading.closed, second.closed, third.closed, fourth.closed]).toEqual([false, true, false, false]);
    expect(connections.shed).toBe(3);
    for (const c of [uploading, third, fourth]) c.socket.destroy();
  });

  it('closes the oldest unfinished body before refusing, and refuses the newcomer when all are being answered', async () => {
    const { port, connections } = await start();
    const uploading = await client(port, 'POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n12345');
    const busy = [await client(port, GET('/hold')), await client(port, GET('/hold'))];
    await until(() => holding === 2);
    const newcomer = await client(port);
    await until(() => uploading.closed);
    expect([uploading.closed, newcomer.closed]).toEqual([true, false]);

    // The newcomer starts a request too: nothing left to close but the next newcomer.
    newcomer.socket.write(GET('/hold'));
    await until(() => holding === 3);
    const refused = await client(port);
    await until(() => refused.closed);
    expect(refused.closed).toBe(true);
    expect(connections.shed).toBe(2);
    expect(busy.some((c) => c.closed) || newcomer.closed).toBe(false);
    release();
    await until(() => busy.every((c) => c.received.includes('ok')));
    expect(busy.every((c) => c.received.includes('ok'))).toBe(true);
    for (const c of [...busy, newcomer]) c.socket.destroy();
  });
});
