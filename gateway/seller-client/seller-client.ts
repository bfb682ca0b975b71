import { Pool, type Dispatcher } from 'undici';
import { undiciTimeoutsFor } from '../../shared/http/undici-timeouts';
import type { SellerAuth } from '../directory/directory';
import {
  guardedLookup,
  SELLER_ADDRESS_REFUSED,
  SellerAddressRefusal,
  sellerUrlRefusal,
  systemResolver,
  UNRESTRICTED_SELLER_ADDRESSES,
} from './seller-address-policy';
import {
  DEFAULT_MAX_SELLER_REPLY_BYTES,
  type SellerCall,
  type SellerClient,
  type SellerClientOptions,
  type SellerOutcome,
} from './seller-client.types';

// undici on a keep-alive Pool per member and seller origin, dispatched with our own handler:
// cheaper per forwarded call than the global fetch or undici's request() (docs/performance.md,
// npm run -w lab bench:seller-call). Every seller fault becomes an outcome, never a throw.
// A pool per member, not per origin: members often share a seller host, and a member whose
// calls hang fills only its own pool, not the others' (docs/performance.md, "A seller pool per member").

const DEFAULT_CONNECTIONS = 64;
/** Bodies of error replies are kept for logs and reports, not in full. */
const ERROR_BODY_LIMIT = 2_000;
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_CONNECT_TIMEOUT',
]);
/** Failures to connect at all: the request was certainly never sent. A reset or closed socket may come after it was. */
const NOT_CONNECTED_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

function authHeader(auth: SellerAuth): string | undefined {
  switch (auth.kind) {
    case 'bearer':
      return `Bearer ${auth.token}`;
    case 'basic':
      return `Basic ${Buffer.from(`${auth.username}:${auth.password}`).toString('base64')}`;
    default:
      return undefined;
  }
}

/** Authorization header values, computed once per distinct auth (base64 on every call adds up). */
const authCache = new WeakMap<SellerAuth, string | undefined>();
function cachedAuthHeader(auth: SellerAuth): string | undefined {
  if (authCache.has(auth)) return authCache.get(auth);
  const value = authHeader(auth);
  authCache.set(auth, value);
  return value;
}

interface Target {
  pool: Dispatcher;
  path: string;
}

function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  // undici wraps connect errors; the system code may sit on `cause`.
  for (let depth = 0; depth < 3 && current !== null && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code !== 'UND_ERR_ABORTED') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

const describeError = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** The body as text, as undici's body.text() reads it (a UTF-8 byte order mark skipped). */
function bodyText(chunks: Buffer[]): string {
  if (chunks.length === 0) return '';
  const buffer = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
  const start = buffer.length > 2 && buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf ? 3 : 0;
  return buffer.toString('utf8', start);
}

/** A complete response, classified. */
function answer(member: SellerCall['member'], status: number, chunks: Buffer[], elapsedMs: number): SellerOutcome {
  const text = bodyText(chunks);
  if (status < 200 || status > 299) {
    return {
      kind: 'http-error',
      status,
      message: `seller of member ${member.id} answered HTTP ${status}`,
      body: text.slice(0, ERROR_BODY_LIMIT),
      elapsedMs,
    };
  }
  try {
    return { kind: 'reply', status, body: JSON.parse(text), text, elapsedMs };
  } catch (error) {
    return {
      kind: 'malformed',
      status,
      message: `seller of member ${member.id} answered with a body that is not JSON: ${describeError(error)}`,
      body: text.slice(0, ERROR_BODY_LIMIT),
      elapsedMs,
    };
  }
}

const msSince = (started: number) => Math.round((performance.now() - started) * 100) / 100;

/**
 * One call's undici handler: collects the body and settles the call once, with its outcome or
 * at the deadline. A class rather than closures: nothing is allocated per call but this object
 * and its timer. One timer covers connect, headers and body: the deadline is for the whole call.
 */
