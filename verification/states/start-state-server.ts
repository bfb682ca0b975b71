import { listen } from '../../shared/http/listen';
import { asInputError, KitInputError } from '../kit-errors';
import { wholeNumberOption } from '../option-checks';
import { createStateEndpoint } from './state-endpoint';
import { stateMapSource, type StateEvent } from './state-handlers';
import { checkStateMap, readStateMap, StateMapError, type StateMapFile } from './state-map';

// startStateServer: `states` as a function. The kit's provider-state endpoint on its own, for
// any Pact verifier (the Rust CLI, pact-jvm, PactNet, pact-js): each state change answered
// from the vendor's state map with the flat JSON object of values every verifier injects.

export interface StateServerOptions {
  /** Your state map (state → your values), as a file path or an object; checked as verify checks it. */
  stateMap: string | StateMapFile;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0: any free port (the bound one is in `url`). */
  port?: number;
  /** Told of every state change and how it was answered (`error` set when it was refused). */
  onStateChange?: (event: StateEvent) => void;
}

export interface RunningStateServer {
  /** e.g. http://127.0.0.1:40123: point your verifier's provider-state URL here (any path). */
  url: string;
  close(): Promise<void>;
}

function listenError(error: unknown, host: string, port: number): KitInputError {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE')
    return new KitInputError('port', `cannot listen on ${host}:${port}: the port is in use`, { cause: error });
  if (code === 'EADDRNOTAVAIL')
    return new KitInputError('host', `cannot listen on ${host}:${port}: no such address here`, { cause: error });
  return new KitInputError('port', `cannot listen on ${host}:${port}: ${(error as Error).message}`, { cause: error });
}

/**
 * Serves your state map to any Pact verifier's provider-state callback: POST {state, params,
 * action} is answered 200 with your values for that state (a teardown with {}).
 *
 * @throws KitInputError naming `stateMap` (unreadable or invalid), `port` (in use) or `host` (not here).
 */
export async function startStateServer(options: StateServerOptions): Promise<RunningStateServer> {
  const { stateMap, host = '127.0.0.1', onStateChange = () => {} } = options;
  const port = wholeNumberOption('port', options.port, 0, 65_535, 0);
  if (typeof host !== 'string' || host === '') throw new KitInputError('host', 'must be an address to listen on');
  const map = await asInputError(
    'stateMap',
    () => (typeof stateMap === 'string' ? readStateMap(stateMap) : checkStateMap(stateMap)),
    [StateMapError],
  );
  try {
    const server = await listen(createStateEndpoint(stateMapSource(map), onStateChange).fetch, { port, host });
    return { url: server.url, close: () => server.close() };
  } catch (error) {
    throw listenError(error, host, port);
  }
}
