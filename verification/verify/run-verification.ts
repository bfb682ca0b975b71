import type { Hono } from 'hono';
import { PROVIDER } from '../../contracts/pact/pact-names';
import { readV4Pact } from '../../contracts/pact/pact-file';
import { exactly, runPactCli, type PactCliRun } from './pact-cli';
import { failureOf, parsePactResults } from './pact-results';
import type { RunStart } from '../reports/run-identity';
import {
  buildReport,
  interactionAccepted,
  type InteractionRun,
  type NoStateSourceNote,
  type VerificationReport,
} from '../reports/verification-report';
import type { Exchange } from '../rules-proxy/proxied-exchange';
import { startRulesProxy } from '../rules-proxy/rules-proxy';
import { listen } from '../../shared/http/listen';
import { createStateEndpoint } from '../states/state-endpoint';
import {
  noStateSource,
  remoteStateSource,
  stateMapSource,
  type StateEvent,
  type StateSource,
} from '../states/state-handlers';
import type { StateMapFile } from '../states/state-map';
import type { PactSource, Publication } from './verifier-options';
import { notOfferedFor, type NotOffered } from '../states/not-offered';
import { PENDING_IN_PACT, type InteractionNotes } from './interaction-notes';

// The vendor kit's run: the rules proxy in front of the seller, the kit's state endpoint in
// front of the vendor's state source, and the official Pact verifier (a child process)
// through both — one verifier run per interaction of a pact file, so every exchange and
// state change belongs to the interaction under way, never to a neighbour. Pacts from a
// broker are verified in one run (the kit cannot list their interactions first); there an
// exchange belongs to the interaction whose states were set up before it.

export type StateSetup = { kind: 'url'; url: string } | { kind: 'map'; map: StateMapFile } | { kind: 'none' };

/** The per-exchange limit when none is given: the seller's answer within 30 s. */
export const DEFAULT_TIMEOUT_MS = 30_000;
/** Pact's own limit sits above the proxy's, so the proxy always answers first. */
const PACT_MARGIN_MS = 5_000;
const LATE_WAIT_MIN_MS = 5_000;

export interface KitRun {
  sellerUrl: string;
  pacts: PactSource;
  states: StateSetup;
  /** Added to every request to the seller and its state callback (e.g. authorization). */
  headers?: Record<string, string>;
  publish?: Publication;
  /** How long the seller may take per exchange. */
  timeoutMs?: number;
  /** The largest reply read from the seller (default 8 MiB): past it, a `reply.too-large` finding. */
  maxReplyBytes?: number;
  /** After each interaction: its report so far, its 1-based number, how many there are. */
  onInteraction?: (run: InteractionRun, index: number, total: number) => void;
  /** Everything the Pact verifier printed (for --verbose). */
  log?: (text: string) => void;
  /** Stops the run: the verifier child is ended, what did not run is reported as such. */
  signal?: AbortSignal;
  /** Served on the kit's proxy port instead of relayed (e.g. an inspector page), and told of every exchange. */
  proxyRoutes?: { path: string; app: Hono }[];
  onExchange?: (exchange: Exchange) => void;
  /** The kit's proxy listens here for the length of the run. */
  onProxyReady?: (url: string) => void;
  /** Optional interactions the seller does not offer (checked with checkNotOffered): reported, not run. */
  notOffered?: NotOffered[];
  /** Per interaction description: what changed since `--since`, and whether it runs as pending (interactionNotes). */
  marks?: ReadonlyMap<string, InteractionNotes>;
  /** With `--since`: the comparison's sides and counts, for the report. */
  since?: VerificationReport['since'];
  /** What the run judges (versions, pacts, seller, start), for the report. */
  start?: RunStart;
}

const stateSource = (run: KitRun): StateSource =>
  run.states.kind === 'url'
    ? remoteStateSource(run.states.url, run.headers)
    : run.states.kind === 'map'
      ? stateMapSource(run.states.map)
      : noStateSource;

const newRun = (description: string, states: string[]): InteractionRun => ({
  description,
  states,
  exchanges: [],
  stateErrors: [],
  injected: new Map(),
  exampleValues: new Map(),
});

/** What the verifier's exit says when it wrote no result: it could not run at all. */
function crashed(result: PactCliRun): string | undefined {
  if (result.json !== undefined || result.signal !== null) return undefined;
  const last = result.output.trim().split('\n').slice(-3).join(' | ');
  return `the Pact verifier stopped with exit code ${result.code}: ${last}`;
}

/**
 * Which interaction each exchange and state change belongs to: the one under way. Exchanges are
 * tagged with its key when they arrive. Broker pacts run in one go: there a setup after a
 * teardown starts the next interaction (a segment).
 */
