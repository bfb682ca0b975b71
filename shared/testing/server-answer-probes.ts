// Raw requests that draw each of shared/http/server-answers.ts's answers from a server started
// through listen() with short timeouts (HTTP_HEADERS_TIMEOUT_MS / HTTP_REQUEST_TIMEOUT_MS of a
// few hundred ms), and what each answer must look like. Sent with rawExchange().

export interface ServerAnswerProbe {
  name: string;
  parts: string[];
  status: number;
  /** Sent with Connection: close and the connection closed. */
  closes: boolean;
  /** Its headers were whole, so the app was called and was reading the body when Node answered. */
  reachesApp?: boolean;
}

export interface ProbeTarget {
  /** host:port, for the Host header. */
  host: string;
  /** A route that answers GET (e.g. /health). */
  getPath: string;
  /** A route that reads a POSTed JSON body (without it the app may answer before the body is due). */
  postPath: string;
  /** Headers that get a POST as far as reading its body (e.g. Authorization). */
  postHeaders?: Record<string, string>;
}

export function serverAnswerProbes(target: ProbeTarget): ServerAnswerProbe[] {
  const host = `Host: ${target.host}\r\n`;
  const extra = Object.entries(target.postHeaders ?? {})
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  const post = `POST ${target.postPath} HTTP/1.1\r\n${host}${extra}Content-Type: application/json\r\n`;
  const get = (path: string, headers = host) => `GET ${path} HTTP/1.1\r\n${headers}`;
  return [
    {
      name: 'a header name with a space',
      parts: [`${get(target.getPath)}Bad Header: x\r\n\r\n`],
      status: 400,
      closes: true,
    },
    {
      name: 'Content-Length beside Transfer-Encoding',
      parts: [`${post}Content-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`],
      status: 400,
      closes: true,
    },
    { name: 'not HTTP at all', parts: ['HELLO\r\n\r\n'], status: 400, closes: true },
    { name: 'HTTP/1.1 without Host', parts: [`${get(target.getPath, '')}\r\n`], status: 400, closes: true },
    {
      name: 'a backslash in the path',
      parts: [`${get(target.getPath.replace('/', '/\\'))}\r\n`],
      status: 400,
      closes: false,
    },
    {
      name: 'a Host that is not a host',
      parts: [`GET ${target.getPath} HTTP/1.1\r\nHost: a b\r\n\r\n`],
      status: 400,
      closes: false,
    },
    { name: 'headers that stop halfway', parts: [`${get(target.getPath)}X-Slow: `], status: 408, closes: true },
    // Headers complete, the body promised and never finished: the app is reading it when the request timeout ends it.
    {
      name: 'a body that stops halfway',
      parts: [`${post}Content-Length: 100\r\n\r\n{"items":`],
      status: 408,
      closes: true,
      reachesApp: true,
    },
    {
      name: 'chunk extensions over 16 KiB',
      parts: [`${post}Transfer-Encoding: chunked\r\n\r\n1;${'e'.repeat(17_000)}\r\n{\r\n0\r\n\r\n`],
      status: 413,
      closes: true,
      reachesApp: true,
    },
    {
      name: 'Expect other than 100-continue',
      parts: [`${get(target.getPath)}Expect: something-else\r\n\r\n`],
      status: 417,
      closes: false,
    },
    {
      name: 'a header over 16 KiB',
      parts: [`${get(target.getPath)}X-Big: ${'b'.repeat(17_000)}\r\n\r\n`],
      status: 431,
      closes: true,
    },
    {
      name: 'a URL over 16 KiB',
      parts: [`${get(`${target.getPath}?q=${'u'.repeat(17_000)}`)}\r\n`],
      status: 431,
      closes: true,
    },
  ];
}
