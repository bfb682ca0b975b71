import { request } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { listen, type Listening } from './listen';

// A draining server closes each kept-alive connection after its answer (Connection: close), so
// a balancer's next request opens a connection elsewhere; before draining it keeps them.

const servers: Listening[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));

const get = (url: string, agent: import('node:http').Agent) =>
  new Promise<{ connection: string | undefined; reused: boolean }>((resolve, reject) => {
    const req = request(url, { agent }, (response) => {
      response.resume();
      response.on('end', () => resolve({ connection: response.headers.connection, reused: req.reusedSocket }));
    });
    req.on('error', reject);
    req.end();
  });

describe('listen while draining', () => {
  it('answers Connection: close once draining, keep-alive before', async () => {
    let draining = false;
    const server = await listen(() => new Response('{}'), { draining: () => draining });
    servers.push(server);
    const { Agent } = await import('node:http');
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    expect(await get(server.url, agent)).toEqual({ connection: 'keep-alive', reused: false });
    expect(await get(server.url, agent)).toEqual({ connection: 'keep-alive', reused: true });
    draining = true;
    expect(await get(server.url, agent)).toEqual({ connection: 'close', reused: true });
    // The server closed that connection: the next request needs a new one.
    expect(await get(server.url, agent)).toEqual({ connection: 'close', reused: false });
    agent.destroy();
  });
});
