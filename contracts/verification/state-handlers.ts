import { request } from 'undici';
import type { StateHandlers } from '@pact-foundation/pact/src/dsl/verifier/proxy/types';
import { injectionKey } from '../pact/provider-states';
import { valuesFor, type StateMapFile } from './state-map';

// Provider-state callbacks for the Pact verifier, from one of three sources: a seller's own
// callback URL (the mock seller's /__admin/provider-state, or a vendor's), a vendor's
// state map, or nothing (the data is already there). Each answers with values to inject.

export type StateAction = 'setup' | 'teardown';
export type { StateHandlers };
export type InjectedValues = Record<string, unknown>;

export interface StateCall {
  state: string;
  params: Record<string, unknown>;
  action: StateAction;
  /** 1-based position of this state among the interaction's states. */
  position: number;
  /** 1-based count of this state name so far in the interaction. */
  occurrence: number;
}

export type StateSource = (call: StateCall) => Promise<InjectedValues | undefined>;

export class StateSetupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StateSetupError';
  }
}

/**
 * POSTs `{state, params, action}` to a seller's callback. A JSON object answer is the map
 * of values to inject; when it has a `params` object (the mock seller's answer), that.
 */
export function remoteStateSource(url: string, headers: Record<string, string> = {}): StateSource {
  return async ({ state, params, action }) => {
    let status: number;
    let text: string;
    try {
      const response = await request(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ state, params, action }) });
      status = response.statusCode;
      text = await response.body.text();
    } catch (error) {
      throw new StateSetupError(`state callback ${url} could not be reached: ${(error as Error).message}`);
    }
    if (status < 200 || status > 299) throw new StateSetupError(`state callback answered HTTP ${status} for ${action} of '${state}': ${text.slice(0, 500)}`);
    if (action === 'teardown' || text.trim() === '') return undefined;
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new StateSetupError(`state callback answered a body that is not JSON for '${state}': ${text.slice(0, 200)}`);
    }
    if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
    const inner = (body as { params?: unknown }).params;
    return inner !== null && typeof inner === 'object' && !Array.isArray(inner) ? (inner as InjectedValues) : (body as InjectedValues);
  };
}

/** Answers from the vendor's state map: nothing is set up, the vendor's values are injected. */
export function stateMapSource(map: StateMapFile): StateSource {
  return async ({ state, action, occurrence }) => (action === 'setup' ? valuesFor(map, state, occurrence) : undefined);
}

/** The data is in place already: nothing to call, the contract's examples are used. */
export const noStateSource: StateSource = async () => undefined;

export interface StateEvent extends StateCall {
  injected?: InjectedValues;
  error?: string;
}

/**
 * Pact-js state handlers for every state name, backed by `source`. Tracks the position of each
 * state within its interaction (setups follow one another, teardowns end the interaction) and
 * suffixes injected keys by position, as the contract's expressions do (`${part_number_2}`).
 */
export function createStateHandlers(stateNames: readonly string[], source: StateSource, onEvent: (event: StateEvent) => void = () => {}): StateHandlers {
  let position = 0;
  let seen = new Map<string, number>();
  let lastAction: StateAction = 'teardown';

  const run = (state: string, action: StateAction) => async (params?: unknown) => {
    if (action === 'setup' && lastAction === 'teardown') {
      position = 0;
      seen = new Map();
    }
    lastAction = action;
    let call: StateCall;
    if (action === 'setup') {
      position += 1;
      seen.set(state, (seen.get(state) ?? 0) + 1);
      call = { state, params: (params ?? {}) as Record<string, unknown>, action, position, occurrence: seen.get(state)! };
    } else {
      call = { state, params: (params ?? {}) as Record<string, unknown>, action, position: 0, occurrence: 0 };
    }
    try {
      const values = await source(call);
      const injected = values === undefined ? undefined : Object.fromEntries(Object.entries(values).map(([k, v]) => [injectionKey(k, call.position), v]));
      onEvent({ ...call, injected });
      return injected as never;
    } catch (error) {
      // pact-js would only print it and go on; the report carries it to the vendor instead.
      onEvent({ ...call, error: (error as Error).message });
      return undefined as never;
    }
  };

  const handlers: StateHandlers = {};
  for (const name of stateNames) handlers[name] = { setup: run(name, 'setup'), teardown: run(name, 'teardown') };
  return handlers;
}
