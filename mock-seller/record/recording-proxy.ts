import { Hono } from 'hono';
import { agentForDeadline } from '../../shared/http/deadline-agent';

// A pass-through in front of a real seller system: every POST goes to the upstream seller
// URL as it came (body and headers), every GET (the documents link_url points to) to the
// same path on the upstream's origin; the answer comes back as the seller sent it, and
// each POST is handed to `onExchange` for learning.

export interface RecordedExchange {
  requestText: string;
  /** null when the upstream sent no answer. */
  http_status: number | null;
  replyText: string;
  elapsed_ms: number;
  /** Why there was no answer. */
  error?: string;
}

export interface RecordingProxyOptions {
  /** The seller endpoint, e.g. http://seller.example:8080/seller. */
  upstream: string;
  onExchange(exchange: RecordedExchange): void;
  /** Per upstream call; default 30 s. */
  timeoutMs?: number;
}

// Hop-by-hop and framing headers are the proxy's own business on each side.
const NOT_FORWARDED = new Set([
  'host',
  'connection',
  'keep-alive',
  'content-length',
  'transfer-encoding',
  'accept-encoding',
  'upgrade',
  'proxy-connection',
  'te',
  'trailer',
]);

const forwardedHeaders = (headers: Headers) => {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    if (!NOT_FORWARDED.has(name)) out[name] = value;
  });
  return out;
};

const describe = (error: unknown) => {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
};

export function createRecordingProxy(options: RecordingProxyOptions): Hono {
  const upstream = new URL(options.upstream);
  const timeoutMs = options.timeoutMs ?? 30_000;
  const app = new Hono();

  app.post('*', async (c) => {
    const requestText = await c.req.text();
    const t0 = performance.now();
    const elapsed = () => Math.round((performance.now() - t0) * 100) / 100;
    let response: Response;
    let replyText: string;
    try {
      response = await fetch(upstream, {
        method: 'POST',
        body: requestText,
        headers: forwardedHeaders(c.req.raw.headers),
        signal: AbortSignal.timeout(timeoutMs),
        // The signal is the deadline: undici's own 300 s timeouts must not end a longer timeoutMs first.
        dispatcher: agentForDeadline(timeoutMs),
      });
      replyText = await response.text();
    } catch (error) {
      const why = describe(error);
      options.onExchange({ requestText, http_status: null, replyText: '', elapsed_ms: elapsed(), error: why });
      return c.json({ message: `record: the upstream seller ${upstream.href} did not answer: ${why}` }, 502);
    }
    options.onExchange({ requestText, http_status: response.status, replyText, elapsed_ms: elapsed() });
    return c.body(replyText, response.status as 200, {
      'content-type': response.headers.get('content-type') ?? 'application/json',
    });
  });

  app.get('*', async (c) => {
    const target = new URL(c.req.path + new URL(c.req.url).search, upstream.origin);
    try {
      const response = await fetch(target, {
        headers: forwardedHeaders(c.req.raw.headers),
        signal: AbortSignal.timeout(timeoutMs),
        dispatcher: agentForDeadline(timeoutMs),
      });
      return c.body(await response.arrayBuffer(), response.status as 200, {
        'content-type': response.headers.get('content-type') ?? 'application/octet-stream',
      });
    } catch (error) {
      return c.json(
        { message: `record: the upstream seller ${upstream.origin} did not answer: ${describe(error)}` },
        502,
      );
    }
  });

  return app;
}
