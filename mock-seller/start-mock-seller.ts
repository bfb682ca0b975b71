import { listen } from '../shared/http/listen';
import { readPact, type PactDocument } from '../contracts/pact/pact-file';
import { createPactReplay } from './pact-replay';
import { createMockSeller, type MockSeller, type MockSellerOptions } from './app';
import { readScenarioFile } from './scenario-file';
import { DEFAULT_SCENARIO_PATH } from './default-scenario';
import type { FaultRuleInput } from './fault-registry';

export interface StartOptions extends MockSellerOptions {
  /** A scenario object, or the path of a scenario file; default fixtures/scenarios/default.json. */
  scenario?: unknown;
  /** 0 picks a free port; the real one is reported. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /**
   * Misbehaviour from the start, as POST /__admin/faults sets it: e.g. `{ service: 'item_inquiry',
   * fault: { kind: 'wrong-original-part' } }` breaks the alternate.original-part reply rule.
   * Kept until cleared or reset (`seller.reset()`, POST /__admin/reset).
   */
  faults?: readonly FaultRuleInput[];
}

export interface RunningMockSeller {
  /** Base URL, e.g. http://127.0.0.1:40123 (the seller endpoint is `${url}/seller`). */
  url: string;
  port: number;
  seller: MockSeller;
  close(): Promise<void>;
}

/**
 * Starts a mock seller on a port (0 = any free one): an honest seller system built from a
 * scenario, faulty on demand (`faults`, the control API at `/__admin`). Its seller endpoint is
 * `${url}/seller`, its provider-state callback `${url}/__admin/provider-state`. close() also
 * drops hanging and keep-alive connections.
 *
 * @throws ScenarioError when the scenario is not one (naming the field at fault).
 */
export async function startMockSeller(options: StartOptions = {}): Promise<RunningMockSeller> {
  const { scenario = DEFAULT_SCENARIO_PATH, port = 0, host = '127.0.0.1', faults = [], ...rest } = options;
  const seller = createMockSeller(typeof scenario === 'string' ? await readScenarioFile(scenario) : scenario, rest);
  for (const rule of faults) seller.faults.add(rule);
  // Hanging requests and waiting latencies are let go before the server waits for them.
  const { url, port: bound, close } = await listen(seller.app.fetch, { port, host });
  return {
    url,
    port: bound,
    seller,
    close() {
      seller.close();
      return close();
    },
  };
}

export interface PactReplayStartOptions {
  /** A pact document, or the path of a pact file. */
  pact: PactDocument | string;
  /** 0 picks a free port; the real one is reported. */
  port?: number;
  host?: string;
  /** Called with the description of the interaction that answered each request. */
  onMatch?: (description: string) => void;
}

export interface RunningPactReplay {
  url: string;
  port: number;
  /** How many interactions the replay answers (those with a JSON request body to match on). */
  interactions: number;
  close(): Promise<void>;
}

/**
 * Serves exactly a pact's interactions instead of a scenario (`--pact`): each example
 * request gets its example reply; anything else a 404 listing what the pact offers.
 */
export async function startPactReplay(options: PactReplayStartOptions): Promise<RunningPactReplay> {
  const { pact, port = 0, host = '127.0.0.1', onMatch } = options;
  const source = typeof pact === 'string' ? pact : 'the pact';
  let document: PactDocument;
  try {
    document = typeof pact === 'string' ? readPact(pact) : pact;
  } catch (error) {
    throw new Error(`cannot read ${source}: ${(error as Error).message}`, { cause: error });
  }
  if (!Array.isArray(document?.interactions)) throw new Error(`${source} is not a pact: it has no interactions list`);
  const app = createPactReplay(document, { onMatch });
  const offered = (await (await app.request('/__replay/interactions')).json()) as { interactions: unknown[] };
  if (offered.interactions.length === 0)
    throw new Error(`${source} has no interaction with a JSON request body to replay`);
  const { url, port: bound, close } = await listen(app.fetch, { port, host });
  return { url, port: bound, close, interactions: offered.interactions.length };
}