function createInteractionTracker(run: KitRun) {
  let current: InteractionRun | undefined;
  const keys = new Map<InteractionRun, string>();
  const byKey = new Map<string, InteractionRun>();
  const segments: InteractionRun[] = [];
  let lastAction: StateEvent['action'] = 'teardown';
  const keyOf = (r: InteractionRun) => {
    let key = keys.get(r);
    if (key === undefined) {
      key = `#${keys.size + 1}`;
      keys.set(r, key);
      byKey.set(key, r);
    }
    return key;
  };
  const onState = (event: StateEvent) => {
    if (run.pacts.kind === 'broker' && event.action === 'setup' && lastAction === 'teardown') {
      current = newRun(`interaction ${segments.length + 1}`, []);
      segments.push(current);
    }
    lastAction = event.action;
    if (current === undefined) return;
    if (run.pacts.kind === 'broker' && event.action === 'setup') current.states.push(event.state);
    recordStateEvent(current, event);
  };
  return {
    segments,
    onState,
    /** The interaction under way (undefined between interactions). */
    set current(r: InteractionRun | undefined) {
      current = r;
    },
    tag: () => (current === undefined ? undefined : keyOf(current)),
    belongs: (exchange: Exchange) => {
      if (exchange.tag !== undefined) byKey.get(exchange.tag)?.exchanges.push(exchange);
    },
  };
}
type InteractionTracker = ReturnType<typeof createInteractionTracker>;

/** A state change's errors, and which values the seller was sent: its own or the contract's examples. */
function recordStateEvent(current: InteractionRun, event: StateEvent): void {
  if (event.error !== undefined)
    current.stateErrors.push(`${event.action} of state '${event.state}' failed: ${event.error}`);
  if (event.action !== 'setup') return;
  // A parameter the state source gave no value for is sent as the contract's example.
  for (const [param, example] of Object.entries(event.params))
    if (event.injected?.[param] === undefined && (typeof example === 'string' || typeof example === 'number'))
      current.exampleValues.set(param, String(example));
  if (event.injected === undefined) return;
  for (const [param, value] of Object.entries(event.injected)) {
    const example = event.params[param];
    if (
      example !== undefined &&
      (typeof value === 'string' || typeof value === 'number') &&
      String(example) !== String(value)
    )
      current.injected.set(String(example), String(value));
  }
}

/** The kit's state endpoint and rules proxy for the run, and the verifier arguments that point at both. */
async function startKitServers(run: KitRun, tracker: InteractionTracker, timeoutMs: number) {
  const endpoint = await listen(createStateEndpoint(stateSource(run), tracker.onState).fetch);
  const proxy = await startRulesProxy({
    sellerUrl: run.sellerUrl,
    headers: run.headers,
    timeoutMs,
    ...(run.maxReplyBytes !== undefined ? { maxReplyBytes: run.maxReplyBytes } : {}),
    tag: tracker.tag,
    onExchange: (exchange: Exchange) => {
      tracker.belongs(exchange);
      run.onExchange?.(exchange);
    },
    ...(run.proxyRoutes !== undefined ? { routes: run.proxyRoutes } : {}),
  });
  run.onProxyReady?.(proxy.url);
  const proxyUrl = new URL(proxy.url);
  const args = [
    '--hostname',
    proxyUrl.hostname,
    '--port',
    proxyUrl.port,
    '--provider-name',
    PROVIDER,
    '--state-change-url',
    `${endpoint.url}/states`,
    // Teardown calls too, for sellers that clean up; our states never need them.
    '--state-change-teardown',
    '--request-timeout',
    String(timeoutMs + PACT_MARGIN_MS),
    '--no-colour',
  ];
  return {
    proxy,
    args,
    close: async () => {
      await proxy.close();
      await endpoint.close();
    },
  };
}

/** Every interaction of the pact files, each marked (not offered, changed, pending) before any runs. */
function plannedInteractions(run: KitRun, files: string[]) {
  const planned = files.flatMap((file) =>
    readV4Pact(file).interactions.map((i) => ({
      file,
      pending: i.pending === true,
      run: newRun(
        i.description,
        (i.providerStates ?? []).map((s) => s.name),
      ),
    })),
  );
  for (const p of planned) {
    const declared = notOfferedFor(p.run, run.notOffered ?? []);
    if (declared !== undefined) p.run.notOffered = declared;
    // `pending: true` in the pact is honoured whoever calls, as every Pact verifier honours it.
    const marks = run.marks?.get(p.run.description) ?? (p.pending ? { pending: PENDING_IN_PACT } : undefined);
    if (marks !== undefined) p.run.marks = marks;
  }
  return planned;
}

