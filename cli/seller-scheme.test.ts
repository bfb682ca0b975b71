import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from './main';
import { runInProcess } from './testing/run-in-process';
import { otherSchemeUrl, protocolMismatch } from '../verification/seller-options';
import { selfSignedTls } from '../verification/testing/self-signed-tls';

// The start-up check as a vendor meets it (verify, explore, load, the rules proxy's upstream): a
// URL whose scheme is not what the seller's port speaks is exit 2 before anything runs, naming
// both sides and the URL to use instead.

const servers: Server[] = [];
let requests = 0;
const answer = (_: unknown, response: import('node:http').ServerResponse) => {
  requests++;
  response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
};
const listening = async (server: Server): Promise<number> => {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
};

let plainPort: number;
let tlsPort: number;
beforeAll(async () => {
  plainPort = await listening(createHttpServer(answer));
  tlsPort = await listening(createHttpsServer(selfSignedTls(), answer));
});
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
});

describe('a seller URL whose scheme its port does not speak', () => {
  it.each([
    ['verify', []],
    ['explore', ['--state-map', 'fixtures/state-maps/mock-seller-explore.json']],
    ['load', ['--state-map', 'fixtures/state-maps/mock-seller-explore.json']],
  ])('%s: https:// to plain HTTP is exit 2 naming both sides and the URL to use', async (command, extra) => {
    const url = `https://127.0.0.1:${plainPort}/seller`;
    const argv = [command, '--seller-url', url, ...extra];
    const before = requests;
    const run = await runInProcess(main, argv);
    expect(run.stderr).toContain(
      `${command}: https://127.0.0.1:${plainPort}/seller answers plain HTTP, not TLS: use http://127.0.0.1:${plainPort}/seller\n`,
    );
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    // The confirming HEAD is the only request: nothing of the contract was sent.
    expect(requests - before).toBeLessThanOrEqual(1);
  });

  it('http:// to a TLS server is exit 2 naming both sides and the URL to use', async () => {
    const url = `http://127.0.0.1:${tlsPort}/seller`;
    const before = requests;
    const run = await runInProcess(main, ['verify', '--seller-url', url]);
    expect(run.stderr).toContain(
      `verify: http://127.0.0.1:${tlsPort}/seller answers TLS, not plain HTTP: use https://127.0.0.1:${tlsPort}/seller\n`,
    );
    expect(run.code).toBe(2);
    expect(requests).toBe(before);
  });

  it('rules-proxy: an https:// upstream that speaks plain HTTP is exit 2 naming the --upstream to use', async () => {
    const before = requests;
    const run = await runInProcess(main, ['rules-proxy', '--upstream', `https://127.0.0.1:${plainPort}/seller`]);
    expect(run.stderr).toContain(
      `rules-proxy: https://127.0.0.1:${plainPort}/seller answers plain HTTP, not TLS: use --upstream http://127.0.0.1:${plainPort}/seller\n`,
    );
    expect(run.code).toBe(2);
    expect(requests - before).toBeLessThanOrEqual(1);
  });

  it('keeps the port when the scheme changes: https://h/x on 443 becomes http://h:443/x', () => {
    expect(otherSchemeUrl('https://seller.example/x?y=1')).toBe('http://seller.example:443/x?y=1');
    expect(otherSchemeUrl('http://seller.example/x')).toBe('https://seller.example:80/x');
    expect(otherSchemeUrl('http://127.0.0.1:8443/seller')).toBe('https://127.0.0.1:8443/seller');
  });

  it('an address that does not answer is still exit 2 saying what to do', async () => {
    const run = await runInProcess(main, ['verify', '--seller-url', 'http://127.0.0.1:1/seller']);
    expect(run.stderr).toContain(
      'verify: your system at http://127.0.0.1:1/seller cannot be reached: 127.0.0.1:1 cannot be reached (ECONNREFUSED). Start it, or check --seller-url.',
    );
    expect(run.code).toBe(2);
  });
});

describe('a plain server that never answers the TLS handshake', () => {
  it('is taken as plain HTTP after a short wait, and the run goes on', async () => {
    // A raw TCP server that reads and never writes: what a server waiting for a request line does.
    const silent = createTcpServer((socket) => socket.resume());
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/seller`;
      expect(await protocolMismatch(url)).toBeUndefined();
    } finally {
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
