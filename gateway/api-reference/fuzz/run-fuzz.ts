// The fuzzer: for every operation of the served OpenAPI documents, the documented example and
// seeded mutations of it (request-mutations.ts), each reply checked against the document
// (reply-checks.ts). fast-check draws the mutations and shrinks a failing one; afterwards the
// gateway must still be healthy and a PO number a refused order used must still be free.
import fc from 'fast-check';
import { documentValidators, operationsOf, type DocumentOperation } from '../document-schemas';
import type { Json } from '../../../contracts/openapi-builder';
import { checkContentType, checkReply, type CheckName } from './reply-checks';
import { curlOf, type FuzzRequest, type FuzzResponse, type FuzzTarget, type Surface } from './fuzz-request';
import { materialize, mutationArbitrary, type Mutation, type RequestTemplate } from './request-mutations';

export interface Finding {
  operationId: string;
  check: CheckName | 'po-number-kept' | 'not-alive' | 'no-answer';
  message: string;
  /** What the mutation changed in the example. */
  change: string;
  status?: number;
  request: FuzzRequest;
  curl: string;
  /** Set when the finding is on the known list: the entry's name. */
  known?: string;
}

/** A finding someone else is fixing: matched, counted, not failed on. */
export interface KnownFinding {
  name: string;
  /** The issue text it refers to. */
  issue: string;
  matches(finding: Omit<Finding, 'known' | 'curl'>): boolean;
}

export interface Credentials {
  /** A fresh buyer JWT (they expire). */
  buyerJwt(): Promise<string> | string;
  internalApi: string;
}

export interface FuzzOptions {
  documents: Partial<Record<Surface, Json>>;
  target: FuzzTarget;
  credentials: Credentials;
  /** For the curl commands. */
  baseUrls: Record<Surface, string>;
  maxBodyBytes: Record<Surface, number>;
  /** Mutations per operation (the example comes on top). */
  runs: number;
  seed: number;
  /** Only this operation. */
  operation?: string;
  /** Only the operations this admits. */
  only?: (operationId: string) => boolean;
  /** Stop drawing new requests after this long (the ones in flight finish). */
  timeLimitMs?: number;
  known?: KnownFinding[];
  sellerFaults?: boolean;
  /** Headers added to every request (e.g. x-mock-fault to make the mock seller fail). */
  extraHeaders?: Record<string, string>;
  progress?: (line: string) => void;
}

export interface OperationSummary {
  operationId: string;
  surface: Surface;
  requests: number;
  statuses: Record<string, number>;
}

export interface FuzzReport {
  seed: number;
  requests: number;
  durationMs: number;
  operations: OperationSummary[];
  findings: Finding[];
  known: Finding[];
}

const PO_CHECKS = 5;
const MAX_RETRY_AFTER_S = 65;

type Problem = Omit<Finding, 'known' | 'curl'>;
type Send = (request: FuzzRequest) => Promise<FuzzResponse | Error>;

/** One fuzzing run: its options and deadline, and what it has sent and found so far. */
interface FuzzRun {
  options: FuzzOptions;
  deadline: number;
  progress: (line: string) => void;
  findings: Finding[];
  known: Finding[];
  /** Known findings already listed, by name, operation and check. */
  knownSeen: Set<string>;
  requests: number;
  send: Send;
  /** Lists a finding (a known one once per operation and check); true when it is not known. */
  record: (finding: Problem) => boolean;
}

