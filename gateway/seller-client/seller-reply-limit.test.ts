import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createSellerClient } from './seller-client';
import type { SellerCall } from './seller-client.types';

// A seller's reply has a size limit (GATEWAY_MAX_SELLER_REPLY_BYTES): a declared length over
// it is refused before the body is read, a streamed one is cut off when the count passes it,
// and the connection is closed so the seller stops sending. A tiny local server streams
// 50 MB replies, as a hostile seller once did (51.5 MB, six at once: +714 MB RSS).

const MB = 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, 0x20);
const SMALL = JSON.stringify({ status_code: 2000, items: [] });

let server: Server;
let base: string;
/** Replies the server stopped sending because the client closed the connection. */
let cutOff = 0;

/** Writes `bytes` of blanks in 64 KB chunks, honouring backpressure, until done or the client goes. */
function stream(res: ServerResponse, bytes: number): void {
  let sent = 0;
  res.on('close', () => {
    if (!res.writableFinished) cutOff++;
  });
  const pump = () => {
    while (sent < bytes && !res.destroyed) {
      sent += CHUNK.length;
      if (!res.write(CHUNK)) return void res.once('drain', pump);
    }
    res.end();
  };
  pump();
}

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.url === '/small') return void res.writeHead(200, { 'content-type': 'application/json' }).end(SMALL);
      if (req.url === '/streamed') {
        // Chunked: no length declared, the client must count.
        res.writeHead(200, { 'content-type': 'application/json' });
        return stream(res, 50 * MB);
      }
      if (req.url === '/declared') {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': 50 * MB });
        return stream(res, 50 * MB);
      }
      res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const member = (path: string): SellerCall['member'] => ({
  id: 'M900',
  sellerUrl: `${base}${path}`,
  sellerAuth: { kind: 'none' },
  timeoutMs: 20_000,
});

/** A full collection (--expose-gc is not given to vitest's workers; V8 lets it be switched on here). */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

describe('seller reply size limit', () => {
  it('refuses a declared content-length over the limit before reading the body, naming member and limit', async () => {
    const client = createSellerClient({ maxReplyBytes: 1 * MB });
    const outcome = await client.call({ member: member('/declared'), body: {} });
    await client.close();
    expect(outcome).toMatchObject({ kind: 'too-large', status: 200, limitBytes: MB });
    if (outcome.kind === 'too-large')
      expect(outcome.message).toContain(
        `member M900 sent a reply of ${50 * MB} bytes (content-length), over the gateway's limit of ${MB} bytes`,
      );
  });

  it('cuts a streamed reply off at the limit and closes the connection', async () => {
    const client = createSellerClient({ maxReplyBytes: 1 * MB });
    const before = cutOff;
    const outcome = await client.call({ member: member('/streamed'), body: {} });
    expect(outcome.kind).toBe('too-large');
    if (outcome.kind === 'too-large') expect(outcome.message).toContain(`more than ${MB} bytes`);
    // The seller notices: it stops writing (poll: the close reaches it a moment later).
    const deadline = performance.now() + 5_000;
    while (cutOff === before && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(cutOff).toBe(before + 1);
    // The member's pool still works for the next call.
    expect((await client.call({ member: { ...member('/small') }, body: {} })).kind).toBe('reply');
    await client.close();
  });

  it('six concurrent 50 MB replies at the default limit leave memory within 100 MB of where it started', async () => {
    const client = createSellerClient();
    collectGarbage();
    const start = process.memoryUsage();
    // Sampled while the replies arrive: without the limit each would be held whole (300 MB).
    let peakRss = start.rss;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage.rss())), 5);
    const outcomes = await Promise.all(
      Array.from({ length: 6 }, () => client.call({ member: member('/streamed'), body: {} })),
    );
    clearInterval(sampler);
    expect(outcomes.map((o) => o.kind)).toEqual(Array(6).fill('too-large'));
    collectGarbage();
    const end = process.memoryUsage();
    const grown = {
      peakRss: (peakRss - start.rss) / MB,
      rss: (end.rss - start.rss) / MB,
      heap: (end.heapUsed - start.heapUsed) / MB,
    };
    console.info(
      `six 50 MB replies: peak rss +${grown.peakRss.toFixed(1)} MB, after: rss +${grown.rss.toFixed(1)} MB, heap +${grown.heap.toFixed(1)} MB`,
    );
    expect(grown.peakRss).toBeLessThan(100); // 6 × 8 MiB read at most, plus the local seller's own buffers
    expect(grown.rss).toBeLessThan(100);
    expect(grown.heap).toBeLessThan(100);
    await client.close();
  });

  it('passes a normal reply under the limit', async () => {
    const client = createSellerClient({ maxReplyBytes: SMALL.length });
    expect(await client.call({ member: member('/small'), body: {} })).toMatchObject({
      kind: 'reply',
      body: { status_code: 2000 },
    });
    await client.close();
  });
});