class SellerCallHandler {
  private settled = false;
  private abort: ((error: Error) => void) | undefined;
  private readonly chunks: Buffer[] = [];
  private status = 0;
  private bytes = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly member: SellerCall['member'],
    private readonly started: number,
    private readonly deadline: number,
    private readonly maxReplyBytes: number,
    private readonly resolve: (outcome: SellerOutcome) => void,
  ) {
    this.timer = setTimeout(onDeadline, deadline, this);
  }

  finish(outcome: SellerOutcome): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    this.resolve(outcome);
  }

  passDeadline(): void {
    this.finish({
      kind: 'timeout',
      message: `seller of member ${this.member.id} did not answer within ${this.deadline} ms`,
      elapsedMs: msSince(this.started),
    });
    this.abort?.(new Error('deadline passed'));
  }

  onConnect(abortRequest: (error?: Error) => void): void {
    if (this.settled) abortRequest(new Error('deadline passed'));
    else this.abort = abortRequest;
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[]): boolean {
    this.status = statusCode;
    // A declared length over the limit is refused before a byte of the body is read.
    const declared = contentLength(rawHeaders);
    if (declared !== undefined && declared > this.maxReplyBytes) this.refuseSize(declared);
    return true;
  }

  onData(chunk: Buffer): boolean {
    if (this.settled) return false;
    this.bytes += chunk.length;
    if (this.bytes > this.maxReplyBytes) {
      this.refuseSize(undefined);
      return false;
    }
    this.chunks.push(chunk);
    return true;
  }

  /** The reply is larger than the gateway reads: stop reading, drop what came, close the connection. */
  private refuseSize(declared: number | undefined): void {
    this.chunks.length = 0;
    const said =
      declared === undefined ? `more than ${this.maxReplyBytes} bytes` : `${declared} bytes (content-length)`;
    this.finish({
      kind: 'too-large',
      status: this.status,
      limitBytes: this.maxReplyBytes,
      message: `seller of member ${this.member.id} sent a reply of ${said}, over the gateway's limit of ${this.maxReplyBytes} bytes (GATEWAY_MAX_SELLER_REPLY_BYTES)`,
      elapsedMs: msSince(this.started),
    });
    this.abort?.(new Error('reply too large'));
  }

  onComplete(): void {
    this.finish(answer(this.member, this.status, this.chunks, msSince(this.started)));
  }

  onError(error: Error): void {
    const code = errorCode(error);
    if (code === SELLER_ADDRESS_REFUSED) return this.finish(refusedAddress(this.member, error.message, this.started));
    this.finish({
      kind: 'unreachable',
      message: `seller of member ${this.member.id} at ${this.member.sellerUrl} could not be reached${code !== undefined && UNREACHABLE_CODES.has(code) ? ` (${code})` : ''}: ${describeError(error)}`,
      sent: code === undefined || !NOT_CONNECTED_CODES.has(code),
      elapsedMs: msSince(this.started),
    });
  }
}

/** The production address policy stopped the call before a connection was made. */
function refusedAddress(member: SellerCall['member'], reason: string, started: number): SellerOutcome {
  return {
    kind: 'refused-address',
    message: `seller of member ${member.id} at ${member.sellerUrl} was not called: ${reason}`,
    elapsedMs: msSince(started),
  };
}

const onDeadline = (handler: SellerCallHandler) => handler.passDeadline();

const CONTENT_LENGTH = Buffer.from('content-length');

/** Whether a raw header name is content-length, in any case (no string made: this runs on every reply). */
function isContentLength(name: Buffer): boolean {
  if (name.length !== CONTENT_LENGTH.length) return false;
  for (let i = 0; i < name.length; i++) if ((name[i] | 0x20) !== CONTENT_LENGTH[i]) return false;
  return true;
}

/** The content-length among undici's raw headers (name, value, name, value…), if any: ~90 ns a reply. */
function contentLength(rawHeaders: Buffer[] | null | undefined): number | undefined {
  if (rawHeaders == null) return undefined;
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    if (!isContentLength(rawHeaders[i])) continue;
    const value = rawHeaders[i + 1];
    let length = 0;
    for (let j = 0; j < value.length; j++) {
      const digit = value[j] - 0x30;
      if (digit < 0 || digit > 9) return undefined;
      length = length * 10 + digit;
    }
    return value.length === 0 ? undefined : length;
  }
  return undefined;
}