/** One verifier run per interaction of the pact files, in order, until the signal stops them. */
async function verifyPactFiles(
  run: KitRun,
  files: string[],
  tracker: InteractionTracker,
  args: string[],
): Promise<InteractionRun[]> {
  const planned = plannedInteractions(run, files);
  for (const [index, plan] of planned.entries()) {
    if (run.signal?.aborted) break;
    if (plan.run.notOffered !== undefined) {
      run.onInteraction?.(plan.run, index + 1, planned.length);
      continue;
    }
    tracker.current = plan.run;
    const result = await runPactCli({
      args: ['--file', plan.file, '--filter-description', exactly(plan.run.description), ...args],
      signal: run.signal,
    });
    run.log?.(result.output);
    if (result.signal !== null) break; // stopped: this interaction did not finish
    const pact = parsePactResults(result.json ?? '', result.code !== 0);
    const failure = failureOf(pact, plan.run.description);
    plan.run.pact = {
      ...(failure !== undefined ? { failure } : {}),
      ...(crashed(result) !== undefined ? { problem: crashed(result) } : {}),
    };
    tracker.current = undefined;
    run.onInteraction?.(plan.run, index + 1, planned.length);
  }
  return planned.map((p) => p.run);
}

/** The broker's pacts in one verifier run; the segments the state changes marked become the interactions. */
async function verifyBrokerPacts(
  run: KitRun,
  tracker: InteractionTracker,
  args: string[],
): Promise<{ runs: InteractionRun[]; fatal?: string }> {
  const result = await runPactCli({ args: [...brokerArgs(run), ...args], signal: run.signal });
  run.log?.(result.output);
  const pact = parsePactResults(result.json ?? '', result.code !== 0);
  const fatal = pact.fatal ?? crashed(result);
  for (const [index, segment] of tracker.segments.entries()) {
    segment.description = pact.interactions?.[index] ?? segment.description;
    const failure = failureOf(pact, segment.description);
    segment.pact = failure !== undefined ? { failure } : {};
    run.onInteraction?.(segment, index + 1, tracker.segments.length);
  }
  return { runs: [...tracker.segments], ...(fatal !== undefined ? { fatal } : {}) };
}

export async function runVerification(run: KitRun): Promise<VerificationReport> {
  const timeoutMs = run.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const tracker = createInteractionTracker(run);
  const servers = await startKitServers(run, tracker, timeoutMs);
  let outcome: { runs: InteractionRun[]; fatal?: string };
  try {
    outcome =
      run.pacts.kind === 'file'
        ? { runs: await verifyPactFiles(run, run.pacts.files, tracker, servers.args) }
        : await verifyBrokerPacts(run, tracker, servers.args);
    // Late replies still on their way are reported with their time: awaited one more limit (at least 5 s).
    if (!run.signal?.aborted) await servers.proxy.settled(Math.max(timeoutMs, LATE_WAIT_MIN_MS));
  } finally {
    tracker.current = undefined;
    await servers.close();
  }
  const report = buildReport(run.sellerUrl, outcome.runs, {
    ...(outcome.fatal !== undefined ? { fatal: outcome.fatal } : {}),
    ...(run.signal?.aborted ? { stopped: String(run.signal.reason ?? 'stopped') } : {}),
    ...(run.since !== undefined ? { since: run.since } : {}),
    ...(run.start !== undefined ? { start: run.start } : {}),
  });
  const note = noStateSourceNote(run.states, report);
  return note === undefined ? report : { ...report, noStateSource: note };
}

/**
 * Without a state map or callback every state is sent with the contract's example values, which a
 * real seller does not have: when most interactions that ran failed so, the report says that a
 * state source is what is missing, and how to write one, rather than leave a wall of failures.
 */
export function noStateSourceNote(states: StateSetup, report: VerificationReport): NoStateSourceNote | undefined {
  if (states.kind !== 'none') return undefined;
  const ran = report.interactions.filter((i) => i.pact === 'passed' || i.pact === 'failed');
  const failed = ran.filter((i) => !interactionAccepted(i));
  if (failed.length === 0 || failed.length * 2 <= ran.length) return undefined;
  if (!failed.some((i) => i.exampleValues !== undefined)) return undefined;
  return {
    failed: failed.length,
    ran: ran.length,
    text:
      `${failed.length} of ${ran.length} interactions failed and no state map or --states-url was given: ` +
      "the contract's example parts were asked for. Write one: npx federated-gateway states --template > my-states.json " +
      '(docs/vendor/state-maps.md)',
  };
}

/** Verifier arguments for the pacts a broker holds for this provider, and for publishing the results there. */
function brokerArgs(run: KitRun): string[] {
  if (run.pacts.kind !== 'broker') return [];
  const source = run.pacts;
  const args = ['--broker-url', source.brokerUrl];
  if (source.token !== undefined) args.push('--token', source.token);
  if (source.username !== undefined) args.push('--user', source.username, '--password', source.password ?? '');
  for (const selector of source.selectors ?? [{ mainBranch: true }, { deployedOrReleased: true }])
    args.push('--consumer-version-selectors', JSON.stringify(selector));
  if (source.enablePending === true) args.push('--enable-pending');
  if (run.publish !== undefined) {
    args.push('--publish', '--provider-version', run.publish.providerVersion);
    if (run.publish.branch !== undefined) args.push('--provider-branch', run.publish.branch);
    if (run.publish.buildUrl !== undefined) args.push('--build-url', run.publish.buildUrl);
  }
  return args;
}