export async function runFuzz(options: FuzzOptions): Promise<FuzzReport> {
  const started = performance.now();
  const run = fuzzRun(options, started + (options.timeLimitMs ?? Number.POSITIVE_INFINITY));
  const summaries: OperationSummary[] = [];
  // A catalog session for the catalog page's API, opened the way a buyer system does.
  const session = await openCatalogSession(options, run.send);

  for (const surface of ['gateway', 'internal'] as const) {
    const document = options.documents[surface];
    if (document === undefined) continue;
    const validatorOf = documentValidators(document);
    for (const op of operationsOf(document)) {
      if (options.operation !== undefined && op.operationId !== options.operation) continue;
      if (options.only !== undefined && !options.only(op.operationId)) continue;
      if (performance.now() > run.deadline) break;
      const summary: OperationSummary = { operationId: op.operationId, surface, requests: 0, statuses: {} };
      summaries.push(summary);
      await fuzzOperation(run, op, summary, validatorOf, await templateOf(op, surface, options, session));
      run.progress(`${op.operationId}: ${summary.requests} requests, statuses ${JSON.stringify(summary.statuses)}`);
    }
  }

  await checkAlive(options, run.send, run.record);
  return {
    seed: options.seed,
    requests: run.requests,
    durationMs: Math.round(performance.now() - started),
    operations: summaries,
    findings: run.findings,
    known: run.known,
  };
}

function fuzzRun(options: FuzzOptions, deadline: number): FuzzRun {
  const run: FuzzRun = {
    options,
    deadline,
    progress: options.progress ?? (() => {}),
    findings: [],
    known: [],
    knownSeen: new Set(),
    requests: 0,
    send: async (request) => {
      run.requests++;
      try {
        return await options.target(request);
      } catch (error) {
        return error instanceof Error ? error : new Error(String(error));
      }
    },
    record: (finding) => recordFinding(run, finding),
  };
  return run;
}

function recordFinding(run: FuzzRun, finding: Problem): boolean {
  const entry = run.options.known?.find((k) => k.matches(finding));
  const full: Finding = { ...finding, curl: curlOf(finding.request, run.options.baseUrls[finding.request.surface]) };
  if (entry !== undefined) {
    // Each known finding once per operation and check, however often it comes back.
    const key = `${entry.name} ${finding.operationId} ${finding.check}`;
    if (!run.knownSeen.has(key)) run.known.push({ ...full, known: entry.name });
    run.knownSeen.add(key);
  } else run.findings.push(full);
  return entry === undefined;
}

const isKnown = (run: FuzzRun, problem: Problem) => run.options.known?.find((k) => k.matches(problem)) !== undefined;

/**
 * One operation: the example and the drawn mutations, the smallest
 * failure recorded, then the PO numbers refused orders left free.
 */
async function fuzzOperation(
  run: FuzzRun,
  op: DocumentOperation,
  summary: OperationSummary,
  validatorOf: ReturnType<typeof documentValidators>,
  template: RequestTemplate,
): Promise<void> {
  const poNumbers: string[] = [];
  let serial = 0;
  // One request: sent, checked; ok when nothing unknown was found.
  const attempt = async (mutation: Mutation, keep: boolean) => {
    const outcome = await sendMutation(run, op, summary, validatorOf, template, mutation, serial++);
    if (keep && outcome.freedPo !== undefined) poNumbers.push(outcome.freedPo);
    return { ok: outcome.problems.every((p) => isKnown(run, p)), problems: outcome.problems };
  };

  let lastFailure: Problem[] = [];
  const result = await fc.check(
    fc.asyncProperty(mutationArbitrary, async (mutation) => {
      if (performance.now() > run.deadline) return true;
      const { ok, problems } = await attempt(mutation, true);
      if (!ok) lastFailure = problems;
      // Known ones are counted as they come; an unknown one is recorded once shrunk.
      for (const p of problems) if (isKnown(run, p)) run.record(p);
      return ok;
    }),
    {
      seed: run.options.seed,
      numRuns: run.options.runs + 1,
      examples: [[{ kind: 'example' as const, a: 0, b: 0 }]],
      // Shrinking sends requests too: it stops at the deadline with the smallest failure so far.
      interruptAfterTimeLimit: Number.isFinite(run.deadline)
        ? Math.max(1_000, run.deadline - performance.now())
        : undefined,
    },
  );
  if (result.failed && result.counterexample !== null) {
    const { problems } = await attempt(result.counterexample[0], false);
    for (const p of problems) run.record(p);
    // Not again when replayed: what it did the last time, said so.
    if (problems.length === 0)
      for (const p of lastFailure) run.record({ ...p, message: `${p.message} (once; not again when replayed)` });
  }
  for (const po of poNumbers.slice(0, PO_CHECKS)) await recheckPoNumber(run, op, summary.surface, template, po);
}

