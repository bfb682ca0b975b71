// The one error base of every HTTP app in the toolkit (gateway, internal API, mock seller):
// a failure that knows its HTTP status. Each app maps HttpError to its own body in one place.

export abstract class HttpError extends Error {
  abstract readonly httpStatus: number;
  /** Seconds after which the same request may succeed; sent as Retry-After. */
  retryAfterSeconds?: number;

  constructor(message: string, options?: { retryAfterSeconds?: number }) {
    super(message);
    this.name = new.target.name;
    if (options?.retryAfterSeconds !== undefined) this.retryAfterSeconds = options.retryAfterSeconds;
  }

  /**
   * The same failure told with more context: same kind, status and everything else it
   * carries (Retry-After, details), only the message (and what `changes` names) replaced.
   */
  restated(message: string, changes: Partial<Omit<this, 'message' | 'httpStatus'>> = {}): this {
    const copy = Object.assign(Object.create(Object.getPrototypeOf(this) as object) as this, this, changes);
    Object.defineProperty(copy, 'message', { value: message, writable: true, configurable: true });
    Object.defineProperty(copy, 'stack', { value: this.stack, writable: true, configurable: true });
    return copy;
  }
}

/** Retry-After in whole seconds (at least 1) for an error that carries one. */
export const retryAfterOf = (error: unknown): number | undefined => {
  const value = error instanceof HttpError ? error.retryAfterSeconds : undefined;
  return typeof value === 'number' && Number.isFinite(value) ? Math.max(1, Math.ceil(value)) : undefined;
};
