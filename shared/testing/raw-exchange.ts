import { connect } from 'node:net';

// One HTTP exchange over a raw socket, for what an HTTP client will not send: a request Node
// cannot parse, headers that stop halfway, a body that never comes. Writes the parts (each
// after the previous one is flushed), then reads until the answer is whole and, when it says
// Connection: close (or has no length), until the server closes; or until the deadline.

export interface RawAnswer {
  /** e.g. 408; undefined when the server closed without a word. */
  status: number | undefined;
  /** The status line, e.g. "HTTP/1.1 408 Request Timeout". */
  statusLine: string;
  /** Header names lower-cased. */
  headers: Record<string, string>;
  body: string;
  /** The server closed the connection (false: it was still open once the answer was whole, or at the deadline). */
  closed: boolean;
  /** Everything the server wrote. */
  raw: string;
}

export interface RawExchangeOptions {
  host?: string;
  /** Give up waiting for the server to close after this long (the answer so far is returned). */
  deadlineMs?: number;
}

export function rawExchange(
  port: number,
  parts: string | string[],
  options: RawExchangeOptions = {},
): Promise<RawAnswer> {
  const { host = '127.0.0.1', deadlineMs = 5_000 } = options;
  return new Promise((resolve, reject) => {
    const socket = connect(port, host);
    const chunks: Buffer[] = [];
    let done = false;
    const finish = (closed: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(deadline);
      socket.destroy();
      resolve(parse(Buffer.concat(chunks).toString('latin1'), closed));
    };
    const deadline = setTimeout(() => finish(false), deadlineMs);
    socket.on('data', (chunk) => {
      chunks.push(chunk);
      if (keptOpenAfter(Buffer.concat(chunks).toString('latin1'))) finish(false);
    });
    // A reset after the answer is still the server closing.
    socket.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' ? finish(true) : reject(error)));
    socket.on('close', () => finish(true));
    socket.on('connect', () => {
      const queue = typeof parts === 'string' ? [parts] : [...parts];
      const next = () => {
        const part = queue.shift();
        if (part !== undefined && !socket.destroyed) socket.write(part, 'latin1', next);
      };
      next();
    });
  });
}

/** A whole answer that keeps the connection: there is no close to wait for. */
function keptOpenAfter(raw: string): boolean {
  const answer = parse(raw, false);
  if (answer.status === undefined || !raw.includes('\r\n\r\n') || answer.headers.connection === 'close') return false;
  if (answer.headers['transfer-encoding'] === 'chunked') return answer.body.endsWith('0\r\n\r\n');
  const length = answer.headers['content-length'];
  return length !== undefined && Buffer.byteLength(answer.body, 'latin1') >= Number(length);
}

function parse(raw: string, closed: boolean): RawAnswer {
  const end = raw.indexOf('\r\n\r\n');
  const head = end === -1 ? raw : raw.slice(0, end);
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const match = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
  return {
    status: match === null ? undefined : Number(match[1]),
    statusLine,
    headers,
    body: end === -1 ? '' : raw.slice(end + 4),
    closed,
    raw,
  };
}
