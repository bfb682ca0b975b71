import { DEFAULT_MAX_REPLY_BYTES, readStreamWithin } from '../reply-within-limit';
import { tooLargeFinding } from '../reply-findings';
import { Pool } from 'undici';
import { checkSellerReply } from '../../reply-check';
import { requestBody, type Finding, type SellerTarget } from '../explore/exchange';
import type { ExploreCase } from '../explore/generators';
import { ANSWER_RULE, SCHEMA_RULE } from '../explore/rule-coverage';

// The load run's exchange: the explorer's judgement (HTTP 200 with JSON, the schema, every
// reply rule — checkSellerReply, as the gateway checks at run time) over a keep-alive pool
// sized to the top step. fetch() with AbortSignal.any per request cost the driver several
// times its checking (npm run bench:load); the rule coverage explore tallies is not needed here.
// The judgement is a pure function of the request and the reply bytes: a request sent again
// (the run cycles through its generated requests) whose reply is byte for byte the one judged
// last time gets that verdict again after a string comparison, instead of a parse and a check.
// Any difference in the bytes — a changed stock figure, a cross-talked id — is judged afresh.

export interface LoadOutcome {
  /** null: no answer (timeout, transport failure). */
  httpStatus: number | null;
  timedOut: boolean;
  /** Request sent → body read. */
  waitMs: number;
  findings: Finding[];
}

export interface LoadClient {
  exchange(c: ExploreCase): Promise<LoadOutcome>;
  /** Aborts every exchange in flight (the stop) and closes the pool. */
  close(): Promise<void>;
}

export function judgeReply(c: ExploreCase, status: number, text: string): Finding[] {
  if (status !== 200) return [{ rule: ANSWER_RULE, path: '', message: `HTTP ${status}: ${text.slice(0, 200)}`, expected: 200, found: status }];
  let reply: unknown;
  try {
    reply = JSON.parse(text);
  } catch (error) {
    return [{ rule: ANSWER_RULE, path: '', message: `the body is not JSON: ${(error as Error).message}`, found: text.slice(0, 200) }];
  }
  const check = checkSellerReply(c.operation, c.request, reply);
  if (check.errors.length > 0) return check.errors.map((e) => ({ rule: SCHEMA_RULE, path: e.path || '/', message: e.message }));
  return check.violations.map((v) => ({ ...v, rule: v.rule as Finding['rule'] }));
}

interface Judged {
  body: string;
  lastReply?: string;
  lastFindings?: Finding[];
}

export function createLoadClient(target: SellerTarget, connections: number): LoadClient {
  // Per generated request (the run reuses the same objects): its body, and the last reply judged.
  const judged = new WeakMap<ExploreCase, Judged>();
  const url = new URL(target.sellerUrl);
  const pool = new Pool(url.origin, { connections, pipelining: 1 });
  const path = `${url.pathname}${url.search}`;
  const headers = { ...target.headers, 'content-type': 'application/json' };
  const inFlight = new Set<AbortController>();
  // The same ceiling as explore and the rules proxy: a seller streaming without end costs at most this.
  const maxReplyBytes = target.maxReplyBytes ?? DEFAULT_MAX_REPLY_BYTES;
  return {
    async exchange(c) {
      const t0 = performance.now();
      const controller = new AbortController();
      inFlight.add(controller);
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        controller.abort();
      }, target.timeoutMs);
      let memo = judged.get(c);
      if (memo === undefined) judged.set(c, (memo = { body: requestBody(c) }));
      try {
        const response = await pool.request({ method: 'POST', path, headers, body: memo.body, signal: controller.signal });
        const read = await readStreamWithin(response.body, maxReplyBytes);
        const waitMs = performance.now() - t0;
        if (read.kind === 'too-large') {
          const { message, limit_bytes, bytes_read } = tooLargeFinding(response.statusCode, read.limit, read.bytesRead);
          return {
            httpStatus: response.statusCode,
            timedOut: false,
            waitMs,
            findings: [{ rule: ANSWER_RULE, path: '', message, found: { limit_bytes, bytes_read } }],
          };
        }
        const text = read.text;
        if (response.statusCode === 200 && text === memo.lastReply) return { httpStatus: 200, timedOut: false, waitMs, findings: memo.lastFindings! };
        const findings = judgeReply(c, response.statusCode, text);
        if (response.statusCode === 200) Object.assign(memo, { lastReply: text, lastFindings: findings });
        return { httpStatus: response.statusCode, timedOut: false, waitMs, findings };
      } catch (error) {
        const waitMs = performance.now() - t0;
        const message = timedOut
          ? `no answer within ${target.timeoutMs} ms (the deadline, --timeout)`
          : `the request failed: ${(error as Error).message}${(error as { cause?: Error }).cause ? ` (${(error as { cause: Error }).cause.message})` : ''}`;
        return { httpStatus: null, timedOut, waitMs, findings: [{ rule: ANSWER_RULE, path: '', message }] };
      } finally {
        clearTimeout(timer);
        inFlight.delete(controller);
      }
    },
    async close() {
      for (const controller of inFlight) controller.abort();
      await pool.destroy();
    },
  };
}
