import type { Hono } from 'hono';
import { PACT_FILE } from '../../contracts/pact/pact-names';
import { PactFileError, readV4Pact, type PactInteraction } from '../../contracts/pact/pact-file';
import { asInputError, KitInputError } from '../kit-errors';
import { ensureSellerReachable } from '../seller-options';
import { headersOption, httpUrlOption, wholeNumberOption } from '../option-checks';
import { checkStateMap, readStateMap, StateMapError, type StateMapFile } from '../states/state-map';
import { checkNotOffered, NotOfferedError, type NotOffered } from '../states/not-offered';
import { statesLackingValues, type StateLackingValues } from '../states/example-values';
import { CompatInputError, loadContract } from '../compat/contract-source';
import { compareDocuments } from '../compat/compare-documents';
import type { CompatReport } from '../compat/compat-report';
import { interactionNotes, type InteractionNotes } from './interaction-notes';
import { DEFAULT_TIMEOUT_MS, runVerification, type StateSetup } from './run-verification';
import { startRun } from '../reports/run-identity';
import { interactionReport, type InteractionReport, type VerificationReport } from '../reports/verification-report';
import type { Exchange } from '../rules-proxy/proxied-exchange';
import type { PactSource, Publication } from './verifier-options';
import { DEFAULT_MAX_REPLY_BYTES, MAX_REPLY_BYTES_CEILING } from '../reply-within-limit';
import { catalogueOfStateMap } from '../explore/catalogue';
import { ensureSellerHasParts } from '../explore/preflight';

// verifySeller: `verify` as a function. Pact verification of a seller system with the reply
// rules applied to every exchange, returning the report the command prints. Steps: check the
// options, read the states and the contract, probe the seller, run. Bad input throws a
// KitInputError naming the option, a seller not reachable at start a SellerUnreachableError;
// nothing is printed and the process is never ended.

/** The pacts of a Pact Broker, instead of pact files. */
export interface BrokerPacts {
  url: string;
  token?: string;
  username?: string;
  password?: string;
  /** Verify the consumer's pacts of this branch (default: its main branch and what is deployed or released). */
  consumerBranch?: string;
  /** Publish the results to the broker. */
  publish?: Publication;
}

export interface VerifySellerOptions {
  /** Your seller system's endpoint: every request is POSTed here. */
  sellerUrl: string;
  /** The pact file(s) to verify; default the pact this package ships. */
  pact?: string | readonly string[];
  /** Or: the pacts a Pact Broker holds for the seller system. */
  broker?: BrokerPacts;
  /** A state map (state → your values), as a file path or an object: the kit answers the states itself. */
  stateMap?: string | StateMapFile;
  /** Or: your provider-state callback, POSTed {state, params, action}. */
  statesUrl?: string;
  /** Added to every request to your system and to its state callback (e.g. authorization). */
  headers?: Record<string, string>;
  /** How long your system may take per exchange (default 30000 ms). */
  timeoutMs?: number;
  /** The largest reply read from your system (default 8 MiB); a larger one is a reply.too-large finding. */
  maxReplyBytes?: number;
  /**
   * States of optional interactions your system does not offer: reported
   * NOT OFFERED, not run (the state map's not_offered adds to them).
   */
  notOffered?: readonly string[];
  /** With a state map lacking values for some states' parameters: run anyway, sending the contract's examples. */
  allowExampleValues?: boolean;
  /**
   * The contract you last passed (a pact file, a directory of the contract's files or a git ref): changes are marked.
   */
  since?: string;
  /** New and changed interactions since `since` (without it, those the pact marks pending) run as pending. */
  pending?: boolean;
  /** Stops the run: the report says what did not run (`stopped`: the signal's reason). */
  signal?: AbortSignal;
  /** Told of each step of the run as it happens. */
  onProgress?: (event: VerifyProgress) => void;
}

