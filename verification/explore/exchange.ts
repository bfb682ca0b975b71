import { checkSellerReply } from '../../contracts/reply-check';
import type { ExploreCase } from './generators';
import { ANSWER_RULE, exercisedRules, SCHEMA_RULE, type ExploreRule } from './rule-coverage';
import { shownStart, notJsonFinding, tooLargeFinding, type TooLargeFinding } from '../reply-findings';
import { DEFAULT_MAX_REPLY_BYTES, readReplyWithin } from '../reply-within-limit';
import { agentForDeadline } from '../../shared/http/deadline-agent';
import { callFailureOf, closedText } from '../call-failure';

// One generated request sent to the seller and its reply judged: the schema, then every
// reply rule of contracts/reply-check.ts — the same check the gateway makes at run time.
// A reply that is not JSON or passes the size limit breaks reply.answer; the message names the
// finding (reply.not-json, reply.too-large) and quotes the seller only escaped.

export interface Finding {
  rule: ExploreRule;
  /** JSON pointer into the reply. */
  path: string;
  message: string;
  id?: string;
  expected?: unknown;
  found?: unknown;
}

export interface ExchangeOutcome {
  httpStatus: number | null;
  /** Waiting for the seller (request sent → body read). */
  waitMs: number;
  /** Our own checking (schema + rules + coverage). */
  checkMs: number;
  exercised: ExploreRule[];
  findings: Finding[];
}

export interface SellerTarget {
  sellerUrl: string;
  headers?: Record<string, string>;
  timeoutMs: number;
  /** The largest reply read (default 8 MiB); the read stops past it. */
  maxReplyBytes?: number;
}

export const requestBody = (c: ExploreCase) => JSON.stringify(c.request);

export async function exchange(target: SellerTarget, c: ExploreCase, signal?: AbortSignal): Promise<ExchangeOutcome> {
  const t0 = performance.now();
  let status: number | null = null;
  let text: string;
  let contentType: string | undefined;
  let tooLarge: TooLargeFinding | undefined;
  try {
    const timeout = AbortSignal.timeout(target.timeoutMs);
    const response = await fetch(target.sellerUrl, {
      method: 'POST',
      headers: { ...target.headers, 'content-type': 'application/json' },
      body: requestBody(c),
      signal: signal === undefined ? timeout : AbortSignal.any([timeout, signal]),
      // The signal is the deadline: undici's own 300 s timeouts must not end a longer --timeout first.
      dispatcher: agentForDeadline(target.timeoutMs),
    });
    status = response.status;
    contentType = response.headers.get('content-type') ?? undefined;
    const body = await readReplyWithin(response.body, target.maxReplyBytes ?? DEFAULT_MAX_REPLY_BYTES);
    if (body.kind === 'too-large') tooLarge = tooLargeFinding(status, body.limit, body.bytesRead);
    text = body.kind === 'whole' ? body.text : '';
  } catch (error) {
    const waitMs = performance.now() - t0;
    const failure = callFailureOf(error);
    const why =
      (error as Error).name === 'TimeoutError'
        ? `no answer within ${target.timeoutMs} ms (the limit, --timeout)`
        : failure.kind === 'closed'
          ? closedText(failure.detail)
          : `the request failed: ${(error as Error).message}${(error as { cause?: Error }).cause ? ` (${(error as { cause: Error }).cause.message})` : ''}`;
    return {
      httpStatus: null,
      waitMs,
      checkMs: 0,
      exercised: [ANSWER_RULE],
      findings: [{ rule: ANSWER_RULE, path: '', message: why }],
    };
  }
  const t1 = performance.now();
  const waitMs = t1 - t0;
  const done = (exercised: ExploreRule[], findings: Finding[]): ExchangeOutcome => ({
    httpStatus: status,
    waitMs,
    checkMs: performance.now() - t1,
    exercised,
    findings,
  });
  const answer = answerFinding(status, contentType, text, tooLarge);
  if (answer !== undefined) return done([ANSWER_RULE], [answer]);
  const reply: unknown = JSON.parse(text);
  const check = checkSellerReply(c.operation, c.request, reply);
  if (check.errors.length > 0) {
    return done(
      [ANSWER_RULE, SCHEMA_RULE],
      check.errors.map((e) => ({ rule: SCHEMA_RULE, path: e.path || '/', message: e.message })),
    );
  }
  const findings: Finding[] = check.violations.map((v) => ({ ...v, rule: v.rule as ExploreRule }));
  const exercised = new Set<ExploreRule>([ANSWER_RULE, SCHEMA_RULE, ...exercisedRules(c.operation, c.request, reply)]);
  // A broken rule was exercised, whatever the coverage heuristics say.
  for (const f of findings) exercised.add(f.rule);
  return done([...exercised], findings);
}

/** The reply.answer finding of a reply that is too large, not HTTP 200 or not JSON; undefined when it is a JSON 200. */
function answerFinding(
  status: number,
  contentType: string | undefined,
  text: string,
  tooLarge: TooLargeFinding | undefined,
): Finding | undefined {
  if (tooLarge !== undefined)
    return {
      rule: ANSWER_RULE,
      path: '',
      message: tooLarge.message,
      found: { limit_bytes: tooLarge.limit_bytes, bytes_read: tooLarge.bytes_read },
    };
  const notJson = notJsonFinding(status, contentType, text);
  if (status !== 200)
    return {
      rule: ANSWER_RULE,
      path: '',
      message: `HTTP ${status}: ${notJson?.message ?? shownStart(text, 200)}`,
      expected: 200,
      found: status,
    };
  if (notJson !== undefined)
    return {
      rule: ANSWER_RULE,
      path: '',
      message: notJson.message,
      found: { content_type: notJson.content_type, first_bytes: notJson.first_bytes },
    };
  return undefined;
}
