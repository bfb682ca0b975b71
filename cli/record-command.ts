import { rename, writeFile } from 'node:fs/promises';
import { usageFailure, UsageError } from './command-line';
import { probeTcp } from '../shared/http/upstream-probe';
import { checkRecordFlags, parseRecordFlags, RECORD_USAGE, type RecordOptions } from './record-options';
import { ScenarioError } from '../mock-seller/index';
import { localDate } from '../mock-seller/route-time-shift';
import { checkScenario } from '../mock-seller/scenario-file';
import type { CommandIo } from './command-io';
import { createRecordingProxy, type RecordedExchange } from '../mock-seller/record/recording-proxy';
import {
  createRecordingLearner,
  NOT_JSON,
  type LeftOutExchange,
  type RecordingLearner,
} from '../mock-seller/record/recording-learner';
import { listen, type Listening } from '../shared/http/listen';

// `record`: a pass-through proxy in front of a real seller that learns a mock-seller
// scenario from the exchanges and writes it when stopped (SIGINT/SIGTERM). An npm script
// today (scripts/record.ts), a subcommand of an installable CLI tomorrow: all process
// access goes through `io`, and the exit code is returned, never process.exit()ed.
// Exit codes: 0 written, 1 failed (port in use, upstream unreachable, nothing learned,
// cannot write), 2 usage.

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return NOT_JSON;
  }
};

const describeLeftOut = (l: LeftOutExchange) => `#${l.exchange} ${l.service ?? '(no service)'}: ${l.why}`;

export { RECORD_USAGE } from './record-options';

type Say = (line: string) => void;

export async function recordCommand(argv: string[], io: CommandIo): Promise<number> {
  const say: Say = (line) => io.stderr(`record: ${line}\n`);
  const options = readOptions(argv, io);
  if (typeof options === 'number') return options;
  const unreachable = await probeTcp(options.upstream);
  if (unreachable !== undefined) {
    const why = unreachable.kind === 'timeout' ? `no connection within ${unreachable.timeoutMs} ms` : unreachable.code;
    say(`cannot reach the upstream seller at ${options.upstream.href}: ${why}`);
    return 1;
  }
  const recording = startRecording(options, say);
  const server = await listenOrSay(recording, options, say);
  if (server === undefined) return 1;
  say(`recording ${options.upstream.href} — send seller requests to ${server.url}${options.upstream.pathname}`);
  say(`Ctrl-C (SIGINT) or SIGTERM writes the scenario to ${options.out}`);
  const signalName = await stopSignal(io.signal);
  await server.close();
  return writeLearned(recording, options.out, signalName, io, say);
}