/** What a verification tells as it goes, in the order it happens. */
export type VerifyProgress =
  /** States that will be sent with the contract's example values (a state map lacking them, or no state source). */
  | { kind: 'example-values'; lacking: StateLackingValues[]; source: 'state map' | 'none'; stateMapFile?: string }
  /** `pending` without `since`: how many interactions the pact itself marks pending. */
  | { kind: 'pending-in-pact'; count: number }
  /** With `since`: the comparison of the two contracts, before any verdict. */
  | { kind: 'since'; compat: CompatReport }
  | { kind: 'started'; sellerUrl: string; pacts: string; timeoutMs: number }
  /** The kit's proxy in front of your system listens here while the run lasts. */
  | { kind: 'proxy-ready'; url: string }
  /** Every exchange through the kit's proxy. */
  | { kind: 'exchange'; exchange: Exchange }
  /** One interaction done: its report, its 1-based number, how many there are, its last exchange. */
  | { kind: 'interaction'; interaction: InteractionReport; index: number; total: number; lastExchange?: Exchange }
  /** What the Pact verifier printed for an interaction. */
  | { kind: 'pact-output'; text: string };

/** Thrown when a state map gives no value for some states' parameters and `allowExampleValues` is not set. */
export class ExampleValuesError extends KitInputError {
  override name = 'ExampleValuesError';
  constructor(
    readonly lacking: StateLackingValues[],
    readonly stateMapFile: string | undefined,
  ) {
    super(
      'stateMap',
      `the state map${stateMapFile === undefined ? '' : ` ${stateMapFile}`} gives no value for the parameters of ${lacking.map((l) => `'${l.state}'`).join(', ')}; ` +
        `add them (or declare an optional state "not_offered"), or set allowExampleValues`,
    );
  }
}

/** The options checked: what the run needs, in its own terms. */
interface CheckedOptions {
  sellerUrl: string;
  pacts: PactSource;
  headers: Record<string, string>;
  timeoutMs: number;
  maxReplyBytes: number;
  publish?: Publication;
}

function pactSourceOf(options: VerifySellerOptions): PactSource {
  const { broker } = options;
  if (broker === undefined) {
    const files =
      options.pact === undefined ? [PACT_FILE] : typeof options.pact === 'string' ? [options.pact] : [...options.pact];
    if (files.length === 0 || files.some((f) => typeof f !== 'string' || f === ''))
      throw new KitInputError('pact', 'must name at least one pact file');
    return { kind: 'file', files };
  }
  if (options.pact !== undefined) throw new KitInputError('pact', 'give pact or broker, not both');
  return {
    kind: 'broker',
    brokerUrl: httpUrlOption('broker.url', broker.url),
    ...(broker.token !== undefined ? { token: broker.token } : {}),
    ...(broker.username !== undefined ? { username: broker.username, password: broker.password ?? '' } : {}),
    ...(broker.consumerBranch !== undefined ? { selectors: [{ branch: broker.consumerBranch }] } : {}),
    ...(options.pending === true ? { enablePending: true } : {}),
  };
}

function checkOptions(options: VerifySellerOptions): CheckedOptions {
  if (options.stateMap !== undefined && options.statesUrl !== undefined)
    throw new KitInputError('stateMap', 'give stateMap or statesUrl, not both');
  if (options.statesUrl !== undefined) httpUrlOption('statesUrl', options.statesUrl);
  if (options.allowExampleValues === true && options.stateMap === undefined)
    throw new KitInputError('allowExampleValues', 'needs stateMap');
  const pacts = pactSourceOf(options);
  if (options.since !== undefined) {
    if (options.since === '')
      throw new KitInputError('since', 'needs a value: the pact, directory or git ref you last passed');
    if (pacts.kind === 'broker')
      throw new KitInputError(
        'since',
        "needs pact files: a broker's pacts are fetched in the run, the kit cannot compare them first",
      );
    if (pacts.files.length > 1) throw new KitInputError('since', 'compares one pact: give one pact file');
  }
  if (pacts.kind === 'broker' && (options.notOffered?.length ?? 0) > 0)
    throw new KitInputError(
      'notOffered',
      "needs pact files: a broker's pacts are verified in one run, the kit cannot leave an interaction out",
    );
  const publish = options.broker?.publish;
  if (publish !== undefined && (typeof publish.providerVersion !== 'string' || publish.providerVersion === ''))
    throw new KitInputError('broker.publish.providerVersion', 'is required to publish');
  return {
    sellerUrl: httpUrlOption('sellerUrl', options.sellerUrl),
    pacts,
    headers: headersOption('headers', options.headers),
    timeoutMs: wholeNumberOption('timeoutMs', options.timeoutMs, 1, 3_600_000, DEFAULT_TIMEOUT_MS),
    maxReplyBytes: wholeNumberOption(
      'maxReplyBytes',
      options.maxReplyBytes,
      1,
      MAX_REPLY_BYTES_CEILING,
      DEFAULT_MAX_REPLY_BYTES,
    ),
    ...(publish !== undefined ? { publish } : {}),
  };
}

