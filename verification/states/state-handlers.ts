import { request } from 'undici';
import type { StateHandlers } from '@pact-foundation/pact/src/dsl/verifier/proxy/types';
import { valuesFor, type StateMapFile } from './state-map';

// Provider-state callbacks for the Pact verifier, from one of three sources: a seller's own
// callback URL (the mock seller's /__admin/provider-state, or a vendor's), a vendor's
// state map, or nothing (the data is already there). Each answers with values to inject,
// exactly as a standard verifier takes them: the callback's JSON object, as it is.

export type StateAction = 'setup' | 'teardown';
export type { StateHandlers };
export type InjectedValues = Record<string, unknown>;

export interface StateCall {
  state: string;
  params: Record<string, unknown>;
  action: StateAction;
}

export type StateSource = (call: StateCall) => Promise<InjectedValues | undefined>;

export class StateSetupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StateSetupError';
  }
}

/** POSTs `{state, params, action}` to a seller's callback; a JSON object answer is the map of values to inject. */
export function remoteStateSource(url: string, headers: Record<string, string> = {}): StateSource {
  return async ({ state, params, action }) => {
    let status: number;
    let text: string;
    try {
      const response = await request(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ state, params, action }),
      });
      status = response.statusCode;
      text = await response.body.text();
    } catch (error) {
      throw new StateSetupError(`state callback ${url} could not be reached: ${(error as Error).message}`);
    }
    if (status < 200 || status > 299)
      throw new StateSetupError(
        `state callback answered HTTP ${status} for ${action} of '${state}': ${text.slice(0, 500)}`,
      );
    if (action === 'teardown' || text.trim() === '') return undefined;
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new StateSetupError(
        `state callback answered a body that is not JSON for '${state}': ${text.slice(0, 200)}`,
      );
    }
    return body === null || typeof body !== 'object' || Array.isArray(body) ? undefined : (body as InjectedValues);
  };
}

/** Answers from the vendor's state map: nothing is set up, the vendor's values are injected. */
export function stateMapSource(map: StateMapFile): StateSource {
  return async ({ state, action }) => (action === 'setup' ? valuesFor(map, state) : undefined);
}

/** The data is in place already: nothing to call, the contract's examples are used. */
export const noStateSource: StateSource = async () => undefined;

export interface StateEvent extends StateCall {
  injected?: InjectedValues;
  error?: string;
}

/**
 * Pact-js state handlers for every state name, backed by `source`; a failure is reported through `onEvent`, not thrown.
 */
export function createStateHandlers(
  stateNames: readonly string[],
  source: StateSource,
  onEvent: (event: StateEvent) => void = () => {},
): StateHandlers {
  const run = (state: string, action: StateAction) => async (params?: unknown) => {
    const call: StateCall = { state, params: (params ?? {}) as Record<string, unknown>, action };
    try {
      const injected = await source(call);
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
