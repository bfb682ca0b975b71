import type { ValidationIssue, Violation } from '../contracts/index';

// What the inspector shows: one forwarded request and the seller's answer. Every server that
// sees seller traffic (the mock seller's journal, the gateway's forwarded calls, the rules
// proxy) hands its exchanges over in this shape, through an ExchangeFeed.

/** One exchange as its source saw it; the verdict is worked out from it, never stored in it. */
export interface ExchangeRecord {
  /** ISO time the request arrived (or was sent). */
  at: string;
  /** The forwarded request's `service`; null when it named none the contract knows. */
  service: string | null;
  /** The member whose seller answered, when the source knows it. */
  member: string | null;
  /** The forwarded request as sent (parsed JSON, or the raw text when it was not JSON). */
  request: unknown;
  /** HTTP status of the answer; null when none came (reset, hang, timeout, unreachable). */
  http_status: number | null;
  /** The reply body: parsed JSON, the raw text of a body that is not JSON, or null. */
  reply: unknown;
  duration_ms: number;
  /** Faults the mock seller applied, in `x-mock-fault` syntax; [] elsewhere. */
  faults: string[];
  /** Why there is no reply to judge (timeout, connection refused, ...), when the source knows. */
  outcome?: string;
}

/**
 * ok: a JSON reply that keeps the schema and every reply rule.
 * broken: a JSON reply that breaks the schema or a rule.
 * error: nothing to judge — no answer, an HTTP error, a body that is not JSON, or a request
 * the seller refused as invalid.
 */
export type Verdict = 'ok' | 'broken' | 'error';

/** The row of the live list (and one SSE event). */
export interface ExchangeSummary {
  /** Unique within its feed, increasing; the detail endpoint takes it. */
  id: number;
  at: string;
  service: string | null;
  member: string | null;
  http_status: number | null;
  duration_ms: number;
  faults: string[];
  verdict: Verdict;
  /** Names of the broken rules; `schema` when the reply broke the schema. */
  rules: string[];
  /** One line saying what went wrong; absent when the verdict is ok. */
  problem?: string;
}

export interface ExchangeDetail extends ExchangeSummary {
  request: unknown;
  reply: unknown;
  /** Schema errors of the reply (JSON pointer paths); the rules are not run when there are some. */
  errors: ValidationIssue[];
  /** Broken rules, each at its JSON pointer with expected and found. */
  violations: Violation[];
  /** Allowed but worth seeing: extra fields, a seller's own pack codes. */
  notes: (ValidationIssue | Violation)[];
}

/** A bounded history of exchanges and a way to hear of new ones. */
export interface ExchangeFeed {
  /** The retained exchanges, oldest first. */
  recent(): ExchangeSummary[];
  /** One retained exchange in full; undefined when unknown or already dropped. */
  detail(id: number): ExchangeDetail | undefined;
  /** Calls `listener` with each new exchange; returns the unsubscribe function. */
  subscribe(listener: (summary: ExchangeSummary) => void): () => void;
  /** How many exchanges are retained at most. */
  readonly limit: number;
}
