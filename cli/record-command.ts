import { existsSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { dirname, resolve } from 'node:path';
import { httpUrlArg, integerArg, strictArgs, UsageError } from './command-line';
import { ScenarioError } from '../mock-seller/index';
import { localDate } from '../mock-seller/route-time-shift';
import { checkScenario } from '../mock-seller/scenario-file';
import type { CommandIo } from './command-io';
import { createRecordingProxy, type RecordedExchange } from '../mock-seller/record/recording-proxy';
import { createRecordingLearner, NOT_JSON, type LeftOutExchange } from '../mock-seller/record/recording-learner';
import { listen, type Listening } from '../shared/http/listen';

// `record`: a pass-through proxy in front of a real seller that learns a mock-seller
// scenario from the exchanges and writes it when stopped (SIGINT/SIGTERM). An npm script
// today (scripts/record.ts), a subcommand of an installable CLI tomorrow: all process
// access goes through `io`, and the exit code is returned, never process.exit()ed.
// Exit codes: 0 written, 1 failed (port in use, upstream unreachable, nothing learned,
// cannot write), 2 usage.

export const RECORD_USAGE = `Usage: record --upstream <seller url> --out <scenario file> [--port <n>] [--host <h>] [--name <scenario name>]

Sits in front of a seller system, passes every exchange through, and learns a mock-seller
scenario from the answers: members, locations (type, route times), parts with prices and
stock, related parts, the stock orders needed, accounts with invoices and statements.
Point the gateway (or any client) at http://<host>:<port>/seller instead of the seller.
Stop it with Ctrl-C (SIGINT) or SIGTERM: the scenario learned so far is written to --out
(valid, deduplicated, sorted), ready for: npm run mock-seller -- --scenario <file>

  --upstream <url>   the seller endpoint to record, e.g. http://127.0.0.1:9090/seller
  --out <file>       where the scenario goes (overwritten when the recording stops)
  --port <n>         port to listen on (default 0: any free port, printed)
  --host <h>         address to listen on (default 127.0.0.1)
  --name <name>      the scenario's name (default "recorded")
  -h, --help         this text

Exit status: 0 scenario written, 1 failure (port in use, upstream unreachable, nothing
learned, cannot write), 2 wrong usage. Progress goes to stderr.
`;

/** Whether a TCP connection to the upstream's host and port opens within `timeoutMs`. */
function reachable(url: URL, timeoutMs = 3_000): Promise<string | undefined> {
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  return new Promise((done) => {
    const socket = connect({ host: url.hostname.replace(/^\[|\]$/g, ''), port });
    const finish = (problem?: string) => {
      socket.destroy();
      done(problem);
    };
    socket.setTimeout(timeoutMs, () => finish(`no connection within ${timeoutMs} ms`));
    socket.once('connect', () => finish());
    socket.once('error', (error: NodeJS.ErrnoException) => finish(error.code ?? error.message));
  });
}

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return NOT_JSON;
  }
};

const describeLeftOut = (l: LeftOutExchange) => `#${l.exchange} ${l.service ?? '(no service)'}: ${l.why}`;

