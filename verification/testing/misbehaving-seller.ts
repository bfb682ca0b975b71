import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// A seller that answers what a real one should not, for the kit's and the rules proxy's
// tests: an HTML error page with a script, HTML under a JSON content type, and a JSON reply
// that streams without end. Plain node:http, so the test controls every byte and sees when
// the reader hangs up.

/** An error page whose script, if it ever ran, would retitle the page and call `canary`. */
export const hostileHtml = (canary = '/ran') =>
  `<html><head><title>seller error</title></head><body><script>document.title = 'seller script ran'; fetch(${JSON.stringify(canary)}, { method: 'POST', mode: 'no-cors' });</script>Internal error</body></html>`;

export interface MisbehavingSeller {
  url: string;
  /** Requests received, by path. */
  hits: Map<string, number>;
  /** Bytes written by the endless reply, and whether its reader hung up, per request. */
  streams: { written: number; closedByReader: boolean }[];
  close(): Promise<void>;
}

/** Stops an endless reply that nobody stops, so a failing test cannot fill the disk or hang. */
const STREAM_CAP_BYTES = 256 * 1024 * 1024;
const CHUNK = Buffer.alloc(16 * 1024, ' ');

export async function startMisbehavingSeller(options: { canary?: string } = {}): Promise<MisbehavingSeller> {
  const html = hostileHtml(options.canary);
  const hits = new Map<string, number>();
  const streams: MisbehavingSeller['streams'] = [];
  const handle = (request: IncomingMessage, response: ServerResponse) => {
    const path = new URL(request.url ?? '/', 'http://seller').pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    request.resume();
    if (path === '/html-500') {
      response.writeHead(500, { 'content-type': 'text/html; charset=utf-8' }).end(html);
    } else if (path === '/html-200') {
      response.writeHead(200, { 'content-type': 'text/html' }).end(html);
    } else if (path === '/html-as-json') {
      response.writeHead(200, { 'content-type': 'application/json' }).end(html);
    } else if (path === '/endless') {
      const stream = { written: 0, closedByReader: false };
      streams.push(stream);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"status_code":2000,"padding":"');
      const pump = () => {
        while (stream.written < STREAM_CAP_BYTES) {
          stream.written += CHUNK.length;
          if (!response.write(CHUNK)) return void response.once('drain', pump);
        }
        response.end('"}');
      };
      response.once('close', () => (stream.closedByReader = !response.writableFinished));
      pump();
    } else {
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ status_code: 2000, items: [] }));
    }
  };
  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    streams,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
