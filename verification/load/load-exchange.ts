import { DEFAULT_MAX_REPLY_BYTES } from '../reply-within-limit';
import { shownStart, tooLargeFinding } from '../reply-findings';
import { Pool, type Dispatcher } from 'undici';
import { checkSellerReply } from '../../contracts/reply-check';
import { requestBody, type Finding, type SellerTarget } from '../explore/exchange';
import type { ExploreCase } from '../explore/generators';
import { ANSWER_RULE, SCHEMA_RULE } from '../explore/rule-coverage';
import { undiciTimeoutsFor } from '../../shared/http/undici-timeouts';
import { callFailureOf, closedText } from '../call-failure';

// The load run's exchange: the explorer's judgement (HTTP 200 with JSON, the schema, every
// reply rule — checkSellerReply, as the gateway checks at run time) over a keep-alive pool
// sized to the top step. The driver must cost less than the seller it loads (npm run
// bench:load), so each exchange is one undici dispatch with a handler of our own: the reply's
// bytes arrive in onData (no Readable, no AbortController per request), and one sweeping
// timer gives up on exchanges past the deadline.
// The judgement is a pure function of the request and the reply bytes: a request sent again
// (the run cycles through its generated requests) whose reply is byte for byte the one judged
// last time gets that verdict again after a byte comparison, instead of a parse and a check.
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
  if (status !== 200)
    return [
      { rule: ANSWER_RULE, path: '', message: `HTTP ${status}: ${shownStart(text)}`, expected: 200, found: status },
    ];
  let reply: unknown;
  try {
    reply = JSON.parse(text);
  } catch {
    return [
      {
        rule: ANSWER_RULE,
        path: '',
        message: `the body is not JSON; first bytes: "${shownStart(text)}"`,
        found: shownStart(text),
      },
    ];
  }
  const check = checkSellerReply(c.operation, c.request, reply);
  if (check.errors.length > 0)
    return check.errors.map((e) => ({ rule: SCHEMA_RULE, path: e.path || '/', message: e.message }));
  return check.violations.map((v) => ({ ...v, rule: v.rule as Finding['rule'] }));
}

/** Per generated request (the run reuses the same objects): its body, and the last reply judged. */
interface Judged {
  body: Buffer;
  lastReply?: Buffer;
  lastFindings?: Finding[];
}

/** What every exchange shares: the pool, the request's fixed parts, the deadline. */
interface Shared {
  path: string;
  headers: string[];
  timeoutMs: number;
  maxReplyBytes: number;
  inFlight: Set<Exchange>;
  timedOut: Finding[];
}

/** The reason an exchange is aborted with once settled: undici then frees its connection. */
const SETTLED = new Error('the load exchange is settled');

/** One exchange as undici's dispatch handler: collects the reply's bytes and settles once. */
class Exchange implements Dispatcher.DispatchHandler {
  readonly t0 = performance.now();
  private abort: ((error?: Error) => void) | undefined;
  private status = 0;
  private chunks: Buffer[] = [];
  private bytes = 0;
  private settled = false;

  constructor(
    private readonly shared: Shared,
    private readonly c: ExploreCase,
    private readonly memo: Judged,
    private readonly resolve: (outcome: LoadOutcome) => void,
  ) {}

  onConnect(abort: (error?: Error) => void): void {
    if (this.settled) abort(SETTLED);
    else this.abort = abort;
  }

  onHeaders(statusCode: number): boolean {
    this.status = statusCode;
    return true;
  }

  onData(chunk: Buffer): boolean {
    this.bytes += chunk.byteLength;
    if (this.bytes > this.shared.maxReplyBytes) {
      const { message, limit_bytes, bytes_read } = tooLargeFinding(this.status, this.shared.maxReplyBytes, this.bytes);
      this.settle(
        {
          httpStatus: this.status,
          timedOut: false,
          waitMs: performance.now() - this.t0,
          findings: [{ rule: ANSWER_RULE, path: '', message, found: { limit_bytes, bytes_read } }],
        },
        true,
      );
      return false;
    }
    this.chunks.push(chunk);
    return true;
  }