export async function recordCommand(argv: string[], io: CommandIo): Promise<number> {
  const say = (line: string) => io.stderr(`record: ${line}\n`);
  let values;
  try {
    values = strictArgs(argv, {
      upstream: { type: 'string' },
      out: { type: 'string' },
      port: { type: 'string', default: '0' },
      host: { type: 'string', default: '127.0.0.1' },
      name: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    });
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    say(error.message);
    io.stderr(RECORD_USAGE);
    return 2;
  }
  if (values.help) {
    io.stdout(RECORD_USAGE);
    return 0;
  }
  const usage = (problem: string) => {
    say(problem);
    io.stderr(`Try 'record --help'.\n`);
    return 2;
  };
  if (values.upstream === undefined) return usage('--upstream <seller url> is required');
  if (values.out === undefined) return usage('--out <scenario file> is required');
  let upstream: URL;
  let port: number;
  try {
    upstream = new URL(httpUrlArg('--upstream', values.upstream));
    port = integerArg('--port', values.port, 0, 65_535);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return usage(error.message);
  }
  const out = resolve(values.out);
  if (!existsSync(dirname(out))) return usage(`--out: the folder ${dirname(out)} does not exist`);

  const problem = await reachable(upstream);
  if (problem !== undefined) {
    say(`cannot reach the upstream seller at ${upstream.href}: ${problem}`);
    return 1;
  }

  const recordedOn = localDate();
  const learner = createRecordingLearner({ name: values.name, recordedOn, description: `Recorded from ${upstream.href} on ${recordedOn} by npm run record` });
  let exchanges = 0;
  const onExchange = (exchange: RecordedExchange) => {
    exchanges++;
    const request = parseJson(exchange.requestText);
    const outcome = learner.learn(exchanges, request, exchange.http_status, exchange.http_status === null ? null : parseJson(exchange.replyText));
    const service = (request as { service?: unknown } | null)?.service;
    const { parts, locations, accounts } = learner.counts();
    say(
      `#${exchanges} ${typeof service === 'string' ? service : '(no service)'} → ${exchange.http_status ?? `no answer (${exchange.error})`} in ${exchange.elapsed_ms} ms; ` +
        `known: ${parts} parts, ${locations} locations, ${accounts} accounts`,
    );
    // Said as it happens, so the one sending requests sees which one the scenario will lack.
    if (outcome.kind === 'left-out') say(`  left out ${describeLeftOut(outcome)}`);
  };

  let server: Listening;
  try {
    server = await listen(createRecordingProxy({ upstream: upstream.href, onExchange }).fetch, { port, host: values.host! });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    say(
      code === 'EADDRINUSE'
        ? `port ${port} on ${values.host} is in use: choose another with --port (0 picks a free one)`
        : `cannot listen on ${values.host}:${port}: ${(error as Error).message}`,
    );
    return 1;
  }
  say(`recording ${upstream.href} — send seller requests to ${server.url}${upstream.pathname}`);
  say(`Ctrl-C (SIGINT) or SIGTERM writes the scenario to ${out}`);

  const signal = await new Promise<string>((resolveStop) => {
    if (io.signal.aborted) resolveStop(String(io.signal.reason));
    else io.signal.addEventListener('abort', () => resolveStop(String(io.signal.reason)), { once: true });
  });
  await server.close();
  return writeLearned(signal);

  async function writeLearned(signalName: string): Promise<number> {
    const scenario = learner.scenario();
    const listLeftOut = () => {
      if (learner.leftOut.length === 0) return;
      say(`  left out ${learner.leftOut.length} exchange(s) the recording could not learn from:`);
      for (const l of learner.leftOut) io.stderr(`    ${describeLeftOut(l)}\n`);
    };
    if (scenario === undefined) {
      listLeftOut();
      say(
        `${signalName}: stopped after ${exchanges} exchange(s); nothing was learned (no successful seller answer showed a location, and a scenario needs one), so ${out} was not written`,
      );
      return 1;
    }
    // Checked as written (JSON has no Infinity): the learner left out what would break it, so this is the last guard.
    const text = `${JSON.stringify(scenario, null, 2)}\n`;
    try {
      checkScenario(JSON.parse(text), 'the learned scenario');
    } catch (error) {
      say(`${signalName}: the learned scenario is not valid, ${out} was not written: ${(error as Error).message}`);
      if (error instanceof ScenarioError) for (const issue of error.issues) io.stderr(`  ${issue.path || '/'}: ${issue.message}\n`);
      return 1;
    }
    try {
      // Written beside the target and renamed: a reader never sees half a scenario.
      const temporary = `${out}.${process.pid}.tmp`;
      await writeFile(temporary, text);
      await rename(temporary, out);
    } catch (error) {
      say(`${signalName}: cannot write ${out}: ${(error as Error).message}`);
      return 1;
    }
    const { parts, locations, accounts } = learner.counts();
    say(`${signalName}: wrote the scenario learned so far to ${out} — ${exchanges} exchange(s), ${parts} parts, ${locations} locations, ${accounts} accounts`);
    listLeftOut();
    for (const [field, times] of learner.dropped) say(`  not kept (the scenario has no place for it): ${field} (${times}×)`);
    return 0;
  }
}
