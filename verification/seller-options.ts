import { connect as connectTcp } from 'node:net';
import { connect as connectTls } from 'node:tls';
import { probeUpstream } from '../shared/http/upstream-probe';
import type { SellerTarget } from './explore/exchange';
import { SellerProtocolError, SellerUnreachableError } from './kit-errors';
import { headersOption, httpUrlOption, wholeNumberOption } from './option-checks';
import { DEFAULT_MAX_REPLY_BYTES, MAX_REPLY_BYTES_CEILING } from './reply-within-limit';

// What every kit function that talks to a seller takes and checks first: where it is, the
// headers it needs, how long it may take, how much of a reply is read; whether it listens, and
// whether it speaks what the URL says (TLS for https://, plain HTTP for http://).

export interface SellerOptions {
  sellerUrl: string;
  headers?: Record<string, string>;
  timeoutMs?: number;
  maxReplyBytes?: number;
}

/** The options checked (KitInputError naming the one at fault), with the defaults filled in. */
export function sellerTargetOf(
  options: SellerOptions,
  defaultTimeoutMs: number,
): SellerTarget & { headers: Record<string, string>; maxReplyBytes: number } {
  return {
    sellerUrl: httpUrlOption('sellerUrl', options.sellerUrl),
    headers: headersOption('headers', options.headers),
    timeoutMs: wholeNumberOption('timeoutMs', options.timeoutMs, 1, 3_600_000, defaultTimeoutMs),
    maxReplyBytes: wholeNumberOption(
      'maxReplyBytes',
      options.maxReplyBytes,
      1,
      MAX_REPLY_BYTES_CEILING,
      DEFAULT_MAX_REPLY_BYTES,
    ),
  };
}

/**
 * Throws SellerUnreachableError when the seller's host and port take no connection, and
 * SellerProtocolError when they answer plain HTTP to an https:// URL or TLS to an http:// one.
 */
export async function ensureSellerReachable(sellerUrl: string): Promise<void> {
  const unreachable = await probeUpstream(sellerUrl);
  if (unreachable !== undefined) throw new SellerUnreachableError(sellerUrl, unreachable);
  const mismatch = await protocolMismatch(sellerUrl);
  if (mismatch !== undefined) throw new SellerProtocolError(sellerUrl, mismatch, otherSchemeUrl(sellerUrl));
}

const PROBE_MS = 3_000;
/**
 * Behind an http:// URL a plain server may wait for the rest of a request line the handshake
 * never sends: a TLS server answers a handshake at once, so a short wait is enough to tell.
 */
const TLS_BEHIND_HTTP_MS = 1_500;

interface Endpoint {
  host: string;
  port: number;
  /** The name TLS is asked for (SNI): the URL's host unless it is an address. */
  servername?: string;
}

function endpointOf(url: URL): Endpoint {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  return { host, port, ...(/^[\d.]+$|:/.test(host) ? {} : { servername: host }) };
}

/** The same address with the other scheme, the port kept (https://h/x on 443 becomes http://h:443/x). */
export function otherSchemeUrl(sellerUrl: string): string {
  const url = new URL(sellerUrl);
  const { port } = endpointOf(url);
  const other = url.protocol === 'https:' ? 'http:' : 'https:';
  return new URL(`${other}//${url.host.replace(/:\d+$/, '')}:${port}${url.pathname}${url.search}`).toString();
}

/**
 * What the seller's port speaks when it is not what the URL says: 'plain HTTP' behind an
 * https:// URL, 'TLS' behind an http:// one; undefined when it matches or cannot be told.
 * Only a TLS handshake is tried (no HTTP request reaches the seller's handlers), except to
 * confirm plain HTTP once the handshake failed as it does against it.
 */
export async function protocolMismatch(sellerUrl: string): Promise<'plain HTTP' | 'TLS' | undefined> {
  const url = new URL(sellerUrl);
  const endpoint = endpointOf(url);
  const handshake = await tlsHandshake(endpoint, url.protocol === 'http:' ? TLS_BEHIND_HTTP_MS : PROBE_MS);
  if (url.protocol === 'http:') return handshake === 'tls' ? 'TLS' : undefined;
  if (handshake !== 'not-tls') return undefined;
  return (await answersPlainHttp(endpoint, url)) ? 'plain HTTP' : undefined;
}

/** 'tls' when a handshake completes, 'not-tls' when the bytes that came back are no TLS record. */
function tlsHandshake(endpoint: Endpoint, timeoutMs: number): Promise<'tls' | 'not-tls' | 'unknown'> {
  return new Promise((resolve) => {
    // Only whether it speaks TLS: its certificate is not this probe's business.
    const socket = connectTls({ ...endpoint, rejectUnauthorized: false });
    const done = (result: 'tls' | 'not-tls' | 'unknown') => {
      socket.destroy();
      resolve(result);
    };
    socket.setTimeout(timeoutMs, () => done('unknown'));
    socket.once('secureConnect', () => done('tls'));
    socket.once('error', (error: NodeJS.ErrnoException) =>
      done(
        error.code === 'ERR_SSL_WRONG_VERSION_NUMBER' ||
          /wrong version number|packet length too long/i.test(error.message)
          ? 'not-tls'
          : 'unknown',
      ),
    );
  });
}

/** Whether a plain HTTP request is answered with an HTTP status line. */
function answersPlainHttp(endpoint: Endpoint, url: URL): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connectTcp({ host: endpoint.host, port: endpoint.port });
    let head = '';
    const done = (answer: boolean) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(PROBE_MS, () => done(false));
    socket.once('connect', () =>
      socket.write(`HEAD ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\nConnection: close\r\n\r\n`),
    );
    socket.on('data', (chunk: Buffer) => {
      head += chunk.toString('latin1');
      if (head.length >= 9) done(/^HTTP\/\d/.test(head));
    });
    socket.once('end', () => done(/^HTTP\/\d/.test(head)));
    socket.once('error', () => done(false));
  });
}