/** One mutation of the example, sent and checked: the problems found, and the PO number a refused order left free. */
async function sendMutation(
  run: FuzzRun,
  op: DocumentOperation,
  summary: OperationSummary,
  validatorOf: ReturnType<typeof documentValidators>,
  template: RequestTemplate,
  mutation: Mutation,
  serial: number,
): Promise<{ problems: Problem[]; freedPo?: string }> {
  const { options } = run;
  const t = { ...template };
  const po = freshPo(t, options.seed, serial);
  const m = materialize(t, mutation);
  const request: FuzzRequest = {
    surface: summary.surface,
    method: m.method,
    url: m.url,
    headers: m.headers,
    body: m.body,
  };
  const response = await run.send(request);
  summary.requests++;
  const base = { operationId: op.operationId, change: m.change, request };
  if (response instanceof Error) return { problems: [{ ...base, check: 'no-answer', message: response.message }] };
  summary.statuses[response.status] = (summary.statuses[response.status] ?? 0) + 1;
  const problems = [
    ...checkReply(op, response, { validatorOf, sellerFaults: options.sellerFaults }),
    ...checkContentType(m.headers['content-type'], op.requestBody !== undefined, response),
  ].map((p) => ({ ...base, ...p, status: response.status }));
  // A refused order whose PO number we did not touch: that number must still be free.
  const freed =
    po !== undefined &&
    leavesPoFree(response, options.sellerFaults === true) &&
    !m.change.includes('purchase_order_number');
  return { problems, freedPo: freed ? po : undefined };
}

/** Whether an answer says the order was refused, so its PO number must still be free. */
function leavesPoFree(response: FuzzResponse, sellerFaults: boolean): boolean {
  return (
    (response.status >= 400 && response.status < 500 && ![409, 429].includes(response.status)) ||
    // A seller fault the gateway answers 503 for: free only when it says the order was not
    // placed (a seller's 503, no connection); after a seller's 500 or a reset it may have been.
    (sellerFaults && response.status === 503 && response.text.includes('may be sent again'))
  );
}

/** The valid example under a PO number a refused order used: it must be accepted. */
async function recheckPoNumber(
  run: FuzzRun,
  op: DocumentOperation,
  surface: Surface,
  template: RequestTemplate,
  po: string,
): Promise<void> {
  const { options, send } = run;
  const body = JSON.stringify({ ...(template.body as object), purchase_order_number: po });
  // Without the extra headers: a seller told to fail would refuse this one too.
  const headers = Object.fromEntries(
    Object.entries(template.headers).filter(([name]) => !(name in (options.extraHeaders ?? {}))),
  );
  const request: FuzzRequest = { surface, method: 'POST', url: op.path, headers, body };
  let response = await send(request);
  // Over the rate limit (a running stack): once more when the server says, else no verdict.
  if (!(response instanceof Error) && response.status === 429) {
    const seconds = Number(response.headers['retry-after'] ?? 1);
    if (seconds <= MAX_RETRY_AFTER_S) await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    response = await send(request);
    if (!(response instanceof Error) && response.status === 429) {
      run.progress(`${op.operationId}: PO number ${po} not rechecked (rate limited)`);
      return;
    }
  }
  if (response instanceof Error || response.status !== 200) {
    const status = response instanceof Error ? undefined : response.status;
    run.record({
      operationId: op.operationId,
      check: 'po-number-kept',
      message: `the valid example with PO number ${po}, used before by a refused order, answered ${status ?? response}: ${response instanceof Error ? '' : response.text.slice(0, 200)}`,
      change: 'the example with a refused order’s PO number',
      status,
      request,
    });
  }
}

