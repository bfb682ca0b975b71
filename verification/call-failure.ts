// Why a call to the seller brought no answer, in the vendor's words: it could not be reached
// (nothing was sent), or it took the request and closed the connection without answering (it
// was reached: its own log says why). Read from the error codes of undici and of Node's sockets,
// on the error or on its cause (fetch wraps them).

/** No connection was made: the request was never sent. */
const NOT_REACHED = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
]);
/** The connection was there and the seller ended it before its answer was whole. */
const CLOSED = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE', 'UND_ERR_CLOSED']);

export interface CallFailure {
  kind: 'not-reached' | 'closed' | 'other';
  /** The error's own words and code, e.g. "other side closed, UND_ERR_SOCKET". */
  detail: string;
}

const codeOf = (error: unknown): string | undefined => {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
};

/** What an error of a call to the seller says happened. */
export function callFailureOf(error: unknown): CallFailure {
  const cause = (error as { cause?: unknown } | null)?.cause;
  // fetch's own TypeError says only "fetch failed": its cause says what.
  const inner = codeOf(error) === undefined && cause instanceof Error ? cause : error;
  const code = codeOf(inner);
  const message = inner instanceof Error ? inner.message : String(inner);
  const detail = code === undefined || message.includes(code) ? message : `${message}, ${code}`;
  if (code !== undefined && NOT_REACHED.has(code)) return { kind: 'not-reached', detail };
  if (code !== undefined && CLOSED.has(code)) return { kind: 'closed', detail };
  return { kind: 'other', detail };
}

/** The words of a seller that took the request and closed without an answer. */
export const closedText = (detail: string): string =>
  `your system closed the connection without answering — look at its log (${detail})`;

/** The failure in the vendor's words, `sellerUrl` named when it could not be reached. */
export function callFailureText(failure: CallFailure, sellerUrl: string): string {
  switch (failure.kind) {
    case 'closed':
      return closedText(failure.detail);
    case 'not-reached':
      return `the seller at ${sellerUrl} could not be reached: ${failure.detail}`;
    case 'other':
      return `the request to the seller at ${sellerUrl} failed: ${failure.detail}`;
  }
}
