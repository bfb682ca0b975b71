// Whether a store error means the database cannot be reached (stopped, restarting, network
// gone, out of connections) rather than a bug in a query: then the gateway answers 503 with
// Retry-After, a dependency failing, not 500. Recognised on `pg` errors (system codes,
// SQLSTATE class 08 and the shutdown codes, the pool's own messages).

const SYSTEM_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);
/** admin_shutdown, crash_shutdown, cannot_connect_now, too_many_connections. */
const SQL_STATES = new Set(['57P01', '57P02', '57P03', '53300']);
const MESSAGES = [
  /connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /connection error and is not queryable/i,
  /cannot use a pool after calling end/i,
];

export function isStoreUnreachable(error: unknown, depth = 0): boolean {
  if (error === null || typeof error !== 'object' || depth > 3) return false;
  const { code, message, errors, cause } = error as {
    code?: unknown;
    message?: unknown;
    errors?: unknown;
    cause?: unknown;
  };
  if (typeof code === 'string' && (SYSTEM_CODES.has(code) || SQL_STATES.has(code) || code.startsWith('08')))
    return true;
  if (typeof message === 'string' && MESSAGES.some((m) => m.test(message))) return true;
  // Node's happy-eyeballs connect reports an AggregateError of each address tried.
  if (Array.isArray(errors) && errors.some((e) => isStoreUnreachable(e, depth + 1))) return true;
  return cause !== undefined && isStoreUnreachable(cause, depth + 1);
}

/** What a buyer is told to wait before retrying when the store is down. */
export const STORE_RETRY_AFTER_SECONDS = 5;
