import type { Context, MiddlewareHandler } from 'hono';

// A rule every request to a surface must pass before any handler (JSON content type, no
// cross-site requests). The guard only says why a request is refused; each app turns that
// into its own error body, so the rule is written once and every surface tells it the same.

export interface RequestRefusal {
  status: 403 | 415;
  /** The rule's name, e.g. request.content-type. */
  rule: string;
  /** What is at fault, e.g. header:content-type. */
  field: string;
  /** What the field must be, e.g. "must be application/json". */
  detail: string;
  message: string;
}

export type RequestGuard = (c: Context) => RequestRefusal | undefined;

/** How an app answers a refusal: its own error (thrown, so its one error mapper answers) or a response. */
export type RefusalAnswer = (refusal: RequestRefusal, c: Context) => Error | Response;

/** The guards, in order, as middleware: the first refusal is answered, nothing after it runs. */
export function guardedBy(guards: RequestGuard[], answer: RefusalAnswer): MiddlewareHandler {
  return async (c, next) => {
    for (const guard of guards) {
      const refusal = guard(c);
      if (refusal === undefined) continue;
      const answered = answer(refusal, c);
      if (answered instanceof Response) return answered;
      throw answered;
    }
    await next();
  };
}
