// One request the fuzzer sends and what came back, and the two ways of sending it: to a Hono
// app in-process (app.request) or to a running server over HTTP. Bodies are raw text, so a
// request can carry what JSON.stringify cannot write (1e400, a lone surrogate escape).
import { request as httpRequest } from 'undici';
import { curlCommand } from '../../../shared/curl-command';

export type Surface = 'gateway' | 'internal';

export interface FuzzRequest {
  surface: Surface;
  method: string;
  /** Path and query, e.g. /search/products?query=brake */
  url: string;
  headers: Record<string, string>;
  body?: string;
}

export interface FuzzResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
  ms: number;
}

/** Sends a request to one surface. */
export type FuzzTarget = (request: FuzzRequest) => Promise<FuzzResponse>;

interface Requestable {
  request(input: string, init: RequestInit): Response | Promise<Response>;
}

/** In-process: each surface's Hono app answers app.request(). */
export function inProcessTarget(apps: Record<Surface, Requestable>): FuzzTarget {
  return async (r) => {
    const started = performance.now();
    const response = await apps[r.surface].request(`http://127.0.0.1${r.url}`, {
      method: r.method,
      headers: r.headers,
      body: r.body,
    });
    const text = await response.text();
    return {
      status: response.status,
      headers: Object.fromEntries(response.headers),
      text,
      ms: performance.now() - started,
    };
  };
}

/** Over HTTP, to running servers (npm run fuzz). */
export function httpTarget(baseUrls: Record<Surface, string>, timeoutMs = 30_000): FuzzTarget {
  return async (r) => {
    const started = performance.now();
    const response = await httpRequest(`${baseUrls[r.surface].replace(/\/+$/, '')}${r.url}`, {
      method: r.method as 'GET',
      headers: r.headers,
      body: r.body,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    const text = await response.body.text();
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(response.headers))
      if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
    return { status: response.statusCode, headers, text, ms: performance.now() - started };
  };
}

const LONG_BODY = 2_000;

/** The request as a shell command; a long body is cut in the middle (the JSON report has it whole). */
export function curlOf(r: FuzzRequest, baseUrl: string): string {
  const { 'content-type': contentType, ...headers } = r.headers;
  let body = r.body;
  if (body !== undefined && body.length > LONG_BODY)
    body = `${body.slice(0, 200)}…[${body.length - 400} more characters]…${body.slice(-200)}`;
  return curlCommand(`${baseUrl.replace(/\/+$/, '')}${r.url}`, body, headers, {
    method: r.method,
    contentType: contentType ?? null,
  });
}