const newPool = (origin: string, options: Pool.Options): Dispatcher => new Pool(origin, options);

/** A call's headers: the ones it forwards, JSON both ways, the member's seller credentials and the request id. */
function sellerHeaders(
  member: SellerCall['member'],
  extraHeaders: SellerCall['headers'],
  requestId: string | undefined,
): Record<string, string> {
  const headers: Record<string, string> =
    extraHeaders === undefined
      ? { 'content-type': 'application/json', accept: 'application/json' }
      : { ...extraHeaders, 'content-type': 'application/json', accept: 'application/json' };
  const auth = cachedAuthHeader(member.sellerAuth);
  if (auth !== undefined) headers.authorization = auth;
  if (requestId !== undefined) headers['x-request-id'] = requestId;
  return headers;
}

export function createSellerClient(options: SellerClientOptions = {}): SellerClient {
  const connections = options.connections ?? DEFAULT_CONNECTIONS;
  const maxReplyBytes = options.maxReplyBytes ?? DEFAULT_MAX_SELLER_REPLY_BYTES;
  const poolFor = options.poolFor ?? newPool;
  const addressPolicy = options.addressPolicy ?? UNRESTRICTED_SELLER_ADDRESSES;
  // In production every connection's address is judged as it is
  // resolved (DNS rebinding); in development undici's defaults stand.
  const connect = addressPolicy.enforce
    ? { connect: { lookup: guardedLookup(addressPolicy, options.resolver ?? systemResolver) } }
    : {};
  /** Keyed by member id, then origin: each member's calls have connections of their own. */
  const pools = new Map<string, Dispatcher>();
  /** Keyed by member id, then seller URL. */
  const targets = new Map<string, Map<string, Target>>();

  function targetFor(memberId: string, sellerUrl: string): Target {
    let ofMember = targets.get(memberId);
    const known = ofMember?.get(sellerUrl);
    if (known !== undefined) return known;
    const refusal = sellerUrlRefusal(addressPolicy, sellerUrl);
    if (refusal !== undefined) throw new SellerAddressRefusal(refusal);
    const url = new URL(sellerUrl);
    const poolKey = `${memberId} ${url.origin}`;
    let pool = pools.get(poolKey);
    if (pool === undefined) {
      pool = poolFor(url.origin, { connections, pipelining: 1, keepAliveTimeout: 30_000, ...connect });
      pools.set(poolKey, pool);
    }
    const target = { pool, path: `${url.pathname}${url.search}` };
    if (ofMember === undefined) targets.set(memberId, (ofMember = new Map()));
    ofMember.set(sellerUrl, target);
    return target;
  }

  function call({ member, body, deadlineMs, requestId, headers: extraHeaders }: SellerCall): Promise<SellerOutcome> {
    const started = performance.now();
    const deadline = deadlineMs ?? member.timeoutMs;

    let target: Target;
    try {
      target = targetFor(member.id, member.sellerUrl);
    } catch (error) {
      if (error instanceof SellerAddressRefusal) return Promise.resolve(refusedAddress(member, error.message, started));
      return Promise.resolve({
        kind: 'unreachable',
        message: `seller URL '${member.sellerUrl}' is not usable: ${describeError(error)}`,
        sent: false,
        elapsedMs: msSince(started),
      });
    }

    const headers = sellerHeaders(member, extraHeaders, requestId);

    return new Promise<SellerOutcome>((resolve) => {
      const handler = new SellerCallHandler(member, started, deadline, maxReplyBytes, resolve);
      try {
        // Per call, as the deadline is: the handler's timer is the one deadline,
        // and undici's own 300 s ones must not end a longer timeout_ms first.
        const { headersTimeout, bodyTimeout } = undiciTimeoutsFor(deadline);
        target.pool.dispatch(
          { method: 'POST', path: target.path, headers, body: JSON.stringify(body), headersTimeout, bodyTimeout },
          handler,
        );
      } catch (error) {
        handler.onError(error as Error);
      }
    });
  }

  async function close(): Promise<void> {
    const all = [...pools.values()];
    pools.clear();
    targets.clear();
    await Promise.all(all.map((pool) => pool.close().catch(() => pool.destroy())));
  }

  return { call, close };
}