/** The state source: a state map read (file) or checked (object), a callback URL, or none. */
async function stateSetupOf(options: VerifySellerOptions): Promise<StateSetup> {
  const { stateMap, statesUrl } = options;
  if (statesUrl !== undefined) return { kind: 'url', url: statesUrl };
  if (stateMap === undefined) return { kind: 'none' };
  const map = await asInputError(
    'stateMap',
    () => (typeof stateMap === 'string' ? readStateMap(stateMap) : checkStateMap(stateMap)),
    [StateMapError],
  );
  return { kind: 'map', map };
}

/** What the pact files say before anything runs: the interactions left out, the marks, the comparison with `since`. */
interface ContractPlan {
  /** The states declared not offered: the state map's and the option's. */
  declared: string[];
  notOffered: NotOffered[];
  marks?: Map<string, InteractionNotes>;
  compat?: CompatReport;
  interactions: PactInteraction[];
}

async function contractPlanOf(
  options: VerifySellerOptions,
  pacts: PactSource,
  states: StateSetup,
): Promise<ContractPlan> {
  const declared = [...(states.kind === 'map' ? (states.map.not_offered ?? []) : []), ...(options.notOffered ?? [])];
  if (pacts.kind === 'broker') {
    if (declared.length > 0)
      throw new KitInputError(
        'stateMap',
        "not_offered needs pact files: a broker's pacts are verified in one run, the kit cannot leave an interaction out",
      );
    return { declared, notOffered: [], interactions: [] };
  }
  const interactions = await asInputError('pact', () => pacts.files.flatMap((file) => readV4Pact(file).interactions), [
    PactFileError,
  ]);
  const notOffered = await asInputError('notOffered', () => checkNotOffered(declared, interactions), [NotOfferedError]);
  // Compared before anything runs: a `since` that is no pact is bad input, like an unreadable pact.
  const since = options.since;
  const compat =
    since === undefined
      ? undefined
      : await asInputError(
          'since',
          () => compareDocuments(loadContract(since, process.cwd()), loadContract(pacts.files[0], process.cwd())),
          [CompatInputError],
        );
  const marks = interactionNotes(interactions, compat, options.pending === true);
  return { declared, notOffered, marks, interactions, ...(compat !== undefined ? { compat } : {}) };
}

/** States sent with the contract's examples: told, and with a state map refused unless allowed. */
function checkExampleValues(
  options: VerifySellerOptions,
  states: StateSetup,
  plan: ContractPlan,
  tell: (event: VerifyProgress) => void,
): void {
  if (states.kind === 'url' || options.broker !== undefined) return;
  const lacking = statesLackingValues(states.kind === 'map' ? states.map : undefined, plan.interactions, plan.declared);
  if (lacking.length === 0) return;
  const stateMapFile = typeof options.stateMap === 'string' ? options.stateMap : undefined;
  tell({
    kind: 'example-values',
    lacking,
    source: states.kind === 'map' ? 'state map' : 'none',
    ...(stateMapFile !== undefined ? { stateMapFile } : {}),
  });
  if (states.kind === 'map' && options.allowExampleValues !== true) throw new ExampleValuesError(lacking, stateMapFile);
}

/**
 * The parts a state map names, asked of the seller before the run as explore asks them: a typo
 * in a part number is one line now, not a wall of Pact's mismatches on every interaction after.
 */