  onComplete(): void {
    if (this.settled) return;
    const waitMs = performance.now() - this.t0;
    // Later than the deadline is a timeout even if the sweep has not come round yet: the gateway would have given up.
    if (waitMs >= this.shared.timeoutMs)
      return this.settle({ httpStatus: null, timedOut: true, waitMs, findings: this.shared.timedOut });
    const reply = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks);
    const { memo, status } = this;
    if (status === 200 && memo.lastReply !== undefined && reply.equals(memo.lastReply))
      return this.settle({ httpStatus: 200, timedOut: false, waitMs, findings: memo.lastFindings! });
    const findings = judgeReply(this.c, status, reply.toString('utf8'));
    // A copy: the chunk is a view of the socket's read, which holds the headers as well.
    if (status === 200) Object.assign(memo, { lastReply: Buffer.from(reply), lastFindings: findings });
    this.settle({ httpStatus: status, timedOut: false, waitMs, findings });
  }

  onError(error: Error): void {
    if (this.settled) return;
    const cause = (error as { cause?: Error }).cause;
    const failure = callFailureOf(error);
    const message =
      failure.kind === 'closed'
        ? closedText(failure.detail)
        : `the request failed: ${error.message}${cause ? ` (${cause.message})` : ''}`;
    this.settle({
      httpStatus: null,
      timedOut: false,
      waitMs: performance.now() - this.t0,
      findings: [{ rule: ANSWER_RULE, path: '', message }],
    });
  }

  /** Past the deadline (the sweep) or stopped (close): settles now and drops the connection. */
  giveUp(now: number, stopped: boolean): void {
    if (stopped)
      this.settle(
        {
          httpStatus: null,
          timedOut: false,
          waitMs: now - this.t0,
          findings: [{ rule: ANSWER_RULE, path: '', message: 'the request failed: stopped' }],
        },
        true,
      );
    else this.settle({ httpStatus: null, timedOut: true, waitMs: now - this.t0, findings: this.shared.timedOut }, true);
  }

  /** `unfinished`: the reply is still coming (timeout, too large, stop), so its connection is dropped. */
  private settle(outcome: LoadOutcome, unfinished = false): void {
    if (this.settled) return;
    this.settled = true;
    this.chunks = [];
    this.shared.inFlight.delete(this);
    if (unfinished) this.abort?.(SETTLED);
    this.resolve(outcome);
  }
}

/** Builds the client's pool from its options (a test wraps it to stand in for undici's defaults). */
export type LoadPoolFactory = (origin: string, options: Pool.Options) => Dispatcher;

const newPool: LoadPoolFactory = (origin, options) => new Pool(origin, options);

export function createLoadClient(
  target: SellerTarget,
  connections: number,
  poolFor: LoadPoolFactory = newPool,
): LoadClient {
  const judged = new WeakMap<ExploreCase, Judged>();
  const url = new URL(target.sellerUrl);
  // The sweep below is the one deadline: undici's own 300 s timeouts must not end a longer --timeout first.
  const pool = poolFor(url.origin, { connections, pipelining: 1, ...undiciTimeoutsFor(target.timeoutMs) });
  const shared: Shared = {
    path: `${url.pathname}${url.search}`,
    headers: Object.entries({ ...target.headers, 'content-type': 'application/json' }).flat(),
    timeoutMs: target.timeoutMs,
    // The same ceiling as explore and the rules proxy: a seller streaming without end costs at most this.
    maxReplyBytes: target.maxReplyBytes ?? DEFAULT_MAX_REPLY_BYTES,
    inFlight: new Set(),
    timedOut: [
      { rule: ANSWER_RULE, path: '', message: `no answer within ${target.timeoutMs} ms (the deadline, --timeout)` },
    ],
  };
  // One timer for every exchange in flight instead of one each; it gives up at most a twentieth
  // of the deadline late (a reply completing in between is still counted as a timeout).
  const sweep = setInterval(
    () => {
      const now = performance.now();
      for (const exchange of shared.inFlight) if (now - exchange.t0 >= shared.timeoutMs) exchange.giveUp(now, false);
    },
    Math.min(1000, Math.max(1, target.timeoutMs / 20)),
  );
  sweep.unref();
  return {
    exchange(c) {
      let memo = judged.get(c);
      if (memo === undefined) judged.set(c, (memo = { body: Buffer.from(requestBody(c)) }));
      const body = memo.body;
      return new Promise((resolve) => {
        const exchange = new Exchange(shared, c, memo, resolve);
        shared.inFlight.add(exchange);
        pool.dispatch({ method: 'POST', path: shared.path, headers: shared.headers, body }, exchange);
      });
    },
    async close() {
      clearInterval(sweep);
      const now = performance.now();
      for (const exchange of shared.inFlight) exchange.giveUp(now, true);
      await pool.destroy();
    },
  };
}