/** The options, or the exit code once --help or a usage error has been answered. */
function readOptions(argv: string[], io: CommandIo): RecordOptions | number {
  let flags;
  try {
    flags = parseRecordFlags(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return usageFailure('record', error, io);
  }
  if (flags.help) {
    io.stdout(RECORD_USAGE);
    return 0;
  }
  try {
    return checkRecordFlags(flags);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return usageFailure('record', error, io);
  }
}

/** The learner fed by every exchange through the proxy, and how many there were. */
interface Recording {
  learner: RecordingLearner;
  exchanges(): number;
  onExchange(exchange: RecordedExchange): void;
}

function startRecording(options: RecordOptions, say: Say): Recording {
  const recordedOn = localDate();
  const learner = createRecordingLearner({
    name: options.name,
    recordedOn,
    description: `Recorded from ${options.upstream.href} on ${recordedOn} by npm run record`,
  });
  let exchanges = 0;
  const onExchange = (exchange: RecordedExchange) => {
    exchanges++;
    const request = parseJson(exchange.requestText);
    const outcome = learner.learn(
      exchanges,
      request,
      exchange.http_status,
      exchange.http_status === null ? null : parseJson(exchange.replyText),
    );
    const service = (request as { service?: unknown } | null)?.service;
    const { parts, locations, accounts } = learner.counts();
    say(
      `#${exchanges} ${typeof service === 'string' ? service : '(no service)'} → ${exchange.http_status ?? `no answer (${exchange.error})`} in ${exchange.elapsed_ms} ms; ` +
        `known: ${parts} parts, ${locations} locations, ${accounts} accounts`,
    );
    // Said as it happens, so the one sending requests sees which one the scenario will lack.
    if (outcome.kind === 'left-out') say(`  left out ${describeLeftOut(outcome)}`);
  };
  return { learner, exchanges: () => exchanges, onExchange };
}

/** The recording proxy listening, or undefined once the reason it cannot is said. */
async function listenOrSay(recording: Recording, options: RecordOptions, say: Say): Promise<Listening | undefined> {
  const { port, host } = options;
  try {
    return await listen(
      createRecordingProxy({ upstream: options.upstream.href, onExchange: recording.onExchange }).fetch,
      { port, host },
    );
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    say(
      code === 'EADDRINUSE'
        ? `port ${port} on ${host} is in use: choose another with --port (0 picks a free one)`
        : `cannot listen on ${host}:${port}: ${(error as Error).message}`,
    );
    return undefined;
  }
}

/** The name of the signal that stops the recording (SIGINT, SIGTERM). */
function stopSignal(signal: AbortSignal): Promise<string> {
  return new Promise<string>((resolveStop) => {
    if (signal.aborted) resolveStop(String(signal.reason));
    else signal.addEventListener('abort', () => resolveStop(String(signal.reason)), { once: true });
  });
}

/** Writes the scenario learned so far to `out`: 0 written, 1 nothing learned, not valid or not writable. */
async function writeLearned(
  { learner, exchanges }: Recording,
  out: string,
  signalName: string,
  io: CommandIo,
  say: Say,
): Promise<number> {
  const scenario = learner.scenario();
  const listLeftOut = () => {
    if (learner.leftOut.length === 0) return;
    say(`  left out ${learner.leftOut.length} exchange(s) the recording could not learn from:`);
    for (const l of learner.leftOut) io.stderr(`    ${describeLeftOut(l)}\n`);
  };
  if (scenario === undefined) {
    listLeftOut();
    say(
      `${signalName}: stopped after ${exchanges()} exchange(s); nothing was learned (no successful seller answer showed a location, and a scenario needs one), so ${out} was not written`,
    );
    return 1;
  }
  // Checked as written (JSON has no Infinity): the learner left out what would break it, so this is the last guard.
  const text = `${JSON.stringify(scenario, null, 2)}\n`;
  try {
    checkScenario(JSON.parse(text), 'the learned scenario');
  } catch (error) {
    say(`${signalName}: the learned scenario is not valid, ${out} was not written: ${(error as Error).message}`);
    if (error instanceof ScenarioError)
      for (const issue of error.issues) io.stderr(`  ${issue.path || '/'}: ${issue.message}\n`);
    return 1;
  }
  const unwritten = await writeAtomically(out, text);
  if (unwritten !== undefined) {
    say(`${signalName}: cannot write ${out}: ${unwritten}`);
    return 1;
  }
  const { parts, locations, accounts } = learner.counts();
  say(
    `${signalName}: wrote the scenario learned so far to ${out} — ${exchanges()} exchange(s), ${parts} parts, ${locations} locations, ${accounts} accounts`,
  );
  listLeftOut();
  for (const [field, times] of learner.dropped)
    say(`  not kept (the scenario has no place for it): ${field} (${times}×)`);
  return 0;
}

/** Written beside the target and renamed: a reader never sees half a scenario. Why it failed, if it did. */
async function writeAtomically(out: string, text: string): Promise<string | undefined> {
  try {
    const temporary = `${out}.${process.pid}.tmp`;
    await writeFile(temporary, text);
    await rename(temporary, out);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}
