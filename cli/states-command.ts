import { integerArg, strictArgs, usageFailure, UsageError } from './command-line';
import type { RunningStateServer } from '../verification/states/start-state-server';
import { kitErrorExit } from './kit-error-exit';
import type { StateEvent } from '../verification/states/state-handlers';
import type { CommandIo } from './command-io';
import { writePidFile } from './pid-file';

// `states`: the kit's provider-state endpoint on its own, for any Pact verifier (the Rust
// CLI, pact-jvm, PactNet): it answers each state change from the vendor's state map with the
// flat JSON object of values every verifier injects, so no vendor writes a state server.

export const STATES_USAGE = `Usage: states --state-map <file> [options]
       states --template > state-map.json

  --template          print a state map to start from: every state and its parameters,
                      each "<your …>" value to replace (verify refuses the map until then)
  --state-map <file>  your state map (state → your values), checked as verify checks it
  --port <n>          port to listen on (default 0: any free port, printed on stdout)
  --host <h>          address to listen on (default 127.0.0.1)
  --pid-file <file>   write this process's id there once listening (removed at exit): in a
                      script, stop it with kill -INT "$(cat <file>)"
  --help              this text

Point your verifier's provider-state URL at the printed URL (any path): the Rust CLI's
--state-change-url, pact-jvm's stateChangeUrl (Gradle/Maven plugin), PactNet's
WithProviderStateUrl. Each POST {"state", "params", "action"} (JSON body)
is answered 200 with your values for that state (a teardown with {}); a state your map
does not name is answered with your defaults, so the pact's example values stay in the
request for its other parameters. Every state change is printed on stderr.

Runs until SIGINT/SIGTERM. Exit 0: every state change was answered; 1: at least one was
refused (a request that is not a state change); 2: bad usage, an unreadable or invalid
state map, or the port is in use.
`;

export async function statesCommand(argv: string[], io: CommandIo): Promise<number> {
  let values;
  let port: number;
  try {
    values = strictArgs(argv, {
      'state-map': { type: 'string' },
      template: { type: 'boolean', default: false },
      port: { type: 'string', default: '0' },
      host: { type: 'string', default: '127.0.0.1' },
      'pid-file': { type: 'string' },
      help: { type: 'boolean', default: false },
    });
    if (values.help) {
      io.stdout(STATES_USAGE);
      return 0;
    }
    if (values.template) {
      if (values['state-map'] !== undefined) throw new UsageError('--template or --state-map, not both');
      const { stateMapTemplate } = await import('../verification/states/state-map');
      io.stdout(`${JSON.stringify(stateMapTemplate(), null, 2)}\n`);
      return 0;
    }
    if (values['state-map'] === undefined) throw new UsageError('--state-map is required (or --template to start one)');
    port = integerArg('--port', values.port, 0, 65_535);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return usageFailure('states', error, io);
  }

  // Loaded once the flags are right: Hono and the state map's validator are most of the start-up.
  const { startStateServer } = await import('../verification/states/start-state-server');
  let failures = 0;
  const onStateChange = (event: StateEvent) => {
    if (event.error !== undefined) failures++;
    const answer = event.error !== undefined ? `refused: ${event.error}` : JSON.stringify(event.injected ?? {});
    io.stderr(`states: ${event.action} '${event.state}' → ${answer}\n`);
  };
  let server: RunningStateServer;
  try {
    server = await startStateServer({ stateMap: values['state-map'], port, host: values.host, onStateChange });
  } catch (error) {
    return kitErrorExit('states', error, io);
  }
  const removePidFile = writePidFile(values['pid-file']);
  io.stdout(
    `states: listening on ${server.url}, answering from ${values['state-map']} (point your verifier's state-change URL here)\n`,
  );

  await new Promise<void>((resolve) => {
    if (io.signal.aborted) resolve();
    else io.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  io.stderr(`states: ${String(io.signal.reason ?? 'stop')}, closing\n`);
  await server.close();
  removePidFile();
  return failures === 0 ? 0 : 1;
}