/** place_order: every request gets its own PO number, so one request's order does not make the next a 409. */
function freshPo(t: RequestTemplate, seed: number, serial: number): string | undefined {
  const body = t.body as { purchase_order_number?: unknown } | undefined;
  if (body === undefined || typeof body.purchase_order_number !== 'string') return undefined;
  const po = `FUZZ-${seed}-${Date.now().toString(36)}-${serial}`;
  t.body = { ...body, purchase_order_number: po };
  return po;
}

async function templateOf(
  op: DocumentOperation,
  surface: Surface,
  options: FuzzOptions,
  session: CatalogSession | undefined,
): Promise<RequestTemplate> {
  const headers: Record<string, string> = { ...options.extraHeaders };
  const schemes = op.security.flatMap((s) => Object.keys(s));
  if (schemes.includes('buyerJwt')) headers.authorization = `Bearer ${await options.credentials.buyerJwt()}`;
  else if (schemes.includes('catalogSession') && session !== undefined)
    headers.authorization = `Bearer ${session.token}`;
  else if (schemes.includes('internalApi')) headers.authorization = `Bearer ${options.credentials.internalApi}`;
  const json = op.requestBody?.content['application/json'];
  if (json !== undefined) headers['content-type'] = 'application/json';
  const pathValues: Record<string, string> = {};
  const query: Record<string, string> = {};
  for (const p of op.parameters) {
    const value = p.name === 'cart_id' && session !== undefined ? session.cartId : String(p.example);
    if (p.in === 'path') pathValues[p.name as string] = value;
    else if (p.in === 'query') query[p.name as string] = value;
    // A documented header (X-Operator on the member writes) goes with its example, as a caller sends it.
    else if (p.in === 'header') headers[(p.name as string).toLowerCase()] = value;
  }
  return {
    method: op.method.toUpperCase(),
    path: op.path,
    pathValues,
    query,
    headers,
    body: json?.example,
    maxBodyBytes: options.maxBodyBytes[surface],
  };
}

interface CatalogSession {
  token: string;
  cartId: string;
}

async function openCatalogSession(
  options: FuzzOptions,
  send: (r: FuzzRequest) => Promise<FuzzResponse | Error>,
): Promise<CatalogSession | undefined> {
  if (options.documents.gateway === undefined) return undefined;
  const response = await send({
    surface: 'gateway',
    method: 'POST',
    url: '/auth/get_catalog_token',
    headers: { authorization: `Bearer ${await options.credentials.buyerJwt()}`, 'content-type': 'application/json' },
    body: '{}',
  });
  if (response instanceof Error || response.status !== 200) return undefined;
  const reply = JSON.parse(response.text) as { token: string; cart_id: string };
  return { token: reply.token, cartId: reply.cart_id };
}

async function checkAlive(
  options: FuzzOptions,
  send: (r: FuzzRequest) => Promise<FuzzResponse | Error>,
  record: (f: Omit<Finding, 'known' | 'curl'>) => boolean,
): Promise<void> {
  const probes: [Surface, string][] = [
    ['gateway', '/health'],
    ['internal', '/openapi.json'],
  ];
  for (const [surface, url] of probes) {
    if (options.documents[surface] === undefined) continue;
    const request: FuzzRequest = { surface, method: 'GET', url, headers: {} };
    const response = await send(request);
    if (response instanceof Error || response.status !== 200) {
      const status = response instanceof Error ? undefined : response.status;
      record({
        operationId: `${surface} ${url}`,
        check: 'not-alive',
        message: `after the run, GET ${url} answered ${status ?? String(response)}`,
        change: '',
        status,
        request,
      });
    }
  }
}
