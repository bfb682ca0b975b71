// One request of a load run and what came back, shared by the open-loop (paced-load.ts) and
// closed-loop (closed-load.ts) generators.

export interface LoadRequest {
  path: string;
  body: string;
  headers: Record<string, string>;
  /** A label the caller reads back from the answer (e.g. the operation), not sent. */
  tag?: string;
  /** Whether the caller injected a fault into this request, not sent as such. */
  faulted?: boolean;
}

export interface LoadAnswer {
  request: LoadRequest;
  status: number;
  body: string;
  ms: number;
  /** The answer's Content-Type, when it had one. */
  contentType?: string;
}

export interface LoadHandlers {
  /** The i-th request to send (0-based). */
  next(i: number): LoadRequest;
  onAnswer?(answer: LoadAnswer): void;
  /** No HTTP answer at all (connection refused or reset, timeout). */
  onError?(request: LoadRequest, error: unknown): void;
}