async function ensureStateMapParts(options: VerifySellerOptions, checked: CheckedOptions, states: StateSetup) {
  if (states.kind !== 'map') return;
  const file = typeof options.stateMap === 'string' ? options.stateMap : '(the object given)';
  const catalogue = catalogueOfStateMap(states.map, file);
  if (catalogue.locations.length === 0 || catalogue.parts.length === 0) return;
  const target = { sellerUrl: checked.sellerUrl, headers: checked.headers, timeoutMs: checked.timeoutMs };
  await ensureSellerHasParts(
    { ...target, maxReplyBytes: checked.maxReplyBytes },
    catalogue,
    'stateMap',
    options.signal,
    'Correct the state map (a part your system does not have belongs to "part is unknown" or "order will fail") and run again.',
  );
}

/** Served on the kit's proxy port instead of relayed (the command's live inspector page). */
export interface ProxyExtras {
  proxyRoutes?: { path: string; app: Hono }[];
}

/** verifySeller with the command's extras; the toolkit exports verifySeller. */
export async function verifySellerWith(options: VerifySellerOptions, extras: ProxyExtras): Promise<VerificationReport> {
  const tell = options.onProgress ?? (() => {});
  const checked = checkOptions(options);
  const states = await stateSetupOf(options);
  const plan = await contractPlanOf(options, checked.pacts, states);
  if (options.pending === true && plan.compat === undefined && checked.pacts.kind === 'file')
    tell({
      kind: 'pending-in-pact',
      count: [...(plan.marks?.values() ?? [])].filter((m) => m.pending !== undefined).length,
    });
  checkExampleValues(options, states, plan, tell);
  await ensureSellerReachable(checked.sellerUrl);
  await ensureStateMapParts(options, checked, states);

  if (plan.compat !== undefined) tell({ kind: 'since', compat: plan.compat });
  const pactsText = checked.pacts.kind === 'file' ? checked.pacts.files.join(', ') : checked.pacts.brokerUrl;
  tell({ kind: 'started', sellerUrl: checked.sellerUrl, pacts: pactsText, timeoutMs: checked.timeoutMs });
  const { compat } = plan;
  return runVerification({
    start: startRun(
      checked.sellerUrl,
      checked.pacts.kind === 'file' ? { files: checked.pacts.files } : { broker: checked.pacts.brokerUrl },
    ),
    sellerUrl: checked.sellerUrl,
    pacts: checked.pacts,
    states,
    headers: checked.headers,
    timeoutMs: checked.timeoutMs,
    maxReplyBytes: checked.maxReplyBytes,
    notOffered: plan.notOffered,
    ...(plan.marks !== undefined ? { marks: plan.marks } : {}),
    ...(compat !== undefined ? { since: { base: compat.base, head: compat.head, summary: compat.summary } } : {}),
    ...(checked.publish !== undefined ? { publish: checked.publish } : {}),
    onInteraction: (run, index, total) =>
      tell({
        kind: 'interaction',
        interaction: interactionReport(run),
        index,
        total,
        ...(run.exchanges.length > 0 ? { lastExchange: run.exchanges.at(-1) } : {}),
      }),
    log: (text) => tell({ kind: 'pact-output', text }),
    ...(options.signal !== undefined ? { signal: options.signal } : {}),
    ...(extras.proxyRoutes !== undefined ? { proxyRoutes: extras.proxyRoutes } : {}),
    onExchange: (exchange) => tell({ kind: 'exchange', exchange }),
    onProxyReady: (url) => tell({ kind: 'proxy-ready', url }),
  });
}

/**
 * Verifies a seller system against the pact and the contract's reply rules, as `verify` does,
 * and returns the report `verify --json` writes. Never prints, never ends the process.
 *
 * @throws KitInputError naming the option at fault (an unreadable state map or pact, a `since`
 *   that is no contract, a `notOffered` state that is not optional, a state map lacking values or
 *   naming a part the seller answers "not found" for).
 * @throws SellerUnreachableError when nothing listens at `sellerUrl` at start.
 */
export function verifySeller(options: VerifySellerOptions): Promise<VerificationReport> {
  return verifySellerWith(options, {});
}
