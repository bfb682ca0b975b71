import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';

// Sellers that behave as real ones do under load, for the load mode's tests — written apart
// from the mock seller's own load model, so the verdicts are not proven only against the model
// they were built beside. Each stands in front of an honest seller (the mock seller) and adds
// one behaviour:
// - stalls: every `everyMs` it stops answering for `forMs` (a GC pause, a lock, a failover);
//   requests arriving meanwhile wait for the stall to end;
// - slows with concurrency: each reply takes baseMs + perInFlightMs × (the others in flight),
//   correct but slower as load grows, so it has a real knee in either model;
// - cross-talks above K: while more than K requests are in flight, an item inquiry's reply
//   takes its first item's id from another request in flight (one buyer's part in another's
//   reply) — correct alone, wrong only beside other requests.

export type SellerBehaviour =
  | { kind: 'stalls'; everyMs: number; forMs: number }
  | { kind: 'slows-with-concurrency'; baseMs: number; perInFlightMs: number }
  | { kind: 'cross-talks'; above: number; delayMs: number };

export interface RealisticSeller {
  /** The seller endpoint (POST); the provider-state endpoint is the upstream's. */
  url: string;
  /** The most requests in flight at once, as the seller saw them. */
  peakInFlight(): number;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function readBody(incoming: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

interface Talk {
  request: { service?: string; items?: { id?: string }[] };
}

/** `upstream`: an honest seller's endpoint (e.g. the mock seller's …/seller). */
export async function startRealisticSeller(upstream: string, behaviour: SellerBehaviour): Promise<RealisticSeller> {
  const started = performance.now();
  const inFlight = new Set<Talk>();
  let peak = 0;

  /** How long this request waits before it is answered, by the behaviour. */
  const delay = (): number => {
    switch (behaviour.kind) {
      case 'stalls': {
        // The stall closes each period: [every − for, every).
        const phase = (performance.now() - started) % behaviour.everyMs;
        return phase >= behaviour.everyMs - behaviour.forMs ? behaviour.everyMs - phase : 0;
      }
      case 'slows-with-concurrency':
        return behaviour.baseMs + behaviour.perInFlightMs * (inFlight.size - 1);
      case 'cross-talks':
        return behaviour.delayMs;
    }
  };

  const crossTalk = (talk: Talk, reply: { items?: { id?: string }[] }) => {
    if (behaviour.kind !== 'cross-talks' || inFlight.size <= behaviour.above || talk.request.service !== 'item_inquiry')
      return;
    const own = new Set((talk.request.items ?? []).map((i) => i.id));
    for (const other of inFlight) {
      const stranger = other.request.items?.find((i) => i.id !== undefined && !own.has(i.id))?.id;
      if (other === talk || stranger === undefined || reply.items?.[0] === undefined) continue;
      reply.items[0].id = stranger;
      return;
    }
  };

  const handle = async (incoming: IncomingMessage, response: ServerResponse) => {
    const body = await readBody(incoming);
    let talk: Talk;
    try {
      talk = { request: JSON.parse(body.toString('utf8')) as Talk['request'] };
    } catch {
      talk = { request: {} };
    }
    inFlight.add(talk);
    peak = Math.max(peak, inFlight.size);
    try {
      const wait = delay();
      if (wait > 0) await sleep(wait);
      const answer = await request(upstream, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      const text = await answer.body.text();
      let out = text;
      if (behaviour.kind === 'cross-talks' && answer.statusCode === 200) {
        const reply = JSON.parse(text) as { items?: { id?: string }[] };
        crossTalk(talk, reply);
        out = JSON.stringify(reply);
      }
      response.writeHead(answer.statusCode, { 'content-type': 'application/json' }).end(out);
    } catch (error) {
      response
        .writeHead(502, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: (error as Error).message }));
    } finally {
      inFlight.delete(talk);
    }
  };

  const server = createServer((incoming, response) => void handle(incoming, response));
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/seller`,
    peakInFlight: () => peak,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
