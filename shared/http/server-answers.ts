// What a server started through listen() answers without its app ever seeing the request:
// Node's HTTP server (parse errors, timeouts, size limits, an Expect it cannot meet) and
// @hono/node-server's adapter (a request target or Host it cannot make a URL of). These
// answers carry no JSON body, none of the app's headers, and often close the connection.
// The OpenAPI documents reference them from every operation (gateway/api-reference/
// server-answer-responses.ts); server-answers.test.ts pins each one on a live socket.

export interface ServerAnswer {
  status: number;
  /** The name it is documented under (components.responses). */
  name: string;
  /** When it is sent, and what it looks like on the wire. */
  description: string;
  /** Sent with Connection: close, and the connection closed after it (in every case of this status). */
  closes: boolean;
}

export const SERVER_ANSWERS: readonly ServerAnswer[] = [
  {
    status: 400,
    name: 'ServerBadRequest',
    description:
      "Bad Request from Node's HTTP server or its Hono adapter, before the API sees the request: a request line or header Node cannot parse " +
      '(a space in a header name, Content-Length beside Transfer-Encoding, a malformed chunk) — just the status line and ' +
      'Connection: close, then the connection is closed; an HTTP/1.1 request without Host — an empty chunked body, Connection: close; ' +
      'a request target or Host the adapter cannot make into a URL (a backslash in the path, OPTIONS *, Host: "a b") — an empty ' +
      'chunked body, the connection kept. Never a JSON body.',
    closes: false,
  },
  {
    status: 408,
    name: 'ServerRequestTimeout',
    description:
      "Request Timeout from Node's HTTP server: the headers did not all arrive within HTTP_HEADERS_TIMEOUT_MS, or the whole request " +
      'within HTTP_REQUEST_TIMEOUT_MS (counted from its first byte), and no answer had been started. Just the status line and ' +
      'Connection: close (no body, no Content-Length), then the connection is closed.',
    closes: true,
  },
  {
    status: 413,
    name: 'ServerChunkExtensionsTooLarge',
    description:
      "Payload Too Large from Node's HTTP server: a chunked body's chunk extensions (the text after ';' in a chunk size line) " +
      'passed 16 KiB. Just the status line and Connection: close (no body), then the connection is closed.',
    closes: true,
  },
  {
    status: 417,
    name: 'ServerExpectationFailed',
    description:
      "Expectation Failed from Node's HTTP server: an HTTP/1.1 request with an Expect header other than 100-continue. An empty " +
      'chunked body; the connection is kept.',
    closes: false,
  },
  {
    status: 431,
    name: 'ServerHeadersTooLarge',
    description:
      "Request Header Fields Too Large from Node's HTTP server: the request line and headers together passed Node's limit " +
      '(16 KiB unless node runs with --max-http-header-size). Just the status line and Connection: close (no body), then the ' +
      'connection is closed.',
    closes: true,
  },
];

/** The statuses only, e.g. for a check that an operation documents each. */
export const SERVER_ANSWER_STATUSES: readonly number[] = SERVER_ANSWERS.map((a) => a.status);
